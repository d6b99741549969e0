import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { NotFoundPage } from './NotFoundPage';

const meta = {
  title: 'Home/NotFoundPage',
  component: NotFoundPage,
  parameters: { route: '/no/such/page' },
} satisfies Meta<typeof NotFoundPage>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Chinese: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: '页面不存在' })).toBeVisible();
    await expect(c.getByText('请检查你的浏览器地址是否正确')).toBeVisible();
    await expect(c.getByRole('link', { name: '返回首页' })).toHaveAttribute('href', '/');
  },
};

export const English: Story = {
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  },
};
