import type { Meta, StoryObj } from '@storybook/react-vite';
import { expectCardsFit } from '../table/cards.fixtures';
import { expect, fn, userEvent, within } from 'storybook/test';
import { msg } from '../../domain/message';
import { UserListPageView } from './UserListPageView';
import { bulkRun, phoneViewport, tableState, userRows } from './UserListPage.fixtures';

const meta = {
  title: 'User/UserListPageView',
  component: UserListPageView,
  parameters: { route: '/user' },
  args: {
    table: tableState(),
    quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 },
    onDraft: fn(),
    onSearch: fn(),
    onClearSearch: fn(),
    onSort: fn(),
    onOrder: fn(),
    onPage: fn(),
    onSize: fn(),
    onFilter: fn(),
    onRetry: fn(),
    onReload: fn(),
    onToggleRow: fn(),
    onTogglePage: fn(),
    onSelectAllMatching: fn(),
    onClearSelection: fn(),
    onRowAction: fn(),
    onConfirm: fn(),
    onCancel: fn(),
    onBulk: fn(),
    onBulkConfirm: fn(),
    onBulkCancel: fn(),
    onBulkStop: fn(),
    onBulkRetry: fn(),
    onBulkDismiss: fn(),
  },
} satisfies Meta<typeof UserListPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Rows with formatted quotas and badges; the super admin's manage buttons are disabled. */
export const Ready: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('table', { name: '用户管理' })).toBeVisible();
    await expect(c.getByText('$1000.00')).toBeVisible();
    await expect(c.getByText('15.3k')).toBeVisible();
    const grid = within(c.getByRole('table', { name: '用户管理' }));
    await expect(grid.getByText('超级管理员')).toBeVisible();
    await expect(grid.getByText('已封禁')).toBeVisible();
    // the long username is cut, with the full name as title and accessible text
    const cut = c.getByTitle('bob-the-long-username');
    await expect(cut).toHaveTextContent('bob-the-long-username');
    await expect(cut.querySelector('[aria-hidden]')).toHaveTextContent('bob-the-long...');
    for (const name of ['提升 root 为管理员', '降级 root 为普通用户', '删除 root', '禁用 root']) {
      await expect(c.getByRole('button', { name })).toBeDisabled();
    }
    await expect(c.getByRole('link', { name: '编辑 root' })).toHaveAttribute('href', '/user/edit/1');
  },
};
/** The row buttons, the order and role selects and the column headers send their events. */
export const ReadyInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '提升 alice 为管理员' }));
    await expect(args.onRowAction).toHaveBeenLastCalledWith(2, 'promote');
    await userEvent.click(c.getByRole('button', { name: '启用 bob-the-long-username' }));
    await expect(args.onRowAction).toHaveBeenLastCalledWith(3, 'enable');
    await userEvent.selectOptions(c.getByLabelText('排序方式'), '按请求次数排序');
    await expect(args.onOrder).toHaveBeenLastCalledWith('request_count');
    await userEvent.selectOptions(c.getByLabelText('按角色筛选'), '管理员');
    await expect(args.onFilter).toHaveBeenLastCalledWith('role', '10');
    await userEvent.click(c.getByRole('button', { name: '按 请求次数 排序' }));
    await expect(args.onSort).toHaveBeenLastCalledWith('request_count');
  },
};
export const FirstLoad: Story = { args: { table: tableState({ rows: [], firstLoad: true, loading: true, idle: false, shownCount: 0, loadedCount: 0 }) } };
export const Empty: Story = {
  args: { table: tableState({ rows: [], shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('暂无数据')).toBeVisible();
  },
};
export const SearchResults: Story = {
  args: { table: tableState({ rows: [userRows[1]!], keyword: 'ali', draft: 'ali', shownCount: 1, loadedCount: 1 }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('searchbox')).toHaveValue('ali');
    await expect(c.getByText('alice')).toBeVisible();
    await expect(c.getByRole('button', { name: '清除搜索' })).toBeEnabled();
  },
};
/** Clearing the search sends its event. */
export const ClearSearchInteraction: Story = {
  args: SearchResults.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '清除搜索' }));
    await expect(args.onClearSearch).toHaveBeenCalledTimes(1);
  },
};
export const LoadFailed: Story = {
  args: { table: tableState({ rows: [], loadFailed: true, idle: false, shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('alert')).toBeInTheDocument();
    await expect(c.getByRole('button', { name: '重试' })).toBeEnabled();
  },
};
/** Retry after a failed load sends its event. */
export const RetryInteraction: Story = {
  args: LoadFailed.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: '重试' }));
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};
export const RowBusy: Story = {
  args: { table: tableState({ busy: { 2: 'promote' } }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '提升 alice 为管理员' })).toBeDisabled();
  },
};
export const ConfirmingDelete: Story = {
  args: { table: tableState({ idle: false, pending: { id: 3, action: 'delete', value: '' } }) },
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('确定删除用户 bob-the-long-username（ID 3）吗？');
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
    await expect(args.onConfirm).toHaveBeenCalledTimes(1);
  },
};
export const Selected: Story = {
  args: { table: tableState({ selected: new Set([2, 3]), selectedCount: 2 }) },
  play: async ({ canvasElement }) => {
    const bar = within(canvasElement).getByRole('region', { name: '已选择 2 项' });
    await expect(within(bar).getByRole('button', { name: '启用' })).toBeEnabled();
  },
};
/** A bulk action of the selection bar sends its event. */
export const BulkActionInteraction: Story = {
  args: Selected.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const bar = within(canvasElement).getByRole('region', { name: '已选择 2 项' });
    await userEvent.click(within(bar).getByRole('button', { name: '启用' }));
    await expect(args.onBulk).toHaveBeenLastCalledWith('enable');
  },
};
export const ConfirmingBulk: Story = {
  args: { table: tableState({ idle: false, selected: new Set([2, 3]), selectedCount: 2, bulkToConfirm: bulkRun() }) },
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('将对 2 项执行「禁用」');
  },
};
export const BulkRunning: Story = {
  args: { table: tableState({ idle: false, bulkRunning: bulkRun({ done: 1, succeeded: [2] }) }) },
};
export const BulkReport: Story = {
  args: {
    table: tableState({
      idle: false,
      bulkReport: bulkRun({
        action: 'delete',
        ids: [1, 3],
        done: 2,
        succeeded: [3],
        failures: [{ id: 1, message: msg('users.rootProtected', { name: 'root' }) }],
      }),
    }),
  },
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('#1 root: root 是超级管理员，不能在用户列表中操作（未发送请求）');
  },
};
/** A 375 px phone: each user is a card (its checkbox by the heading), its buttons on screen. */
export const Phone: Story = {
  ...phoneViewport,
  args: { table: tableState({ selected: new Set([2]), selectedCount: 1 }) },
  play: async ({ canvasElement }) => {
    const list = await expectCardsFit(canvasElement, '用户管理');
    await expect(within(list).getAllByRole('checkbox').filter((b) => (b as HTMLInputElement).checked)).toHaveLength(1);
  },
};
export const Dark: Story = { parameters: { colorMode: 'dark' } };
export const English: Story = {
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: 'Users' })).toBeVisible();
  },
};
