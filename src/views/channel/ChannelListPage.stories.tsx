import type { Meta, StoryObj } from '@storybook/react-vite';
import type { AnyMachineSnapshot } from 'xstate';
import { fromPromise } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { failure } from '../../domain/apiError';
import { balanceFailureMessage, type Channel, type ChannelRow, type ChannelTagCount, type ChannelTestRun } from '../../domain/channel';
import type { Message, NavigateEvent, NotifyEvent } from '../../domain/message';
import type { ExportRowsInput, FetchPageInput, RowActionInput, RowActionOutcome, SearchRowsInput } from '../../domain/rowAction';
import { defaultTableQuery } from '../../domain/tableQuery';
import {
  channelListActionsMachine,
  channelTableMachine,
  type ChannelListActionsContext,
  type ChannelListPrefs,
} from '../../machines/channelList';
import { channelTagsMachine, emptyTagEditDraft, type ChannelTagsContext, type UpdateChannelsByTagInput } from '../../machines/channelTags';
import { channelTestMachine } from '../../machines/channelTest';
import type { TableContext } from '../../machines/table';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { ChannelListPage } from './ChannelListPage';
import { bulkRun, channelRows, tableContext } from './ChannelListPage.fixtures';
import { phoneViewport } from '../table/table.fixtures';
import { expectCardsFit } from '../table/cards.fixtures';
import { useRenderMessage } from '../app/i18n';
import { showToast, Toaster, toaster } from '../app/toaster';

const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };
const never = <T,>() => new Promise<T>(() => undefined);

const tableWith = (fetchPage: Promise<readonly ChannelRow[]> | null, runRowAction?: (input: RowActionInput<ChannelRow>) => Promise<RowActionOutcome<ChannelRow>>) =>
  channelTableMachine.provide({
    actors: {
      fetchPage: fromPromise<readonly ChannelRow[], FetchPageInput>(() => fetchPage ?? never()),
      searchRows: fromPromise<readonly ChannelRow[], SearchRowsInput>(() => never()),
      runRowAction: fromPromise<RowActionOutcome<ChannelRow>, RowActionInput<ChannelRow>>(({ input }) =>
        runRowAction ? runRowAction(input) : never(),
      ),
      exportRows: fromPromise<Message | null, ExportRowsInput<ChannelRow>>(() => Promise.resolve(null)),
    },
  });

const actionsWith = (prefs: ChannelListPrefs = { showDetail: false, noticeDismissed: false }) =>
  channelListActionsMachine.provide({
    actors: {
      loadListPrefs: fromPromise<ChannelListPrefs>(() => Promise.resolve(prefs)),
      deleteDisabledChannels: fromPromise<number>(() => Promise.resolve(2)),
      fetchGroups: fromPromise<readonly string[]>(() => Promise.resolve(['default', 'vip'])),
    },
    actions: { storeShowDetail: () => undefined, storeNoticeDismissed: () => undefined },
  });

const testMachine = channelTestMachine.provide({
  actors: {
    fetchCurrentRun: fromPromise<ChannelTestRun | null>(() => Promise.resolve(null)),
    startTestRun: fromPromise(() => never<ChannelTestRun>()),
    fetchTestRun: fromPromise(() => never<ChannelTestRun>()),
    cancelTestRun: fromPromise(() => never<ChannelTestRun>()),
    listAllChannels: fromPromise(() => never<Channel[]>()),
    testChannel: fromPromise(() => never()),
  },
});

const tagCounts: ChannelTagCount[] = [
  { tag: 'team-a', count: 2 },
  { tag: 'prod', count: 1 },
];
const updateByTag = fn<(input: UpdateChannelsByTagInput) => void>();
const tagsMachine = channelTagsMachine.provide({
  actors: {
    fetchTags: fromPromise<readonly ChannelTagCount[]>(() => Promise.resolve(tagCounts)),
    updateChannelsByTag: fromPromise<number, UpdateChannelsByTagInput>(({ input }) => {
      updateByTag(input);
      return Promise.resolve(2);
    }),
  },
});
const seedTags = (value: Partial<Record<'list' | 'edit', string>> = {}, over: Partial<ChannelTagsContext> = {}) =>
  channelTagsMachine.resolveState({
    value: { list: 'ready', edit: 'closed', ...value },
    context: { tags: tagCounts, draft: { ...emptyTagEditDraft, tag: 'team-a', fields: ['status'] }, problem: null, ...over },
  });

type TableValue = Parameters<typeof channelTableMachine.resolveState>[0]['value'];
const seedTable = (value: TableValue, context: Partial<TableContext<ChannelRow>> = {}) =>
  channelTableMachine.resolveState({ value, context: tableContext(context) });

const actionsContext = (over: Partial<ChannelListActionsContext> = {}): ChannelListActionsContext => ({
  showDetail: false,
  noticeDismissed: false,
  prompt: null,
  groups: [],
  ...over,
});
const seedActions = (value: Partial<Record<'prefs' | 'deleteDisabled' | 'bulkValue', string>> = {}, over: Partial<ChannelListActionsContext> = {}) =>
  channelListActionsMachine.resolveState({
    value: { prefs: 'ready', deleteDisabled: 'idle', bulkValue: 'closed', ...value },
    context: actionsContext(over),
  });

/** The page with stub actors, optionally from seeded (frozen) snapshots. */
function Page({
  table = tableWith(null),
  snapshots,
}: {
  readonly table?: ReturnType<typeof tableWith>;
  readonly snapshots?: Readonly<Record<string, AnyMachineSnapshot>>;
}) {
  return (
    <EffectsProvider value={effects}>
      <MachineRegistryProvider machines={[table, actionsWith(), testMachine, tagsMachine]} snapshots={snapshots}>
        <ChannelListPage quotaDisplay={{ displayInCurrency: true, quotaPerUnit: 500000 }} />
      </MachineRegistryProvider>
    </EffectsProvider>
  );
}

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 * The journeys (tagged 'interaction') run the page with its real machines and stub actors.
 */
const meta = {
  title: 'Channel/ChannelListPage',
  component: ChannelListPage,
  parameters: { route: '/channel' },
  args: { quotaDisplay: { displayInCurrency: true, quotaPerUnit: 500000 } },
} satisfies Meta<typeof ChannelListPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A live run: the rows load; a test patches the row and says the model and seconds. */
export const LiveInteraction: Story = {
  tags: ['interaction'],
  render: () => (
    <Page
      table={tableWith(Promise.resolve(channelRows), ({ action, row }) =>
        Promise.resolve(
          action === 'test'
            ? { patch: { response_time: 420 }, message: { key: 'channels.test.success', params: { name: row.name, model: 'gpt-3.5-turbo', seconds: '0.42' } } }
            : {},
        ),
      )}
    />
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await c.findByText('openai-main');
    await userEvent.click(c.getByRole('button', { name: '测试渠道 openai-main' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        type: 'notify',
        level: 'success',
        message: { key: 'channels.test.success', params: { name: 'openai-main', model: 'gpt-3.5-turbo', seconds: '0.42' } },
      }),
    );
    await expect(await c.findByText('0.42 秒')).toBeInTheDocument();
  },
};

/** A refused action: the server's message as an error toast; the row is usable again. */
export const ActionRefusedInteraction: Story = {
  tags: ['interaction'],
  render: () => (
    <Page table={tableWith(Promise.resolve(channelRows), async () => {
        await Promise.resolve();
        throw failure('GET /api/channel/test/7', 'http status code: 401');
      })} />
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await c.findByText('openai-main');
    await userEvent.click(c.getByRole('button', { name: '测试渠道 openai-main' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'error', message: { text: 'http status code: 401' } }));
    await waitFor(() => expect(c.getByRole('button', { name: '测试渠道 openai-main' })).toBeEnabled());
  },
};

/**
 * A dialog drawn from its first opening (useOpenedOnce) behaves as one mounted closed: focus moves
 * into it, Escape closes it and gives the focus back, and it opens again.
 */
export const DialogKeyboardInteraction: Story = {
  tags: ['interaction', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }), channelListActions: seedActions() }} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const body = within(canvasElement.ownerDocument.body);
    const opener = c.getByRole('button', { name: '删除禁用渠道' });
    await expect(body.queryByRole('alertdialog')).toBeNull();
    for (let round = 0; round < 2; round++) {
      await userEvent.click(opener);
      const dialog = await body.findByRole('alertdialog');
      await expect(dialog).toHaveTextContent('将删除所有已禁用的渠道');
      await waitFor(() => expect(dialog).toContainElement(canvasElement.ownerDocument.activeElement as HTMLElement));
      await userEvent.keyboard('{Escape}');
      // the dialog leaves after its exit animation, and gives the focus back then: over 1 s once
      // in a full CI run
      await waitFor(() => expect(body.queryByRole('alertdialog')).toBeNull(), { timeout: 5000 });
      await waitFor(() => expect(opener).toHaveFocus(), { timeout: 5000 });
    }
  },
};

export const FirstLoad: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable('loading', { rows: [], shown: [], exhausted: false, pagesLoaded: 0 }) }} />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: '渠道' }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
  },
};

export const Ready: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }), channelListActions: seedActions() }} />,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('gemini-free')).toBeInTheDocument();
    await expect(c.getByText(/OpenAI 渠道已不再支持/)).toBeInTheDocument();
  },
};

export const DetailMode: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }), channelListActions: seedActions({}, { showDetail: true, noticeDismissed: true }) }} />
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('columnheader', { name: /余额/ })).toBeInTheDocument();
    await expect(c.getByLabelText('渠道 openai-main 的测试模型')).toHaveValue('gpt-3.5-turbo');
    await expect(c.queryByText(/OpenAI 渠道已不再支持/)).toBeNull();
  },
};

export const Empty: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }, { rows: [], shown: [] }) }} />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('暂无数据')).toBeInTheDocument();
  },
};

export const SearchResults: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Page
      snapshots={{
        channelTable: seedTable({ ready: 'idle' }, { rows: [channelRows[0]!], shown: [channelRows[0]!], query: { ...defaultTableQuery, keyword: 'openai' } }),
      }}
    />
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByRole('searchbox')).toHaveValue('openai');
    await expect(c.queryByText('gemini-free')).toBeNull();
  },
};

export const LoadFailed: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable('failed', { rows: [], shown: [] }) }} />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('列表加载失败')).toBeInTheDocument();
  },
};

export const RowBusy: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }, { busy: { 7: 'test' } }) }} />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '测试渠道 openai-main' })).toBeDisabled();
  },
};

export const ConfirmingRow: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'confirmingRow' }, { pending: { id: 4, action: 'delete', value: '' } }) }} />,
  play: async () => {
    await expect(await within(document.body).findByRole('alertdialog')).toHaveTextContent('确定删除渠道 gemini-free（#4）吗？');
  },
};

export const ConfirmingDeleteDisabled: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }), channelListActions: seedActions({ deleteDisabled: 'confirming' }) }} />,
  play: async () => {
    await expect(await within(document.body).findByRole('alertdialog')).toHaveTextContent('将删除所有已禁用的渠道');
  },
};

export const BulkValuePrompt: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Page
      snapshots={{
        channelTable: seedTable({ ready: 'idle' }, { selected: [7, 6] }),
        channelListActions: seedActions({ bulkValue: 'prompting' }, { prompt: { action: 'setGroup', value: 'vip', problem: null }, groups: ['default', 'vip'] }),
      }}
    />
  ),
  play: async () => {
    const dialog = await within(document.body).findByRole('dialog');
    await expect(within(dialog).getByLabelText('分组')).toHaveValue('vip');
  },
};

export const ConfirmingBulk: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Page snapshots={{ channelTable: seedTable({ ready: 'confirmingBulk' }, { selected: [7, 6], bulk: bulkRun() }) }} />
  ),
  play: async () => {
    await expect(await within(document.body).findByRole('alertdialog')).toHaveTextContent('将对 2 项执行「禁用」，确定继续吗？');
  },
};

export const BulkRunning: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Page
      snapshots={{ channelTable: seedTable({ ready: { bulkRunning: 'running' } }, { selected: [7, 6], bulk: bulkRun({ done: 1, succeeded: [7] }) }) }}
    />
  ),
  play: async () => {
    await expect(await within(document.body).findByRole('alertdialog')).toHaveTextContent('1 / 2');
  },
};

export const BulkReportWithFailures: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => (
    <Page
      snapshots={{
        channelTable: seedTable(
          { ready: 'bulkReport' },
          {
            selected: [7, 6],
            bulk: bulkRun({ done: 2, succeeded: [7], failures: [{ id: 6, message: { text: '数据库错误' } }] }),
          },
        ),
      }}
    />
  ),
  play: async () => {
    const dialog = await within(document.body).findByRole('alertdialog');
    await expect(dialog).toHaveTextContent('#6 custom-upstream: 数据库错误');
    await expect(dialog).toHaveTextContent('成功 1 项，失败 1 项');
  },
};

/** A 375 px phone: the channels are cards, their buttons on screen. */
export const Narrow: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }), channelListActions: seedActions({}, { showDetail: true }) }} />,
  ...phoneViewport,
  play: async ({ canvasElement }) => {
    await expectCardsFit(canvasElement, '渠道', channelRows.length);
  },
};

/** The app's toasts for the page's notices (as the shell shows them), so a story can read them. */
function ToastingPage({ table }: { readonly table: ReturnType<typeof tableWith> }) {
  const render = useRenderMessage();
  const shown = { notify: (e: NotifyEvent) => showToast(e, render(e.message)), navigate: fn<(e: NavigateEvent) => void>() };
  return (
    <EffectsProvider value={shown}>
      <MachineRegistryProvider machines={[table, actionsWith({ showDetail: true, noticeDismissed: true }), testMachine]}>
        <ChannelListPage quotaDisplay={{ displayInCurrency: true, quotaPerUnit: 500000 }} />
      </MachineRegistryProvider>
      <Toaster />
    </EffectsProvider>
  );
}

/** The provider has no balance endpoint (`status code: 404`): a sentence naming the channel, not the raw text. */
export const BalanceFailedInteraction: Story = {
  tags: ['interaction'],
  render: () => (
    <ToastingPage
      table={tableWith(Promise.resolve(channelRows), ({ action, row }) =>
        Promise.resolve(action === 'balance' ? { message: balanceFailureMessage(row.name, 'status code: 404'), level: 'error' as const } : {}),
      )}
    />
  ),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await c.findByRole('button', { name: /刷新渠道 openai-main 的余额/ }));
    await waitFor(() => expect(body.getByText('余额查询失败：渠道 openai-main 的服务商不提供余额接口（status code: 404）')).toBeVisible());
    await expect(c.getByRole('button', { name: /刷新渠道 openai-main 的余额/ })).toHaveTextContent('$42.50');
    // the toast's own look is the toaster's (App/Toaster): closed before the page's a11y check
    toaster.remove();
    await waitFor(() => expect(body.queryByText(/余额查询失败/)).toBeNull());
  },
};

/** The same in English. */
export const BalanceFailedEnglishInteraction: Story = {
  ...BalanceFailedInteraction,
  tags: ['interaction'],
  parameters: { lang: 'en' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const body = within(canvasElement.ownerDocument.body);
    await userEvent.click(await c.findByRole('button', { name: /refresh the balance of channel openai-main/ }));
    await waitFor(() =>
      expect(body.getByText('Balance check failed: the provider of channel openai-main offers no balance endpoint (status code: 404)')).toBeVisible(),
    );
    toaster.remove();
    await waitFor(() => expect(body.queryByText(/Balance check failed/)).toBeNull());
  },
};

/** A single test that ran and failed: the row turns to a red "失败" (its error as the title) and the toast names the channel. */
export const TestFailedInteraction: Story = {
  tags: ['interaction'],
  render: () => (
    <Page
      table={tableWith(Promise.resolve(channelRows), ({ action, row }) =>
        Promise.resolve(
          action === 'test'
            ? {
                patch: { response_time: 0, test_time: 1_763_990_000, last_test: { success: false, message: 'http status code: 401', response_time: 0, test_time: 1_763_990_000 } },
                message: { key: 'channels.test.failed', params: { name: row.name, message: 'http status code: 401' } },
                level: 'error' as const,
              }
            : {},
        ),
      )}
    />
  ),
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await c.findByText('openai-main');
    await expect(c.queryByText('失败')).toBeNull();
    await userEvent.click(c.getByRole('button', { name: '测试渠道 openai-main' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        type: 'notify',
        level: 'error',
        message: { key: 'channels.test.failed', params: { name: 'openai-main', message: 'http status code: 401' } },
      }),
    );
    const badge = await c.findByText('失败');
    await expect(badge).toHaveAttribute('title', expect.stringContaining('http status code: 401'));
    await expect(c.queryByText('0.81 秒')).toBeNull();
  },
};

export const DarkEnglish: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }), channelListActions: seedActions({}, { showDetail: true }) }} />,
  parameters: { lang: 'en', colorMode: 'dark' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('heading', { name: 'Channels' })).toBeInTheDocument();
  },
};

/** The tag list is being read: the tag filter has no options yet. */
export const TagsLoading: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }), channelTags: seedTags({ list: 'loading' }, { tags: [] }) }} />,
  play: async ({ canvasElement }) => {
    const select = await within(canvasElement).findByLabelText('标签');
    await expect(within(select).getAllByRole('option')).toHaveLength(1);
  },
};

/** The tag list could not be read: the filter offers no tags, the list still works. */
export const TagsFailed: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }), channelTags: seedTags({ list: 'failed' }, { tags: [] }) }} />,
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText('openai-main')).toBeInTheDocument();
  },
};

/** The tag filter with the tags and their counts. */
export const TagsReady: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }), channelTags: seedTags() }} />,
  play: async ({ canvasElement }) => {
    const select = await within(canvasElement).findByLabelText('标签');
    await expect(within(select).getByRole('option', { name: 'team-a（2）' })).toBeInTheDocument();
  },
};

export const TagEditEditing: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }), channelTags: seedTags({ edit: 'editing' }) }} />,
  play: async () => {
    const dialog = await within(document.body).findByRole('dialog');
    await expect(within(dialog).getByRole('combobox', { name: '标签' })).toHaveValue('team-a');
  },
};

export const TagEditConfirming: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }), channelTags: seedTags({ edit: 'confirming' }) }} />,
  play: async () => {
    await expect(await within(document.body).findByRole('dialog')).toHaveTextContent('将修改带有标签「team-a」的 2 个渠道');
  },
};

export const TagEditSaving: Story = {
  tags: ['!dev', '!autodocs'],
  render: () => <Page snapshots={{ channelTable: seedTable({ ready: 'idle' }), channelTags: seedTags({ edit: 'saving' }) }} />,
  play: async () => {
    const dialog = await within(document.body).findByRole('dialog');
    await expect(within(dialog).getByRole('button', { name: '返回' })).toBeDisabled();
  },
};

/** Edit by tag end to end on the page: open, disable, next, apply; the request and the toast. */
export const EditByTagInteraction: Story = {
  tags: ['interaction'],
  render: () => <Page table={tableWith(Promise.resolve(channelRows))} />,
  play: async ({ canvasElement }) => {
    updateByTag.mockClear();
    notify.mockClear();
    const c = within(canvasElement);
    await c.findByText('openai-main');
    await waitFor(async () => expect(within(c.getByLabelText('标签')).getByRole('option', { name: 'team-a（2）' })).toBeInTheDocument());
    await userEvent.click(c.getByRole('button', { name: '按标签批量编辑' }));
    const dialog = await within(document.body).findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: '启用/禁用' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '下一步' }));
    await waitFor(() => expect(within(document.body).getByRole('dialog')).toHaveTextContent('将修改带有标签「team-a」的 2 个渠道'));
    await userEvent.click(within(document.body).getByRole('button', { name: '确认修改' }));
    await waitFor(() => expect(updateByTag).toHaveBeenCalledWith({ edit: { tag: 'team-a', status: 2 } }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'channels.tagEdit.done', params: { tag: 'team-a', count: 2 } } }),
    );
  },
};
