import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { User } from '../../domain/user';
import { emptyUserForm, userFormMachine, userFormOf, type SaveUserInput, type UserFormContext } from '../../machines/userForm';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { UserFormPage } from './UserFormPage';
import { enterText } from '../app/stories/enterText';
import { withStorySession } from '../app/stories/SessionStory';

const alice: User = {
  id: 2,
  username: 'alice',
  display_name: 'Alice',
  role: 1,
  status: 1,
  group: 'default',
  quota: 500000,
  github_id: '',
  wechat_id: '',
  email: 'alice@example.com',
};

const notify = fn<(e: NotifyEvent) => void>();
const navigate = fn<(e: NavigateEvent) => void>();
const saves = fn<(input: SaveUserInput) => void>();
const effects = { notify, navigate };

const never = <T,>() => new Promise<T>(() => undefined);
const machineWith = (over: { load?: 'ok' | 'fails' | 'never'; save?: 'ok' | 'refused' | 'never' } = {}) =>
  userFormMachine.provide({
    actors: {
      loadUser: fromPromise<User, { readonly id: number }>(async () => {
        if (over.load === 'never') return never<User>();
        await Promise.resolve();
        if (over.load === 'fails') throw failure('loadUser', '无权获取同级或更高等级用户的信息');
        return alice;
      }),
      loadGroups: fromPromise<readonly string[]>(() => (over.load === 'never' ? never() : Promise.resolve(['default', 'vip', 'svip']))),
      saveUser: fromPromise<void, SaveUserInput>(async ({ input }) => {
        saves(input);
        if (over.save === 'never') return never<void>();
        await Promise.resolve();
        if (over.save === 'refused') throw failure('saveUser', '用户名已存在');
      }),
    },
  });

type Value = Parameters<typeof userFormMachine.resolveState>[0]['value'];
const seed = (value: Value, over: Partial<UserFormContext> = {}) => ({
  [userFormMachine.id]: userFormMachine.resolveState({
    value,
    context: { id: 2, form: userFormOf(alice), groupOptions: ['default', 'vip', 'svip'], problem: null, ...over },
  }),
});

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'User/UserFormPage',
  component: UserFormPage,
  decorators: [withStorySession],
  parameters: { route: '/user/edit/2' },
  args: { id: 2, quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 } },
} satisfies Meta<typeof UserFormPage>;
export default meta;
type Story = StoryObj<typeof meta>;

const frozen = (snapshots: ReturnType<typeof seed>) => (args: { id: number | null; quotaDisplay: { displayInCurrency: boolean; quotaPerUnit: number } }) => (
  <MachineRegistryProvider machines={[machineWith({ load: 'never', save: 'never' })]} snapshots={snapshots}>
    <UserFormPage {...args} />
  </MachineRegistryProvider>
);

/** State `loading`. */
export const Loading: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ loading: { user: 'fetching', groups: 'fetching' } }, { form: emptyUserForm })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载用户信息……');
  },
};
/** State `loadFailed`. */
export const LoadFailed: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[machineWith()]} snapshots={seed('loadFailed', { form: emptyUserForm })}>
      <UserFormPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载用户信息。')).toBeVisible();
  },
};
/** A live load refused by the server: the toast and the retry button. */
export const LoadRefused: Story = {
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith({ load: 'fails' })]}>
        <UserFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('button', { name: '重试' })).toBeVisible();
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: '无权获取同级或更高等级用户的信息' } });
  },
};
/** State `editing`. */
export const Editing: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('editing')),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('剩余额度')).toHaveValue('500000');
  },
};
/** State `saving`: fields disabled, the button spins. */
export const Saving: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('saving')),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('用户名')).toBeDisabled();
  },
};
/** State `created` (create is done; the shell is navigating to /user). */
export const Created: Story = {
  args: { id: null },
  render: frozen({
    [userFormMachine.id]: userFormMachine.resolveState({
      value: 'created',
      context: { id: null, form: { ...emptyUserForm, username: 'carol', password: 'carol-pass-1' }, groupOptions: [], problem: null },
    }),
  }),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '提交' })).toBeDisabled();
  },
};
export const EditingEnglishDark: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', colorMode: 'dark' },
  render: frozen(seed('editing')),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'Update user info' })).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** A live edit: the user loads, group and quota change, the save says so and the page stays. */
export const EditLiveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith()]}>
        <UserFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    saves.mockClear();
    const c = within(canvasElement);
    await expect(await c.findByLabelText('用户名')).toHaveValue('alice');
    await userEvent.selectOptions(c.getByLabelText('分组'), 'vip');
    await userEvent.clear(c.getByLabelText('剩余额度'));
    await userEvent.type(c.getByLabelText('剩余额度'), '750000');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'account.profile.saved' } }),
    );
    await expect(saves).toHaveBeenCalledWith({
      kind: 'update',
      payload: { id: 2, username: 'alice', display_name: 'Alice', group: 'vip', quota: 750000 },
    });
  },
};

/** A live create: nothing is sent until username and password are filled; then the toast and /user. */
export const CreateLiveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  args: { id: null },
  parameters: { route: '/user/add' },
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith()]}>
        <UserFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    navigate.mockClear();
    saves.mockClear();
    const c = within(canvasElement);
    await userEvent.type(c.getByLabelText(/用户名/), 'carol');
    await expect(c.getByRole('button', { name: '提交' })).toBeDisabled();
    await enterText(c.getByLabelText(/密码/), 'carol-pass-1');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/user', replace: false }));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'users.created' } });
    await expect(saves).toHaveBeenCalledWith({ kind: 'create', payload: { username: 'carol', password: 'carol-pass-1' } });
  },
};

/** Create with a 13-character username: nothing is sent, the field names itself and the rule (no toast). */
export const UsernameBreaksRuleInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  args: { id: null },
  parameters: { route: '/user/add' },
  render: CreateLiveInteraction.render,
  play: async ({ canvasElement }) => {
    notify.mockClear();
    saves.mockClear();
    const c = within(canvasElement);
    await enterText(c.getByLabelText(/用户名/), 'u'.repeat(13));
    await enterText(c.getByLabelText(/密码/), 'carol-pass-1');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    // said at the field, naming it (no toast); the field takes the focus
    await expect(await c.findByText('用户名长度不能超过 12 个字符')).toBeVisible();
    await waitFor(() => expect(c.getByLabelText(/用户名/)).toHaveFocus());
    await expect(notify).not.toHaveBeenCalled();
    await expect(saves).not.toHaveBeenCalled();
  },
};

/** A refused save: the server's message, and what was typed stays. */
export const SaveRefusedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith({ save: 'refused' })]} snapshots={seed('editing', { form: { ...userFormOf(alice), username: 'bob' } })}>
        <UserFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: '用户名已存在' } }));
    await expect(c.getByLabelText('用户名')).toHaveValue('bob');
  },
};

/** An invalid quota: the field says so, nothing is sent. */
export const QuotaInvalidInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith()]} snapshots={seed('editing', { form: { ...userFormOf(alice), quota: 'lots' } })}>
        <UserFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    saves.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(await c.findByText('剩余额度必须是整数')).toBeVisible();
    await expect(saves).not.toHaveBeenCalled();
  },
};

/** State `loadFailed`, then a retry that loads. */
export const LoadFailedInteraction: Story = {
  ...LoadFailed,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载用户信息。')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(await c.findByLabelText('用户名')).toHaveValue('alice');
  },
};
