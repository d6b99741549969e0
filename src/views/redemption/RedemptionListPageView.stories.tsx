import type { Meta, StoryObj } from '@storybook/react-vite';
import { expectCardsFit } from '../table/cards.fixtures';
import { expect, fn, userEvent, within } from 'storybook/test';
import { msg } from '../../domain/message';
import { RedemptionListPageView } from './RedemptionListPageView';
import { bulkRun, phoneViewport, redemptionRows, tableState } from './RedemptionListPage.fixtures';

const meta = {
  title: 'Redemption/RedemptionListPageView',
  component: RedemptionListPageView,
  parameters: { route: '/redemption' },
  args: {
    table: tableState(),
    quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 },
    copying: false,
    onDraft: fn(),
    onSearch: fn(),
    onClearSearch: fn(),
    onSort: fn(),
    onPage: fn(),
    onSize: fn(),
    onStatusFilter: fn(),
    onRetry: fn(),
    onReload: fn(),
    onToggleRow: fn(),
    onTogglePage: fn(),
    onSelectAllMatching: fn(),
    onClearSelection: fn(),
    onCopyKey: fn(),
    onToggleStatus: fn(),
    onDelete: fn(),
    onConfirm: fn(),
    onCancel: fn(),
    onBulk: fn(),
    onExport: fn(),
    onBulkConfirm: fn(),
    onBulkCancel: fn(),
    onBulkStop: fn(),
    onBulkRetry: fn(),
    onBulkDismiss: fn(),
  },
} satisfies Meta<typeof RedemptionListPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The list: columns, status badges, quota as currency, 'not yet redeemed', the row links. */
export const Ready: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const table = c.getByRole('table', { name: '兑换码' });
    for (const header of ['ID', '名称', '状态', '额度', '创建时间', '兑换时间', '操作']) {
      await expect(within(table).getByRole('columnheader', { name: new RegExp(header) })).toBeInTheDocument();
    }
    await expect(within(table).getByText('未使用')).toBeInTheDocument();
    await expect(within(table).getByText('已使用')).toBeInTheDocument();
    await expect(within(table).getByText('已禁用')).toBeInTheDocument();
    await expect(within(table).getAllByText('$0.20')).toHaveLength(2);
    await expect(within(table).getByText('$5.00')).toBeInTheDocument();
    await expect(within(table).getAllByText('尚未兑换')).toHaveLength(2);
    // a used code cannot be toggled
    await expect(c.getByRole('button', { name: '启用兑换码 #11' })).toBeDisabled();
    await expect(c.getByRole('link', { name: '编辑兑换码 #12' })).toHaveAttribute('href', '/redemption/edit/12');
    await expect(c.getByRole('link', { name: '添加新的兑换码' })).toHaveAttribute('href', '/redemption/add');
  },
};

/** The row buttons send their events. */
export const RowButtonsInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '禁用兑换码 #12' }));
    await expect(args.onToggleStatus).toHaveBeenCalledWith(12);
    await userEvent.click(c.getByRole('button', { name: '启用兑换码 #10' }));
    await expect(args.onToggleStatus).toHaveBeenCalledWith(10);
    await userEvent.click(c.getByRole('button', { name: '复制兑换码 #12' }));
    await expect(args.onCopyKey).toHaveBeenCalledWith(redemptionRows[0]);
    await userEvent.click(c.getByRole('button', { name: '删除兑换码 #10' }));
    await expect(args.onDelete).toHaveBeenCalledWith(10);
  },
};

/** The toolbar: header sort, the status filter, search and refresh. */
export const ToolbarInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '按 额度 排序' }));
    await expect(args.onSort).toHaveBeenCalledWith('quota');
    await userEvent.selectOptions(c.getByLabelText('按状态筛选'), '3');
    await expect(args.onStatusFilter).toHaveBeenCalledWith('3');
    await userEvent.type(c.getByRole('searchbox', { name: '搜索兑换码的 ID 和名称 ...' }), 's{Enter}');
    await expect(args.onDraft).toHaveBeenCalledWith('s');
    await expect(args.onSearch).toHaveBeenCalled();
    await userEvent.click(c.getByRole('button', { name: '刷新' }));
    await expect(args.onReload).toHaveBeenCalled();
  },
};

/** Quota as abbreviated numbers when the currency display is off; sorted by quota. */
export const PlainQuotaSorted: Story = {
  args: {
    quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 },
    table: tableState({ sort: { key: 'quota', direction: 'desc' } }),
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('2.5M')).toBeInTheDocument();
    await expect(c.getByRole('columnheader', { name: /额度/ })).toHaveAttribute('aria-sort', 'descending');
  },
};

/** The first load: skeleton rows. */
export const FirstLoad: Story = {
  args: { table: tableState({ rows: [], firstLoad: true, loading: true, idle: false, shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: '兑换码' }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
  },
};

export const Empty: Story = {
  args: { table: tableState({ rows: [], shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('暂无数据')).toBeVisible();
  },
};

/** A search with no match, and the button that clears it. */
export const SearchWithoutResults: Story = {
  args: { table: tableState({ rows: [], shownCount: 0, loadedCount: 0, keyword: 'nothing', draft: 'nothing' }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('没有找到匹配的记录')).toBeVisible();
    await expect(c.getByRole('searchbox')).toHaveValue('nothing');
    await expect(c.getByRole('button', { name: '清除搜索' })).toBeEnabled();
  },
};

/** The clear button sends its event. */
export const ClearSearchInteraction: Story = {
  args: SearchWithoutResults.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '清除搜索' }));
    await expect(args.onClearSearch).toHaveBeenCalled();
  },
};

export const LoadFailed: Story = {
  args: { table: tableState({ rows: [], loadFailed: true, idle: false, shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('列表加载失败')).toBeVisible();
    await expect(c.getByRole('button', { name: '重试' })).toBeEnabled();
  },
};

/** Retry after a failed load sends its event. */
export const RetryInteraction: Story = {
  args: LoadFailed.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalled();
  },
};

/** A row whose toggle runs: its buttons are disabled, the others answer. */
export const RowBusy: Story = {
  args: { table: tableState({ busy: { 12: 'toggle' } }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '禁用兑换码 #12' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '删除兑换码 #12' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '删除兑换码 #10' })).toBeEnabled();
  },
};

/** Two rows selected: the selection bar with the bulk buttons. */
export const Selected: Story = {
  args: { table: tableState({ selected: new Set([12, 10]), selectedCount: 2 }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const bar = c.getByRole('region', { name: '已选择 2 项' });
    for (const name of ['批量禁用', '批量启用', '批量删除', '复制所选兑换码', '下载所选兑换码'])
      await expect(within(bar).getByRole('button', { name })).toBeEnabled();
    await expect(c.getByRole('checkbox', { name: '选择 #11 spring-promo' })).not.toBeChecked();
  },
};

/** The selection bar's actions and a row's checkbox send their events. */
export const BulkActionInteraction: Story = {
  args: Selected.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    const bar = c.getByRole('region', { name: '已选择 2 项' });
    await userEvent.click(within(bar).getByRole('button', { name: '批量禁用' }));
    await expect(args.onBulk).toHaveBeenCalledWith('disable');
    await userEvent.click(within(bar).getByRole('button', { name: '批量启用' }));
    await expect(args.onBulk).toHaveBeenCalledWith('enable');
    await userEvent.click(within(bar).getByRole('button', { name: '批量删除' }));
    await expect(args.onBulk).toHaveBeenCalledWith('delete');
    await userEvent.click(within(bar).getByRole('button', { name: '复制所选兑换码' }));
    await expect(args.onExport).toHaveBeenCalledWith('copy');
    await userEvent.click(within(bar).getByRole('button', { name: '下载所选兑换码' }));
    await expect(args.onExport).toHaveBeenCalledWith('download');
    await userEvent.click(c.getByRole('checkbox', { name: '选择 #11 spring-promo' }));
    await expect(args.onToggleRow).toHaveBeenCalledWith(11);
  },
};

/** Delete asks first, naming the code. */
export const ConfirmingDelete: Story = {
  args: { table: tableState({ pending: { id: 10, action: 'delete', value: '' }, idle: false }) },
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('确定要删除兑换码「partner-batch」（#10）吗？');
    await expect(within(dialog).getByRole('button', { name: '删除' })).toBeEnabled();
  },
};

/** Confirming the delete sends its event. */
export const ConfirmDeleteInteraction: Story = {
  args: ConfirmingDelete.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    await expect(args.onConfirm).toHaveBeenCalled();
  },
};

/** A bulk action says how many codes change before it runs. */
export const ConfirmingBulk: Story = {
  args: { table: tableState({ bulkToConfirm: bulkRun(), selected: new Set([12, 10]), selectedCount: 2, idle: false }) },
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('将对 2 项执行「批量禁用」，确定继续吗？');
    await expect(within(dialog).getByRole('button', { name: '确定' })).toBeEnabled();
  },
};

/** Confirming the bulk action sends its event. */
export const ConfirmBulkInteraction: Story = {
  args: ConfirmingBulk.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await expect(args.onBulkConfirm).toHaveBeenCalled();
  },
};

export const BulkRunning: Story = {
  args: { table: tableState({ bulkRunning: bulkRun({ done: 1, succeeded: [12] }), idle: false }) },
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('正在执行「批量禁用」：1 / 2');
    await expect(within(dialog).getByRole('button', { name: '停止' })).toBeEnabled();
  },
};

/** Stopping a running bulk action sends its event. */
export const StopBulkInteraction: Story = {
  args: BulkRunning.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '停止' }));
    await expect(args.onBulkStop).toHaveBeenCalled();
  },
};

/** The report names each failure with the code and the reason; failed rows can be retried. */
export const BulkReportWithFailures: Story = {
  args: {
    table: tableState({
      bulkReport: bulkRun({
        action: 'enable',
        ids: [12, 11],
        done: 2,
        succeeded: [12],
        failures: [{ id: 11, message: msg('error.refused.redemptionUsed') }],
      }),
      idle: false,
    }),
  },
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('成功 1 项，失败 1 项');
    await expect(dialog).toHaveTextContent('#11 spring-promo: 该兑换码已被使用，不能启用或禁用');
    await expect(within(dialog).getByRole('button', { name: '重试失败项' })).toBeEnabled();
  },
};

/** The same report in English: the console's own refusal is translated (a catalogue key, not fixed text). */
export const BulkReportRefusedEnglish: Story = {
  args: BulkReportWithFailures.args,
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('#11 spring-promo: This code has been used; it cannot be enabled or disabled');
  },
};

/** The report's buttons send their events: retry the failed rows, close. */
export const BulkReportInteraction: Story = {
  args: BulkReportWithFailures.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '重试失败项' }));
    await expect(args.onBulkRetry).toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: '关闭' }));
    await expect(args.onBulkDismiss).toHaveBeenCalled();
  },
};

/** A failure with a catalogue message renders through i18n as well. */
export const BulkReportDeleteFailed: Story = {
  args: {
    table: tableState({
      bulkReport: bulkRun({ action: 'delete', ids: [10], done: 1, failures: [{ id: 10, message: msg('error.internal') }] }),
      idle: false,
    }),
  },
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('错误：服务器内部错误，请联系管理员！');
  },
};

/** A 375 px phone: the toolbar wraps, each code is a card with its buttons on screen. */
export const Phone: Story = {
  ...phoneViewport,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expectCardsFit(canvasElement, '兑换码');
    await expect(c.getByRole('link', { name: '添加新的兑换码' })).toBeVisible();
  },
};

/** English and dark mode (contrast is checked in both modes). */
export const EnglishDark: Story = {
  parameters: { lang: 'en', colorMode: 'dark' },
  args: { table: tableState({ selected: new Set([12]), selectedCount: 1 }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('heading', { name: 'Redemption codes' })).toBeVisible();
    await expect(c.getAllByText('Not yet redeemed')).toHaveLength(2);
    await expect(c.getByRole('button', { name: 'Disable selected' })).toBeVisible();
  },
};
