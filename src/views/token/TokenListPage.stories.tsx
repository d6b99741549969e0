import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import type { Message, NavigateEvent, NotifyEvent } from '../../domain/message';
import type { ExportRowsInput, FetchPageInput, RowActionInput, RowActionOutcome, SearchRowsInput } from '../../domain/rowAction';
import { defaultTableQuery } from '../../domain/tableQuery';
import type { Token } from '../../domain/token';
import type { TableContext } from '../../machines/table';
import { tokenKeyCopyMachine, tokenTableMachine } from '../../machines/tokenList';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { TokenListPage, type TokenListPageProps } from './TokenListPage';
import { bulkRun, phoneViewport, storyServerAddress, tableContext, tokenRows } from './TokenListPage.fixtures';

const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };
const clipboard = fn<(text: string) => void>();

const never = <T,>() => new Promise<T>(() => undefined);
const table = tokenTableMachine.provide({
  actors: {
    fetchPage: fromPromise<readonly Token[], FetchPageInput>(() => Promise.resolve(tokenRows)),
    searchRows: fromPromise<readonly Token[], SearchRowsInput>(({ input }) =>
      Promise.resolve(tokenRows.filter((r) => r.name.startsWith(input.keyword))),
    ),
    runRowAction: fromPromise<RowActionOutcome<Token>, RowActionInput<Token>>(({ input }) =>
      Promise.resolve(input.action === 'delete' ? { removed: true } : { row: { ...input.row, status: input.row.status === 1 ? 2 : 1 } }),
    ),
    exportRows: fromPromise<Message | null, ExportRowsInput<Token>>(() => Promise.resolve(null)),
  },
});
const frozenTable = tokenTableMachine.provide({
  actors: {
    fetchPage: fromPromise<readonly Token[], FetchPageInput>(() => never()),
    searchRows: fromPromise<readonly Token[], SearchRowsInput>(() => never()),
    runRowAction: fromPromise<RowActionOutcome<Token>, RowActionInput<Token>>(() => never()),
    exportRows: fromPromise<Message | null, ExportRowsInput<Token>>(() => never()),
  },
});
const copies = tokenKeyCopyMachine.provide({
  actors: {
    copyText: fromPromise<void, { readonly text: string }>(({ input }) => {
      clipboard(input.text);
      return Promise.resolve();
    }),
  },
});
const copyRefused = tokenKeyCopyMachine.provide({
  actors: {
    copyText: fromPromise<void, { readonly text: string }>(async () => {
      await Promise.resolve();
      throw new Error('denied');
    }),
  },
});

type TableValue = Parameters<typeof tokenTableMachine.resolveState>[0]['value'];
const seed = (value: TableValue, over: Partial<TableContext<Token>> = {}) => ({
  [tokenTableMachine.id]: tokenTableMachine.resolveState({ value, context: tableContext(over) }),
});

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 */
const meta = {
  title: 'Token/TokenListPage',
  component: TokenListPage,
  parameters: { route: '/token' },
  args: { quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 }, serverAddress: storyServerAddress, chatLink: '' },
} satisfies Meta<typeof TokenListPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The token test's answers: the relay's reply, or its refusal of a disabled token (contract §4.2). */
const testSucceeded: Message = {
  key: 'tokens.test.success',
  params: { name: 'chat-client', model: 'gpt-4o-mini', seconds: '0.42', reply: 'pong' },
};
const testRefusal = '该令牌状态不可用 (request id: 2026112409120012345678)';
const tested = (outcome: 'success' | 'refused') =>
  tokenTableMachine.provide({
    actors: {
      fetchPage: fromPromise<readonly Token[], FetchPageInput>(() => Promise.resolve(tokenRows)),
      searchRows: fromPromise<readonly Token[], SearchRowsInput>(() => never()),
      runRowAction: fromPromise<RowActionOutcome<Token>, RowActionInput<Token>>(async ({ input }) => {
        await Promise.resolve();
        if (input.action !== 'test') throw new Error(`unexpected ${input.action}`);
        if (outcome === 'success') return { message: testSucceeded };
        // what the relay API's error reader makes of the relay's 401 body
        throw failure('GET /v1/models', testRefusal);
      }),
      exportRows: fromPromise<Message | null, ExportRowsInput<Token>>(() => never()),
    },
  });

const frozen = (snapshots: ReturnType<typeof seed>) => (args: TokenListPageProps) => (
  <MachineRegistryProvider machines={[frozenTable, copies]} snapshots={snapshots}>
    <TokenListPage {...args} />
  </MachineRegistryProvider>
);

/** State `loading` with nothing loaded: skeleton rows. */
export const FirstLoad: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed('loading', { rows: [], shown: [], pagesLoaded: 0, exhausted: false })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: '令牌' }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
  },
};

/** State `searching`: the search runs. */
export const Searching: Story = {
  render: frozen(seed('searching', { rows: [], shown: [], query: { ...defaultTableQuery, keyword: 'chat' } })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('searchbox')).toHaveValue('chat');
    await expect(within(canvasElement).getByRole('table', { name: '令牌' }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
  },
};

export const Ready: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'idle' })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('batch-jobs')).toBeVisible();
  },
};

/** Ordered by remaining quota on the server (the URL would say ?order=remain_quota). */
export const OrderedByRemaining: Story = {
  render: frozen(seed({ ready: 'idle' }, { query: { ...defaultTableQuery, order: 'remain_quota' } })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByLabelText('排序方式')).toHaveValue('remain_quota');
  },
};

export const Empty: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'idle' }, { rows: [], shown: [] })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('暂无数据')).toBeVisible();
  },
};

export const SearchResults: Story = {
  render: frozen(seed({ ready: 'idle' }, { rows: [tokenRows[1]!], query: { ...defaultTableQuery, keyword: 'batch' } })),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('searchbox')).toHaveValue('batch');
    await expect(c.queryByText('chat-client')).toBeNull();
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
  render: frozen(seed({ ready: 'idle' }, { busy: { 7: 'toggle' } })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '禁用令牌 chat-client（#7）' })).toBeDisabled();
  },
};

/** A token under test (state ready.idle, the row busy with 'test'): its buttons wait, the others do not. */
export const RowTesting: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'idle' }, { busy: { 7: 'test' } })),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('button', { name: '测试令牌 chat-client（#7）' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '删除令牌 chat-client（#7）' })).toBeDisabled();
    await expect(c.getByRole('button', { name: '测试令牌 batch-jobs（#6）' })).toBeEnabled();
  },
};

export const ConfirmingRow: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'confirmingRow' }, { pending: { id: 7, action: 'delete', value: '' } })),
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('chat-client');
  },
};

export const ConfirmingBulk: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen(seed({ ready: 'confirmingBulk' }, { selected: [7, 6], bulk: bulkRun() })),
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('将对 2 项执行「批量禁用」');
  },
};

export const BulkRunning: Story = {
  render: frozen(seed({ ready: { bulkRunning: 'running' } }, { selected: [7, 6], bulk: bulkRun({ done: 1, succeeded: [7] }) })),
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
        selected: [7, 5],
        bulk: bulkRun({ action: 'enable', ids: [7, 5], done: 2, succeeded: [7], failures: [{ id: 5, message: { text: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期' } }] }),
      },
    ),
  ),
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('成功 1 项，失败 1 项');
  },
};

export const Exporting: Story = {
  render: frozen(seed({ ready: 'exporting' }, { selected: [7], exportFormat: 'copy' })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '刷新' })).toBeDisabled();
  },
};

export const Phone: Story = {
  tags: ['!dev', '!autodocs'],
  ...phoneViewport,
  render: frozen(seed({ ready: 'idle' }, { selected: [7] })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('region', { name: '已选择 1 项' })).toBeVisible();
  },
};

export const EnglishDark: Story = {
  tags: ['!dev', '!autodocs'],
  parameters: { lang: 'en', colorMode: 'dark' },
  render: frozen(seed({ ready: 'idle' })),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: 'Tokens' })).toBeVisible();
  },
};

/*
 * Interactions: stories whose play clicks or types (tagged 'interaction' and left out of the docs
 * page, which lists the states). One that spreads a state story plays its flow from that state.
 */

/** A live run: the tokens load and one is disabled (the answer replaces the row). */
export const LiveInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[table, copies]}>
        <TokenListPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    clipboard.mockClear();
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: '禁用令牌 chat-client（#7）' }));
    await expect(await c.findByRole('button', { name: '启用令牌 chat-client（#7）' })).toBeEnabled();
  },
};

/** A live delete: the confirmation first, then the row leaves the list. */
export const LiveDeleteInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[table, copies]}>
        <TokenListPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: '删除令牌 old-demo（#5）' }));
    const dialog = await within(canvasElement.ownerDocument.body).findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    await waitFor(() => expect(c.queryByRole('button', { name: '删除令牌 old-demo（#5）' })).toBeNull());
  },
};

/** A live copy: exactly sk-<key> goes to the clipboard, the toast does not show it. */
export const LiveCopyInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[table, copies]}>
        <TokenListPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    clipboard.mockClear();
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: '复制令牌 batch-jobs（#6）' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'tokens.copied' } }));
    await expect(clipboard).toHaveBeenCalledWith(`sk-${tokenRows[1]!.key}`);
  },
};

/** The NextChat format copies the link with the key and the server address. */
export const CopyNextChatLinkInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[frozenTable, copies]} snapshots={seed({ ready: 'idle' })}>
        <TokenListPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    clipboard.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '令牌 chat-client（#7） 的复制格式' }));
    const menu = await within(canvasElement.ownerDocument.body).findByRole('menu');
    await userEvent.click(await within(menu).findByRole('menuitem', { name: '复制 NextChat 链接' }));
    await waitFor(() =>
      expect(clipboard).toHaveBeenCalledWith(
        `https://app.nextchat.dev/#/?settings={"key":"sk-${tokenRows[0]!.key}","url":"${storyServerAddress}"}`,
      ),
    );
  },
};

/** The clipboard refuses: the spec's warning, and the text lands in the search box (not the address bar). */
export const CopyRefusedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[frozenTable, copyRefused]} snapshots={seed({ ready: 'idle' })}>
        <TokenListPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('button', { name: '复制令牌 spent（#4）' }));
    await waitFor(() => expect(c.getByRole('searchbox')).toHaveValue(`sk-${tokenRows[3]!.key}`));
    await expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'warning', message: { key: 'tokens.copyFailed' } });
    await expect(canvasElement.ownerDocument.defaultView?.location.href ?? '').not.toContain(tokenRows[3]!.key);
  },
};

/** 'Test' on a working token: the success toast names the model, the seconds and the reply; the row is usable again. */
export const TestSucceededInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[tested('success'), copies]}>
        <TokenListPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: '测试令牌 chat-client（#7）' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: testSucceeded }));
    await expect(c.getByRole('button', { name: '测试令牌 chat-client（#7）' })).toBeEnabled();
    await expect(c.getByRole('button', { name: '禁用令牌 chat-client（#7）' })).toBeEnabled();
  },
};

/** 'Test' on a disabled token: the relay's own refusal is the error toast, verbatim. */
export const TestRefusedInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: (args) => (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[tested('refused'), copies]}>
        <TokenListPage {...args} />
      </MachineRegistryProvider>
    </EffectsProvider>
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: '测试令牌 batch-jobs（#6）' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: testRefusal } }));
    await expect(c.getByRole('button', { name: '测试令牌 batch-jobs（#6）' })).toBeEnabled();
  },
};
