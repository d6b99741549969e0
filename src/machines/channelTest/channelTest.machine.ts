import { and, assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { describeError, errorText as apiErrorText, isApiError } from '../../domain/apiError';
import {
  defaultTestModelOf,
  isChannelDisabled,
  type Channel,
  type ChannelTestRun,
  type ChannelTestRunRequest,
  type ChannelTestRunResult,
  type ChannelTestRunScope,
  type ChannelTestRunStatus,
} from '../../domain/channel';
import { msg, notify, type NotifyEvent } from '../../domain/message';

/** Where the runs happen: the server's test-run resource, or this page testing one channel at a time. */
export type ChannelTestMode = 'server' | 'local';

/** What the panel shows of a run. A run tested by the page itself (local mode) has id 0. */
export interface ChannelTestRunSummary {
  readonly id: number;
  readonly scope: ChannelTestRunScope;
  readonly status: ChannelTestRunStatus;
  readonly total: number;
  readonly done: number;
}

/** A channel the page tests itself (local mode): what a result needs besides the test. */
export interface LocalTestChannel {
  readonly id: number;
  /** Its status; a single test never changes it. */
  readonly status: number;
  /** The model the server tests when none is named (shown in the result). */
  readonly model: string;
}

/** `testChannel`'s answer: a failed test is an answer too (success false, the error as message). */
export interface ChannelTestOutcome {
  readonly success: boolean;
  /** The model's reply, or the error. */
  readonly message: string;
  /** Seconds the test took (0 when it failed). */
  readonly time: number;
  /** The model tested ('' when the server did not say). */
  readonly model: string;
  /** Unix seconds when the test ended. */
  readonly test_time: number;
}

export type ChannelTestEvent =
  | { readonly type: 'test.start'; readonly scope: 'all' | 'disabled' }
  | { readonly type: 'test.retryFailed' }
  | { readonly type: 'test.cancel' }
  | { readonly type: 'test.dismiss' };

/** Emitted once per result as it arrives; the channel list patches the row (status, response and test time). */
export interface ChannelTestResultEvent {
  readonly type: 'test.result';
  readonly result: ChannelTestRunResult;
}

export type ChannelTestEmitted = NotifyEvent | ChannelTestResultEvent;

export interface ChannelTestContext {
  readonly mode: ChannelTestMode;
  /** The run shown, or null. */
  readonly run: ChannelTestRunSummary | null;
  /** The latest result of each channel of the run, by channel id. */
  readonly results: Readonly<Record<number, ChannelTestRunResult>>;
  /** The run's channel ids in test order. */
  readonly order: readonly number[];
  /** The ids (in test order) whose result is a failure. */
  readonly failed: readonly number[];
  /** Results received so far: the `after` cursor of the next poll (server mode). */
  readonly received: number;
  /** Failed polls in a row. */
  readonly pollErrors: number;
  /** What the next start asks for. */
  readonly request: ChannelTestRunRequest | null;
  /** Local mode: the channels of the run in test order; `run.done` is the next one. */
  readonly queue: readonly LocalTestChannel[];
  /** Cancel was asked for (local mode: stop after the current test; server mode: cancel sent, run not ended yet). */
  readonly cancelRequested: boolean;
}

/** Input of `fetchTestRun`: GET /api/channel/test_run/:id?after=. */
export interface FetchTestRunInput {
  readonly id: number;
  readonly after: number;
}
/** Input of `cancelTestRun`: DELETE /api/channel/test_run/:id. */
export interface CancelTestRunInput {
  readonly id: number;
}
/** Input of `testChannel`: GET /api/channel/test/:id?model= ('' = the server's choice). */
export interface TestChannelInput {
  readonly id: number;
  readonly model: string;
}

/** Failed polls in a row after which the panel gives up (`failed`). */
export const maxPollFailures = 3;
/** Milliseconds between two polls of a running run (the `pollInterval` delay). */
export const pollIntervalMs = 1000;

const emptyRun = {
  run: null,
  results: {},
  order: [],
  failed: [],
  received: 0,
  pollErrors: 0,
  queue: [],
  cancelRequested: false,
} satisfies Omit<ChannelTestContext, 'mode' | 'request'>;

const initialContext: ChannelTestContext = { mode: 'server', request: null, ...emptyRun };

/** The server has no test-run resource (one-api answers 404): the page tests itself. */
const isNotFound = (error: unknown): boolean => isApiError(error) && error._tag === 'HttpStatus' && error.status === 404;

/** A failed call's text, kept as a failed result's message. */
function errorText(error: unknown): string {
  if (isApiError(error)) return apiErrorText(error);
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'unknown error';
}

const isOver = (run: ChannelTestRun): boolean => run.status !== 'running';

/** The channels a local run tests, in list order: every one, the disabled ones, or the named ids (in their order). */
export function channelsToTest(channels: readonly Channel[], request: ChannelTestRunRequest): LocalTestChannel[] {
  const local = (c: Channel): LocalTestChannel => ({ id: c.id, status: c.status, model: defaultTestModelOf(c.models) });
  if ('ids' in request) {
    const byId = new Map(channels.map((c) => [c.id, c] as const));
    return request.ids.flatMap((id) => {
      const c = byId.get(id);
      return c === undefined ? [] : [local(c)];
    });
  }
  const picked =
    request.scope === 'disabled'
      ? channels.filter((c) => isChannelDisabled(c.status))
      : channels;
  return picked.map(local);
}

const scopeOf = (request: ChannelTestRunRequest): ChannelTestRunScope => ('ids' in request ? 'ids' : request.scope);

const failedIn = (order: readonly number[], results: Readonly<Record<number, ChannelTestRunResult>>): number[] =>
  order.filter((id) => results[id]?.success === false);

/** The results of `run` not received yet. */
const newResults = (context: ChannelTestContext, run: ChannelTestRun): ChannelTestRunResult[] =>
  run.results.filter((r) => r.index >= context.received).sort((a, b) => a.index - b.index);

/** The context after a server answer about the run. */
function withRun(context: ChannelTestContext, run: ChannelTestRun): Partial<ChannelTestContext> {
  const fresh = newResults(context, run);
  const results = { ...context.results };
  for (const r of fresh) results[r.channel_id] = r;
  const order = run.channel_ids;
  return {
    run: { id: run.id, scope: run.scope, status: run.status, total: run.total, done: run.done },
    results,
    order,
    failed: failedIn(order, results),
    received: fresh.reduce((n, r) => Math.max(n, r.index + 1), context.received),
    pollErrors: 0,
  };
}

/** The result of a local test of the current channel. */
function localResult(context: ChannelTestContext, outcome: ChannelTestOutcome): ChannelTestRunResult {
  const index = context.run?.done ?? 0;
  const channel = context.queue[index]!;
  return {
    index,
    channel_id: channel.id,
    success: outcome.success,
    message: outcome.message,
    time: outcome.success ? outcome.time : 0,
    model: outcome.model !== '' ? outcome.model : channel.model,
    status: channel.status,
    response_time: outcome.success ? Math.round(outcome.time * 1000) : 0,
    test_time: outcome.test_time,
  };
}

const passedCount = (context: ChannelTestContext): number =>
  Object.values(context.results).filter((r) => r.success).length;

const endMessage = (context: ChannelTestContext) =>
  msg(context.run?.status === 'cancelled' ? 'channelTest.cancelled' : 'channelTest.finished', {
    ok: passedCount(context),
    failed: context.failed.length,
  });

/**
 * Channel tests with live progress. At start it looks for a run already going
 * (`fetchCurrentRun`: a reload, the scheduler, or one-api's own "test all") and follows it.
 * `test.start` {scope} or `test.retryFailed` ({ids} of the failed channels) start a run on the
 * server (`startTestRun`); a running run is polled every `pollInterval` (`fetchTestRun` with the
 * results-received cursor), each new result is emitted as `test.result`, and the end is
 * summarised in a toast. `test.cancel` cancels it (`cancelTestRun`). Three failed polls in a row
 * give up (`failed`). When the server has no test-run resource (404, as on one-api) the page
 * lists every channel (`listAllChannels`) and tests them one after another (`testChannel`),
 * with the same progress, cancel (after the current test) and retry.
 */
export const channelTestMachine = setup({
  types: {
    context: {} as ChannelTestContext,
    events: {} as ChannelTestEvent,
    emitted: {} as ChannelTestEmitted,
    tags: {} as 'busy' | 'running' | 'error',
  },
  actors: {
    fetchCurrentRun: fromPromise<ChannelTestRun | null>(() => {
      throw new Error('fetchCurrentRun not provided');
    }),
    startTestRun: fromPromise<ChannelTestRun, ChannelTestRunRequest>(() => {
      throw new Error('startTestRun not provided');
    }),
    fetchTestRun: fromPromise<ChannelTestRun, FetchTestRunInput>(() => {
      throw new Error('fetchTestRun not provided');
    }),
    cancelTestRun: fromPromise<ChannelTestRun, CancelTestRunInput>(() => {
      throw new Error('cancelTestRun not provided');
    }),
    listAllChannels: fromPromise<Channel[]>(() => {
      throw new Error('listAllChannels not provided');
    }),
    testChannel: fromPromise<ChannelTestOutcome, TestChannelInput>(() => {
      throw new Error('testChannel not provided');
    }),
  },
  delays: {
    pollInterval: pollIntervalMs,
  },
  guards: {
    isLocal: ({ context }) => context.mode === 'local',
    hasFailed: ({ context }) => context.failed.length > 0,
    isNotFound: (_, params: { error: unknown }) => isNotFound(params.error),
    isRunning: (_, params: { run: ChannelTestRun | null }) => params.run !== null && !isOver(params.run),
    isOver: (_, params: { run: ChannelTestRun }) => isOver(params.run),
    canRetryPoll: ({ context }) => context.pollErrors + 1 < maxPollFailures,
    hasNothingToTest: ({ context }, params: { channels: readonly Channel[] }) =>
      channelsToTest(params.channels, context.request ?? { scope: 'all' }).length === 0,
    hasMoreToTest: ({ context }) => !context.cancelRequested && (context.run?.done ?? 0) + 1 < context.queue.length,
  },
  actions: {
    useLocalMode: assign({ mode: 'local' as const }),
    ask: assign({ request: (_, params: { request: ChannelTestRunRequest }) => params.request }),
    askFailed: assign({ request: ({ context }) => ({ ids: [...context.failed] }) }),
    clearRun: assign(emptyRun),
    /** A server answer about the run: new results are emitted, then kept. */
    receiveRun: enqueueActions(({ context, enqueue }, params: { run: ChannelTestRun }) => {
      for (const result of newResults(context, params.run)) enqueue.emit({ type: 'test.result', result });
      enqueue.assign(withRun(context, params.run));
    }),
    countPollError: assign({ pollErrors: ({ context }) => context.pollErrors + 1 }),
    markCancelRequested: assign({ cancelRequested: true }),
    /** Local mode: the channels listed, the run begins. */
    beginLocal: assign(({ context }, params: { channels: readonly Channel[] }) => {
      const request = context.request ?? { scope: 'all' as const };
      const queue = channelsToTest(params.channels, request);
      return {
        ...emptyRun,
        queue,
        order: queue.map((c) => c.id),
        run: { id: 0, scope: scopeOf(request), status: queue.length === 0 ? 'finished' : 'running', total: queue.length, done: 0 },
      };
    }),
    /** Local mode: one channel tested (a thrown error counts as a failed test). */
    recordLocal: enqueueActions(({ context, enqueue }, params: { outcome: ChannelTestOutcome }) => {
      if (context.run === null) return;
      const result = localResult(context, params.outcome);
      const results = { ...context.results, [result.channel_id]: result };
      enqueue.emit({ type: 'test.result', result });
      enqueue.assign({
        results,
        failed: failedIn(context.order, results),
        received: result.index + 1,
        run: { ...context.run, done: context.run.done + 1 },
      });
    }),
    endLocal: assign({
      run: ({ context }) =>
        context.run === null
          ? null
          : { ...context.run, status: context.run.done < context.run.total ? ('cancelled' as const) : ('finished' as const) },
    }),
    notifyStarted: emit(({ context }) => notify('info', msg('channelTest.started', { total: context.run?.total ?? 0 }))),
    notifyEnded: emit(({ context }) =>
      notify(context.failed.length > 0 || context.run?.status === 'cancelled' ? 'warning' : 'success', endMessage(context)),
    ),
    notifyPollFailed: emit(() => notify('error', msg('channelTest.pollFailed'))),
    notifyError: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
  },
}).createMachine({
  id: 'channelTest',
  context: initialContext,
  initial: 'checking',
  states: {
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'fetchCurrentRun',
        src: 'fetchCurrentRun',
        onDone: [
          {
            guard: { type: 'isRunning', params: ({ event }) => ({ run: event.output }) },
            target: 'running',
            actions: ['clearRun', { type: 'receiveRun', params: ({ event }) => ({ run: event.output! }) }],
          },
          { target: 'idle' },
        ],
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'idle', actions: 'useLocalMode' },
          // the page works without it; a start says what is wrong
          { target: 'idle' },
        ],
      },
    },
    idle: {
      on: {
        'test.start': [
          {
            guard: 'isLocal',
            target: 'local',
            actions: [{ type: 'ask', params: ({ event }) => ({ request: { scope: event.scope } }) }, 'clearRun'],
          },
          { target: 'starting', actions: [{ type: 'ask', params: ({ event }) => ({ request: { scope: event.scope } }) }, 'clearRun'] },
        ],
      },
    },
    starting: {
      tags: ['busy'],
      invoke: {
        id: 'startTestRun',
        src: 'startTestRun',
        input: ({ context }) => context.request ?? { scope: 'all' },
        onDone: [
          {
            guard: { type: 'isOver', params: ({ event }) => ({ run: event.output }) },
            target: 'ended',
            actions: ['clearRun', { type: 'receiveRun', params: ({ event }) => ({ run: event.output }) }, 'notifyEnded'],
          },
          {
            target: 'running',
            actions: ['clearRun', { type: 'receiveRun', params: ({ event }) => ({ run: event.output }) }, 'notifyStarted'],
          },
        ],
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'local', actions: 'useLocalMode' },
          // '测试已在运行中' (or another refusal): say so, then follow the run that is going, if any
          { target: 'checking', actions: { type: 'notifyError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    running: {
      tags: ['busy', 'running'],
      initial: 'waiting',
      states: {
        waiting: {
          after: { pollInterval: 'polling' },
          on: { 'test.cancel': 'cancelling' },
        },
        polling: {
          invoke: {
            id: 'fetchTestRun',
            src: 'fetchTestRun',
            input: ({ context }) => ({ id: context.run?.id ?? 0, after: context.received }),
            onDone: [
              {
                guard: { type: 'isOver', params: ({ event }) => ({ run: event.output }) },
                target: '#channelTest.ended',
                actions: [{ type: 'receiveRun', params: ({ event }) => ({ run: event.output }) }, 'notifyEnded'],
              },
              { target: 'waiting', actions: { type: 'receiveRun', params: ({ event }) => ({ run: event.output }) } },
            ],
            onError: [
              { guard: 'canRetryPoll', target: 'waiting', actions: 'countPollError' },
              { target: '#channelTest.failed', actions: ['countPollError', 'notifyPollFailed'] },
            ],
          },
          on: { 'test.cancel': 'cancelling' },
        },
        cancelling: {
          entry: 'markCancelRequested',
          invoke: {
            id: 'cancelTestRun',
            src: 'cancelTestRun',
            input: ({ context }) => ({ id: context.run?.id ?? 0 }),
            onDone: [
              {
                guard: { type: 'isOver', params: ({ event }) => ({ run: event.output }) },
                target: '#channelTest.ended',
                actions: [{ type: 'receiveRun', params: ({ event }) => ({ run: event.output }) }, 'notifyEnded'],
              },
              // cancelled, but the current test is still finishing: keep following it
              { target: 'waiting', actions: { type: 'receiveRun', params: ({ event }) => ({ run: event.output }) } },
            ],
            onError: {
              target: 'waiting',
              actions: [
                assign({ cancelRequested: false }),
                { type: 'notifyError', params: ({ event }) => ({ error: event.error }) },
              ],
            },
          },
        },
      },
    },
    local: {
      tags: ['busy', 'running'],
      initial: 'listing',
      states: {
        listing: {
          invoke: {
            id: 'listAllChannels',
            src: 'listAllChannels',
            onDone: [
              {
                guard: { type: 'hasNothingToTest', params: ({ event }) => ({ channels: event.output }) },
                target: '#channelTest.ended',
                actions: [{ type: 'beginLocal', params: ({ event }) => ({ channels: event.output }) }, 'notifyEnded'],
              },
              {
                target: 'testing',
                actions: [{ type: 'beginLocal', params: ({ event }) => ({ channels: event.output }) }, 'notifyStarted'],
              },
            ],
            onError: {
              target: '#channelTest.idle',
              actions: ['clearRun', { type: 'notifyError', params: ({ event }) => ({ error: event.error }) }],
            },
          },
          on: { 'test.cancel': { target: '#channelTest.idle', actions: 'clearRun' } },
        },
        testing: {
          invoke: {
            id: 'testChannel',
            src: 'testChannel',
            input: ({ context }) => ({ id: context.queue[context.run?.done ?? 0]?.id ?? 0, model: '' }),
            onDone: [
              {
                guard: 'hasMoreToTest',
                target: 'testing',
                reenter: true,
                actions: { type: 'recordLocal', params: ({ event }) => ({ outcome: event.output }) },
              },
              {
                target: '#channelTest.ended',
                actions: [{ type: 'recordLocal', params: ({ event }) => ({ outcome: event.output }) }, 'endLocal', 'notifyEnded'],
              },
            ],
            onError: [
              {
                guard: 'hasMoreToTest',
                target: 'testing',
                reenter: true,
                actions: { type: 'recordLocal', params: ({ event }) => ({ outcome: failedOutcome(event.error) }) },
              },
              {
                target: '#channelTest.ended',
                actions: [
                  { type: 'recordLocal', params: ({ event }) => ({ outcome: failedOutcome(event.error) }) },
                  'endLocal',
                  'notifyEnded',
                ],
              },
            ],
          },
          on: { 'test.cancel': { actions: 'markCancelRequested' } },
        },
      },
    },
    ended: {
      on: {
        'test.start': [
          {
            guard: 'isLocal',
            target: 'local',
            actions: [{ type: 'ask', params: ({ event }) => ({ request: { scope: event.scope } }) }, 'clearRun'],
          },
          { target: 'starting', actions: [{ type: 'ask', params: ({ event }) => ({ request: { scope: event.scope } }) }, 'clearRun'] },
        ],
        'test.retryFailed': [
          { guard: and(['hasFailed', 'isLocal']), target: 'local', actions: ['askFailed', 'clearRun'] },
          { guard: 'hasFailed', target: 'starting', actions: ['askFailed', 'clearRun'] },
        ],
        'test.dismiss': { target: 'idle', actions: 'clearRun' },
      },
    },
    failed: {
      tags: ['error'],
      on: {
        // a start while the run still goes is refused with '测试已在运行中' and then followed
        'test.start': { target: 'starting', actions: [{ type: 'ask', params: ({ event }) => ({ request: { scope: event.scope } }) }, 'clearRun'] },
        'test.dismiss': { target: 'idle', actions: 'clearRun' },
      },
    },
  },
});

/** A test that threw: a failed result with the error's text (no time known). */
function failedOutcome(error: unknown): ChannelTestOutcome {
  return { success: false, message: errorText(error), time: 0, model: '', test_time: 0 };
}
