import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import {
  passwordResetConfirmMachine,
  type ConfirmPasswordResetInput,
  type CopyTextInput,
  type PasswordResetConfirmContext,
} from '../../machines/passwordResetConfirm';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { PasswordResetConfirmPage } from './PasswordResetConfirmPage';

const email = 'alice@example.com';
const token = '0123456789abcdef0123456789abcdef';
const route = `/user/reset?email=${email}&token=${token}`;
const newPassword = '3f9a0c1d2e4b';

const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };

type Confirm = ReturnType<typeof fromPromise<string, ConfirmPasswordResetInput>>;
type Copy = ReturnType<typeof fromPromise<void, CopyTextInput>>;
const machineWith = (confirmPasswordReset: Confirm, copyText: Copy) =>
  passwordResetConfirmMachine.provide({ actors: { confirmPasswordReset, copyText } });
const answers = fromPromise<string, ConfirmPasswordResetInput>(() => Promise.resolve(newPassword));
const expired = fromPromise<string, ConfirmPasswordResetInput>(async () => {
  await Promise.resolve();
  throw failure('confirmPasswordReset', '重置链接非法或已过期');
});
const pendingConfirm = fromPromise<string, ConfirmPasswordResetInput>(() => new Promise<string>(() => undefined));
const copies = fromPromise<void, CopyTextInput>(() => Promise.resolve());
const copyRefused = fromPromise<void, CopyTextInput>(async () => {
  await Promise.resolve();
  throw new Error('cannot copy to clipboard');
});
const pendingCopy = fromPromise<void, CopyTextInput>(() => new Promise<void>(() => undefined));

const context = (over: Partial<PasswordResetConfirmContext> = {}): PasswordResetConfirmContext => ({
  email,
  token,
  password: null,
  copied: false,
  ...over,
});
const seed = (value: 'idle' | 'resetting' | 'copying' | 'done', over?: Partial<PasswordResetConfirmContext>) => ({
  [passwordResetConfirmMachine.id]: passwordResetConfirmMachine.resolveState({ value, context: context(over) }),
});

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Auth/PasswordResetConfirmPage',
  component: PasswordResetConfirmPage,
  parameters: { route },
} satisfies Meta<typeof PasswordResetConfirmPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** State `idle`. */
export const Idle: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith(answers, copies)]} snapshots={seed('idle')}>
        <PasswordResetConfirmPage />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await expect(c.getByLabelText('邮箱地址')).toHaveValue(email);
  },
};

/** State `resetting`: the button shows progress. */
export const Resetting: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <MachineRegistryProvider machines={[machineWith(pendingConfirm, pendingCopy)]} snapshots={seed('resetting')}>
      <PasswordResetConfirmPage />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button')).toBeDisabled();
  },
};

/** State `copying`: the password is already on show while the clipboard is written. */
export const Copying: Story = {
  render: () => (
    <MachineRegistryProvider machines={[machineWith(pendingConfirm, pendingCopy)]} snapshots={seed('copying', { password: newPassword })}>
      <PasswordResetConfirmPage />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('新密码')).toHaveValue(newPassword);
  },
};

/** State `done` (copied): the password box and the disabled 'password reset done' button. */
export const Done: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <MachineRegistryProvider
      machines={[machineWith(pendingConfirm, pendingCopy)]}
      snapshots={seed('done', { password: newPassword, copied: true })}
    >
      <PasswordResetConfirmPage />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('新密码')).toHaveValue(newPassword);
    await expect(c.getByRole('button', { name: '密码重置完成' })).toBeDisabled();
  },
};

/** State `done` after the clipboard refused: the password stays, with a copy-by-hand note. */
export const DoneCopyRefused: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <MachineRegistryProvider machines={[machineWith(pendingConfirm, pendingCopy)]} snapshots={seed('done', { password: newPassword })}>
      <PasswordResetConfirmPage />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('新密码')).toHaveValue(newPassword);
    await expect(c.getByText('新密码未能复制到剪贴板，请手动复制并妥善保存。')).toBeVisible();
  },
};

/** Opened without the token: nothing can be posted. */
export const IncompleteLink: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { route: `/user/reset?email=${email}` },
  render: () => (
    <MachineRegistryProvider machines={[machineWith(answers, copies)]}>
      <PasswordResetConfirmPage />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('重置链接不完整，请从邮件中重新打开链接。')).toBeVisible();
    await expect(c.getByRole('button', { name: '提交' })).toBeDisabled();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** State `idle`: the button posts; the new password appears, is copied, and the button is done. */
export const IdleInteraction: Story = {
  ...Idle,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await expect(c.getByLabelText('邮箱地址')).toHaveValue(email);
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(await c.findByLabelText('新密码')).toHaveValue(newPassword);
    await waitFor(() => expect(c.getByRole('button', { name: '密码重置完成' })).toBeDisabled());
    await expect(notify).toHaveBeenCalledWith({
      type: 'notify',
      level: 'success',
      message: { key: 'account.resetConfirm.copied' },
    });
  },
};

/** A live run where the clipboard refuses: a warning toast, the password stays on show. */
export const CopyRefusedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith(answers, copyRefused)]}>
        <PasswordResetConfirmPage />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(await c.findByText('新密码未能复制到剪贴板，请手动复制并妥善保存。')).toBeVisible();
    await expect(c.getByLabelText('新密码')).toHaveValue(newPassword);
    await expect(notify).toHaveBeenCalledWith({
      type: 'notify',
      level: 'warning',
      message: { key: 'account.resetConfirm.copyFailed' },
    });
  },
};

/** A live run with an expired link: the server's message, and the button works again. */
export const LinkExpiredInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith(expired, copies)]}>
        <PasswordResetConfirmPage />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const button = within(canvasElement).getByRole('button', { name: '提交' });
    await userEvent.click(button);
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: '重置链接非法或已过期' } }),
    );
    await waitFor(() => expect(button).toBeEnabled());
  },
};
