import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { Token } from '../../domain/token';
import { emptyTokenForm, tokenFormOf } from '../../domain/tokenForm';
import { tokenFormMachine, type SaveTokenInput, type TokenFormContext } from '../../machines/tokenForm';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { TokenFormPage } from './TokenFormPage';
import { enterText } from '../app/stories/enterText';
import { withStorySession } from '../app/stories/SessionStory';

const stored: Token = {
  id: 4,
  name: 'ci-runner',
  key: 'abcdef',
  status: 1,
  created_time: 1_700_000_000,
  expired_time: -1,
  remain_quota: 500000,
  unlimited_quota: false,
  used_quota: 0,
  models: 'gpt-4o',
  subnet: '',
};
const available = ['gpt-4o', 'gpt-4o-mini', 'claude-3-haiku'];

const notify = fn<(e: NotifyEvent) => void>();
const navigate = fn<(e: NavigateEvent) => void>();
const saves = fn<(input: SaveTokenInput) => void>();
const effects = { notify, navigate };

const never = <T,>() => new Promise<T>(() => undefined);
const machineWith = (over: { load?: 'ok' | 'fails' | 'never'; save?: 'ok' | 'refused' | 'never' } = {}) =>
  tokenFormMachine.provide({
    actors: {
      loadToken: fromPromise<Token, { readonly id: number }>(async () => {
        if (over.load === 'never') return never<Token>();
        await Promise.resolve();
        if (over.load === 'fails') throw failure('loadToken', 'record not found');
        return stored;
      }),
      loadAvailableModels: fromPromise<readonly string[], unknown>(() => (over.load === 'never' ? never() : Promise.resolve(available))),
      saveToken: fromPromise<void, SaveTokenInput>(async ({ input }) => {
        saves(input);
        if (over.save === 'never') return never<void>();
        await Promise.resolve();
        if (over.save === 'refused') throw failure('saveToken', '参数错误：令牌名称过长');
      }),
    },
  });

type Value = Parameters<typeof tokenFormMachine.resolveState>[0]['value'];
const seed = (value: Value, over: Partial<TokenFormContext> = {}) => ({
  [tokenFormMachine.id]: tokenFormMachine.resolveState({
    value,
    context: {
      id: 4,
      offsetMinutes: null,
      form: tokenFormOf(stored),
      availableModels: available,
      modelFilter: '',
      problem: null,
      ...over,
    },
  }),
});

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Token/TokenFormPage',
  component: TokenFormPage,
  decorators: [withStorySession],
  parameters: { route: '/token/edit/4' },
  args: { id: 4, quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 } },
} satisfies Meta<typeof TokenFormPage>;
export default meta;
type Story = StoryObj<typeof meta>;

const live = (machine: ReturnType<typeof machineWith>, snapshots?: ReturnType<typeof seed>) =>
  function Live(args: { id: number | null; quotaDisplay: { displayInCurrency: boolean; quotaPerUnit: number } }) {
    return (
      <EffectsProvider value={effects}>
        <MachineRegistryProvider machines={[machine]} snapshots={snapshots}>
          <TokenFormPage {...args} />
        </MachineRegistryProvider>
      </EffectsProvider>
    );
  };

/** A live load refused by the server: the toast and the retry button. */
export const LoadRefused: Story = {
  render: live(machineWith({ load: 'fails' })),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('button', { name: '重试' })).toBeVisible();
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: 'record not found' } });
  },
};

const frozen = (snapshots: ReturnType<typeof seed>) => (args: { id: number | null; quotaDisplay: { displayInCurrency: boolean; quotaPerUnit: number } }) => (
  <MachineRegistryProvider machines={[machineWith({ load: 'never', save: 'never' })]} snapshots={snapshots}>
    <TokenFormPage {...args} />
  </MachineRegistryProvider>
);

/** State `loading`. */
export const Loading: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ loading: { token: 'fetching', models: 'fetching' } }, { form: emptyTokenForm, availableModels: [] })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载令牌信息……');
  },
};
/** State `loadFailed`. */
export const LoadFailed: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[machineWith()]} snapshots={seed('loadFailed', { form: emptyTokenForm, availableModels: [] })}>
      <TokenFormPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载令牌信息。')).toBeVisible();
  },
};
/** State `editing`. */
export const Editing: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('editing')),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('额度')).toHaveValue('500000');
    await expect(c.getByRole('checkbox', { name: 'gpt-4o' })).toBeChecked();
  },
};

/** State `saving`: fields disabled, the button spins. */
export const Saving: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('saving')),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('名称')).toBeDisabled();
  },
};
/** State `saved` (done; the shell is navigating to /token). */
export const Saved: Story = {
  render: frozen(seed('saved')),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '提交' })).toBeDisabled();
  },
};
export const EditingEnglishDark: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', colorMode: 'dark' },
  render: frozen(seed('editing')),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'Update token info' })).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** An invalid IP restriction: the field names the bad entry, nothing is sent. */
export const SubnetInvalidInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: live(machineWith(), seed('editing')),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    saves.mockClear();
    const c = within(canvasElement);
    await enterText(c.getByLabelText('IP 限制'), '10.0.0.0/8, 999.1.1.1');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(await c.findByText('无效的网段：999.1.1.1')).toBeVisible();
    await expect(saves).not.toHaveBeenCalled();
    // said once, at the field, which takes the focus: no toast repeats it
    await waitFor(() => expect(c.getByLabelText('IP 限制')).toHaveFocus());
    await expect(c.getByLabelText('IP 限制')).toHaveAttribute('aria-invalid', 'true');
    await expect(notify).not.toHaveBeenCalled();
  },
};

/** A refused save: the server's message, and what was typed stays. */
export const SaveRefusedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: live(machineWith({ save: 'refused' }), seed('editing', { form: { ...tokenFormOf(stored), name: 'a very long token name indeed!!' } })),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: '参数错误：令牌名称过长' } }));
    await expect(c.getByLabelText('名称')).toHaveValue('a very long token name indeed!!');
  },
};

/** State `loadFailed`, then a retry that loads. */
export const LoadFailedInteraction: Story = {
  ...LoadFailed,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载令牌信息。')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(await c.findByLabelText('名称')).toHaveValue('ci-runner');
  },
};

/** State `editing` with the filter typed: the list narrows. */
export const EditingFilteredInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: live(machineWith(), seed('editing')),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByLabelText('搜索模型'), 'claude');
    await waitFor(() => expect(c.queryByRole('checkbox', { name: 'gpt-4o-mini' })).toBeNull());
    await expect(c.getByRole('checkbox', { name: 'claude-3-haiku' })).toBeVisible();
    await userEvent.click(c.getByRole('checkbox', { name: '无限额度' }));
    await expect(c.getByLabelText('额度')).toBeDisabled();
  },
};

/** A live create: the name, a model, 'one day', submit; the toast and /token. */
export const CreateLiveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  args: { id: null },
  parameters: { route: '/token/add' },
  render: live(machineWith()),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    navigate.mockClear();
    saves.mockClear();
    const c = within(canvasElement);
    await userEvent.type(await c.findByLabelText(/^名称/), 'nightly');
    await userEvent.click(c.getByRole('checkbox', { name: 'gpt-4o-mini' }));
    await expect(c.getByText('已选择 1 个模型')).toBeVisible();
    const before = Math.floor(Date.now() / 1000);
    await userEvent.click(c.getByRole('button', { name: '一天后过期' }));
    await expect(c.getByLabelText('过期时间')).not.toHaveValue('');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/token', replace: false }));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'tokenForm.created' } });
    const sent = saves.mock.calls[0]![0];
    await expect(sent).toMatchObject({ id: null, payload: { name: 'nightly', models: 'gpt-4o-mini', remain_quota: 500000, unlimited_quota: false } });
    await expect(Math.abs(sent.payload.expired_time - (before + 86400))).toBeLessThanOrEqual(5);
  },
};

/** A live edit: the token loads, the name changes; the toast and /token. */
export const EditLiveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: live(machineWith()),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    saves.mockClear();
    const c = within(canvasElement);
    const name = await c.findByLabelText('名称');
    await expect(name).toHaveValue('ci-runner');
    await userEvent.clear(name);
    await userEvent.type(name, 'renamed');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'tokenForm.updated' } }));
    await expect(saves).toHaveBeenCalledWith({
      id: 4,
      payload: { name: 'renamed', remain_quota: 500000, expired_time: -1, unlimited_quota: false, models: 'gpt-4o', subnet: '' },
    });
  },
};
