import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import type { Message, NavigateEvent, NotifyEvent } from '../../domain/message';
import type { Redemption } from '../../domain/redemption';
import type { ExportRowsInput, FetchPageInput, RowActionInput, RowActionOutcome, SearchRowsInput } from '../../domain/rowAction';
import { defaultTableQuery } from '../../domain/tableQuery';
import { redemptionKeyCopyMachine, redemptionTableMachine } from '../../machines/redemptionList';
import type { TableContext } from '../../machines/table';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { RedemptionListPage } from './RedemptionListPage';
import { bulkRun, phoneViewport, redemptionRows, tableContext } from './RedemptionListPage.fixtures';

const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };

const never = <T,>() => new Promise<T>(() => undefined);
const table = redemptionTableMachine.provide({
  actors: {
    fetchPage: fromPromise<readonly Redemption[], FetchPageInput>(() => Promise.resolve(redemptionRows)),
    searchRows: fromPromise<readonly Redemption[], SearchRowsInput>(({ input }) =>
      Promise.resolve(redemptionRows.filter((r) => r.name.startsWith(input.keyword) || String(r.id) === input.keyword)),
    ),
    runRowAction: fromPromise<RowActionOutcome<Redemption>, RowActionInput<Redemption>>(({ input }) =>
      Promise.resolve(input.action === 'delete' ? { removed: true } : { patch: { status: input.row.status === 1 ? 2 : 1 } }),
    ),
    exportRows: fromPromise<Message | null, ExportRowsInput<Redemption>>(() => Promise.resolve(null)),
  },
});
const frozenTable = redemptionTableMachine.provide({
  actors: {
    fetchPage: fromPromise<readonly Redemption[], FetchPageInput>(() => never()),
    searchRows: fromPromise<readonly Redemption[], SearchRowsInput>(() => never()),
    runRowAction: fromPromise<RowActionOutcome<Redemption>, RowActionInput<Redemption>>(() => never()),
    exportRows: fromPromise<Message | null, ExportRowsInput<Redemption>>(() => never()),
  },
});
const copies = redemptionKeyCopyMachine.provide({ actors: { copyText: fromPromise(() => Promise.resolve()) } });
const copyRefused = redemptionKeyCopyMachine.provide({
  actors: {
    copyText: fromPromise<void, { readonly text: string }>(async () => {
      await Promise.resolve();
      throw new Error('denied');
    }),
  },
});

type TableValue = Parameters<typeof redemptionTableMachine.resolveState>[0]['value'];
const seed = (value: TableValue, over: Partial<TableContext<Redemption>> = {}) => ({
  [redemptionTableMachine.id]: redemptionTableMachine.resolveState({ value, context: tableContext(over) }),
});

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Redemption/RedemptionListPage',
  component: RedemptionListPage,
  parameters: { route: '/redemption' },
  args: { quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 } },
} satisfies Meta<typeof RedemptionListPage>;
export default meta;
type Story = StoryObj<typeof meta>;

const frozen = (snapshots: ReturnType<typeof seed>) => (args: { quotaDisplay: { displayInCurrency: boolean; quotaPerUnit: number } }) => (
  <MachineRegistryProvider machines={[frozenTable, copies]} snapshots={snapshots}>
    <RedemptionListPage {...args} />
  </MachineRegistryProvider>
);

/** State `loading` with nothing loaded: skeleton rows. */
export const FirstLoad: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('loading', { rows: [], shown: [], pagesLoaded: 0, exhausted: false })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: '兑换码' }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
  },
};

export const Ready: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'idle' })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('partner-batch')).toBeVisible();
  },
};

export const Empty: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'idle' }, { rows: [], shown: [] })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('暂无数据')).toBeVisible();
  },
};

/** Search results for 'partner' (the URL would say ?q=partner). */
export const SearchResults: Story = {
  render: frozen(
    seed({ ready: 'idle' }, { rows: [redemptionRows[2]!], query: { ...defaultTableQuery, keyword: 'partner' } }),
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('searchbox')).toHaveValue('partner');
    await expect(c.queryByText('spring-promo')).toBeNull();
    await expect(c.getByRole('button', { name: '清除搜索' })).toBeVisible();
  },
};

/** Filtered to used codes. */
export const FilteredUsed: Story = {
  render: frozen(
    seed({ ready: 'idle' }, { shown: [redemptionRows[1]!], query: { ...defaultTableQuery, filters: { status: '3' } } }),
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('按状态筛选')).toHaveValue('3');
    await expect(c.getByRole('button', { name: '启用兑换码 #11' })).toBeDisabled();
  },
};

export const LoadFailed: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('failed', { rows: [], shown: [] })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('列表加载失败')).toBeVisible();
  },
};

export const RowBusy: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'idle' }, { busy: { 12: 'toggle' } })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '禁用兑换码 #12' })).toBeDisabled();
  },
};

export const ConfirmingRow: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'confirmingRow' }, { pending: { id: 12, action: 'delete', value: '' } })),
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('spring-promo');
  },
};

export const ConfirmingBulk: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'confirmingBulk' }, { selected: [12, 10], bulk: bulkRun() })),
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('将对 2 项执行「批量禁用」');
  },
};

export const BulkRunning: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: { bulkRunning: 'running' } }, { selected: [12, 10], bulk: bulkRun({ done: 1, succeeded: [12] }) })),
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('1 / 2');
  },
};

export const BulkReport: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(
    seed(
      { ready: 'bulkReport' },
      {
        selected: [12, 11],
        bulk: bulkRun({ action: 'enable', ids: [12, 11], done: 2, succeeded: [12], failures: [{ id: 11, message: { text: '该兑换码已被使用，不能启用或禁用' } }] }),
      },
    ),
  ),
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('成功 1 项，失败 1 项');
  },
};

export const Phone: Story = {
  tags: ['!dev', '!autodocs'],
  ...phoneViewport,
  render: frozen(seed({ ready: 'idle' }, { selected: [12] })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('region', { name: '已选择 1 项' })).toBeVisible();
  },
};

export const EnglishDark: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', colorMode: 'dark' },
  render: frozen(seed({ ready: 'idle' })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: 'Redemption codes' })).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** A live run: the codes load, a code is disabled, another deleted after the confirmation. */
export const LiveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[table, copies]}>
        <RedemptionListPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: '禁用兑换码 #12' }));
    await expect(await c.findByRole('button', { name: '启用兑换码 #12' })).toBeEnabled();
    await userEvent.click(c.getByRole('button', { name: '删除兑换码 #10' }));
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    await waitFor(() => expect(c.queryByRole('button', { name: '删除兑换码 #10' })).toBeNull());
    await userEvent.click(c.getByRole('button', { name: '复制兑换码 #12' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'redemptions.copied' } }));
  },
};

/** The clipboard refuses: the spec's warning, and the key lands in the search box. */
export const CopyRefusedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[frozenTable, copyRefused]} snapshots={seed({ ready: 'idle' })}>
        <RedemptionListPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '复制兑换码 #10' }));
    await waitFor(() => expect(c.getByRole('searchbox')).toHaveValue(redemptionRows[2]!.key));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'warning', message: { key: 'redemptions.copyFailed' } });
  },
};
