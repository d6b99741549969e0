import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ReactNode } from 'react';
import { fromPromise, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import type { Log } from '../../domain/log';
import type { Message, NavigateEvent, NotifyEvent } from '../../domain/message';
import type { ExportRowsInput, FetchPageInput, RowActionInput, RowActionOutcome, SearchRowsInput } from '../../domain/rowAction';
import { defaultLogRange, toDateTimeLocal, type QuotaDisplay } from '../../domain/format';
import { logExportMachine, logStatMachine, logTableMachine, type LogCallInput } from '../../machines/logList';
import { logListPageMachine } from '../../machines/logListPage';
import type { TableContext } from '../../machines/table';
import { EffectsProvider, MachineRegistryProvider } from '../app/machineRegistry';
import { SessionStory, seedSession, storyUsers } from '../app/stories/SessionStory';
import { LogListPage } from './LogListPage';
import { logRows, logTableContext } from './LogListPage.fixtures';

const notify = fn<(e: NotifyEvent) => void>();
const effects = { notify, navigate: fn<(e: NavigateEvent) => void>() };
const fetched = fn<(input: FetchPageInput) => void>();
const statAsked = fn<(input: LogCallInput) => void>();
const exportAsked = fn<(input: LogCallInput) => void>();

const never = <T,>() => new Promise<T>(() => undefined);
const tableWith = (fetchPage: (input: FetchPageInput) => Promise<readonly Log[]>) =>
  logTableMachine.provide({
    actors: {
      fetchPage: fromPromise<readonly Log[], FetchPageInput>(({ input }) => fetchPage(input)),
      searchRows: fromPromise<readonly Log[], SearchRowsInput>(() => never()),
      runRowAction: fromPromise<RowActionOutcome<Log>, RowActionInput<Log>>(() => never()),
      exportRows: fromPromise<Message | null, ExportRowsInput<Log>>(() => never()),
    },
  });
const liveTable = tableWith((input) => {
  fetched(input);
  const model = input.params?.model_name;
  return Promise.resolve(model === undefined ? logRows : logRows.filter((r) => r.model_name === model));
});
const frozenTable = tableWith(() => never());
const liveStat = logStatMachine.provide({
  actors: {
    fetchLogStat: fromPromise<number, LogCallInput>(({ input }) => {
      statAsked(input);
      return Promise.resolve(50713);
    }),
  },
});
const frozenStat = logStatMachine.provide({ actors: { fetchLogStat: fromPromise<number, LogCallInput>(() => never()) } });
const liveExport = logExportMachine.provide({
  actors: {
    downloadLogs: fromPromise<string, LogCallInput>(({ input }) => {
      exportAsked(input);
      return Promise.resolve('logs-20261123-100000.csv');
    }),
  },
});
const frozenExport = logExportMachine.provide({ actors: { downloadLogs: fromPromise<string, LogCallInput>(() => never()) } });

/** The page's clock: a fixed moment (2026-11-23 10:00 UTC), so the form's default end is known. */
const openedAt = 1_763_892_000;
const page = logListPageMachine.provide({ actors: { readClock: fromPromise<number>(() => Promise.resolve(openedAt)) } });

/** The page in a signed-in session: an admin (every user's logs) unless told otherwise. */
function Frame({ admin = true, machines, snapshots, children }: {
  readonly admin?: boolean;
  readonly machines: readonly AnyStateMachine[];
  readonly snapshots?: Readonly<Record<string, AnyMachineSnapshot>>;
  readonly children: ReactNode;
}) {
  return (
    <SessionStory snapshot={seedSession({ user: admin ? storyUsers.admin : storyUsers.common })}>
      <EffectsProvider value={effects}>
        <MachineRegistryProvider machines={[page, ...machines]} snapshots={snapshots}>
          {children}
        </MachineRegistryProvider>
      </EffectsProvider>
    </SessionStory>
  );
}

type TableValue = Parameters<typeof logTableMachine.resolveState>[0]['value'];
const seedTable = (value: TableValue, over: Partial<TableContext<Log>> = {}) =>
  logTableMachine.resolveState({ value, context: logTableContext(over) });

/*
 * Stories tagged '!dev' show a state this container's view already shows in its own stories: they
 * stay as tests of what the container hands its view and are left out of the sidebar and the docs page.
 * The journeys (tagged 'interaction') run the page with its real machines and stub actors.
 */
const meta = {
  title: 'Log/LogListPage',
  component: LogListPage,
  parameters: { route: '/log' },
  args: { quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 } },
} satisfies Meta<typeof LogListPage>;
export default meta;
type Story = StoryObj<typeof meta>;

const live = (args: { quotaDisplay: QuotaDisplay }) => (
  <Frame machines={[liveTable, liveStat, liveExport]}>
    <LogListPage {...args} />
  </Frame>
);

/** A live run: the list loads with the admin scope, a model filter reloads it from page 0. */
export const LiveFilterInteraction: Story = {
  tags: ['interaction'],
  render: live,
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await c.findByText('claude-3-opus');
    await expect(fetched).toHaveBeenCalledWith({ page: 0, order: '', params: { scope: 'admin' } });
    await userEvent.type(c.getByLabelText('模型名称'), 'gpt-4o');
    await userEvent.click(c.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(c.queryByText('claude-3-opus')).toBeNull());
    await expect(fetched).toHaveBeenLastCalledWith({
      page: 0,
      order: '',
      params: expect.objectContaining({ scope: 'admin', model_name: 'gpt-4o', end_timestamp: expect.stringMatching(/^\d+$/) as unknown }) as unknown,
    });
  },
};

/** A live run: the stat loads on click, the export says its file. */
export const LiveStatAndExportInteraction: Story = {
  tags: ['interaction'],
  render: live,
  play: async ({ canvasElement }) => {
    notify.mockClear();
    const c = within(canvasElement);
    await userEvent.click(await c.findByRole('button', { name: '总消耗额度：点击查看' }));
    await c.findByRole('button', { name: '总消耗额度：50.7k（点击刷新）' });
    await expect(statAsked).toHaveBeenCalledWith({ filter: {}, scope: 'admin' });
    await userEvent.click(c.getByRole('button', { name: '导出 CSV' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ type: 'notify', level: 'success', message: { key: 'logs.exported', params: { name: 'logs-20261123-100000.csv' } } }),
    );
    await expect(exportAsked).toHaveBeenCalledWith({ filter: {}, scope: 'admin' });
  },
};

const frozen =
  (
    snapshots: Record<string, ReturnType<typeof seedTable> | ReturnType<typeof logStatMachine.resolveState> | ReturnType<typeof logExportMachine.resolveState>>,
    admin = true,
  ) =>
  (args: { quotaDisplay: QuotaDisplay }) => (
    <Frame admin={admin} machines={[frozenTable, frozenStat, frozenExport]} snapshots={snapshots}>
      <LogListPage {...args} />
    </Frame>
  );
const ready = { [logTableMachine.id]: seedTable({ ready: 'idle' }) };

/** Table `loading` with nothing loaded: skeleton rows. */
export const FirstLoad: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen({ [logTableMachine.id]: seedTable('loading', { rows: [], shown: [], pagesLoaded: 0, exhausted: false }) }),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('table', { name: '使用明细' }).closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
  },
};

/** Table `ready` with filters from the address: the form shows them. */
export const Ready: Story = {
  render: frozen({
    [logTableMachine.id]: seedTable({ ready: 'idle' }, { query: { ...logTableContext().query, params: { model_name: 'gpt-4o', username: 'alice' } } }),
  }),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByText('claude-3-opus')).toBeVisible();
    await expect(c.getByLabelText('模型名称')).toHaveValue('gpt-4o');
    await expect(c.getByLabelText('用户名称')).toHaveValue('alice');
    // the default end is one hour after the page's clock read
    await waitFor(() => expect(c.getByLabelText('结束时间')).toHaveValue(toDateTimeLocal(defaultLogRange(openedAt).end)));
  },
};

/** Table `failed`: the error and retry. */
export const Failed: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen({ [logTableMachine.id]: seedTable('failed', { rows: [], shown: [] }) }),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '重试' })).toBeVisible();
  },
};

/** A common user's page: no admin filters or columns. */
export const SelfReady: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen({ [logTableMachine.id]: seedTable({ ready: 'idle' }, { baseParams: { scope: 'self' } }) }, false),
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.queryByLabelText('用户名称')).toBeNull();
    await expect(c.queryByRole('columnheader', { name: /^用户/ })).toBeNull();
  },
};

/** Stat `loading`. */
export const StatLoading: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen({ ...ready, [logStatMachine.id]: logStatMachine.resolveState({ value: 'loading', context: { scope: 'admin', params: {}, quota: null } }) }),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '加载中...' })).toBeDisabled();
  },
};

/** Stat `ready` for the current filters. */
export const StatReady: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen({ ...ready, [logStatMachine.id]: logStatMachine.resolveState({ value: 'ready', context: { scope: 'admin', params: {}, quota: 2713 } }) }),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '总消耗额度：2713（点击刷新）' })).toBeEnabled();
  },
};

/** Stat `ready` but for other filters than the list's: the prompt again. */
export const StatForOtherFilters: Story = {
  render: frozen({
    ...ready,
    [logStatMachine.id]: logStatMachine.resolveState({ value: 'ready', context: { scope: 'admin', params: { model_name: 'x' }, quota: 1 } }),
  }),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '总消耗额度：点击查看' })).toBeEnabled();
  },
};

/** Stat `failed`: the prompt again (the error was a toast). */
export const StatFailed: Story = {
  render: frozen({ ...ready, [logStatMachine.id]: logStatMachine.resolveState({ value: 'failed', context: { scope: 'admin', params: {}, quota: null } }) }),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: '总消耗额度：点击查看' })).toBeEnabled();
  },
};

/** Export `exporting`. */
export const Exporting: Story = {
  tags: ['!dev', '!autodocs'],
  render: frozen({ ...ready, [logExportMachine.id]: logExportMachine.resolveState({ value: 'exporting', context: { scope: 'admin', params: {} } }) }),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: /导出中/ })).toBeDisabled();
  },
};
