import type { Meta, StoryObj } from '@storybook/react-vite';
import type { AnyMachineSnapshot } from 'xstate';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { OptionEntry } from '../../domain/option';
import { withInput } from '../../domain/priceEditor';
import { initialPriceEditorContext, loadedContext, priceEditorMachine, type PriceEditorContext, type SavePriceOptionInput } from '../../machines/priceEditor';
import { EffectsProvider, MachineRegistryProvider, useMachineActor } from '../app/machineRegistry';
import { PriceEditorPanel } from './PriceEditor';

/*
 * The ratio section as a price editor (priceEditor machine), one story per machine state. The
 * option list and the save are spies; nothing reaches the network.
 */

const never = <T,>() => new Promise<T>(() => undefined);
const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };

const entries: OptionEntry[] = [
  { key: 'ModelRatio', value: '{"gpt-4o":2.5,"gpt-4o-mini":0.075,"claude-3-5-sonnet-20240620":3,"text-embedding-3-small":0.01}' },
  { key: 'CompletionRatio', value: '{"gpt-4o":4}' },
  { key: 'GroupRatio', value: '{"default":1,"vip":0.5}' },
  { key: 'QuotaPerUnit', value: '500000' },
  { key: 'DisplayInCurrencyEnabled', value: 'true' },
];

const listOptions = fn(() => Promise.resolve(entries));
const saveOption = fn((_input: SavePriceOptionInput) => Promise.resolve());
const refused = fn(async (_input: SavePriceOptionInput) => {
  await Promise.resolve();
  throw failure('saveOption', '无权进行此操作，权限不足');
});
const withActors = (save: (input: SavePriceOptionInput) => Promise<void>, list: () => Promise<OptionEntry[]> = listOptions) =>
  priceEditorMachine.provide({
    actors: {
      listOptions: fromPromise<OptionEntry[]>(() => list()),
      saveOption: fromPromise<void, SavePriceOptionInput>(({ input }) => save(input)),
    },
  });
const answering = withActors(saveOption);
const failing = withActors(refused);
const pending = withActors(() => never<void>(), () => never<OptionEntry[]>());

const loaded: PriceEditorContext = { ...initialPriceEditorContext, ...loadedContext(entries) };
/** gpt-4o at −1 and gpt-4o-mini at "abc": two cells marked. */
const invalid: PriceEditorContext = {
  ...loaded,
  models: loaded.models.map((r) => (r.name === 'gpt-4o' ? withInput(r, '-1') : r.name === 'gpt-4o-mini' ? withInput(r, 'abc') : r)),
};
const cheaper: PriceEditorContext = { ...loaded, models: loaded.models.map((r) => (r.name === 'gpt-4o' ? withInput(r, '6') : r)) };

type Value = 'loading' | 'loadFailed' | 'saving' | { readonly open: 'editing' | 'saved' | 'saveFailed' };
const seed = (value: Value, context: PriceEditorContext = loaded): Record<string, AnyMachineSnapshot> => ({
  [priceEditorMachine.id]: priceEditorMachine.resolveState({ value, context }),
});

/** The editor on its own (on the page it is the settings machine's child, see SettingsPage's stories). */
function Standalone() {
  return <PriceEditorPanel actor={useMachineActor(priceEditorMachine)} />;
}

function EditorStory({ machine = answering, snapshots }: { readonly machine?: typeof priceEditorMachine; readonly snapshots?: Record<string, AnyMachineSnapshot> }) {
  return (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[machine]} snapshots={snapshots}>
        <Standalone />
      </MachineRegistryProvider>
    </EffectsProvider>
  );
}

const meta = {
  title: 'Setting/PriceEditor',
  component: EditorStory,
  parameters: { route: '/setting?tab=operation' },
  beforeEach: () => {
    notify.mockClear();
    listOptions.mockClear();
    saveOption.mockClear();
    refused.mockClear();
  },
} satisfies Meta<typeof EditorStory>;
export default meta;
type Story = StoryObj<typeof meta>;

/** State `loading` (frozen). */
export const Loading: Story = {
  render: () => <EditorStory machine={pending} snapshots={seed('loading', initialPriceEditorContext)} />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('正在加载倍率');
  },
};

/** State `loadFailed`: the retry button. */
export const LoadFailed: Story = {
  render: () => <EditorStory snapshots={seed('loadFailed', initialPriceEditorContext)} />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '重试' })).toBeVisible();
  },
};

/** State `open.editing`, nothing changed: the prices in dollars per 1M tokens. */
export const Viewing: Story = {
  render: () => <EditorStory snapshots={seed({ open: 'editing' })} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('gpt-4o 输入价格')).toHaveValue('5');
    await expect(c.getByLabelText('gpt-4o 输出价格')).toHaveValue('20');
    await expect(c.getByLabelText('vip 倍率')).toHaveValue('0.5');
    await expect(c.getByRole('button', { name: '保存倍率设置' })).toBeDisabled();
  },
};

/** State `open.editing` with invalid cells: each marked where it is, with its message. */
export const EditingInvalid: Story = {
  render: () => <EditorStory snapshots={seed({ open: 'editing' }, invalid)} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('gpt-4o 输入价格')).toHaveAttribute('aria-invalid', 'true');
    await expect(c.getByLabelText('gpt-4o 输入价格')).toHaveAccessibleDescription('gpt-4o 的输入价格不能为负数');
    await expect(c.getByLabelText('gpt-4o-mini 输入价格')).toHaveAccessibleDescription('gpt-4o-mini 的输入价格不是数字');
    await expect(c.getByText('有 2 处错误，修正后才能保存')).toBeVisible();
  },
};

/** State `saving` (frozen): inputs and the button wait. */
export const Saving: Story = {
  render: () => <EditorStory machine={pending} snapshots={seed('saving', { ...cheaper, queue: [['ModelRatio', '{}']] })} />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('gpt-4o 输入价格')).toBeDisabled();
    await expect(saveOption).not.toHaveBeenCalled();
  },
};

/** State `open.saved`. */
export const Saved: Story = {
  render: () => <EditorStory snapshots={seed({ open: 'saved' })} />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('倍率已保存')).toBeVisible();
  },
};

/** State `open.saveFailed`: the edits stay, the server's message is shown. */
export const SaveFailed: Story = {
  render: () => <EditorStory snapshots={seed({ open: 'saveFailed' }, { ...cheaper, error: { text: '无权进行此操作，权限不足' } })} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('alert')).toHaveTextContent('保存失败：无权进行此操作，权限不足');
    await expect(c.getByLabelText('gpt-4o 输入价格')).toHaveValue('6');
  },
};

/** State `open.editing` with both tables as JSON. */
export const JsonMode: Story = {
  render: () => <EditorStory snapshots={seed({ open: 'editing' }, { ...loaded, modes: { models: 'json', groups: 'json' } })} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('模型倍率')).toBeVisible();
    await expect(c.getByLabelText('分组倍率')).toBeVisible();
    await expect(c.getAllByRole('button', { name: '表格编辑' })).toHaveLength(2);
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction').
 */

/** Loads, types a new input price, saves: ModelRatio is sent, the toast says so. */
export const EditAndSaveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => <EditorStory />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const input = await c.findByLabelText('gpt-4o 输入价格');
    await userEvent.clear(input);
    await userEvent.type(input, '6');
    await expect(c.getByLabelText('gpt-4o 输出价格')).toHaveValue('24');
    await userEvent.click(c.getByRole('button', { name: '保存倍率设置' }));
    await waitFor(() => expect(saveOption).toHaveBeenCalledTimes(1));
    const sent = saveOption.mock.calls[0]![0];
    await expect(sent.key).toBe('ModelRatio');
    await expect(JSON.parse(sent.value)).toMatchObject({ 'gpt-4o': 3 });
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'common.success' } }));
    await expect(await c.findByText('倍率已保存')).toBeVisible();
  },
};

/** A negative price: the cell is marked, saving only says why. */
export const NegativePriceInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => <EditorStory />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const input = await c.findByLabelText('gpt-4o 输入价格');
    await userEvent.clear(input);
    await userEvent.type(input, '-3');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await userEvent.click(c.getByRole('button', { name: '保存倍率设置' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ level: 'error' })));
    await expect(saveOption).not.toHaveBeenCalled();
  },
};

/** A failing save: the message stays beside the kept edits. */
export const SaveFailedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => <EditorStory machine={failing} snapshots={seed({ open: 'editing' }, cheaper)} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '保存倍率设置' }));
    await expect(await c.findByRole('alert')).toHaveTextContent('无权进行此操作，权限不足');
  },
};
