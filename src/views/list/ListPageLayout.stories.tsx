import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from '@chakra-ui/react';
import { expect, fn, userEvent, within } from 'storybook/test';
import type { BulkRun } from '../../machines/table';
import type { TableState } from '../table/useTable';
import { tableStateOf } from '../table/table.fixtures';
import { ListPageLayout } from './ListPageLayout';
import { actionsColumn, LabelBadge, ListSelect, useColumns, useLabelledOptions } from './useColumns';

interface DemoRow {
  readonly id: number;
  readonly name: string;
  readonly status: number;
  readonly quota: number;
}

const rows: readonly DemoRow[] = [
  { id: 3, name: 'alpha', status: 1, quota: 500 },
  { id: 2, name: 'beta', status: 2, quota: 0 },
  { id: 1, name: 'gamma', status: 1, quota: 42 },
];

const statuses = [
  { value: 1, labelKey: 'domain.tokenStatus.enabled', color: 'green' },
  { value: 2, labelKey: 'domain.tokenStatus.disabled', color: 'red' },
] as const;

const tableState = (over: Partial<TableState<DemoRow>> = {}): TableState<DemoRow> => tableStateOf(rows, over);

const run = (over: Partial<BulkRun> = {}): BulkRun => ({
  action: 'delete',
  value: '',
  ids: [3, 2],
  done: 0,
  succeeded: [],
  failures: [],
  cancelled: false,
  ...over,
});

interface DemoListProps {
  readonly table: TableState<DemoRow>;
  /** The page of the log kind: no search, no selection, a note beside the heading. */
  readonly plain?: boolean;
  readonly onSort: (key: string) => void;
  readonly onPage: (page: number) => void;
  readonly onSize: (size: number) => void;
  readonly onRetry: () => void;
  readonly onRefresh: () => void;
  readonly onDraft: (text: string) => void;
  readonly onSearch: () => void;
  readonly onClearSearch: () => void;
  readonly onFilter: (value: string) => void;
  readonly onToggleRow: (id: number) => void;
  readonly onTogglePage: () => void;
  readonly onSelectAllMatching: () => void;
  readonly onClearSelection: () => void;
  readonly onDelete: (id: number) => void;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly onBulk: (action: 'enable' | 'delete') => void;
  readonly onBulkConfirm: () => void;
  readonly onBulkCancel: () => void;
  readonly onBulkStop: () => void;
  readonly onBulkRetry: () => void;
  readonly onBulkDismiss: () => void;
}

/** A list written with the layout and the columns hook, as the list pages are. */
function DemoList({ table, plain = false, ...on }: DemoListProps) {
  const statusOptions = useLabelledOptions(statuses);
  const columns = useColumns<DemoRow>([
    { key: 'id', header: 'redemptions.col.id', numeric: true, render: (r) => r.id },
    { key: 'name', header: 'redemptions.col.name', minW: '8rem', render: (r) => r.name },
    { key: 'status', header: 'redemptions.col.status', render: (r) => <LabelBadge entry={statuses[r.status === 1 ? 0 : 1]} /> },
    !plain && { key: 'quota', header: 'redemptions.col.quota', numeric: true, render: (r) => r.quota },
    actionsColumn((r) => (
      <Button size="xs" variant="outline" colorPalette="red" disabled={!table.idle} onClick={() => on.onDelete(r.id)} aria-label={`删除 ${r.name}`}>
        删除
      </Button>
    )),
  ]);
  if (plain) {
    return (
      <ListPageLayout<DemoRow>
        title="日志"
        titleAside={<span data-testid="aside">点击查看</span>}
        table={table}
        columns={columns}
        on={on}
        emptyText="没有日志"
      />
    );
  }
  return (
    <ListPageLayout<DemoRow, 'enable' | 'delete'>
      title="兑换码"
      table={table}
      columns={columns}
      on={on}
      search={{ label: '搜索兑换码', ...on }}
      toolbar={
        <ListSelect label="状态" value={table.filters.status ?? ''} options={statusOptions} allLabel="全部" disabled={!table.idle} onChange={on.onFilter} />
      }
      add={{ to: '/redemption/add', label: '添加新的兑换码' }}
      onRefresh={on.onRefresh}
      selection={{ rowName: (r) => `#${r.id} ${r.name}`, ...on }}
      bulk={{
        actions: [
          { action: 'enable', label: 'redemptions.bulk.enable', palette: 'green' },
          { action: 'delete', label: 'redemptions.bulk.delete', palette: 'red', danger: true },
        ],
        ...on,
      }}
      confirm={{ body: (id, row) => `删除 #${id} ${row?.name ?? ''}？`, confirmLabel: '删除', ...on }}
    />
  );
}

const meta = {
  title: 'List/ListPageLayout',
  component: DemoList,
  args: {
    table: tableState(),
    onSort: fn(),
    onPage: fn(),
    onSize: fn(),
    onRetry: fn(),
    onRefresh: fn(),
    onDraft: fn(),
    onSearch: fn(),
    onClearSearch: fn(),
    onFilter: fn(),
    onToggleRow: fn(),
    onTogglePage: fn(),
    onSelectAllMatching: fn(),
    onClearSelection: fn(),
    onDelete: fn(),
    onConfirm: fn(),
    onCancel: fn(),
    onBulk: fn(),
    onBulkConfirm: fn(),
    onBulkCancel: fn(),
    onBulkStop: fn(),
    onBulkRetry: fn(),
    onBulkDismiss: fn(),
  },
} satisfies Meta<typeof DemoList>;
export default meta;
type Story = StoryObj<typeof meta>;

const body = (el: HTMLElement) => within(el.ownerDocument.body);

/** Heading, toolbar (search, filter, add, refresh), the table with translated sortable headers, the pager. */
export const Ready: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { level: 1, name: '兑换码' })).toBeInTheDocument();
    const table = c.getByRole('table', { name: '兑换码' });
    for (const header of ['ID', '名称', '状态', '额度']) {
      await expect(within(table).getByRole('columnheader', { name: new RegExp(header) })).toHaveAttribute('aria-sort', 'none');
    }
    await expect(within(table).getByRole('columnheader', { name: '操作' })).not.toHaveAttribute('aria-sort');
    await expect(within(table).getAllByText('已启用')).toHaveLength(2);
    await expect(c.getByRole('link', { name: '添加新的兑换码' })).toHaveAttribute('href', '/redemption/add');
    await expect(c.getByRole('navigation')).toBeInTheDocument();
    await expect(c.queryByRole('region')).toBeNull();
  },
};

/** The toolbar and headers send their events. */
export const ToolbarInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: /名称/ }));
    await expect(args.onSort).toHaveBeenCalledWith('name');
    await userEvent.selectOptions(c.getByRole('combobox', { name: '状态' }), '2');
    await expect(args.onFilter).toHaveBeenCalledWith('2');
    await userEvent.type(c.getByRole('searchbox', { name: '搜索兑换码' }), 'a');
    await expect(args.onDraft).toHaveBeenCalledWith('a');
    await userEvent.click(c.getByRole('button', { name: '刷新' }));
    await expect(args.onRefresh).toHaveBeenCalled();
    await userEvent.click(c.getByRole('checkbox', { name: /#3 alpha/ }));
    await expect(args.onToggleRow).toHaveBeenCalledWith(3);
  },
};

/** The first page is loading: skeleton rows, no pager spinner. */
export const FirstLoad: Story = {
  args: { table: tableState({ rows: [], firstLoad: true, loading: true, idle: false, shownCount: 0, loadedCount: 0 }) },
};

/** No row at all. */
export const Empty: Story = {
  args: { table: tableState({ rows: [], shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('暂无数据')).toBeInTheDocument();
  },
};

/** Nothing matches the search: the clear button shows. */
export const EmptySearch: Story = {
  args: { table: tableState({ rows: [], shownCount: 0, loadedCount: 0, keyword: 'zzz', draft: 'zzz' }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('没有找到匹配的记录')).toBeInTheDocument();
    await expect(c.getByRole('button', { name: '清除搜索' })).toBeInTheDocument();
  },
};

/** The load failed: an alert with retry, no pager; the search still works. */
export const LoadFailed: Story = {
  args: { table: tableState({ rows: [], loadFailed: true, idle: false, shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('alert')).toBeInTheDocument();
    await expect(c.queryByRole('navigation')).toBeNull();
    await expect(c.getByRole('searchbox', { name: '搜索兑换码' })).toBeEnabled();
  },
};

/** Retry after a failed load sends its event. */
export const RetryInteraction: Story = {
  args: LoadFailed.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalled();
  },
};

/** Two rows selected: the selection bar with the bulk actions. */
export const Selected: Story = {
  args: { table: tableState({ selected: new Set([3, 2]), selectedCount: 2 }) },
  play: async ({ canvasElement }) => {
    const bar = within(canvasElement).getByRole('region');
    await expect(within(bar).getByRole('button', { name: '批量删除' })).toBeEnabled();
  },
};

/** A bulk action of the selection bar sends its event. */
export const BulkActionInteraction: Story = {
  args: Selected.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const bar = within(canvasElement).getByRole('region');
    await userEvent.click(within(bar).getByRole('button', { name: '批量删除' }));
    await expect(args.onBulk).toHaveBeenCalledWith('delete');
  },
};

/** A row delete waits for its confirmation. */
export const ConfirmingRow: Story = {
  args: { table: tableState({ idle: false, pending: { id: 2, action: 'delete', value: '' } }) },
  play: async ({ canvasElement }) => {
    await expect(await body(canvasElement).findByRole('alertdialog')).toHaveTextContent('删除 #2 beta？');
  },
};

/** A bulk delete waits for its confirmation (red: the action destroys). */
export const ConfirmingBulk: Story = {
  args: { table: tableState({ idle: false, selected: new Set([3, 2]), selectedCount: 2, bulkToConfirm: run() }) },
  play: async ({ canvasElement }) => {
    await expect(await body(canvasElement).findByRole('alertdialog')).toBeInTheDocument();
  },
};

/** The report names failed rows by the selection's row name. */
export const BulkReport: Story = {
  args: {
    table: tableState({
      bulkReport: run({ done: 2, succeeded: [3], failures: [{ id: 2, message: { text: 'locked' } }] }),
    }),
  },
  play: async ({ canvasElement }) => {
    await expect(await body(canvasElement).findByText(/#2 beta/)).toBeInTheDocument();
  },
};

/** The log kind of page: a note beside the heading, no toolbar, no selection column, its own empty text. */
export const Plain: Story = {
  args: { plain: true, table: tableState({ rows: [], shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByTestId('aside')).toBeInTheDocument();
    await expect(c.queryByRole('search')).toBeNull();
    await expect(c.queryByRole('checkbox')).toBeNull();
    await expect(c.getByText('没有日志')).toBeInTheDocument();
  },
};

/** English, dark. */
export const EnglishDark: Story = {
  parameters: { lang: 'en', colorMode: 'dark' },
};
