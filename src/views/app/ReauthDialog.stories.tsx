import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen } from 'storybook/test';
import { ReauthDialog } from './ReauthDialog';
import { SessionStory, seedSession, storyUsers } from './stories/SessionStory';

/* The sign-in dialog container, one story per session state (frozen snapshots; nothing runs). */

const meta = {
  title: 'App/ReauthDialog',
  component: ReauthDialog,
} satisfies Meta<typeof ReauthDialog>;
export default meta;
type Story = StoryObj<typeof meta>;

/** `reauthenticating`: the dialog is open for the kept user. */
export const Reauthenticating: Story = {
  render: () => (
    <SessionStory snapshot={seedSession({ user: storyUsers.common, auth: 'reauthenticating', reauth: { username: 'alice', error: null } })}>
      <ReauthDialog />
    </SessionStory>
  ),
  play: async () => {
    await screen.findByRole('alertdialog', { name: '登录已过期' });
    await expect(screen.getByLabelText('用户名')).toHaveValue('alice');
  },
};

/** `reauthenticating` after a refusal: the message at the password. */
export const Refused: Story = {
  render: () => (
    <SessionStory
      snapshot={seedSession({
        user: storyUsers.common,
        auth: 'reauthenticating',
        reauth: { username: 'alice', error: { text: '用户名或密码错误，或用户已被封禁' } },
      })}
    >
      <ReauthDialog />
    </SessionStory>
  ),
  play: async () => {
    await screen.findByText('用户名或密码错误，或用户已被封禁');
  },
};

/** `reauthSigningIn`: the spinner. */
export const SigningIn: Story = {
  render: () => (
    <SessionStory snapshot={seedSession({ user: storyUsers.common, auth: 'reauthSigningIn', reauth: { username: 'alice', error: null } })}>
      <ReauthDialog />
    </SessionStory>
  ),
  play: async () => {
    await screen.findByRole('alertdialog', { name: '登录已过期' });
    await expect(screen.getByRole('button', { name: '取消' })).toBeDisabled();
  },
};
