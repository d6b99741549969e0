import { assign, emit, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import type { Log, LogFilter } from '../../domain/log';
import { logFilterOf, logParamKeys, type LogScope } from '../../domain/logQuery';
import { msg, notify, type NotifyEvent } from '../../domain/message';
import { pageSizeOptions, type TableQuerySchema } from '../../domain/tableQuery';
import { createTableMachine } from '../table';

/**
 * The log list (/log): one instance of the table machine. The filters are its server
 * parameters (`params.set` reloads from page 0; `p.<name>` in the address); header sorting and
 * paging are the table's. The composition root picks `/api/log/` or `/api/log/self/` from the
 * fixed `scope` parameter the page passes as `baseParams`, and numbers self rows (all id 0).
 */
export const logTableMachine = createTableMachine<Log>({ id: 'logTable' });

/** What the address bar may carry for this list. */
export const logQuerySchema: TableQuerySchema = {
  sortKeys: ['created_at', 'channel', 'username', 'token_name', 'type', 'model_name', 'prompt_tokens', 'completion_tokens', 'quota', 'elapsed_time', 'is_stream'],
  orders: [],
  filterKeys: [],
  sizes: pageSizeOptions,
  paramKeys: logParamKeys,
};

/** What the stat and export calls take: the list's filters and whose logs. */
export interface LogCallInput {
  readonly filter: LogFilter;
  readonly scope: LogScope;
}

export interface LogActionInput {
  readonly scope: LogScope;
}

const noParams: Readonly<Record<string, string>> = {};

// ---------------------------------------------------------------------------------------------
// The title's total consumed quota

export interface LogStatContext {
  readonly scope: LogScope;
  /** The filters of the last request (what `quota` answers once loaded). */
  readonly params: Readonly<Record<string, string>>;
  /** The consumed quota, null until loaded. */
  readonly quota: number | null;
}

export type LogStatEvent = { readonly type: 'stat.load'; readonly params: Readonly<Record<string, string>> };

/**
 * The title's "total consumed quota (click to view)" (spec "Log page", contract §2.10.4): a
 * click loads `GET /api/log/stat` (or `/self/stat`) with the list's filters; another click
 * reloads, with the filters of that moment. A failure is an error toast and shows the prompt again.
 */
export const logStatMachine = setup({
  types: {
    context: {} as LogStatContext,
    events: {} as LogStatEvent,
    emitted: {} as NotifyEvent,
    input: {} as LogActionInput,
    tags: {} as 'busy',
  },
  actors: {
    fetchLogStat: fromPromise<number, LogCallInput>(() => {
      throw new Error('fetchLogStat not provided');
    }),
  },
  actions: {
    request: assign((_, params: { params: Readonly<Record<string, string>> }) => ({ params: params.params, quota: null })),
    store: assign({ quota: (_, params: { quota: number }) => params.quota }),
    notifyError: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
  },
}).createMachine({
  id: 'logStat',
  context: ({ input }) => ({ scope: input.scope, params: noParams, quota: null }),
  initial: 'idle',
  on: {
    'stat.load': { target: '.loading', reenter: true, actions: { type: 'request', params: ({ event }) => ({ params: event.params }) } },
  },
  states: {
    idle: {},
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchLogStat',
        src: 'fetchLogStat',
        input: ({ context }) => ({ filter: logFilterOf(context.params, context.scope), scope: context.scope }),
        onDone: { target: 'ready', actions: { type: 'store', params: ({ event }) => ({ quota: event.output }) } },
        onError: { target: 'failed', actions: { type: 'notifyError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {},
    failed: {},
  },
});

// ---------------------------------------------------------------------------------------------
// Export of the whole filtered result (streamed CSV)

export interface LogExportContext {
  readonly scope: LogScope;
  readonly params: Readonly<Record<string, string>>;
}

export type LogExportEvent = { readonly type: 'export.request'; readonly params: Readonly<Record<string, string>> };

/**
 * Downloads the current filtered result as CSV (`GET /api/log/export` or `/self/export`, no
 * paging). `downloadLogs` fetches and saves the file and answers its name, said in a success
 * toast; a refusal (the server's envelope message) is an error toast. One export at a time.
 */
export const logExportMachine = setup({
  types: {
    context: {} as LogExportContext,
    events: {} as LogExportEvent,
    emitted: {} as NotifyEvent,
    input: {} as LogActionInput,
    tags: {} as 'busy',
  },
  actors: {
    downloadLogs: fromPromise<string, LogCallInput>(() => {
      throw new Error('downloadLogs not provided');
    }),
  },
  actions: {
    request: assign({ params: (_, params: { params: Readonly<Record<string, string>> }) => params.params }),
    notifySaved: emit((_, params: { name: string }) => notify('success', msg('logs.exported', { name: params.name }))),
    notifyError: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
  },
}).createMachine({
  id: 'logExport',
  context: ({ input }) => ({ scope: input.scope, params: noParams }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'export.request': { target: 'exporting', actions: { type: 'request', params: ({ event }) => ({ params: event.params }) } },
      },
    },
    exporting: {
      tags: ['busy'],
      invoke: {
        id: 'downloadLogs',
        src: 'downloadLogs',
        input: ({ context }) => ({ filter: logFilterOf(context.params, context.scope), scope: context.scope }),
        onDone: { target: 'idle', actions: { type: 'notifySaved', params: ({ event }) => ({ name: event.output }) } },
        onError: { target: 'idle', actions: { type: 'notifyError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
