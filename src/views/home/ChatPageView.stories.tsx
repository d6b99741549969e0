import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { ChatPageView } from './ChatPageView';
import { FrameView } from './PageContentView';

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

/** The frame has not sent its load event yet: a spinner says the chat page is loading. */
export const FrameLoading: Story = {
  render: () => <FrameView url="about:blank" title="聊天" height="85vh" loading loadingPage="shell.page.chat" onLoad={() => {}} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('status')).toHaveTextContent('加载聊天页面中...');
    await expect(c.getByTitle('聊天').tagName).toBe('IFRAME');
  },
};

/** Once the frame has loaded, the spinner is gone. */
export const FrameLoaded: Story = {
  args: { chatLink: 'data:text/html,<p>chat</p>' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await waitFor(() => expect(c.queryByRole('status')).toBeNull());
    await expect(c.getByTitle('聊天')).toBeVisible();
  },
};
