import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { OAuthButtonsView } from './OAuthButtonsView';
import { WeChatLoginDialogView } from './WeChatLoginDialogView';

const meta = {
  title: 'Auth/OAuthButtonsView',
  component: OAuthButtonsView,
  args: { github: true, lark: true, launching: null, onLaunch: fn() },
} satisfies Meta<typeof OAuthButtonsView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const GitHubAndLark: Story = {
};
export const GitHubOnly: Story = { args: { lark: false } };
export const LaunchingGitHub: Story = {
  args: { launching: 'github' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '使用 GitHub 登录' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '使用飞书登录' })).toBeDisabled();
  },
};
export const WithWeChat: Story = {
  args: {
    children: (
      <WeChatLoginDialogView
        open={false}
        submitting={false}
        error={null}
        qrCodeUrl=""
        onOpen={fn()}
        onClose={fn()}
        onSubmit={fn()}
      />
    ),
  },
};
export const English: Story = { parameters: { lang: 'en' } };

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

export const GitHubAndLarkInteraction: Story = {
  ...GitHubAndLark,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '使用 GitHub 登录' }));
    await expect(args.onLaunch).toHaveBeenCalledWith('github');
    await userEvent.click(c.getByRole('button', { name: '使用飞书登录' }));
    await expect(args.onLaunch).toHaveBeenCalledWith('lark');
  },
};
