import type { Meta, StoryObj } from '@storybook/react-vite';
import { Badge } from '../app/laterComponents';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { DataTableView, type Column } from './DataTableView';

interface DemoChannel {
  readonly id: number;
  readonly name: string;
  readonly group: string;
  readonly status: number;
  readonly priority: number;
  readonly balance: number;
}

const channels: readonly DemoChannel[] = [
  { id: 1, name: 'openai-main', group: 'default', status: 1, priority: 10, balance: 42.5 },
  { id: 2, name: 'azure-east', group: 'default,vip', status: 1, priority: 5, balance: 0 },
  { id: 3, name: 'claude-backup', group: 'vip', status: 2, priority: 0, balance: 12 },
  { id: 4, name: 'gemini-free', group: 'default', status: 3, priority: 0, balance: 3.2 },
  { id: 5, name: 'moonshot', group: 'default', status: 1, priority: 1, balance: 100 },
];

const statusText: Readonly<Record<number, string>> = { 1: '已启用', 2: '已禁用', 3: '已自动禁用' };

const columns: readonly Column<DemoChannel>[] = [
  { key: 'id', header: 'ID', sortable: true, numeric: true, render: (c) => c.id },
  { key: 'name', header: '名称', sortable: true, minW: '10rem', render: (c) => c.name },
  { key: 'group', header: '分组', minW: '8rem', render: (c) => c.group },
  {
    key: 'status',
    header: '状态',
    sortable: true,
    render: (c) => <Badge colorPalette={c.status === 1 ? 'green' : 'red'}>{statusText[c.status]}</Badge>,
  },
  { key: 'priority', header: '优先级', sortable: true, numeric: true, render: (c) => c.priority },
  { key: 'balance', header: '余额', sortable: true, numeric: true, minW: '6rem', render: (c) => `$${c.balance.toFixed(2)}` },
];

/** The generic view bound to the demo rows (Storybook's Meta takes a concrete component). */
const ChannelTableView = DataTableView<DemoChannel>;

const selection = (selected: readonly number[], pageSelected = false) => ({
  selected: new Set(selected),
  pageSelected,
  onToggleRow: fn(),
  onTogglePage: fn(),
  rowLabel: (c: DemoChannel) => `选择 ${c.name}`,
});

const meta = {
  title: 'Table/DataTableView',
  component: ChannelTableView,
  args: {
    caption: '渠道',
    columns,
    rows: channels,
    sort: null,
    onSort: fn(),
    busy: {},
    firstLoad: false,
    loadFailed: false,
    onRetry: fn(),
    emptyText: '暂无数据',
  },
} satisfies Meta<typeof ChannelTableView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A 375 px wide phone (Storybook's own phones are 320 and 414 px). */
const phone = {
  viewport: {
    options: { phone375: { name: 'Phone 375', styles: { width: '375px', height: '667px' }, type: 'mobile' } },
  },
};

/** Rows, unsorted: sortable headers say "none" and a click asks to sort by that column. */
export const Rows: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const table = c.getByRole('table', { name: '渠道' });
    await expect(within(table).getAllByRole('row')).toHaveLength(channels.length + 1);
    await expect(c.getByRole('columnheader', { name: /名称/ })).toHaveAttribute('aria-sort', 'none');
    await expect(c.getByRole('columnheader', { name: '分组' })).not.toHaveAttribute('aria-sort');
    await expect(c.getByRole('cell', { name: 'claude-backup' })).toBeVisible();
  },
};

export const SortedAscending: Story = {
  args: { sort: { key: 'name', direction: 'asc' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('columnheader', { name: /名称/ })).toHaveAttribute('aria-sort', 'ascending');
    await expect(c.getByRole('columnheader', { name: /优先级/ })).toHaveAttribute('aria-sort', 'none');
    await expect(c.getByRole('button', { name: '按 名称 排序' })).toHaveTextContent('▲');
  },
};

export const SortedDescending: Story = {
  args: { sort: { key: 'balance', direction: 'desc' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('columnheader', { name: /余额/ })).toHaveAttribute('aria-sort', 'descending');
    await expect(c.getByRole('columnheader', { name: /名称/ })).toHaveAttribute('aria-sort', 'none');
    await expect(c.getByRole('button', { name: '按 余额 排序' })).toHaveTextContent('▼');
  },
};

/** Two rows selected: their boxes are ticked, the page box is not. */
export const SomeSelected: Story = {
  args: { selection: selection([2, 3]) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('checkbox', { name: '选择 azure-east' })).toBeChecked();
    await expect(c.getByRole('checkbox', { name: '选择 claude-backup' })).toBeChecked();
    await expect(c.getByRole('checkbox', { name: '选择 openai-main' })).not.toBeChecked();
    await expect(c.getByRole('checkbox', { name: '选择本页全部' })).not.toBeChecked();
  },
};

/** Every row of the page selected: the header box is ticked. */
export const PageSelected: Story = {
  args: { selection: selection([1, 2, 3, 4, 5], true) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const page = c.getByRole('checkbox', { name: '选择本页全部' });
    await expect(page).toBeChecked();
    for (const ch of channels) await expect(c.getByRole('checkbox', { name: `选择 ${ch.name}` })).toBeChecked();
  },
};

/** A row action running on row 2: the row is marked busy (spinner and a spoken "处理中"). */
export const BusyRow: Story = {
  args: { busy: { 2: 'test' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const busyRows = c.getAllByRole('row').filter((r) => r.getAttribute('aria-busy') === 'true');
    await expect(busyRows).toHaveLength(1);
    await expect(busyRows[0]).toHaveTextContent('azure-east');
    await expect(busyRows[0]).toHaveTextContent('处理中');
  },
};

/** The busy mark sits beside the checkbox when the table has a selection column. */
export const BusyRowWithSelection: Story = {
  args: { busy: { 4: 'delete' }, selection: selection([4]) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const row = c.getByRole('checkbox', { name: '选择 gemini-free' }).closest('tr');
    await expect(row).toHaveAttribute('aria-busy', 'true');
    await expect(row).toHaveTextContent('处理中');
  },
};

/** Nothing loaded yet: skeleton rows under the headers, the region says it is busy. */
export const FirstLoad: Story = {
  args: { rows: [], firstLoad: true, selection: selection([]) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const table = c.getByRole('table', { name: '渠道' });
    await expect(table.parentElement).toHaveAttribute('aria-busy', 'true');
    await expect(within(table).getAllByRole('row')).toHaveLength(6);
    await expect(c.queryByText('暂无数据')).toBeNull();
    await expect(c.getByRole('checkbox', { name: '选择本页全部' })).toBeDisabled();
  },
};

export const Empty: Story = {
  args: { rows: [], selection: selection([]) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('暂无数据')).toBeVisible();
    await expect(c.getByRole('checkbox', { name: '选择本页全部' })).toBeDisabled();
  },
};

/** A search that matched nothing says so, not "no data". */
export const EmptySearch: Story = {
  args: { rows: [], emptyText: '没有找到匹配的记录' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('没有找到匹配的记录')).toBeVisible();
  },
};

/** The first load failed: an error and a retry button instead of the table. */
export const LoadFailed: Story = {
  args: { rows: [], loadFailed: true },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('alert')).toHaveTextContent('列表加载失败');
    await expect(c.queryByRole('table')).toBeNull();
  },
};

/** During a bulk run or a confirmation nothing in the table answers. */
export const Disabled: Story = {
  args: { disabled: true, sort: { key: 'id', direction: 'asc' }, selection: selection([1]) },
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    for (const b of c.getAllByRole('button', { name: /^按 / })) await expect(b).toBeDisabled();
    for (const box of c.getAllByRole('checkbox')) await expect(box).toBeDisabled();
    await expect(args.onSort).not.toHaveBeenCalled();
  },
};

export const Dark: Story = {
  args: { sort: { key: 'priority', direction: 'desc' }, selection: selection([1, 3]), busy: { 3: 'test' } },
  parameters: { colorMode: 'dark' },
};

/** At 375 px the table keeps its columns and scrolls sideways inside its box. */
export const Phone375: Story = {
  args: { selection: selection([2]) },
  parameters: phone,
  globals: { viewport: { value: 'phone375' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(window.innerWidth).toBe(375);
    const box = c.getByRole('table', { name: '渠道' }).parentElement!;
    await expect(box.scrollWidth).toBeGreaterThan(box.clientWidth);
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(375);
  },
};

/**
 * With `cards` at 375 px each row is a card: a list named like the table, the first column as the
 * heading (checkbox beside it), the other columns as label/value pairs, sorting as a select.
 */
export const Cards375: Story = {
  args: { cards: true, selection: selection([2]), sort: { key: 'priority', direction: 'desc' }, busy: { 3: 'test' } },
  parameters: phone,
  globals: { viewport: { value: 'phone375' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(window.innerWidth).toBe(375);
    await expect(c.queryByRole('table')).toBeNull();
    const list = c.getByRole('list', { name: '渠道' });
    const cards = within(list).getAllByRole('listitem');
    await expect(cards).toHaveLength(channels.length);
    await expect(within(cards[1]!).getByRole('heading', { level: 2 })).toHaveTextContent('2');
    await expect(within(cards[1]!).getByText('名称')).toBeVisible();
    await expect(within(cards[1]!).getByText('azure-east')).toBeVisible();
    await expect(c.getByRole('checkbox', { name: '选择 azure-east' })).toBeChecked();
    await expect(c.getByRole('checkbox', { name: '选择本页全部' })).not.toBeChecked();
    await expect(c.getByRole('combobox', { name: '排序方式' })).toHaveValue('priority');
    await expect(cards[2]).toHaveAttribute('aria-busy', 'true');
    await expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(375);
  },
};

/** Cards with nothing loaded yet: placeholders, the region says it is busy. */
export const CardsFirstLoad: Story = {
  args: { cards: true, rows: [], firstLoad: true },
  parameters: phone,
  globals: { viewport: { value: 'phone375' } },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.queryByRole('list')).toBeNull();
    await expect(canvasElement.querySelector('[aria-busy="true"]')).not.toBeNull();
  },
};

/** `cards` on a wide screen: still the table. */
export const CardsOnWideScreen: Story = {
  args: { cards: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: '渠道' })).toBeVisible();
  },
};

export const English: Story = {
  args: { caption: 'Channels', rows: [], emptyText: 'No data' },
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: 'Sort by 名称' })).toBeVisible();
    await expect(c.getByText('No data')).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** Rows, unsorted: sortable headers say "none" and a click asks to sort by that column. */
export const RowsInteraction: Story = {
  ...Rows,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    const table = c.getByRole('table', { name: '渠道' });
    await expect(within(table).getAllByRole('row')).toHaveLength(channels.length + 1);
    await expect(c.getByRole('columnheader', { name: /名称/ })).toHaveAttribute('aria-sort', 'none');
    await expect(c.getByRole('columnheader', { name: '分组' })).not.toHaveAttribute('aria-sort');
    await expect(c.getByRole('cell', { name: 'claude-backup' })).toBeVisible();
    await userEvent.click(c.getByRole('button', { name: '按 名称 排序' }));
    await expect(args.onSort).toHaveBeenCalledWith('name');
    c.getByRole('button', { name: '按 余额 排序' }).focus();
    await userEvent.keyboard('{Enter}');
    await expect(args.onSort).toHaveBeenLastCalledWith('balance');
  },
};

export const SortedDescendingInteraction: Story = {
  ...SortedDescending,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('columnheader', { name: /余额/ })).toHaveAttribute('aria-sort', 'descending');
    await expect(c.getByRole('columnheader', { name: /名称/ })).toHaveAttribute('aria-sort', 'none');
    await expect(c.getByRole('button', { name: '按 余额 排序' })).toHaveTextContent('▼');
    await userEvent.click(c.getByRole('button', { name: '按 余额 排序' }));
    await expect(args.onSort).toHaveBeenCalledWith('balance');
  },
};

/** Two rows selected: their boxes are ticked, the page box is not; a click toggles a row. */
export const SomeSelectedInteraction: Story = {
  ...SomeSelected,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('checkbox', { name: '选择 azure-east' })).toBeChecked();
    await expect(c.getByRole('checkbox', { name: '选择 claude-backup' })).toBeChecked();
    await expect(c.getByRole('checkbox', { name: '选择 openai-main' })).not.toBeChecked();
    await expect(c.getByRole('checkbox', { name: '选择本页全部' })).not.toBeChecked();
    await userEvent.click(c.getByRole('checkbox', { name: '选择 moonshot' }));
    await expect(args.selection?.onToggleRow).toHaveBeenCalledWith(5);
    await userEvent.click(c.getByRole('checkbox', { name: '选择本页全部' }));
    await expect(args.selection?.onTogglePage).toHaveBeenCalledTimes(1);
  },
};

/** Every row of the page selected: the header box is ticked; Space on it toggles the page. */
export const PageSelectedInteraction: Story = {
  ...PageSelected,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    const page = c.getByRole('checkbox', { name: '选择本页全部' });
    await expect(page).toBeChecked();
    for (const ch of channels) await expect(c.getByRole('checkbox', { name: `选择 ${ch.name}` })).toBeChecked();
    page.focus();
    await userEvent.keyboard(' ');
    await expect(args.selection?.onTogglePage).toHaveBeenCalledTimes(1);
  },
};

/** The first load failed: an error and a retry button instead of the table. */
export const LoadFailedInteraction: Story = {
  ...LoadFailed,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('alert')).toHaveTextContent('列表加载失败');
    await expect(c.queryByRole('table')).toBeNull();
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};

/** On cards, sorting is a select of the sortable columns and a button that reverses the order. */
export const Cards375SortInteraction: Story = {
  ...Cards375,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.selectOptions(c.getByRole('combobox', { name: '排序方式' }), 'name');
    await expect(args.onSort).toHaveBeenCalledWith('name');
    await userEvent.click(c.getByRole('button', { name: '反转排序' }));
    await expect(args.onSort).toHaveBeenLastCalledWith('priority');
    await userEvent.click(c.getByRole('checkbox', { name: '选择 moonshot' }));
    await expect(args.selection?.onToggleRow).toHaveBeenCalledWith(5);
  },
};

const hundred: readonly DemoChannel[] = Array.from({ length: 100 }, (_, i) => ({
  id: i + 1,
  name: `channel-${i + 1}`,
  group: i % 3 === 0 ? 'default,vip' : 'default',
  status: i % 7 === 0 ? 2 : 1,
  priority: i % 5,
  balance: (i * 7.3) % 100,
}));

const drawnRows = (table: HTMLElement) => [...table.querySelectorAll<HTMLTableRowElement>('tbody tr')].filter((r) => r.getAttribute('aria-hidden') !== 'true');

/**
 * A page of 100 rows is windowed: the table says it has 101 rows (the header's and the page's),
 * only the rows near the viewport are drawn, each with its index, striped by it, and spacer rows
 * (hidden, no cell read out) stand for the others.
 */
export const Windowed100: Story = {
  args: { rows: hundred, selection: selection([2]) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const table = c.getByRole('table', { name: '渠道' });
    await expect(table).toHaveAttribute('aria-rowcount', '101');
    await expect(within(table).getAllByRole('row')[0]).toHaveAttribute('aria-rowindex', '1');
    const drawn = drawnRows(table);
    await expect(drawn.length).toBeGreaterThan(5);
    await expect(drawn.length).toBeLessThan(100);
    for (const [i, r] of drawn.entries()) {
      await expect(r).toHaveAttribute('aria-rowindex', String(i + 2));
      await expect(r.hasAttribute('data-odd')).toBe(i % 2 === 0);
    }
    const spacers = [...table.querySelectorAll('tbody tr[aria-hidden="true"]')];
    await expect(spacers.length).toBeGreaterThan(0);
    for (const s of spacers) await expect(s.textContent).toBe('');
    await expect(c.getByRole('checkbox', { name: '选择 channel-2' })).toBeChecked();
  },
};

/**
 * Keyboard over a windowed page: Tab from the last drawn row reaches the next row's box, and the
 * row holding the focus stays drawn (and focused) when the page scrolls far away from it.
 */
export const Windowed100FocusInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  args: { rows: hundred, selection: selection([]) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const table = c.getByRole('table', { name: '渠道' });
    const last = drawnRows(table).at(-1)!;
    const at = Number(last.getAttribute('aria-rowindex'));
    await expect(at).toBeLessThan(101);
    within(last).getByRole('checkbox').focus();
    await userEvent.tab();
    await waitFor(() => expect(document.activeElement?.closest('tr')?.getAttribute('aria-rowindex')).toBe(String(at + 1)));
    // back to the top (the focus had scrolled the page to the row it reached)
    window.scrollTo(0, 0);
    const box = await c.findByRole('checkbox', { name: '选择 channel-1' });
    box.focus();
    window.scrollTo(0, document.documentElement.scrollHeight);
    await waitFor(() => expect(table.querySelector('tr[aria-rowindex="101"]')).not.toBeNull());
    await expect(box).toBeInTheDocument();
    await expect(document.activeElement).toBe(box);
    await expect(box.closest('tr')).toHaveAttribute('aria-rowindex', '2');
    window.scrollTo(0, 0);
  },
};
