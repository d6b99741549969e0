import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { ChatPage } from './ChatPage';

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Home/ChatPage',
  // Every state here is one ChatPageView's stories show: no docs page of its own.
  tags: ['!autodocs'],
  component: ChatPage,
  args: { chatLink: 'https://chat.example.com/#/' },
  parameters: { route: '/chat' },
} satisfies Meta<typeof ChatPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The session's chat_link, framed. */
export const WithChatLink: Story = {
  tags: ['!dev', '!autodocs'],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTitle('聊天')).toHaveAttribute('src', 'https://chat.example.com/#/');
  },
};

/** Opened by address with no chat_link configured. */
export const WithoutChatLink: Story = {
  tags: ['!dev', '!autodocs'],
  args: { chatLink: '' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('未配置聊天页面')).toBeVisible();
  },
};
