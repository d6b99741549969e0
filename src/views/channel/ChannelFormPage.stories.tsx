import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure, httpError } from '../../domain/apiError';
import type { Channel, ChannelTypeModels } from '../../domain/channel';
import { emptyChannelForm, type ChannelForm } from '../../domain/channelForm';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import { channelFormMachine, type ChannelFormContext, type SaveChannelInput } from '../../machines/channelForm';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { ChannelFormPage } from './ChannelFormPage';
import { enterText } from '../app/stories/enterText';
import { withStorySession } from '../app/stories/SessionStory';

const typeModels: ChannelTypeModels = { '1': ['gpt-4o', 'gpt-4o-mini'], '14': ['claude-3-haiku', 'claude-3-opus'], '43': null };
const catalogue = ['gpt-4o', 'gpt-4o-mini', 'claude-3-haiku', 'claude-3-opus'];
const groups = ['default', 'vip', 'svip'];
const stored: Channel = {
  id: 7,
  type: 14,
  name: 'anthropic-main',
  status: 1,
  key: '',
  models: 'claude-3-haiku',
  group: 'default,vip',
  base_url: '',
  other: '',
  model_mapping: '',
  system_prompt: null,
  config: '',
};

const notify = fn<(e: NotifyEvent) => void>();
const navigate = fn<(e: NavigateEvent) => void>();
const effects = { notify, navigate };
const saves = fn<(input: SaveChannelInput) => void>();

type Logic<T, I = unknown> = ReturnType<typeof fromPromise<T, I>>;
const never = <T, I = unknown>(): Logic<T, I> => fromPromise<T, I>(() => new Promise<T>(() => undefined));
const resolves = <T, I = unknown>(value: T): Logic<T, I> => fromPromise<T, I>(() => Promise.resolve(value));
const rejects = <T, I = unknown>(error: unknown): Logic<T, I> =>
  fromPromise<T, I>(async () => {
    await Promise.resolve();
    throw error;
  });

interface Stubs {
  readonly loadChannel?: Logic<Channel, { readonly id: number }>;
  readonly loadGroups?: Logic<readonly string[]>;
  readonly loadTypeModels?: Logic<ChannelTypeModels>;
  readonly loadCatalogue?: Logic<readonly string[]>;
  readonly saveChannel?: Logic<void, SaveChannelInput>;
}
const machineWith = (stubs: Stubs = {}) =>
  channelFormMachine.provide({
    actors: {
      loadChannel: stubs.loadChannel ?? resolves(stored),
      loadGroups: stubs.loadGroups ?? resolves<readonly string[]>(groups),
      loadTypeModels: stubs.loadTypeModels ?? resolves(typeModels),
      loadCatalogue: stubs.loadCatalogue ?? resolves<readonly string[]>(catalogue),
      saveChannel:
        stubs.saveChannel ??
        fromPromise<void, SaveChannelInput>(({ input }) => {
          saves(input);
          return Promise.resolve();
        }),
    },
  });
const frozen = () =>
  machineWith({ loadChannel: never(), loadGroups: never(), loadTypeModels: never(), loadCatalogue: never(), saveChannel: never() });

const filled: ChannelForm = { ...emptyChannelForm, name: 'openai-main', key: 'sk-1', models: ['gpt-4o', 'gpt-4o-mini'] };
const context = (over: Partial<ChannelFormContext> = {}): ChannelFormContext => ({
  id: null,
  clone: false,
  cloneSuffix: '',
  form: filled,
  groupOptions: groups,
  typeModels,
  catalogue,
  problem: null,
  ...over,
});
type Value = Parameters<typeof channelFormMachine.resolveState>[0]['value'];
const seed = (value: Value, over?: Partial<ChannelFormContext>) => ({
  [channelFormMachine.id]: channelFormMachine.resolveState({ value, context: context(over) }),
});
const loadingValue: Value = { loading: { channel: 'fetching', groups: 'fetching', typeModels: 'fetching', catalogue: 'fetching' } };

const reset = () => {
  notify.mockClear();
  navigate.mockClear();
  saves.mockClear();
};

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 * The journeys (tagged 'interaction') run the page with its real machine and stub actors.
 */
const meta = {
  title: 'Channel/ChannelFormPage',
  component: ChannelFormPage,
  decorators: [withStorySession],
  parameters: { route: '/channel/add' },
  args: { id: null },
} satisfies Meta<typeof ChannelFormPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A live create: defaults load, a name and key are typed, the save posts and goes back to the list. */
export const CreateInteraction: Story = {
  tags: ['interaction'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith()]}>
        <ChannelFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    reset();
    const c = within(canvasElement);
    const name = await c.findByLabelText(/^名称/);
    await expect(c.getByText('已选择 2 个模型')).toBeVisible();
    await enterText(name, 'openai-main');
    await userEvent.type(c.getByLabelText(/密钥/), 'sk-1');
    await userEvent.click(c.getByRole('checkbox', { name: 'vip' }));
    await enterText(c.getByLabelText('自定义模型名称'), 'my-model, gpt-4o');
    await userEvent.keyboard('{Enter}');
    await expect(c.getByText('已选择 3 个模型')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/channel', replace: false }));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'channelForm.created' } });
    await expect(saves).toHaveBeenCalledWith({
      id: null,
      payload: {
        type: 1,
        name: 'openai-main',
        key: 'sk-1',
        base_url: '',
        other: '',
        models: 'gpt-4o,gpt-4o-mini,my-model',
        group: 'default,vip',
        model_mapping: '',
        system_prompt: '',
        config: '{}',
        weight: 0,
        tags: [],
      },
    });
  },
};

/** A live create: choosing a type the gateway cannot relay warns that its requests are refused; another type clears the warning. */
export const NotRelayableTypeInteraction: Story = {
  tags: ['interaction'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith()]}>
        <ChannelFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    reset();
    const c = within(canvasElement);
    const type = await c.findByLabelText('类型');
    await expect(c.queryByRole('status')).toBeNull();
    await userEvent.selectOptions(type, '21');
    await expect(c.getByRole('status')).toHaveTextContent(/无法转发.*请求会被拒绝/);
    await userEvent.selectOptions(type, '14');
    await expect(c.queryByRole('status')).toBeNull();
    await expect(type).toHaveAccessibleDescription(/原生适配/);
  },
};

/** A live edit: the channel loads into the form; the save puts it with its id. */
export const EditInteraction: Story = {
  tags: ['interaction'],
  args: { id: 7 },
  parameters: { route: '/channel/edit/7' },
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith()]}>
        <ChannelFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    reset();
    const c = within(canvasElement);
    await expect(await c.findByLabelText(/^名称/)).toHaveValue('anthropic-main');
    await expect(c.getByRole('heading', { name: '更新渠道信息' })).toBeVisible();
    await expect(c.getByLabelText('类型')).toHaveValue('14');
    await userEvent.click(c.getByRole('button', { name: '填入相关模型' }));
    await expect(c.getByText('已选择 2 个模型')).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'channelForm.updated' } }));
    await expect(saves.mock.calls[0]?.[0]).toMatchObject({ id: 7, payload: { key: '', models: 'claude-3-haiku,claude-3-opus' } });
  },
};

/** A submit that breaks a rule: the message shows once, at the field (focused, invalid), with no toast; nothing is sent. */
export const ValidationErrorInteraction: Story = {
  tags: ['interaction'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[frozen()]} snapshots={seed('editing', { form: { ...filled, name: '' } })}>
        <ChannelFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    reset();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(await c.findByText('请填写渠道名称和渠道密钥！')).toBeVisible();
    await expect(c.getAllByText('请填写渠道名称和渠道密钥！')).toHaveLength(1);
    const name = c.getByLabelText(/^名称/);
    await waitFor(() => expect(name).toHaveFocus());
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(notify).not.toHaveBeenCalled();
    await userEvent.type(name, 'n');
    await expect(c.queryByText('请填写渠道名称和渠道密钥！')).toBeNull();
    await expect(saves).not.toHaveBeenCalled();
  },
};

/** Clone mode (/channel/clone/7), seeded: the copy of channel 7, its key to be entered again. */
export const Clone: Story = {
  args: { id: 7, clone: true },
  parameters: { route: '/channel/clone/7' },
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider
        machines={[frozen()]}
        snapshots={seed('editing', { id: 7, clone: true, cloneSuffix: ' (副本)', form: { ...filled, type: 14, name: 'anthropic-main (副本)', key: '', weight: '3' } })}
      >
        <ChannelFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: '复制渠道' })).toBeVisible();
    await expect(c.getByLabelText(/^名称/)).toHaveValue('anthropic-main (副本)');
    await expect(c.getByText('密钥不会被复制，请为新渠道重新填写密钥。')).toBeVisible();
    await expect(c.getByLabelText('权重')).toHaveValue(3);
  },
};

/** A live clone: channel 7 fills the form (name suffixed, key empty); the key is required; the save creates (no id). */
export const CloneInteraction: Story = {
  tags: ['interaction'],
  args: { id: 7, clone: true },
  parameters: { route: '/channel/clone/7' },
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith({ loadChannel: resolves<Channel, { readonly id: number }>({ ...stored, base_url: 'https://proxy.example.com', weight: 4 }) })]}>
        <ChannelFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    reset();
    const c = within(canvasElement);
    const name = await c.findByLabelText(/^名称/);
    await expect(name).toHaveValue('anthropic-main (副本)');
    await expect(c.getByLabelText('代理')).toHaveValue('https://proxy.example.com');
    await expect(c.getByLabelText('权重')).toHaveValue(4);
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await expect(await c.findByText('请填写渠道名称和渠道密钥！')).toBeVisible();
    await waitFor(() => expect(c.getByLabelText(/^密钥/)).toHaveFocus());
    await expect(notify).not.toHaveBeenCalled();
    await enterText(c.getByLabelText(/^密钥/), 'sk-copy');
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(saves).toHaveBeenCalledTimes(1));
    await expect(saves.mock.calls[0]?.[0]).toMatchObject({
      id: null,
      payload: { name: 'anthropic-main (副本)', key: 'sk-copy', type: 14, base_url: 'https://proxy.example.com', weight: 4 },
    });
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'channelForm.created' } }));
  },
};

/** A refused save: the server's message, and the form keeps what was typed. */
export const SaveRefusedInteraction: Story = {
  tags: ['interaction'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider
        machines={[machineWith({ saveChannel: rejects(failure('saveChannel', 'UNIQUE constraint failed')) })]}
        snapshots={seed('editing')}
      >
        <ChannelFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    reset();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: 'UNIQUE constraint failed' } }));
    await expect(c.getByLabelText(/^名称/)).toHaveValue('openai-main');
    await expect(navigate).not.toHaveBeenCalled();
  },
};

/** The option lists fail: warnings, and the form still opens for manual entry. */
export const ListsUnavailable: Story = {
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider
        machines={[
          machineWith({
            loadGroups: rejects(httpError('loadGroups', 500, 'Internal Server Error')),
            loadTypeModels: rejects(httpError('loadTypeModels', 500, 'Internal Server Error')),
            loadCatalogue: rejects(httpError('loadCatalogue', 502, 'Bad Gateway')),
          }),
        ]}
      >
        <ChannelFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    // the loads run on mount, before this function: the calls are already recorded
    const c = within(canvasElement);
    await expect(await c.findByText('尚未选择模型')).toBeVisible();
    await expect(c.getByRole('checkbox', { name: 'default' })).toBeChecked();
    for (const key of ['channelForm.groupsUnavailable', 'channelForm.typeModelsUnavailable', 'channelForm.catalogueUnavailable'])
      await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'warning', message: { key } });
  },
};

/** State `loading`: a progress line instead of the fields. */
export const Loading: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[frozen()]} snapshots={seed(loadingValue)}>
      <ChannelFormPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载渠道信息……');
  },
};

/** State `loadFailed`. */
export const LoadFailed: Story = {
  tags: ['!dev', '!autodocs'],
  args: { id: 7 },
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith()]} snapshots={seed('loadFailed', { id: 7 })}>
        <ChannelFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('无法加载渠道信息。')).toBeVisible();
    await expect(c.getByRole('button', { name: '重试' })).toBeEnabled();
  },
};

/** A live edit whose channel cannot be read: the server's message and the retry button. */
export const LoadRefused: Story = {
  args: { id: 99 },
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machineWith({ loadChannel: rejects(failure('loadChannel', 'record not found')) })]}>
        <ChannelFormPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('button', { name: '重试' })).toBeVisible();
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: 'record not found' } });
  },
};

/** State `editing` (create), frozen. */
export const Editing: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[frozen()]} snapshots={seed('editing')}>
      <ChannelFormPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '提交' })).toBeEnabled();
    await expect(c.getByRole('checkbox', { name: '批量创建' })).not.toBeChecked();
  },
};

/** State `editing` in batch mode: one key per line. */
export const EditingBatch: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[frozen()]} snapshots={seed('editing', { form: { ...filled, batch: true, key: 'sk-1\nsk-2' } })}>
      <ChannelFormPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText(/密钥/)).toHaveValue('sk-1\nsk-2');
    await expect(c.getByRole('checkbox', { name: '批量创建' })).toBeChecked();
  },
};

/** State `saving`: fields and buttons disabled, the submit button spins. */
export const Saving: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[frozen()]} snapshots={seed('saving')}>
      <ChannelFormPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText(/^名称/)).toBeDisabled();
    await expect(c.getByRole('button', { name: /提交/ })).toBeDisabled();
  },
};

/** State `saved`: the page is about to leave; the button still spins. */
export const Saved: Story = {
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <MachineRegistryProvider machines={[frozen()]} snapshots={seed('saved')}>
      <ChannelFormPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: /提交/ })).toBeDisabled();
  },
};

/** Editing in English and dark mode. */
export const EditingEnglishDark: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', colorMode: 'dark' },
  render: (args) => (
    <MachineRegistryProvider machines={[frozen()]} snapshots={seed('editing', { id: 7, form: { ...filled, key: '' } })}>
      <ChannelFormPage {...args} />
    </MachineRegistryProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: 'Update channel info' })).toBeVisible();
    await expect(c.getByText('Leave empty to keep the current key')).toBeVisible();
  },
};

/*
 * Interactions from a seeded state (tagged 'interaction' and left out of the docs page): the state
 * story's render with the real machine, played on.
 */

/** From `loadFailed`: a retry loads the channel; cancel goes back to the list. */
export const LoadFailedInteraction: Story = {
  ...LoadFailed,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    reset();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(await c.findByLabelText(/^名称/)).toHaveValue('anthropic-main');
    await userEvent.click(c.getByRole('button', { name: '取消' }));
    await expect(navigate).toHaveBeenCalledWith({ type: 'navigate', to: '/channel', replace: false });
  },
};

/** From `editing` in batch mode: unticking batch turns the keys back into one field. */
export const EditingBatchInteraction: Story = {
  ...EditingBatch,
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('checkbox', { name: '批量创建' }));
    await expect(c.getByLabelText(/密钥/).tagName).toBe('INPUT');
  },
};
