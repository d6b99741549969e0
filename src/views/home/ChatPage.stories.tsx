import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { ChatPage } from './ChatPage';

const meta = {
  title: 'Home/ChatPage',
  component: ChatPage,
  args: { chatLink: 'https://chat.example.com/#/' },
  parameters: { route: '/chat' },
} satisfies Meta<typeof ChatPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The session's chat_link, framed. */
export const WithChatLink: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTitle('聊天')).toHaveAttribute('src', 'https://chat.example.com/#/');
  },
};

/** Opened by address with no chat_link configured. */
export const WithoutChatLink: Story = {
  args: { chatLink: '' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('未配置聊天页面')).toBeVisible();
  },
};
