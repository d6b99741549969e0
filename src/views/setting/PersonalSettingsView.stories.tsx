import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, within } from 'storybook/test';
import { PersonalSettingsView } from './PersonalSettingsView';

const meta = {
  title: 'Setting/PersonalSettingsView',
  component: PersonalSettingsView,
  args: {
    account: { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1, email: 'alice@example.com', github_id: '', wechat_id: '' },
    loadingAccount: false,
    generatingToken: false,
    copyingInvite: false,
    busy: false,
    shown: null,
    providers: { wechat: true, github: true, lark: true },
    launching: false,
    onGenerateToken: fn(),
    onCopyInvite: fn(),
    onDismissShown: fn(),
    onOAuthBind: fn(),
    selfDelete: {
      open: false,
      deleting: false,
      username: 'alice',
      confirmation: '',
      onOpen: fn(),
      onCancel: fn(),
      onConfirmationChange: fn(),
      onConfirm: fn(),
    },
    wechat: { open: false, binding: false, qrCodeUrl: '', onOpen: fn(), onCancel: fn(), onSubmit: fn() },
    email: {
      open: false,
      binding: false,
      email: '',
      code: '',
      sendingCode: false,
      canSendCode: true,
      codeSecondsLeft: 0,
      onOpen: fn(),
      onCancel: fn(),
      onChange: fn(),
      onSendCode: fn(),
      onSubmit: fn(),
    },
  },
} satisfies Meta<typeof PersonalSettingsView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Ready: Story = {
};
export const NoProviders: Story = {
  args: { providers: { wechat: false, github: false, lark: false } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).queryByRole('button', { name: '绑定 GitHub 账号' })).toBeNull();
    await expect(within(canvasElement).getByRole('button', { name: '绑定邮箱地址' })).toBeVisible();
  },
};
export const LoadingAccount: Story = { args: { account: null, loadingAccount: true } };
export const Generating: Story = { args: { generatingToken: true, busy: true } };
export const TokenShown: Story = {
  args: { shown: { kind: 'token', text: '0123456789abcdef0123456789abcdef' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('系统访问令牌')).toHaveValue('0123456789abcdef0123456789abcdef');
    await expect(c.getByLabelText('系统访问令牌')).toHaveAttribute('readonly');
  },
};
export const DeleteOpen: Story = {
  args: { selfDelete: { ...meta.args.selfDelete, open: true, confirmation: 'ali' } },
};
export const WeChatOpen: Story = {
  args: { wechat: { ...meta.args.wechat, open: true } },
};
export const EmailOpen: Story = {
  args: { email: { ...meta.args.email, open: true, email: 'alice@example.com', codeSecondsLeft: 12, canSendCode: false } },
  play: async () => {
    await expect(await screen.findByRole('button', { name: '重新发送 (12)' })).toBeDisabled();
  },
};
export const Narrow: Story = { globals: { viewport: { value: 'mobile1' } } };
export const Dark: Story = { parameters: { colorMode: 'dark' } };
export const English: Story = { parameters: { lang: 'en' } };

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

export const ReadyInteraction: Story = {
  ...Ready,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '生成系统访问令牌' }));
    await expect(args.onGenerateToken).toHaveBeenCalledTimes(1);
    await userEvent.click(c.getByRole('button', { name: '复制邀请链接' }));
    await expect(args.onCopyInvite).toHaveBeenCalledTimes(1);
    await userEvent.click(c.getByRole('button', { name: '绑定 GitHub 账号' }));
    await expect(args.onOAuthBind).toHaveBeenCalledWith('github');
    await userEvent.click(c.getByRole('button', { name: '绑定飞书账号' }));
    await expect(args.onOAuthBind).toHaveBeenCalledWith('lark');
    await expect(c.getByText('alice@example.com')).toBeVisible();
    await expect(c.getAllByText('未绑定')).toHaveLength(3);
    await userEvent.click(c.getByRole('button', { name: '删除个人账户' }));
    await expect(args.selfDelete.onOpen).toHaveBeenCalledTimes(1);
  },
};

export const TokenShownInteraction: Story = {
  ...TokenShown,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('系统访问令牌')).toHaveValue('0123456789abcdef0123456789abcdef');
    await expect(c.getByLabelText('系统访问令牌')).toHaveAttribute('readonly');
    await userEvent.click(c.getByRole('button', { name: '关闭' }));
    await expect(args.onDismissShown).toHaveBeenCalledTimes(1);
  },
};

export const DeleteOpenInteraction: Story = {
  ...DeleteOpen,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    const input = await screen.findByLabelText('输入你的账户名 alice 以确认删除');
    await userEvent.type(input, 'c');
    await expect(args.selfDelete.onConfirmationChange).toHaveBeenLastCalledWith('alic');
    await userEvent.click(screen.getByRole('button', { name: '确认删除' }));
    await expect(args.selfDelete.onConfirm).toHaveBeenCalledTimes(1);
  },
};

export const WeChatOpenInteraction: Story = {
  ...WeChatOpen,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    await userEvent.type(await screen.findByLabelText('验证码'), '123456');
    await userEvent.click(screen.getByRole('button', { name: '绑定' }));
    await expect(args.wechat.onSubmit).toHaveBeenCalledWith('123456');
  },
};

export const EmailOpenInteraction: Story = {
  ...EmailOpen,
  tags: ['interaction', '!autodocs'],
  play: async ({ args }) => {
    await expect(await screen.findByRole('button', { name: '重新发送 (12)' })).toBeDisabled();
    await userEvent.type(screen.getByLabelText('验证码'), '9');
    await expect(args.email.onChange).toHaveBeenLastCalledWith('code', '9');
    await userEvent.click(screen.getByRole('button', { name: '确认绑定' }));
    await expect(args.email.onSubmit).toHaveBeenCalledTimes(1);
  },
};
