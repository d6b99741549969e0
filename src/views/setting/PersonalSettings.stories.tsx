import { sendCooldownWith, senderReady, type SenderStatus } from '../../machines/sendCooldown';
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ReactNode } from 'react';
import { fromPromise, type AnyMachineSnapshot } from 'xstate';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { User } from '../../domain/user';
import {
  emailBindMachine,
  personalSettingsMachine,
  selfDeleteMachine,
  wechatBindMachine,
  type BindEmailInput,
  type BindWeChatInput,
  type CopyTextInput,
  type EmailBindContext,
  type PersonalSettingsContext,
  type SendBindCodeInput,
} from '../../machines/personalSettings';
import { oauthLaunchMachine } from '../../machines/oauthLaunch';
import { twoFactorSettingsMachine } from '../../machines/twoFactorSettings';
import type { RecoveryCodes, TwoFactorDisableBody, TwoFactorSetup, TwoFactorStatus } from '../../domain/twoFactor';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { SessionStory, seedSession, storyStatus, storyUsers } from '../app/stories/SessionStory';
import { PersonalSettings } from './PersonalSettings';
import { enterText } from '../app/stories/enterText';

const alice: User = { ...storyUsers.common, email: '', github_id: '', wechat_id: '', lark_id: '' };
const token = '0123456789abcdef0123456789abcdef';
const notify = fn<(e: NotifyEvent) => void>();
const copied = fn<(text: string) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };
const never = <T,>() => new Promise<T>(() => undefined);

let stored: User = alice;
const settingsWith = (copy: (text: string) => Promise<void>) =>
  personalSettingsMachine.provide({
    actors: {
      loadSelf: fromPromise<User>(() => Promise.resolve(stored)),
      generateAccessToken: fromPromise<string>(() => Promise.resolve(token)),
      fetchAffCode: fromPromise<string>(() => Promise.resolve('Ab3x')),
      copyText: fromPromise<void, CopyTextInput>(({ input }) => copy(input.text)),
    },
  });
const settingsLive = settingsWith((text) => {
  copied(text);
  return Promise.resolve();
});
const settingsNoClipboard = settingsWith(() => Promise.reject(new Error('Write permission denied.')));
const settingsFrozen = personalSettingsMachine.provide({
  actors: {
    loadSelf: fromPromise<User>(() => never<User>()),
    generateAccessToken: fromPromise<string>(() => never<string>()),
    fetchAffCode: fromPromise<string>(() => never<string>()),
    copyText: fromPromise<void, CopyTextInput>(() => never<void>()),
  },
});
const deleteLive = selfDeleteMachine.provide({ actors: { deleteSelf: fromPromise<void>(() => Promise.resolve()) } });
const deleteFrozen = selfDeleteMachine.provide({ actors: { deleteSelf: fromPromise<void>(() => never<void>()) } });
const wechatLive = wechatBindMachine.provide({
  actors: {
    bindWeChat: fromPromise<void, BindWeChatInput>(async ({ input }) => {
      await Promise.resolve();
      if (input.code !== '123456') throw failure('GET /api/oauth/wechat/bind', '验证码错误或已过期');
      stored = { ...stored, wechat_id: 'oWx-alice' };
    }),
  },
});
const wechatFrozen = wechatBindMachine.provide({ actors: { bindWeChat: fromPromise<void, BindWeChatInput>(() => never<void>()) } });
const emailLive = emailBindMachine.provide({
  actors: {
    sendVerificationCode: sendCooldownWith(fromPromise<void, SendBindCodeInput>(() => Promise.resolve())),
    bindEmail: fromPromise<void, BindEmailInput>(({ input }) => {
      stored = { ...stored, email: input.email };
      return Promise.resolve();
    }),
  },
});
const emailFrozen = emailBindMachine.provide({
  actors: {
    sendVerificationCode: sendCooldownWith(fromPromise<void, SendBindCodeInput>(() => never<void>())),
    bindEmail: fromPromise<void, BindEmailInput>(() => never<void>()),
  },
});
const oauthFrozen = oauthLaunchMachine.provide({
  actors: { fetchOAuthState: fromPromise<string>(() => never<string>()) },
  actions: { openWindow: () => undefined },
});

const frozenAll = [settingsFrozen, deleteFrozen, wechatFrozen, emailFrozen, oauthFrozen];
const liveAll = [settingsLive, deleteLive, wechatLive, emailLive, oauthFrozen];

const settingsState = (value: string, over: Partial<PersonalSettingsContext> = {}) =>
  personalSettingsMachine.resolveState({ value, context: { origin: 'http://localhost', user: alice, pending: '', shown: null, ...over } });
const deleteState = (value: string, confirmation = '') =>
  selfDeleteMachine.resolveState({ value, context: { username: 'alice', confirmation } });
const wechatState = (value: string) => wechatBindMachine.resolveState({ value });
/** The binding's dialog state, with its code sender's phase (and count) as the machine mirrors it. */
const emailState = (dialog: string, sender: SenderStatus, over: Partial<EmailBindContext> = {}) =>
  emailBindMachine.resolveState({ value: dialog, context: { turnstileEnabled: false, email: '', code: '', sender, ...over } });

/** The two-factor section (its own stories: TwoFactorSettings.stories.tsx), frozen with 2FA off. */
const twoFactorFrozen = twoFactorSettingsMachine.provide({
  actors: {
    loadTwoFactorStatus: fromPromise<TwoFactorStatus>(() => never<TwoFactorStatus>()),
    startTwoFactorSetup: fromPromise<TwoFactorSetup>(() => never<TwoFactorSetup>()),
    enableTwoFactor: fromPromise<RecoveryCodes, { readonly code: string }>(() => never<RecoveryCodes>()),
    disableTwoFactor: fromPromise<void, TwoFactorDisableBody>(() => never<void>()),
    regenerateRecoveryCodes: fromPromise<RecoveryCodes, { readonly code: string }>(() => never<RecoveryCodes>()),
    copyText: fromPromise<void, CopyTextInput>(() => never<void>()),
  },
});
const twoFactorReady = twoFactorSettingsMachine.resolveState({
  value: 'ready',
  context: { status: { enabled: false, recovery_codes_left: 0, required: false }, setup: null, recoveryCodes: [], code: '', password: '', error: null },
});

const status = { ...storyStatus, wechat_login: true, github_oauth: true, github_client_id: 'gh-client', lark_client_id: 'cli_lark' };

function Frame({
  machines = frozenAll,
  snapshots = {},
  children,
}: {
  readonly machines?: typeof frozenAll;
  readonly snapshots?: Readonly<Record<string, AnyMachineSnapshot>>;
  readonly children: ReactNode;
}) {
  return (
    <SessionStory snapshot={seedSession({ user: alice, status })}>
      <EffectsProvider value={effects}>
        <MachineRegistryProvider
          machines={[...machines, twoFactorFrozen]}
          snapshots={{ personalSettings: settingsState('ready'), twoFactorSettings: twoFactorReady, ...snapshots }}
        >
          {children}
        </MachineRegistryProvider>
      </EffectsProvider>
    </SessionStory>
  );
}

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Setting/PersonalSettings',
  component: PersonalSettings,
  parameters: { route: '/setting' },
} satisfies Meta<typeof PersonalSettings>;
export default meta;
type Story = StoryObj<typeof meta>;

// One story per machine state (frozen snapshots).

export const SettingsLoading: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Frame snapshots={{ personalSettings: settingsState('loading', { user: null }) }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载账户信息……');
  },
};
export const SettingsReady: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Frame snapshots={{ personalSettings: settingsState('ready', { user: { ...alice, github_id: '1024' } }) }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('1024')).toBeVisible();
  },
};
export const SettingsGeneratingToken: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Frame snapshots={{ personalSettings: settingsState('generatingToken') }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '复制邀请链接' })).toBeDisabled();
  },
};
export const SettingsCopyingToken: Story = {
  render: () => (
    <Frame snapshots={{ personalSettings: settingsState('copyingToken', { pending: token }) }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '复制邀请链接' })).toBeDisabled();
  },
};
export const SettingsFetchingInvite: Story = {
  render: () => (
    <Frame snapshots={{ personalSettings: settingsState('fetchingInvite') }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '生成系统访问令牌' })).toBeDisabled();
  },
};
export const SettingsCopyingInvite: Story = {
  render: () => (
    <Frame snapshots={{ personalSettings: settingsState('copyingInvite', { pending: 'http://localhost/register?aff=Ab3x' }) }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '生成系统访问令牌' })).toBeDisabled();
  },
};
export const DeleteOpen: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Frame snapshots={{ selfDelete: deleteState('open', 'ali') }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async () => {
    await expect(await screen.findByLabelText('输入你的账户名 alice 以确认删除')).toHaveValue('ali');
  },
};
export const Deleting: Story = {
  render: () => (
    <Frame snapshots={{ selfDelete: deleteState('deleting', 'alice') }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async () => {
    await expect(await screen.findByLabelText('输入你的账户名 alice 以确认删除')).toBeDisabled();
  },
};
export const Deleted: Story = {
  render: () => (
    <Frame snapshots={{ selfDelete: deleteState('deleted', 'alice') }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '删除个人账户' })).toBeVisible();
  },
};
export const WeChatOpen: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Frame snapshots={{ wechatBind: wechatState('open') }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async () => {
    const dialog = await screen.findByRole('dialog', { name: '绑定微信账号' });
    // the dialog fades in: visible once its opening animation has run
    await waitFor(() => expect(dialog).toBeVisible());
  },
};
export const WeChatBinding: Story = {
  render: () => (
    <Frame snapshots={{ wechatBind: wechatState('binding') }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async () => {
    await expect(await screen.findByLabelText('验证码')).toBeDisabled();
  },
};
export const EmailOpen: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Frame snapshots={{ emailBind: emailState('open', senderReady, { email: 'alice@example.com' }) }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async () => {
    await expect(await screen.findByLabelText('邮箱地址')).toHaveValue('alice@example.com');
  },
};
export const EmailSendingCode: Story = {
  render: () => (
    <Frame snapshots={{ emailBind: emailState('open', { phase: 'sending', secondsLeft: 0 }, { email: 'alice@example.com' }) }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async () => {
    await expect(await screen.findByRole('button', { name: '获取验证码' })).toBeDisabled();
  },
};
export const EmailCoolingDown: Story = {
  render: () => (
    <Frame snapshots={{ emailBind: emailState('open', { phase: 'coolingDown', secondsLeft: 17 }, { email: 'alice@example.com' }) }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async () => {
    await expect(await screen.findByRole('button', { name: '重新发送 (17)' })).toBeDisabled();
  },
};
export const EmailBinding: Story = {
  render: () => (
    <Frame snapshots={{ emailBind: emailState('binding', senderReady, { email: 'alice@example.com', code: '8d3f' }) }}>
      <PersonalSettings />
    </Frame>
  ),
  play: async () => {
    await expect(await screen.findByLabelText('验证码')).toBeDisabled();
  },
};
export const EnglishDark: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', colorMode: 'dark' },
  render: () => (
    <Frame>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Generate access token' })).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** A live run: a token is generated and copied, then the invite link. */
export const TokenAndInviteInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => (
    <Frame machines={liveAll}>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    copied.mockClear();
    stored = alice;
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: '生成系统访问令牌' }));
    await waitFor(() => expect(copied).toHaveBeenCalledWith(token));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'personal.token.copied' } });
    await userEvent.click(c.getByRole('button', { name: '复制邀请链接' }));
    await waitFor(() => expect(copied).toHaveBeenCalledWith('http://localhost/register?aff=Ab3x'));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'personal.invite.copied' } });
  },
};

/** The clipboard refuses: the token is shown in a read-only box instead. */
export const ClipboardRefusedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => (
    <Frame machines={[settingsNoClipboard, deleteFrozen, wechatFrozen, emailFrozen, oauthFrozen]}>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '生成系统访问令牌' }));
    await expect(await c.findByLabelText('系统访问令牌')).toHaveValue(token);
    await expect(c.getByText('未能复制到剪贴板，请选中下方内容手动复制。')).toBeVisible();
  },
};

/** Delete: a wrong name is refused, the right one deletes and the session logs out. */
export const DeleteAccountInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => (
    <Frame machines={liveAll}>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    await userEvent.click(within(canvasElement).getByRole('button', { name: '删除个人账户' }));
    const input = await screen.findByLabelText('输入你的账户名 alice 以确认删除');
    await userEvent.type(input, 'bob');
    await userEvent.click(screen.getByRole('button', { name: '确认删除' }));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { key: 'validation.selfDelete.mismatch' } });
    await userEvent.clear(input);
    await userEvent.type(input, 'alice');
    await userEvent.click(screen.getByRole('button', { name: '确认删除' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'personal.delete.done' } }));
  },
};

/** WeChat: an empty code does nothing; a good one binds and the bindings reload. */
export const BindWeChatInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => (
    <Frame machines={liveAll}>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    stored = alice;
    notify.mockClear();
    await userEvent.click(within(canvasElement).getByRole('button', { name: '绑定微信账号' }));
    await userEvent.click(await screen.findByRole('button', { name: '绑定' }));
    await expect(notify).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText('验证码'), '123456');
    await userEvent.click(screen.getByRole('button', { name: '绑定' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'personal.wechat.bound' } }));
    await expect(await within(canvasElement).findByText('oWx-alice')).toBeVisible();
  },
};

/** E-mail: send a code (the countdown starts), then bind. */
export const BindEmailInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => (
    <Frame machines={liveAll}>
      <PersonalSettings />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    stored = alice;
    notify.mockClear();
    await userEvent.click(within(canvasElement).getByRole('button', { name: '绑定邮箱地址' }));
    await enterText(await screen.findByLabelText('邮箱地址'), 'alice@example.com');
    await userEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    await expect(await screen.findByRole('button', { name: /重新发送 \(\d+\)/ })).toBeDisabled();
    await userEvent.type(screen.getByLabelText('验证码'), '8d3f');
    await userEvent.click(screen.getByRole('button', { name: '确认绑定' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'personal.email.bound' } }));
    await expect(await within(canvasElement).findByText('alice@example.com')).toBeVisible();
  },
};
