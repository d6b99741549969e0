import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { ChatPageView } from './ChatPageView';

const meta = {
  title: 'Home/ChatPageView',
  component: ChatPageView,
  args: { chatLink: 'https://chat.example.com' },
} satisfies Meta<typeof ChatPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Configured: Story = {
  play: async ({ canvasElement }) => {
    const frame = within(canvasElement).getByTitle('聊天');
    await expect(frame.tagName).toBe('IFRAME');
    await expect(frame).toHaveAttribute('src', 'https://chat.example.com');
  },
};

export const NotConfigured: Story = {
  args: { chatLink: '' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: '未配置聊天页面' })).toBeVisible();
    await expect(c.getByText(/管理员尚未设置聊天链接/)).toBeVisible();
    await expect(canvasElement.querySelector('iframe')).toBeNull();
  },
};

export const NotConfiguredEnglish: Story = {
  args: { chatLink: '   ' },
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'No chat page is configured' })).toBeVisible();
  },
};
