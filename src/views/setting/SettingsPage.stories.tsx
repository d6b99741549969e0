import type { Meta, StoryObj } from '@storybook/react-vite';
import { createEmptyActor, fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { OptionEntry } from '../../domain/option';
import type { RecoveryCodes, TwoFactorDisableBody, TwoFactorSetup, TwoFactorStatus } from '../../domain/twoFactor';
import { optionSettingsMachine, type OptionSettingsContext, type SaveOptionInput } from '../../machines/optionSettings';
import { twoFactorSettingsMachine } from '../../machines/twoFactorSettings';
import { priceEditorMachine, type SavePriceOptionInput } from '../../machines/priceEditor';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { SessionStory, seedSession, storyUsers } from '../app/stories/SessionStory';
import { SessionContext } from '../app/sessionContext';
import { SettingsPage } from './SettingsPage';
import { storyOptionEntries, storyOptionValues } from './settings.fixtures';

const notify = fn<(e: NotifyEvent) => void>();
const navigate = fn<(e: NavigateEvent) => void>();
const reloadStatus = fn<() => void>();
const saves = fn<(input: SaveOptionInput) => void>();
const effects = { notify, navigate, reloadStatus };

const never = <T,>() => new Promise<T>(() => undefined);
const machineWith = (over: { load?: 'ok' | 'fails' | 'never'; save?: 'ok' | 'refused' | 'never' } = {}) =>
  optionSettingsMachine.provide({
    actors: {
      listOptions: fromPromise<OptionEntry[]>(async () => {
        if (over.load === 'never') return never<OptionEntry[]>();
        await Promise.resolve();
        if (over.load === 'fails') throw failure('listOptions', '无权进行此操作，权限不足');
        return storyOptionEntries;
      }),
      saveOption: fromPromise<void, SaveOptionInput>(async ({ input }) => {
        saves(input);
        if (over.save === 'never') return never<void>();
        await Promise.resolve();
        if (over.save === 'refused') throw failure('saveOption', '无效的主题');
      }),
    },
  });

type Value = Parameters<typeof optionSettingsMachine.resolveState>[0]['value'];
const baseContext: OptionSettingsContext = {
  // frozen snapshots start no watcher: the session is never read
  session: createEmptyActor(),
  isRoot: true,
  tab: 'system',
  pendingTab: null,
  baseline: storyOptionValues,
  drafts: storyOptionValues,
  queue: [],
  savingSection: null,
  savedKeys: [],
  toggleKey: null,
  problems: {},
  whitelistEntry: '',
  priceEditorOpen: false,
};
const seed = (value: Value, over: Partial<OptionSettingsContext> = {}) => ({
  [optionSettingsMachine.id]: optionSettingsMachine.resolveState({ value, context: { ...baseContext, ...over } }),
});

const rootSession = seedSession({ user: storyUsers.root });

/*
 * The states this page shows are its view's stories (SettingsPageView). Here: the journeys through
 * the real machine (interaction stories), the states only the page has, and, tagged '!dev', the
 * frozen states its view already shows: they stay as tests of what the page hands its view and are
 * left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Setting/SettingsPage',
  component: SettingsPage,
  parameters: { route: '/setting?tab=system' },
} satisfies Meta<typeof SettingsPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The personal tab's two-factor section: off, its other calls never answer (not what these stories are about). */
const twoFactorOff = twoFactorSettingsMachine.provide({
  actors: {
    loadTwoFactorStatus: fromPromise<TwoFactorStatus>(() => Promise.resolve({ enabled: false, recovery_codes_left: 0, required: false })),
    startTwoFactorSetup: fromPromise<TwoFactorSetup>(() => never<TwoFactorSetup>()),
    enableTwoFactor: fromPromise<RecoveryCodes, { readonly code: string }>(() => never<RecoveryCodes>()),
    disableTwoFactor: fromPromise<void, TwoFactorDisableBody>(() => never<void>()),
    regenerateRecoveryCodes: fromPromise<RecoveryCodes, { readonly code: string }>(() => never<RecoveryCodes>()),
    copyText: fromPromise<void, { readonly text: string }>(() => never<void>()),
  },
});

/** The ratio section's price editor: its calls never answer (not what these stories are about). */
const pricesPending = priceEditorMachine.provide({
  actors: {
    listOptions: fromPromise<OptionEntry[]>(() => never<OptionEntry[]>()),
    saveOption: fromPromise<void, SavePriceOptionInput>(() => never<void>()),
  },
});

const frozen = (snapshots: ReturnType<typeof seed>, machine = machineWith({ load: 'never', save: 'never' })) =>
  function Frozen() {
    return (
      <SessionStory snapshot={rootSession}>
        <EffectsProvider value={effects}>
          <MachineRegistryProvider machines={[machine, twoFactorOff, pricesPending]} snapshots={snapshots}>
            <SettingsPage />
          </MachineRegistryProvider>
        </EffectsProvider>
      </SessionStory>
    );
  };

/** Live, as root: the options load, a section saves only its change, the status reloads. */
export const SaveLiveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: function Live() {
    return (
      <SessionStory snapshot={rootSession}>
        <EffectsProvider value={effects}>
          <MachineRegistryProvider machines={[machineWith(), twoFactorOff, pricesPending]}>
            <SettingsPage />
          </MachineRegistryProvider>
        </EffectsProvider>
      </SessionStory>
    );
  },
  play: async ({ canvasElement }) => {
    notify.mockClear();
    saves.mockClear();
    reloadStatus.mockClear();
    const c = within(canvasElement);
    const server = await c.findByRole('textbox', { name: '服务器地址' });
    await userEvent.click(server);
    await userEvent.paste('https://gw.example.com/');
    await userEvent.click(c.getByRole('button', { name: '保存服务器地址' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'common.success' } }));
    await expect(saves).toHaveBeenCalledWith({ key: 'ServerAddress', value: 'https://gw.example.com' });
    await expect(saves).toHaveBeenCalledTimes(1);
    await expect(reloadStatus).toHaveBeenCalledTimes(1);
  },
};

/** A refused save: the server's message; the typed value stays unsaved. */
export const SaveRefusedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: frozen(seed('ready', { tab: 'other', drafts: { ...storyOptionValues, Theme: 'air' } }), machineWith({ save: 'refused' })),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '保存主题' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: '无效的主题' } }));
    await expect(c.getByText('有未保存的更改')).toBeVisible();
  },
};

/** State `personalOnly`: a common user has the personal tab alone. */
export const PersonalOnly: Story = {
  tags: ['!dev', '!autodocs'],
  render: function Common() {
    return (
      <SessionStory snapshot={seedSession({ user: storyUsers.common })}>
        <MachineRegistryProvider machines={[machineWith({ load: 'never', save: 'never' }), twoFactorOff, pricesPending]}>
          <SettingsPage />
        </MachineRegistryProvider>
      </SessionStory>
    );
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getAllByRole('tab')).toHaveLength(1);
    await expect(c.getByRole('tab', { name: '个人设置' })).toHaveAttribute('aria-selected', 'true');
  },
};

/** State `awaitingRole`: the session has not reported the role yet (only the personal tab). */
export const AwaitingRole: Story = {
  render: frozen(seed('awaitingRole', { isRoot: false, tab: 'system', baseline: {}, drafts: {} })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getAllByRole('tab')).toHaveLength(1);
  },
};

/** Stands in for a session change while the page lives (e.g. an account edited elsewhere). */
function RoleSwitch() {
  const session = SessionContext.useActorRef();
  return (
    <button type="button" onClick={() => session.send({ type: 'session.userUpdated', user: storyUsers.common })}>
      demote
    </button>
  );
}

/** Live, as root on the system tab: the session reports a common user; the page leaves for the personal tab. */
export const RoleLostInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: function Live() {
    return (
      <SessionStory snapshot={rootSession}>
        <EffectsProvider value={effects}>
          <MachineRegistryProvider machines={[machineWith(), twoFactorOff, pricesPending]}>
            <RoleSwitch />
            <SettingsPage />
          </MachineRegistryProvider>
        </EffectsProvider>
      </SessionStory>
    );
  },
  play: async ({ canvasElement }) => {
    navigate.mockClear();
    const c = within(canvasElement);
    await expect(await c.findByRole('tab', { name: '系统设置' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.click(c.getByRole('button', { name: 'demote' }));
    await waitFor(() => expect(c.getAllByRole('tab')).toHaveLength(1));
    await expect(c.getByRole('tab', { name: '个人设置' })).toHaveAttribute('aria-selected', 'true');
    await expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/setting', replace: true });
  },
};

/** State `loading`. */
export const Loading: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('loading', { baseline: {}, drafts: {} })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载设置……');
  },
};

/** State `failed`: the message and a retry. */
export const LoadFailed: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('failed', { baseline: {}, drafts: {} })),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载设置。')).toBeVisible();
    await expect(c.getByRole('button', { name: '重试' })).toBeEnabled();
  },
};

/** From `failed`, a retry that loads. */
export const RetryInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: frozen(seed('failed', { baseline: {}, drafts: {} }), machineWith()),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(await c.findByLabelText('SMTP 端口')).toHaveValue(587);
  },
};

/** State `ready` (system tab). */
export const Ready: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('ready')),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('tab', { name: '系统设置' })).toHaveAttribute('aria-selected', 'true');
    await expect(c.getByText('gmail.com')).toBeVisible();
  },
};

const withWeChat = { ...storyOptionValues, WeChatAuthEnabled: 'true' };

/** State `confirmingToggle` (WeChat login enabled): the confirmation is open over the system tab, no lockout warning. */
export const ConfirmingToggle: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('confirmingToggle', { toggleKey: 'PasswordLoginEnabled', baseline: withWeChat, drafts: withWeChat })),
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('alertdialog', { name: '关闭密码登录？' });
    await expect(within(dialog).getByRole('button', { name: '确认关闭' })).toBeEnabled();
    await expect(within(dialog).queryByText(/当前没有启用任何其他登录方式/)).toBeNull();
  },
};

/** State `confirmingToggle` with no other sign-in method stored: the dialog warns that everyone would be locked out. */
export const ConfirmingToggleLockout: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('confirmingToggle', { toggleKey: 'PasswordLoginEnabled' })),
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('alertdialog', { name: '关闭密码登录？' });
    await expect(within(dialog).getByText(/当前没有启用任何其他登录方式/)).toBeVisible();
    await expect(within(dialog).getByText('取消')).toBeVisible();
  },
};

/** State `confirmingToggle` for TwoFactorRequiredForAdmins: its own wording (admins without 2FA, root included, are held at the enrolment). */
export const ConfirmingTwoFactorRequired: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('confirmingToggle', { toggleKey: 'TwoFactorRequiredForAdmins' })),
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('alertdialog', { name: '要求管理员开启两步验证？' });
    await expect(within(dialog).getByText(/包括超级管理员/)).toBeVisible();
    await expect(within(dialog).getByRole('button', { name: '确认开启' })).toBeEnabled();
    await expect(within(dialog).queryByText(/当前没有启用任何其他登录方式/)).toBeNull();
  },
};

/** Turning TwoFactorRequiredForAdmins on asks first; accepting saves 'true' (the switch is in the login section, off by default). */
export const TwoFactorRequiredInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: frozen(seed('ready'), machineWith()),
  play: async ({ canvasElement }) => {
    saves.mockClear();
    const body = within(canvasElement.ownerDocument.body);
    const c = within(canvasElement);
    await expect(c.getByRole('checkbox', { name: '要求管理员开启两步验证' })).not.toBeChecked();
    await userEvent.click(c.getByText('要求管理员开启两步验证'));
    const dialog = await body.findByRole('alertdialog', { name: '要求管理员开启两步验证？' });
    await expect(saves).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: '确认开启' }));
    await waitFor(() => expect(saves).toHaveBeenCalledWith({ key: 'TwoFactorRequiredForAdmins', value: 'true' }));
    await waitFor(() => expect(body.queryByRole('alertdialog')).toBeNull());
  },
};

/**
 * From `confirmingToggle`, cancel keeps PasswordLoginEnabled on (nothing is saved, the switch shows
 * the stored value), and a second click on the switch asks again.
 */
export const CancelToggleInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: ConfirmingToggleLockout.render,
  play: async ({ canvasElement }) => {
    saves.mockClear();
    const body = within(canvasElement.ownerDocument.body);
    const c = within(canvasElement);
    const dialog = await body.findByRole('alertdialog', { name: '关闭密码登录？' });
    await userEvent.click(within(dialog).getByText('取消'));
    await waitFor(() => expect(body.queryByRole('alertdialog')).toBeNull());
    await expect(saves).not.toHaveBeenCalled();
    const input = c.getByRole('checkbox', { name: '允许密码登录' });
    await expect(input).toBeChecked();
    for (let round = 0; round < 2; round += 1) {
      await userEvent.click(c.getByText('允许密码登录'));
      const again = await body.findByRole('alertdialog', { name: '关闭密码登录？' });
      await expect(within(again).getByText(/当前没有启用任何其他登录方式/)).toBeVisible();
      await userEvent.click(within(again).getByText('取消'));
      await waitFor(() => expect(body.queryByRole('alertdialog')).toBeNull());
      await expect(c.getByRole('checkbox', { name: '允许密码登录' })).toBeChecked();
    }
    await expect(saves).not.toHaveBeenCalled();
  },
};

/** State `confirmingLeave`: the confirmation is open over the typed value. */
export const ConfirmingLeave: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(
    seed('confirmingLeave', { pendingTab: 'other', drafts: { ...storyOptionValues, SMTPServer: 'smtp.example.com' } }),
  ),
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    await expect(await body.findByRole('alertdialog', { name: '放弃未保存的更改？' })).toBeVisible();
    await expect(within(canvasElement).getByLabelText('SMTP 服务器地址')).toHaveValue('smtp.example.com');
  },
};

/** From `confirmingLeave`, stay keeps the typed value. */
export const StayInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: ConfirmingLeave.render,
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('alertdialog', { name: '放弃未保存的更改？' });
    await userEvent.click(within(dialog).getByText('取消'));
    await waitFor(() => expect(body.queryByRole('alertdialog')).toBeNull());
    await expect(within(canvasElement).getByLabelText('SMTP 服务器地址')).toHaveValue('smtp.example.com');
  },
};

/** State `saving`: everything disabled, the section's button spins. */
export const Saving: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(
    seed('saving', {
      drafts: { ...storyOptionValues, SMTPServer: 'smtp.example.com' },
      queue: [['SMTPServer', 'smtp.example.com']],
      savingSection: 'smtp',
    }),
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('SMTP 服务器地址')).toBeDisabled();
    await expect(c.getByRole('button', { name: '保存 SMTP 邮件' })).toBeDisabled();
  },
};

/** The operation tab: the ratio section is the price editor (its own machine; here its options never arrive). */
export const OperationPriceEditor: Story = {
  parameters: { route: '/setting?tab=operation' },
  render: frozen(seed('ready', { tab: 'operation' })),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const ratios = c.getByRole('region', { name: '倍率设置' });
    await expect(within(ratios).getByRole('status')).toHaveTextContent('正在加载倍率');
  },
};

/** The ratio section's price editor with answers: its options arrive at once, a save never answers. */
const pricesAnswering = priceEditorMachine.provide({
  actors: {
    listOptions: fromPromise<OptionEntry[]>(() => Promise.resolve(storyOptionEntries)),
    saveOption: fromPromise<void, SavePriceOptionInput>(() => never<void>()),
  },
});

/**
 * The restored draft: an unsaved price edit survives a visit to other tabs (the editor is the
 * page machine's child, not the tab panel's), still marked unsaved and ready to save.
 */
export const PriceDraftKeptInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  parameters: { route: '/setting?tab=operation' },
  render: function Live() {
    return (
      <SessionStory snapshot={rootSession}>
        <EffectsProvider value={effects}>
          <MachineRegistryProvider machines={[machineWith(), twoFactorOff, pricesAnswering]}>
            <SettingsPage />
          </MachineRegistryProvider>
        </EffectsProvider>
      </SessionStory>
    );
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const price = await c.findByLabelText('gpt-4 输入价格');
    await expect(price).toHaveValue('30');
    await userEvent.clear(price);
    await userEvent.type(price, '40');
    await userEvent.click(c.getByRole('tab', { name: '系统设置' }));
    await expect(await c.findByRole('tab', { name: '系统设置' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.click(c.getByRole('tab', { name: '个人设置' }));
    await userEvent.click(c.getByRole('tab', { name: '运营设置' }));
    await expect(await c.findByLabelText('gpt-4 输入价格')).toHaveValue('40');
    const ratios = c.getByRole('region', { name: '倍率设置' });
    await expect(within(ratios).getByText('有未保存的更改')).toBeVisible();
    await expect(within(ratios).getByRole('button', { name: '保存倍率设置' })).toBeEnabled();
  },
};

/** English, dark, on a phone-sized frame. */
export const ReadyEnglishDark: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', colorMode: 'dark' },
  render: frozen(seed('ready')),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'Settings' })).toBeVisible();
  },
};
