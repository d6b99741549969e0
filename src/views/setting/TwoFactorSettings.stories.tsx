import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { RecoveryCodes, TwoFactorDisableBody, TwoFactorSetup, TwoFactorStatus } from '../../domain/twoFactor';
import { twoFactorSettingsMachine, type TwoFactorSettingsContext } from '../../machines/twoFactorSettings';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { SessionStory, seedSession, storyUsers } from '../app/stories/SessionStory';
import { TwoFactorSettings } from './TwoFactorSettings';

/*
 * The two-factor section of the personal settings, one story per machine state (seeded, frozen:
 * the stub actors never answer), plus an interaction story that enrols with answering stubs.
 */

const never = <T,>() => new Promise<T>(() => undefined);
const off: TwoFactorStatus = { enabled: false, recovery_codes_left: 0, required: false };
const on: TwoFactorStatus = { enabled: true, recovery_codes_left: 7, required: false };
const setupAnswer: TwoFactorSetup = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  uri: 'otpauth://totp/One%20API:alice?issuer=One%20API&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
};
const codes = ['abcde-fghjk', 'mnpqr-stuvw', 'xyz23-45678', '9abcd-efghj', 'kmnpq-rstuv', 'wxyz2-34567', '89abc-defgh', 'jkmnp-qrstu', 'vwxyz-23456', '789ab-cdefg'];
const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };

const frozen = twoFactorSettingsMachine.provide({
  actors: {
    loadTwoFactorStatus: fromPromise<TwoFactorStatus>(() => never()),
    startTwoFactorSetup: fromPromise<TwoFactorSetup>(() => never()),
    enableTwoFactor: fromPromise<RecoveryCodes, { readonly code: string }>(() => never()),
    disableTwoFactor: fromPromise<void, TwoFactorDisableBody>(() => never()),
    regenerateRecoveryCodes: fromPromise<RecoveryCodes, { readonly code: string }>(() => never()),
    copyText: fromPromise<void, { readonly text: string }>(() => never()),
  },
});
const enableCalls = fn<(input: { readonly code: string }) => void>();
const live = twoFactorSettingsMachine.provide({
  actors: {
    loadTwoFactorStatus: fromPromise<TwoFactorStatus>(() => Promise.resolve(off)),
    startTwoFactorSetup: fromPromise<TwoFactorSetup>(() => Promise.resolve(setupAnswer)),
    enableTwoFactor: fromPromise<RecoveryCodes, { readonly code: string }>(({ input }) => {
      enableCalls(input);
      return Promise.resolve({ recovery_codes: codes });
    }),
    disableTwoFactor: fromPromise<void, TwoFactorDisableBody>(() => never()),
    regenerateRecoveryCodes: fromPromise<RecoveryCodes, { readonly code: string }>(() => never()),
    copyText: fromPromise<void, { readonly text: string }>(() => Promise.resolve()),
  },
});

type StateValue = Parameters<typeof twoFactorSettingsMachine.resolveState>[0]['value'];
const base: TwoFactorSettingsContext = { status: off, setup: null, recoveryCodes: [], code: '', password: '', error: null };
const seed = (value: StateValue, context: Partial<TwoFactorSettingsContext> = {}) =>
  twoFactorSettingsMachine.resolveState({ value, context: { ...base, ...context } });

function Frame({ snapshot, machine = frozen }: { readonly snapshot?: ReturnType<typeof seed>; readonly machine?: typeof frozen }) {
  return (
    <SessionStory snapshot={seedSession({ user: storyUsers.common })}>
      <EffectsProvider value={effects}>
        <MachineRegistryProvider
          key={JSON.stringify(snapshot?.value ?? 'live')}
          machines={[machine]}
          snapshots={snapshot === undefined ? {} : { twoFactorSettings: snapshot }}
        >
          <TwoFactorSettings />
        </MachineRegistryProvider>
      </EffectsProvider>
    </SessionStory>
  );
}

const meta = {
  title: 'Setting/TwoFactorSettings',
  component: TwoFactorSettings,
  beforeEach: () => {
    notify.mockClear();
    enableCalls.mockClear();
  },
} satisfies Meta<typeof TwoFactorSettings>;
export default meta;
type Story = StoryObj<typeof meta>;

const region = (canvasElement: HTMLElement) => within(within(canvasElement).getByRole('region', { name: '两步验证' }));

/** `loading`: the status is being read. */
export const Loading: Story = {
  render: () => <Frame snapshot={seed('loading', { status: null })} />,
  play: async ({ canvasElement }) => {
    await expect(region(canvasElement).queryByRole('button')).toBeNull();
  },
};

/** `failed`: the status could not be read; retry. */
export const Failed: Story = {
  render: () => <Frame snapshot={seed('failed', { status: null })} />,
  play: async ({ canvasElement }) => {
    await expect(region(canvasElement).getByText('无法读取两步验证状态')).toBeVisible();
    await expect(region(canvasElement).getByRole('button', { name: '重试' })).toBeEnabled();
  },
};

/** `ready`, 2FA off. */
export const ReadyOff: Story = {
  render: () => <Frame snapshot={seed('ready')} />,
  play: async ({ canvasElement }) => {
    await expect(region(canvasElement).getByRole('button', { name: '开启两步验证' })).toBeEnabled();
  },
};

/** `ready`, 2FA off, and the admin option asks this admin to enrol. */
export const ReadyRequired: Story = {
  render: () => <Frame snapshot={seed('ready', { status: { ...off, required: true } })} />,
  play: async ({ canvasElement }) => {
    await expect(region(canvasElement).getByText('管理员已要求管理员账户开启两步验证，请现在绑定。')).toBeVisible();
  },
};

/** `ready`, 2FA on: recovery codes left, regenerate and disable. */
export const ReadyOn: Story = {
  render: () => <Frame snapshot={seed('ready', { status: on })} />,
  play: async ({ canvasElement }) => {
    const c = region(canvasElement);
    await expect(c.getByText('已开启：登录时需要输入验证器中的验证码。剩余恢复码 7 个。')).toBeVisible();
    await expect(c.getByRole('button', { name: '重新生成恢复码' })).toBeEnabled();
    await expect(c.getByRole('button', { name: '关闭两步验证' })).toBeEnabled();
  },
};

/** `startingSetup`: the secret is being made. */
export const StartingSetup: Story = {
  render: () => <Frame snapshot={seed('startingSetup')} />,
  play: async ({ canvasElement }) => {
    await expect(region(canvasElement).getByRole('button', { name: '开启两步验证' })).toHaveAttribute('data-loading');
  },
};

/** `confirmingSetup`: the secret and URI once, the code field. */
export const ConfirmingSetup: Story = {
  render: () => <Frame snapshot={seed('confirmingSetup', { setup: setupAnswer })} />,
  play: async ({ canvasElement }) => {
    const c = region(canvasElement);
    await expect(c.getByText(setupAnswer.secret)).toBeVisible();
    await expect(c.getByRole('link', { name: setupAnswer.uri })).toHaveAttribute('href', setupAnswer.uri);
    await expect(c.getByLabelText('验证码')).toBeVisible();
  },
};

/** `confirmingSetup` after an empty or refused code: the field names the problem. */
export const ConfirmingSetupRefused: Story = {
  render: () => (
    <Frame snapshot={seed('confirmingSetup', { setup: setupAnswer, code: '000000', error: { key: 'twoFactor.error.codeInvalid' } })} />
  ),
  play: async ({ canvasElement }) => {
    await expect(region(canvasElement).getByText('验证码错误或已使用，请输入验证器当前显示的 6 位数字')).toBeVisible();
  },
};

/** `enabling`: the code is being checked. */
export const Enabling: Story = {
  render: () => <Frame snapshot={seed('enabling', { setup: setupAnswer, code: '123456' })} />,
  play: async ({ canvasElement }) => {
    await expect(region(canvasElement).getByRole('button', { name: '确认开启' })).toHaveAttribute('data-loading');
  },
};

/** `showingCodes`: the ten recovery codes once, copy and download. */
export const ShowingCodes: Story = {
  render: () => <Frame snapshot={seed('showingCodes', { status: on, recoveryCodes: codes })} />,
  play: async ({ canvasElement }) => {
    const c = region(canvasElement);
    await expect(c.getAllByRole('listitem')).toHaveLength(10);
    await expect(c.getByRole('link', { name: '下载恢复码' })).toHaveAttribute('download', 'recovery-codes.txt');
    await expect(c.getByRole('button', { name: '复制恢复码' })).toBeEnabled();
  },
};

/** `copyingCodes`: the codes stay shown while they are copied. */
export const CopyingCodes: Story = {
  render: () => <Frame snapshot={seed('copyingCodes', { status: on, recoveryCodes: codes })} />,
  play: async ({ canvasElement }) => {
    await expect(region(canvasElement).getAllByRole('listitem')).toHaveLength(10);
  },
};

/** `disableForm`: a code or the password. */
export const DisableForm: Story = {
  render: () => <Frame snapshot={seed('disableForm', { status: on, error: { key: 'twoFactor.error.proofRequired' } })} />,
  play: async ({ canvasElement }) => {
    const c = region(canvasElement);
    await expect(c.getByText('请输入验证码、恢复码或当前密码')).toBeVisible();
    await expect(c.getByLabelText('密码')).toBeVisible();
  },
};

/** `disabling`. */
export const Disabling: Story = {
  render: () => <Frame snapshot={seed('disabling', { status: on, password: 'secret123' })} />,
  play: async ({ canvasElement }) => {
    await expect(region(canvasElement).getByRole('button', { name: '关闭两步验证' })).toHaveAttribute('data-loading');
  },
};

/** `regenerateForm`: a code is needed for new recovery codes. */
export const RegenerateForm: Story = {
  render: () => <Frame snapshot={seed('regenerateForm', { status: on })} />,
  play: async ({ canvasElement }) => {
    await expect(region(canvasElement).getByLabelText('验证码')).toBeVisible();
  },
};

/** `regenerating`. */
export const Regenerating: Story = {
  render: () => <Frame snapshot={seed('regenerating', { status: on, code: '123456' })} />,
  play: async ({ canvasElement }) => {
    await expect(region(canvasElement).getByRole('button', { name: '重新生成恢复码' })).toHaveAttribute('data-loading');
  },
};

/** Interaction: enrol with answering stubs; an empty code is named first; the codes show once. */
export const EnrolInteraction: Story = {
  tags: ['interaction'],
  render: () => <Frame machine={live} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: '开启两步验证' }));
    await c.findByText(setupAnswer.secret);
    await userEvent.click(c.getByRole('button', { name: '确认开启' }));
    await expect(c.getByText('请输入验证码（6 位数字）或恢复码')).toBeVisible();
    await expect(enableCalls).not.toHaveBeenCalled();
    await userEvent.type(c.getByLabelText('验证码'), '123456');
    await userEvent.click(c.getByRole('button', { name: '确认开启' }));
    await waitFor(() => expect(c.getAllByRole('listitem')).toHaveLength(10));
    await expect(enableCalls).toHaveBeenCalledWith({ code: '123456' });
    await expect(notify).toHaveBeenCalledWith(expect.objectContaining({ level: 'success', message: { key: 'twoFactor.enabled.toast' } }));
  },
};
