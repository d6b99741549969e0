import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import type { Message, NavigateEvent, NotifyEvent } from '../../domain/message';
import type { ExportRowsInput, FetchPageInput, RowActionInput, RowActionOutcome, SearchRowsInput } from '../../domain/rowAction';
import { defaultTableQuery } from '../../domain/tableQuery';
import type { User } from '../../domain/user';
import { userTableMachine } from '../../machines/userList';
import type { TableContext } from '../../machines/table';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { UserListPage } from './UserListPage';
import { bulkRun, phoneViewport, tableContext, userRows } from './UserListPage.fixtures';

const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };
const runs = fn<(input: RowActionInput<User>) => void>();

const never = <T,>() => new Promise<T>(() => undefined);
/** A server stand-in: manage answers the new role and status, delete removes. */
const table = userTableMachine.provide({
  actors: {
    fetchPage: fromPromise<readonly User[], FetchPageInput>(() => Promise.resolve(userRows)),
    searchRows: fromPromise<readonly User[], SearchRowsInput>(({ input }) =>
      Promise.resolve(userRows.filter((u) => u.username.startsWith(input.keyword) || String(u.id) === input.keyword)),
    ),
    runRowAction: fromPromise<RowActionOutcome<User>, RowActionInput<User>>(({ input }) => {
      runs(input);
      const { action, row } = input;
      if (action === 'delete') return Promise.resolve({ removed: true });
      const patch =
        action === 'promote' ? { role: 10 } : action === 'demote' ? { role: 1 } : { status: action === 'enable' ? 1 : 2 };
      return Promise.resolve({ patch: { role: row.role, status: row.status, ...patch }, message: { key: 'common.success' } });
    }),
    exportRows: fromPromise<Message | null, ExportRowsInput<User>>(() => Promise.resolve(null)),
  },
});
const frozenTable = userTableMachine.provide({
  actors: {
    fetchPage: fromPromise<readonly User[], FetchPageInput>(() => never()),
    searchRows: fromPromise<readonly User[], SearchRowsInput>(() => never()),
    runRowAction: fromPromise<RowActionOutcome<User>, RowActionInput<User>>(() => never()),
    exportRows: fromPromise<Message | null, ExportRowsInput<User>>(() => never()),
  },
});

type TableValue = Parameters<typeof userTableMachine.resolveState>[0]['value'];
const seed = (value: TableValue, over: Partial<TableContext<User>> = {}) => ({
  [userTableMachine.id]: userTableMachine.resolveState({ value, context: tableContext(over) }),
});

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'User/UserListPage',
  component: UserListPage,
  parameters: { route: '/user' },
  args: { quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 } },
} satisfies Meta<typeof UserListPage>;
export default meta;
type Story = StoryObj<typeof meta>;

const frozen = (snapshots: ReturnType<typeof seed>) => (args: { quotaDisplay: { displayInCurrency: boolean; quotaPerUnit: number } }) => (
  <MachineRegistryProvider machines={[frozenTable]} snapshots={snapshots}>
    <UserListPage {...args} />
  </MachineRegistryProvider>
);

/** State `loading` with nothing loaded: skeleton rows. */
export const FirstLoad: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('loading', { rows: [], shown: [], pagesLoaded: 0, exhausted: false })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: '用户管理' }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
  },
};
export const Ready: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'idle' })),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('Root User')).toBeVisible();
    await expect(c.getByText('500.0M')).toBeVisible();
  },
};
export const Empty: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'idle' }, { rows: [], shown: [] })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('暂无数据')).toBeVisible();
  },
};
/** Search results for 'alice' ordered by used quota (the URL would say ?q=alice&order=used_quota). */
export const SearchResults: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'idle' }, { rows: [userRows[1]!], query: { ...defaultTableQuery, keyword: 'alice', order: 'used_quota' } })),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('searchbox')).toHaveValue('alice');
    await expect(c.getByLabelText('排序方式')).toHaveValue('used_quota');
    await expect(c.queryByText('Root User')).toBeNull();
  },
};
/** Filtered to banned users. */
export const FilteredBanned: Story = {
  render: frozen(seed({ ready: 'idle' }, { shown: [userRows[2]!], query: { ...defaultTableQuery, filters: { status: '2' } } })),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByLabelText('按状态筛选')).toHaveValue('2');
    await expect(c.queryByText('Alice')).toBeNull();
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
  render: frozen(seed({ ready: 'idle' }, { busy: { 2: 'promote' } })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '降级 alice 为普通用户' })).toBeDisabled();
  },
};
export const ConfirmingRow: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'confirmingRow' }, { pending: { id: 2, action: 'delete', value: '' } })),
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('确定删除用户 alice（ID 2）吗？');
  },
};
export const ConfirmingBulk: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'confirmingBulk' }, { selected: [2, 3], bulk: bulkRun({ action: 'enable' }) })),
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('将对 2 项执行「启用」');
  },
};
export const BulkRunning: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: { bulkRunning: 'running' } }, { selected: [2, 3], bulk: bulkRun({ done: 1, succeeded: [2] }) })),
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
        selected: [2, 3],
        bulk: bulkRun({ ids: [2, 3], done: 2, succeeded: [3], failures: [{ id: 2, message: { text: '无权更新同权限等级或更高权限等级的用户信息' } }] }),
      },
    ),
  ),
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('成功 1 项，失败 1 项');
    await expect(dialog).toHaveTextContent('#2 alice: 无权更新同权限等级或更高权限等级的用户信息');
  },
};
export const Phone: Story = {
  tags: ['!dev', '!autodocs'],
  ...phoneViewport,
  render: frozen(seed({ ready: 'idle' }, { selected: [2] })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('region', { name: '已选择 1 项' })).toBeVisible();
  },
};
export const EnglishDark: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', colorMode: 'dark' },
  render: frozen(seed({ ready: 'idle' })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: 'Users' })).toBeVisible();
    await expect(within(within(canvasElement).getByRole('table', { name: 'Users' })).getByText('Super admin')).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** A live run: the users load, bob is enabled (the answer's status replaces the row's), then deleted after the confirmation. */
export const LiveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[table]}>
        <UserListPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: '启用 bob-the-long-username' }));
    await expect(await c.findByRole('button', { name: '禁用 bob-the-long-username' })).toBeEnabled();
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'common.success' } }));
    await userEvent.click(c.getByRole('button', { name: '删除 bob-the-long-username' }));
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    await waitFor(() => expect(c.queryByRole('button', { name: '删除 bob-the-long-username' })).toBeNull());
  },
};

/** Bulk disable over root and alice: root fails at once without a call, alice is disabled. */
export const BulkWithSuperAdminInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[table]} snapshots={seed({ ready: 'idle' }, { selected: [1, 2] })}>
        <UserListPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    runs.mockClear();
    const c = within(canvasElement);
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(within(c.getByRole('region', { name: '已选择 2 项' })).getByRole('button', { name: '禁用' }));
    await userEvent.click(within(await body.findByRole('alertdialog')).getByRole('button', { name: '确定' }));
    const reported = () =>
      body
        .queryAllByRole('alertdialog')
        .some((d) => (d.textContent ?? '').includes('成功 1 项，失败 1 项') && (d.textContent ?? '').includes('#1 root: root 是超级管理员'));
    await waitFor(() => expect(reported()).toBe(true));
    await expect(runs.mock.calls.map(([i]) => [i.action, i.row.id])).toEqual([['disable', 2]]);
  },
};
