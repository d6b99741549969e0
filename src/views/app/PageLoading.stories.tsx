import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { PageLoading } from './PageLoading';

const meta = { title: 'App/PageLoading', component: PageLoading } satisfies Meta<typeof PageLoading>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The default subject: '加载页面中...'. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('加载页面中...');
  },
};

/** A named page. */
export const LoginPage: Story = {
  args: { page: 'shell.page.login' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('加载登录页面中...');
  },
};

export const English: Story = {
  args: { page: 'shell.page.login' },
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Loading login page...');
  },
};
