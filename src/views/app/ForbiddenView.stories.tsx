import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { ForbiddenView } from './ForbiddenView';

const meta = {
  title: 'App/ForbiddenView',
  component: ForbiddenView,
  parameters: { route: '/channel' },
} satisfies Meta<typeof ForbiddenView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A common user on an admin route: the 403 page with a link home. */
export const Forbidden: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: '无权访问此页面' })).toBeVisible();
    await expect(c.getByRole('link', { name: '返回首页' })).toHaveAttribute('href', '/');
  },
};

export const ForbiddenEnglishDark: Story = {
  parameters: { lang: 'en', colorMode: 'dark' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: "You don't have access to this page" })).toBeVisible();
    await expect(c.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  },
};
