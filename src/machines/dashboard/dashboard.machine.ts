import { assign, emit, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import {
  customRange,
  dayOf,
  rangeOfPreset,
  type AccountQuota,
  type DashboardQuery,
  type DashboardRange,
  type DashboardRow,
  type Metric,
  type RangePreset,
  type RangeProblem,
} from '../../domain/dashboard';
import { notify, type NotifyEvent } from '../../domain/message';

/** Whose usage is shown: the signed-in user, every user (admins), or one picked user (admins). */
export type DashboardViewer =
  | { readonly kind: 'self' }
  | { readonly kind: 'all' }
  | { readonly kind: 'user'; readonly id: number; readonly username: string };

/** A user found by the admin's search, as the picker lists it. */
export interface DashboardUserOption {
  readonly id: number;
  readonly username: string;
  readonly display_name: string;
}

export interface DashboardInput {
  /** Role >= 10: may choose 'all users' or another user. */
  readonly isAdmin: boolean;
  /** Unix seconds of "now": the presets end with its local day. */
  readonly now: number;
  /** Minutes east of UTC: the local days the server groups by. */
  readonly utcOffset: number;
}

/** `loadDashboard`: the rows of the range and, unless all users are shown, the viewed user's quota. */
export interface LoadDashboardInput {
  readonly query: DashboardQuery;
  /** Whose remaining and used quota to read: 'self', a user id, or null (all users: none). */
  readonly account: 'self' | number | null;
}

export interface LoadDashboardOutput {
  readonly rows: readonly DashboardRow[];
  /** null: not asked for, or not readable (the cards show a dash). */
  readonly account: AccountQuota | null;
}

export interface DashboardContext {
  readonly isAdmin: boolean;
  readonly now: number;
  readonly utcOffset: number;
  readonly preset: RangePreset;
  /** The range of the rows shown (or being loaded). */
  readonly range: DashboardRange;
  /** The custom range's two days as typed ('YYYY-MM-DD'). */
  readonly customStart: string;
  readonly customEnd: string;
  /** Why the typed custom range was refused (until a day changes). */
  readonly rangeProblem: RangeProblem | null;
  readonly metric: Metric;
  readonly viewer: DashboardViewer;
  readonly rows: readonly DashboardRow[];
  readonly account: AccountQuota | null;
  /** The admin's user search: the typed keyword and the users found (null: nothing searched yet). */
  readonly keyword: string;
  readonly results: readonly DashboardUserOption[] | null;
}

export type DashboardEvent =
  | { readonly type: 'range.preset'; readonly preset: RangePreset }
  | { readonly type: 'range.customChange'; readonly field: 'start' | 'end'; readonly value: string }
  | { readonly type: 'range.apply' }
  | { readonly type: 'metric.change'; readonly metric: Metric }
  | { readonly type: 'viewer.change'; readonly viewer: DashboardViewer }
  | { readonly type: 'search.change'; readonly keyword: string }
  | { readonly type: 'search.submit' }
  | { readonly type: 'dashboard.retry' };

export type DashboardEmitted = NotifyEvent;

/** The server query of a context: range, offset and, for admins viewing others, the user id. */
export function queryOf(context: Pick<DashboardContext, 'range' | 'utcOffset' | 'viewer'>): DashboardQuery {
  const base = { start_timestamp: context.range.start, end_timestamp: context.range.end, utc_offset: context.utcOffset };
  const { viewer } = context;
  if (viewer.kind === 'all') return { ...base, user_id: 0 };
  if (viewer.kind === 'user') return { ...base, user_id: viewer.id };
  return base;
}

/** Whose quota goes with the rows. */
export const accountOf = (viewer: DashboardViewer): LoadDashboardInput['account'] =>
  viewer.kind === 'self' ? 'self' : viewer.kind === 'user' ? viewer.id : null;

export const initialDashboardContext = (input: DashboardInput): DashboardContext => {
  const range = rangeOfPreset('7d', input.now, input.utcOffset);
  return {
    isAdmin: input.isAdmin,
    now: input.now,
    utcOffset: input.utcOffset,
    preset: '7d',
    range,
    customStart: dayOf(range.start, input.utcOffset),
    customEnd: dayOf(range.end, input.utcOffset),
    rangeProblem: null,
    metric: 'quota',
    viewer: { kind: 'self' },
    rows: [],
    account: null,
    keyword: '',
    results: null,
  };
};

const reload = { target: '.loading', reenter: true } as const;

/**
 * The usage dashboard (/dashboard). Loads the last 7 days of the signed-in user's usage at
 * once; a preset, an applied custom range or (admins) another viewer loads again, and a newer
 * load replaces one still running (the latest request wins). The custom range is checked
 * before anything is sent (real days, end not before start, at most 366 days). A failed load
 * says why and offers a retry; the rows shown stay until new ones arrive. The metric only
 * changes what the charts draw. Admins search users by keyword to pick one.
 */
export const dashboardMachine = setup({
  types: {
    context: {} as DashboardContext,
    events: {} as DashboardEvent,
    emitted: {} as DashboardEmitted,
    input: {} as DashboardInput,
    tags: {} as 'busy',
  },
  actors: {
    loadDashboard: fromPromise<LoadDashboardOutput, LoadDashboardInput>(() => {
      throw new Error('loadDashboard not provided');
    }),
    searchUsers: fromPromise<readonly DashboardUserOption[], { readonly keyword: string }>(() => {
      throw new Error('searchUsers not provided');
    }),
  },
  guards: {
    isCustomPreset: (_, params: { preset: RangePreset }) => params.preset === 'custom',
    isCustomInvalid: ({ context }) => 'problem' in customRange(context.customStart, context.customEnd, context.utcOffset),
    canView: ({ context }, params: { viewer: DashboardViewer }) => context.isAdmin || params.viewer.kind === 'self',
    isKeywordEmpty: ({ context }) => context.keyword.trim() === '',
    isAdmin: ({ context }) => context.isAdmin,
  },
  actions: {
    setPreset: assign(({ context }, params: { preset: RangePreset }) => {
      const range = rangeOfPreset(params.preset, context.now, context.utcOffset);
      return { preset: params.preset, range, rangeProblem: null };
    }),
    openCustom: assign(({ context }) => ({
      preset: 'custom' as const,
      customStart: dayOf(context.range.start, context.utcOffset),
      customEnd: dayOf(context.range.end, context.utcOffset),
      rangeProblem: null,
    })),
    setCustomDay: assign((_, params: { field: 'start' | 'end'; value: string }) =>
      params.field === 'start' ? { customStart: params.value, rangeProblem: null } : { customEnd: params.value, rangeProblem: null },
    ),
    markRangeProblem: assign({
      rangeProblem: ({ context }) => {
        const checked = customRange(context.customStart, context.customEnd, context.utcOffset);
        return 'problem' in checked ? checked.problem : null;
      },
    }),
    applyCustom: assign(({ context }) => {
      const checked = customRange(context.customStart, context.customEnd, context.utcOffset);
      return 'range' in checked ? { preset: 'custom' as const, range: checked.range, rangeProblem: null } : {};
    }),
    setMetric: assign((_, params: { metric: Metric }) => ({ metric: params.metric })),
    setViewer: assign((_, params: { viewer: DashboardViewer }) => ({ viewer: params.viewer })),
    setLoaded: assign((_, params: { output: LoadDashboardOutput }) => ({ rows: params.output.rows, account: params.output.account })),
    setKeyword: assign((_, params: { keyword: string }) => ({ keyword: params.keyword })),
    clearResults: assign({ results: null }),
    setResults: assign((_, params: { users: readonly DashboardUserOption[] }) => ({
      results: params.users.map(({ id, username, display_name }) => ({ id, username, display_name })),
    })),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
  },
}).createMachine({
  id: 'dashboard',
  context: ({ input }) => initialDashboardContext(input),
  type: 'parallel',
  on: {
    'metric.change': { actions: { type: 'setMetric', params: ({ event }) => ({ metric: event.metric }) } },
    'range.customChange': { actions: { type: 'setCustomDay', params: ({ event }) => ({ field: event.field, value: event.value }) } },
    'search.change': { actions: { type: 'setKeyword', params: ({ event }) => ({ keyword: event.keyword }) } },
  },
  states: {
    usage: {
      initial: 'loading',
      on: {
        'range.preset': [
          { guard: { type: 'isCustomPreset', params: ({ event }) => ({ preset: event.preset }) }, actions: 'openCustom' },
          { ...reload, actions: { type: 'setPreset', params: ({ event }) => ({ preset: event.preset }) } },
        ],
        'range.apply': [{ guard: 'isCustomInvalid', actions: 'markRangeProblem' }, { ...reload, actions: 'applyCustom' }],
        'viewer.change': {
          guard: { type: 'canView', params: ({ event }) => ({ viewer: event.viewer }) },
          ...reload,
          actions: { type: 'setViewer', params: ({ event }) => ({ viewer: event.viewer }) },
        },
      },
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadDashboard',
            src: 'loadDashboard',
            input: ({ context }) => ({ query: queryOf(context), account: accountOf(context.viewer) }),
            onDone: { target: 'ready', actions: { type: 'setLoaded', params: ({ event }) => ({ output: event.output }) } },
            onError: { target: 'failed', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        ready: {},
        failed: {
          on: { 'dashboard.retry': 'loading' },
        },
      },
    },
    search: {
      initial: 'idle',
      on: {
        'search.submit': [
          { guard: 'isKeywordEmpty', target: '.idle', actions: 'clearResults' },
          { guard: 'isAdmin', target: '.searching', reenter: true },
        ],
      },
      states: {
        idle: {},
        searching: {
          invoke: {
            id: 'searchUsers',
            src: 'searchUsers',
            input: ({ context }) => ({ keyword: context.keyword.trim() }),
            onDone: { target: 'idle', actions: { type: 'setResults', params: ({ event }) => ({ users: event.output }) } },
            onError: { target: 'idle', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
  },
});
