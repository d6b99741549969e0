import type { Meta, StoryObj } from '@storybook/react-vite';
import { expectCardsFit } from '../table/cards.fixtures';
import { expect, fn, userEvent, within } from 'storybook/test';
import { copyText } from '../../domain/chatLinks';
import { TokenListPageView } from './TokenListPageView';
import { bulkRun, phoneViewport, storyServerAddress, tableState, tokenRows } from './TokenListPage.fixtures';

const meta = {
  title: 'Token/TokenListPageView',
  component: TokenListPageView,
  parameters: { route: '/token' },
  args: {
    table: tableState(),
    quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 },
    serverAddress: storyServerAddress,
    chatLink: '',
    copying: false,
    onDraft: fn(),
    onSearch: fn(),
    onClearSearch: fn(),
    onSort: fn(),
    onOrder: fn(),
    onPage: fn(),
    onSize: fn(),
    onStatusFilter: fn(),
    onRetry: fn(),
    onReload: fn(),
    onToggleRow: fn(),
    onTogglePage: fn(),
    onSelectAllMatching: fn(),
    onClearSelection: fn(),
    onCopy: fn(),
    onToggleStatus: fn(),
    onTest: fn(),
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
} satisfies Meta<typeof TokenListPageView>;
export default meta;
type Story = StoryObj<typeof meta>;

const body = (el: HTMLElement) => within(el.ownerDocument.body);

/** The list: columns, the four statuses, quotas ('unlimited'), 'never expires', the row links. */
export const Ready: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const table = c.getByRole('table', { name: '令牌' });
    for (const header of ['名称', '状态', '已用额度', '剩余额度', '创建时间', '过期时间', '操作']) {
      await expect(within(table).getByRole('columnheader', { name: new RegExp(header) })).toBeInTheDocument();
    }
    for (const status of ['已启用', '已禁用', '已过期', '已耗尽']) await expect(within(table).getByText(status)).toBeInTheDocument();
    await expect(within(table).getByText('无限制')).toBeInTheDocument();
    await expect(within(table).getAllByText('永不过期')).toHaveLength(2);
    await expect(within(table).getByText('$0.50')).toBeInTheDocument();
    // the key is never shown in the list
    await expect(canvasElement).not.toHaveTextContent(tokenRows[0]!.key);
    await expect(c.getByRole('link', { name: '编辑令牌 chat-client（#7）' })).toHaveAttribute('href', '/token/edit/7');
    await expect(c.getByRole('link', { name: '添加新的令牌' })).toHaveAttribute('href', '/token/add');
  },
};

/** The row buttons send their events. */
export const RowButtonsInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '复制令牌 chat-client（#7）' }));
    await expect(args.onCopy).toHaveBeenCalledWith(tokenRows[0], 'raw');
    await userEvent.click(c.getByRole('button', { name: '禁用令牌 chat-client（#7）' }));
    await expect(args.onToggleStatus).toHaveBeenCalledWith(7);
    await userEvent.click(c.getByRole('button', { name: '启用令牌 batch-jobs（#6）' }));
    await expect(args.onToggleStatus).toHaveBeenCalledWith(6);
    await userEvent.click(c.getByRole('button', { name: '删除令牌 old-demo（#5）' }));
    await expect(args.onDelete).toHaveBeenCalledWith(5);
    await userEvent.click(c.getByRole('button', { name: '测试令牌 spent（#4）' }));
    await expect(args.onTest).toHaveBeenCalledWith(4);
  },
};

/** The toolbar: header sort, the server order, the status filter, search and refresh. */
export const ToolbarInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '按 已用额度 排序' }));
    await expect(args.onSort).toHaveBeenCalledWith('used_quota');
    await userEvent.selectOptions(c.getByLabelText('排序方式'), 'remain_quota');
    await expect(args.onOrder).toHaveBeenCalledWith('remain_quota');
    await userEvent.selectOptions(c.getByLabelText('按状态筛选'), '3');
    await expect(args.onStatusFilter).toHaveBeenCalledWith('3');
    await userEvent.type(c.getByRole('searchbox', { name: '搜索令牌的名称 ...' }), 'c{Enter}');
    await expect(args.onDraft).toHaveBeenCalledWith('c');
    await expect(args.onSearch).toHaveBeenCalled();
    await userEvent.click(c.getByRole('button', { name: '刷新' }));
    await expect(args.onReload).toHaveBeenCalled();
  },
};

/** The copy dropdown offers the five formats of contract §5.5. */
export const CopyFormatsInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '令牌 chat-client（#7） 的复制格式' }));
    const menu = await body(canvasElement).findByRole('menu');
    const items = within(menu).getAllByRole('menuitem').map((i) => i.textContent);
    await expect(items).toEqual(['复制原始令牌', '复制 NextChat 链接', '复制 AMA 链接', '复制 OpenCat 链接', '复制 LobeChat 链接']);
    await userEvent.click(await within(menu).findByRole('menuitem', { name: '复制 NextChat 链接' }));
    await expect(args.onCopy).toHaveBeenCalledWith(tokenRows[0], 'next');
  },
};

/** The chat button opens NextChat in a new tab (a public instance without a ChatLink). */
export const ChatLinkDefault: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const input = { key: tokenRows[0]!.key, serverAddress: storyServerAddress, chatLink: '' };
    const chat = c.getByRole('link', { name: '聊天：在 NextChat 中使用令牌 chat-client（#7）' });
    await expect(chat).toHaveAttribute('href', copyText('next', input));
    await expect(chat).toHaveAttribute('target', '_blank');
    await expect(chat).toHaveAttribute('rel', 'noopener noreferrer');
  },
};

/** The chat button's dropdown offers the four clients (public instances without a ChatLink). */
export const ChatClientsInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const input = { key: tokenRows[0]!.key, serverAddress: storyServerAddress, chatLink: '' };
    await userEvent.click(c.getByRole('button', { name: '令牌 chat-client（#7） 的聊天客户端' }));
    const menu = await body(canvasElement).findByRole('menu');
    await expect(within(menu).getByRole('menuitem', { name: 'AMA' })).toHaveAttribute('href', copyText('ama', input));
    await expect(within(menu).getByRole('menuitem', { name: 'OpenCat' })).toHaveAttribute('href', copyText('opencat', input));
    const lobe = within(menu).getByRole('menuitem', { name: 'LobeChat' });
    await expect(lobe.getAttribute('href')).toMatch(/^https:\/\/chat-preview\.lobehub\.com\/\?settings=/);
    await userEvent.keyboard('{Escape}');
  },
};

/** With a ChatLink configured, NextChat and LobeChat links use it. */
export const WithChatLink: Story = {
  args: { chatLink: 'https://chat.example.com' },
  play: async ({ canvasElement }) => {
    const chat = within(canvasElement).getByRole('link', { name: '聊天：在 NextChat 中使用令牌 batch-jobs（#6）' });
    await expect(chat.getAttribute('href')).toMatch(/^https:\/\/chat\.example\.com\/#\/\?settings=/);
  },
};

/** A copy running: the copy buttons wait. */
export const Copying: Story = {
  args: { copying: true },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '复制令牌 chat-client（#7）' })).toBeDisabled();
  },
};

/** Quotas as abbreviated numbers when the currency display is off, sorted by used quota. */
export const PlainQuotaSorted: Story = {
  args: {
    quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 },
    table: tableState({ sort: { key: 'used_quota', direction: 'desc' }, order: 'used_quota' }),
  },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('2.5M')).toBeInTheDocument();
    await expect(c.getByRole('columnheader', { name: /已用额度/ })).toHaveAttribute('aria-sort', 'descending');
    await expect(c.getByLabelText('排序方式')).toHaveValue('used_quota');
  },
};

export const FirstLoad: Story = {
  args: { table: tableState({ rows: [], firstLoad: true, loading: true, idle: false, shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: '令牌' }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
  },
};

export const Empty: Story = {
  args: { table: tableState({ rows: [], shownCount: 0, loadedCount: 0 }) },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('暂无数据')).toBeVisible();
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

export const RowBusy: Story = {
  args: { table: tableState({ busy: { 7: 'toggle' } }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '禁用令牌 chat-client（#7）' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '删除令牌 chat-client（#7）' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '删除令牌 batch-jobs（#6）' })).toBeEnabled();
  },
};

/** A row under test: its test button spins, the row's other buttons wait, other rows stay usable. */
export const RowTesting: Story = {
  args: { table: tableState({ busy: { 7: 'test' } }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const testing = c.getByRole('button', { name: '测试令牌 chat-client（#7）' });
    await expect(testing).toBeDisabled();
    await expect(testing).toHaveAttribute('data-loading');
    await expect(c.getByRole('button', { name: '禁用令牌 chat-client（#7）' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '测试令牌 batch-jobs（#6）' })).toBeEnabled();
  },
};

export const Selected: Story = {
  args: { table: tableState({ selected: new Set([7, 6]), selectedCount: 2 }) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const bar = c.getByRole('region', { name: '已选择 2 项' });
    for (const name of ['批量禁用', '批量启用', '批量删除']) await expect(within(bar).getByRole('button', { name })).toBeEnabled();
    await expect(c.getByRole('checkbox', { name: '选择 chat-client（#7）' })).toBeChecked();
    await expect(c.getByRole('checkbox', { name: '选择 old-demo（#5）' })).not.toBeChecked();
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
    await userEvent.click(c.getByRole('checkbox', { name: '选择 old-demo（#5）' }));
    await expect(args.onToggleRow).toHaveBeenCalledWith(5);
  },
};

export const ConfirmingDelete: Story = {
  args: { table: tableState({ pending: { id: 6, action: 'delete', value: '' }, idle: false }) },
  play: async ({ canvasElement }) => {
    const dialog = await body(canvasElement).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('确定要删除令牌「batch-jobs」吗？');
    await expect(within(dialog).getByRole('button', { name: '删除' })).toBeEnabled();
  },
};

/** Confirming the delete sends its event. */
export const ConfirmDeleteInteraction: Story = {
  args: ConfirmingDelete.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const dialog = await body(canvasElement).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    await expect(args.onConfirm).toHaveBeenCalled();
  },
};

export const ConfirmingBulk: Story = {
  args: { table: tableState({ bulkToConfirm: bulkRun(), selected: new Set([7, 6]), selectedCount: 2, idle: false }) },
  play: async ({ canvasElement }) => {
    const dialog = await body(canvasElement).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('将对 2 项执行「批量禁用」，确定继续吗？');
    await expect(within(dialog).getByRole('button', { name: '确定' })).toBeEnabled();
  },
};

/** Confirming the bulk action sends its event. */
export const ConfirmBulkInteraction: Story = {
  args: ConfirmingBulk.args,
  tags: ['interaction', '!autodocs'],
  play: async ({ args, canvasElement }) => {
    const dialog = await body(canvasElement).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '确定' }));
    await expect(args.onBulkConfirm).toHaveBeenCalled();
  },
};

export const BulkReportWithFailures: Story = {
  args: {
    table: tableState({
      bulkReport: bulkRun({
        action: 'enable',
        ids: [5, 6],
        done: 2,
        succeeded: [6],
        failures: [{ id: 5, message: { text: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期' } }],
      }),
      idle: false,
    }),
  },
  play: async ({ canvasElement }) => {
    const dialog = await body(canvasElement).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('成功 1 项，失败 1 项');
    await expect(dialog).toHaveTextContent('old-demo（#5）');
    await expect(dialog).toHaveTextContent('令牌已过期，无法启用');
  },
};

/** A 375 px phone: each token is a card; its buttons stay on screen. */
export const Phone: Story = {
  ...phoneViewport,
  play: async ({ canvasElement }) => {
    await expectCardsFit(canvasElement, '令牌');
  },
};

export const EnglishDark: Story = {
  parameters: { lang: 'en', colorMode: 'dark' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('table', { name: 'Tokens' })).toBeVisible();
    await expect(c.getByText('Unlimited')).toBeVisible();
    await expect(c.getByRole('button', { name: 'Copy token chat-client (#7)' })).toBeVisible();
  },
};
