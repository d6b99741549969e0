import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, waitFor } from 'storybook/test';
import { ReauthDialogView } from './ReauthDialogView';

const meta = {
  title: 'App/ReauthDialogView',
  component: ReauthDialogView,
  args: {
    open: true,
    username: 'alice',
    error: null,
    signingIn: false,
    onSubmit: fn(),
    onCancel: fn(),
    onOtherUser: fn(),
  },
} satisfies Meta<typeof ReauthDialogView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Open: the user name read-only, the focus in the password box. */
export const Open: Story = {
  play: async () => {
    const dialog = await screen.findByRole('alertdialog', { name: '登录已过期' });
    await expect(dialog).toBeVisible();
    await expect(screen.getByLabelText('用户名')).toHaveValue('alice');
    await expect(screen.getByLabelText('用户名')).toHaveAttribute('readonly');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('密码')));
  },
};

/** Signing in: the spinner, nothing else can be sent. */
export const SigningIn: Story = {
  args: { signingIn: true },
  play: async () => {
    await screen.findByRole('alertdialog', { name: '登录已过期' });
    await expect(screen.getByRole('button', { name: '取消' })).toBeDisabled();
    await expect(screen.getByLabelText('密码')).toBeDisabled();
  },
};

/** Refused: the server's message inline at the password. */
export const Refused: Story = {
  args: { error: { text: '用户名或密码错误，或用户已被封禁' } },
  play: async () => {
    await screen.findByRole('alertdialog', { name: '登录已过期' });
    await expect(screen.getByText('用户名或密码错误，或用户已被封禁')).toBeVisible();
  },
};

/** Typing the password and signing in sends it; Escape cancels; the link asks for the full login. */
export const OpenInteraction: Story = {
  tags: ['interaction'],
  play: async ({ args }) => {
    await screen.findByRole('alertdialog', { name: '登录已过期' });
    await userEvent.type(screen.getByLabelText('密码'), 'secret123');
    await userEvent.click(screen.getByRole('button', { name: /^登录$/ }));
    await expect(args.onSubmit).toHaveBeenCalledWith('secret123');
    await userEvent.click(screen.getByRole('button', { name: '以其他用户登录' }));
    await expect(args.onOtherUser).toHaveBeenCalledTimes(1);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(args.onCancel).toHaveBeenCalled());
  },
};
