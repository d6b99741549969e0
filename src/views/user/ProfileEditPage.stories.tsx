import type { Meta, StoryObj } from '@storybook/react-vite';
import { createActor, fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { User } from '../../domain/user';
import { profileEditMachine, type ProfileEditContext, type SaveSelfInput } from '../../machines/profileEdit';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { SessionStory, seedSession, stubSession } from '../app/stories/SessionStory';
import { ProfileEditPage } from './ProfileEditPage';
import { enterText } from '../app/stories/enterText';

const alice: User = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1, github_id: 'alice-gh', email: 'alice@example.com' };

const notify = fn<(e: NotifyEvent) => void>();
/** The user record the session stores (a save hands it the reloaded account). */
const sessionSaved = fn<(user: User | null) => void>();
const session = stubSession().provide({ actions: { saveUser: (_, { user }) => sessionSaved(user) } });
/** The session a seeded (frozen) page names: never started, nothing is sent to it in those stories. */
const seededSession = createActor(stubSession(), { input: { user: null, status: null, buildVersion: 'v0.1.0' }, snapshot: seedSession({ user: alice }) });
const navigate = fn<(e: NavigateEvent) => void>();
const effects = { notify, navigate };

type Load = ReturnType<typeof fromPromise<User>>;
type Save = ReturnType<typeof fromPromise<void, SaveSelfInput>>;
const machineWith = (loadSelf: Load, saveSelf: Save) => profileEditMachine.provide({ actors: { loadSelf, saveSelf } });
let stored: User = alice;
const loads = fromPromise<User>(() => Promise.resolve(stored));
const saves = fromPromise<void, SaveSelfInput>(({ input }) => {
  stored = { ...stored, username: input.username ?? stored.username, display_name: input.display_name ?? stored.display_name };
  return Promise.resolve();
});
const refuses = fromPromise<void, SaveSelfInput>(async () => {
  await Promise.resolve();
  throw failure('saveSelf', '用户名已存在');
});
const saveCalls = fn<(input: SaveSelfInput) => void>();
const saveSpy = fromPromise<void, SaveSelfInput>(({ input }) => {
  saveCalls(input);
  return Promise.resolve();
});
const loadFails = fromPromise<User>(async () => {
  await Promise.resolve();
  throw failure('loadSelf', '无权进行此操作，未登录且未提供 access token');
});
const pendingLoad = fromPromise<User>(() => new Promise<User>(() => undefined));
const pendingSave = fromPromise<void, SaveSelfInput>(() => new Promise<void>(() => undefined));

const context = (over: Partial<ProfileEditContext['form']> = {}): ProfileEditContext => ({
  session: seededSession,
  form: { username: alice.username, display_name: alice.display_name, password: '', ...over },
  bindings: { github_id: 'alice-gh', wechat_id: '', email: 'alice@example.com' },
  fieldErrors: {},
});
const seed = (value: 'loading' | 'loadFailed' | 'editing' | 'saving' | 'refreshing', over?: Partial<ProfileEditContext['form']>) => ({
  [profileEditMachine.id]: profileEditMachine.resolveState({ value, context: context(over) }),
});

/*
 * The states this page shows are its view's stories (ProfileEditPageView). Here: the journeys
 * through the real machine (interaction stories), the states only the page has, and, tagged '!dev',
 * the frozen states its view already shows: they stay as tests of what the page hands its view and
 * are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'User/ProfileEditPage',
  component: ProfileEditPage,
  parameters: { route: '/user/edit' },
  decorators: [
    (Story) => (
      <SessionStory session={session} snapshot={seedSession({ user: alice })}>
        <Story />
      </SessionStory>
    ),
  ],
} satisfies Meta<typeof ProfileEditPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A live run: the account loads, a rename is saved, the toast says so and the shell hears of it. */
export const SaveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith(loads, saves)]}>
        <ProfileEditPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    stored = alice;
    notify.mockClear();
    sessionSaved.mockClear();
    const c = within(canvasElement);
    const username = await c.findByLabelText(/用户名/);
    await expect(username).toHaveValue('alice');
    await expect(c.getByLabelText('密码')).toHaveValue('');
    await userEvent.clear(c.getByLabelText('显示名称'));
    await enterText(c.getByLabelText('显示名称'), 'Alice Two');
    await enterText(c.getByLabelText('密码'), 'new-password-1');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(sessionSaved).toHaveBeenCalledWith({ ...alice, display_name: 'Alice Two' }));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'account.profile.saved' } });
    await expect(c.getByLabelText('密码')).toHaveValue('');
  },
};

/** Editing with an empty username refused: the field says it is required (a state of its own context). */
export const EmptyUsername: Story = {
  render: (args) => (
    <MachineRegistryProvider
      machines={[machineWith(pendingLoad, pendingSave)]}
      snapshots={{
        [profileEditMachine.id]: profileEditMachine.resolveState({
          value: 'editing',
          context: { ...context({ username: '' }), fieldErrors: { username: { key: 'rules.username.required' } } },
        }),
      }}
    >
      <ProfileEditPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('用户名不能为空')).toBeVisible();
    await expect(c.getByLabelText(/用户名/)).toHaveAttribute('aria-invalid', 'true');
  },
};

/** Editing: the bindings are read-only, and Cancel leads to the personal settings without saving. */
export const CancelAndBindingsInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith(loads, saveSpy)]} snapshots={seed('editing')}>
        <ProfileEditPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    navigate.mockClear();
    saveCalls.mockClear();
    const c = within(canvasElement);
    await expect(c.getByLabelText('已绑定的 GitHub 账户')).toHaveValue('alice-gh');
    await expect(c.getByLabelText('已绑定的 GitHub 账户')).toHaveAttribute('readonly');
    await expect(c.getByLabelText('已绑定的邮箱账户')).toHaveValue('alice@example.com');
    await expect(c.getByLabelText('已绑定的微信账户')).toHaveAttribute('readonly');
    await userEvent.click(c.getByRole('button', { name: '取消' }));
    await expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/setting', replace: false });
    await expect(saveCalls).not.toHaveBeenCalled();
  },
};

/** A refused save: the server's message, and what was typed stays. */
export const SaveRefusedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith(loads, refuses)]} snapshots={seed('editing', { username: 'bob' })}>
        <ProfileEditPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: '用户名已存在' } }));
    await expect(c.getByLabelText(/用户名/)).toHaveValue('bob');
  },
};

/** A password shorter than the rule: nothing is sent, the field names itself and the rule (no toast), and takes the focus. */
export const PasswordBreaksRuleInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith(loads, saveSpy)]} snapshots={seed('editing')}>
        <ProfileEditPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    saveCalls.mockClear();
    const c = within(canvasElement);
    await enterText(c.getByLabelText('密码'), 'short');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(await c.findByText('密码长度必须在 8 到 20 个字符之间')).toBeVisible();
    await waitFor(() => expect(c.getByLabelText('密码')).toHaveFocus());
    await expect(notify).not.toHaveBeenCalled();
    await expect(saveCalls).not.toHaveBeenCalled();
    await expect(c.getByLabelText('密码')).toHaveValue('short');
  },
};

/** State `loading`: a progress line instead of the fields. */
export const Loading: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[machineWith(pendingLoad, pendingSave)]} snapshots={seed('loading')}>
      <ProfileEditPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载用户信息……');
  },
};

/** State `loadFailed`: the message and a retry. */
export const LoadFailed: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[machineWith(pendingLoad, pendingSave)]} snapshots={seed('loadFailed')}>
      <ProfileEditPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载用户信息。')).toBeVisible();
    await expect(c.getByRole('button', { name: '重试' })).toBeEnabled();
  },
};

/** From `loadFailed`, a retry that loads. */
export const RetryInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith(loads, saves)]} snapshots={seed('loadFailed')}>
        <ProfileEditPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    stored = alice;
    const c = within(canvasElement);
    await expect(c.getByText('无法加载用户信息。')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(await c.findByLabelText(/用户名/)).toHaveValue('alice');
  },
};

/** A live run whose load fails: the error toast and the retry button. */
export const LoadRefused: Story = {
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith(loadFails, saves)]}>
        <ProfileEditPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('button', { name: '重试' })).toBeVisible();
    await expect(notify).toHaveBeenCalledWith({
      type: 'notify',
      level: 'error',
      message: { text: '无权进行此操作，未登录且未提供 access token' },
    });
  },
};

/** State `saving`: fields and button disabled, the button spins. */
export const Saving: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[machineWith(pendingLoad, pendingSave)]} snapshots={seed('saving')}>
      <ProfileEditPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText(/用户名/)).toBeDisabled();
    await expect(c.getByRole('button', { name: /提交/ })).toBeDisabled();
  },
};

/** State `refreshing`: the saved account is read back; still busy. */
export const Refreshing: Story = {
  render: (args) => (
    <MachineRegistryProvider machines={[machineWith(pendingLoad, pendingSave)]} snapshots={seed('refreshing')}>
      <ProfileEditPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('密码')).toBeDisabled();
  },
};

/** Editing in English and dark mode (contrast is checked in both modes). */
export const EditingEnglishDark: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', colorMode: 'dark' },
  render: (args) => (
    <MachineRegistryProvider machines={[machineWith(pendingLoad, pendingSave)]} snapshots={seed('editing')}>
      <ProfileEditPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: 'Update user info' })).toBeVisible();
    await expect(c.getByLabelText(/Username/)).toHaveValue('alice');
  },
};
