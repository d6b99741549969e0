import { assign, emit, enqueueActions, fromPromise, setup, spawnChild, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { describeError } from '../../domain/apiError';
import { pageSize as defaultServerPageSize } from '../../domain/constants';
import { msg, notify, type Message, type NotifyEvent } from '../../domain/message';
import { sortedKept, toggleSort } from '../../domain/paging';
import { pageInputOf, type ExportRowsInput, type FetchPageInput, type RowActionInput, type RowActionOutcome, type SearchRowsInput } from '../../domain/rowAction';
import { cleanParams, matchesFilters, sameParams, type TableQuery } from '../../domain/tableQuery';

export type { ExportRowsInput, FetchPageInput, RowActionInput, RowActionOutcome, SearchRowsInput };

/** Every list row has a numeric id (channels, users, codes, tokens, log entries). */
export interface TableRow {
  readonly id: number;
}

/** A row action waiting for the person's confirmation (delete …). */
export interface PendingRowAction {
  readonly id: number;
  readonly action: string;
  readonly value: string;
}

export interface BulkFailure {
  readonly id: number;
  readonly message: Message;
}

/** A bulk action over the selected rows, one row after another, with every failure kept. */
export interface BulkRun {
  readonly action: string;
  readonly value: string;
  readonly ids: readonly number[];
  /** How many of `ids` have been tried. */
  readonly done: number;
  readonly succeeded: readonly number[];
  readonly failures: readonly BulkFailure[];
  /** The person stopped the run: the rest of `ids` was not tried. */
  readonly cancelled: boolean;
}

/** What the loader is filling: rows up to a client page, or every row (select all matching). */
type LoadTarget = { readonly kind: 'page'; readonly page: number } | { readonly kind: 'all' };

export interface TableContext<Row extends TableRow> {
  /** Every row loaded, in server order. */
  readonly rows: readonly Row[];
  /** `rows` filtered and sorted: what the pager pages over. */
  readonly shown: readonly Row[];
  readonly query: TableQuery;
  /** The search box as typed (submitted trimmed into `query.keyword`). */
  readonly draft: string;
  /** Server pages of the plain list loaded so far (`p` of the next fetch). */
  readonly pagesLoaded: number;
  /** The last page was short, or the rows came from a search: nothing more to fetch. */
  readonly exhausted: boolean;
  readonly target: LoadTarget;
  /** Select every matching row once loading has finished. */
  readonly selectAllAfterLoad: boolean;
  readonly selected: readonly number[];
  /** id -> the action running on that row. */
  readonly busy: Readonly<Record<number, string>>;
  readonly pending: PendingRowAction | null;
  readonly bulk: BulkRun | null;
  /** The format of the export running ('copy', 'download' …). */
  readonly exportFormat: string;
  /** Fixed server parameters of this list (not in the address), sent with every fetch. */
  readonly baseParams?: Readonly<Record<string, string>>;
}

export type TableEvent<Row extends TableRow> =
  | { readonly type: 'page.go'; readonly page: number }
  | { readonly type: 'page.size'; readonly size: number }
  | { readonly type: 'sort.toggle'; readonly key: string }
  | { readonly type: 'order.change'; readonly order: string }
  | { readonly type: 'search.input'; readonly text: string }
  | { readonly type: 'search.submit' }
  | { readonly type: 'search.clear' }
  | { readonly type: 'filter.change'; readonly key: string; readonly value: string }
  | { readonly type: 'rows.reload' }
  | { readonly type: 'load.retry' }
  | { readonly type: 'query.set'; readonly query: TableQuery }
  | { readonly type: 'params.set'; readonly params: Readonly<Record<string, string>> }
  | { readonly type: 'row.select'; readonly id: number }
  | { readonly type: 'selection.page' }
  | { readonly type: 'selection.allMatching' }
  | { readonly type: 'selection.clear' }
  | { readonly type: 'row.action'; readonly id: number; readonly action: string; readonly value?: string; readonly confirm?: boolean }
  | { readonly type: 'row.patch'; readonly id: number; readonly patch: Partial<Row> }
  | { readonly type: 'confirm.accept' }
  | { readonly type: 'confirm.cancel' }
  | { readonly type: 'bulk.request'; readonly action: string; readonly value?: string }
  | { readonly type: 'bulk.cancel' }
  | { readonly type: 'bulk.retry' }
  | { readonly type: 'report.dismiss' }
  | { readonly type: 'selection.export'; readonly format: string };

/** Emitted whenever the view's query may have changed: the page writes it to the address bar. */
export interface QueryChanged {
  readonly type: 'query.changed';
  readonly query: TableQuery;
}

export type TableEmitted = NotifyEvent | QueryChanged;

export interface TableInput {
  /** The view from the address bar (`defaultTableQuery` when it has none). */
  readonly query: TableQuery;
  /** Fixed server parameters (e.g. whose logs), merged under `query.params` into every fetch. */
  readonly baseParams?: Readonly<Record<string, string>>;
}

/**
 * The table's input with the answer of its first fetch already there (src/domain/rowAction's `firstFetchOf(input)` rows,
 * answered before the table started: the page's first load asked for them early): the table starts
 * with them stored, as if `fetchPage` had just answered, so its first snapshot draws rows, not a
 * loading state. Without them (or with a keyword: the first load is a search) it starts as always.
 */
export interface PrimedTableInput<Row extends TableRow> extends TableInput {
  readonly firstPage?: readonly Row[];
}

export interface TableOptions<Row extends TableRow = TableRow> {
  /** Machine id, also the registry key (`channelTable`, `userTable` …). */
  readonly id: string;
  /** Rows per server page (`p`): one-api's ItemsPerPage. */
  readonly serverPageSize?: number;
  /**
   * A bulk step the list refuses without calling the server (e.g. acting on a super admin): the
   * reason becomes that row's failure in the report. Default: nothing is refused.
   */
  readonly refuseRow?: (action: string, row: Row) => Message | null;
}

/** The most server pages one view will fetch (a runaway server cannot loop the loader). */
export const maxPagesPerLoad = 10000;

/** The id of the spawned actor running a single row action. */
export const rowActorId = (id: number): string => `row.${id}`;

/**
 * The shown rows: the loaded rows sorted, then filtered (a stable sort of the filtered rows gives
 * the same order as the filtered sorted rows, and the sort of the whole list is kept for the next
 * filter).
 */
const derive = <Row extends TableRow>(rows: readonly Row[], query: TableQuery): readonly Row[] => {
  const sorted = sortedKept(rows, query.sort);
  return Object.keys(query.filters).length === 0 ? sorted : sorted.filter((r) => matchesFilters(r, query.filters));
};

/** Client pages the pager offers: those of the shown rows, plus one while the server has more. */
export const pageCountOf = (shown: number, size: number, exhausted: boolean): number => {
  const full = Math.ceil(shown / size);
  if (exhausted) return Math.max(full, 1);
  return shown % size === 0 ? full + 1 : Math.max(full, 1);
};

const needsMore = <Row extends TableRow>(c: TableContext<Row>): boolean => {
  if (c.exhausted || c.pagesLoaded >= maxPagesPerLoad) return false;
  if (c.target.kind === 'all') return true;
  return c.shown.length < (c.target.page + 1) * c.query.size;
};

/** The page shown after a load: at most the last page that has rows. */
const clampPage = (page: number, shown: number, size: number): number =>
  Math.min(Math.max(page, 0), Math.max(Math.ceil(shown / size) - 1, 0));

/**
 * After rows changed under the view (a row removed, or patched out of the filters): the selection
 * keeps only rows still shown, and a page that showed rows still does (a page being loaded stays).
 */
const keepInView = <Row extends TableRow>(c: TableContext<Row>, rows: readonly Row[]) => {
  const shown = rows === c.rows ? c.shown : derive(rows, c.query);
  const visible = new Set(shown.map((r) => r.id));
  const selected = c.selected.every((i) => visible.has(i)) ? c.selected : c.selected.filter((i) => visible.has(i));
  const { page, size } = c.query;
  const moved = page * size < c.shown.length && page * size >= shown.length ? clampPage(page, shown.length, size) : page;
  const query = moved === page ? c.query : { ...c.query, page: moved };
  const target: LoadTarget = moved === page ? c.target : { kind: 'page', page: moved };
  return { rows, shown, selected, query, target };
};

const errorMessage = (error: unknown): Message => describeError(error).message;

/** The first page's rows of the start event's input (`xstate.init`), if it carries them. */
const firstPageOf = <Row extends TableRow>(event: { readonly type: string }): readonly Row[] | undefined =>
  event.type === 'xstate.init' ? (event as { readonly input?: PrimedTableInput<Row> }).input?.firstPage : undefined;


/** `fetchPage`'s input for the next server page. */
const fetchInputOf = <Row extends TableRow>(c: TableContext<Row>): FetchPageInput => pageInputOf(c.pagesLoaded, c.query, c.baseParams);

/** A fresh start of the loader: nothing loaded, fill the current page. */
const resetRows = <Row extends TableRow>(query: TableQuery): Partial<TableContext<Row>> => ({
  rows: [],
  shown: [],
  query,
  pagesLoaded: 0,
  exhausted: false,
  target: { kind: 'page', page: query.page },
  selected: [],
});

/**
 * The one table machine (conventions §2): every list of the console is an instance of it.
 *
 * - Loading follows one-api (contract §5.6): the plain list is fetched page by page (`p` from 0)
 *   and pages are appended as loaded; the pager pages client-side over what is loaded (sibling
 *   range 1 in the view) and offers one more page while the last server page was full. Moving to
 *   that page fetches more. A search (trimmed keyword) switches to the search endpoint, which
 *   answers every match at once; clearing it goes back to the list.
 * - A header click sorts the loaded rows by that column; a second click reverses. A server `order`
 *   (sort dropdowns of the spec) reloads from page 0. Filters are client-side on loaded rows.
 * - Page, size, sort, order, search and filters are the `query`, emitted as `query.changed` so
 *   the page keeps it in the address bar; `query.set` applies one read back from it.
 * - Row actions run side by side, each row busy until its own answer; the answer replaces or
 *   patches the row, or removes it. A confirming action (delete) waits for `confirm.accept`.
 * - Bulk actions run over the selection one row after another after a confirmation that says
 *   how many rows change; every failure is kept for the report, which can retry just those.
 *   Selecting "all matching" loads every remaining page first.
 */
export function createTableMachine<Row extends TableRow>(options: TableOptions<Row>) {
  const { id } = options;
  const refuseRow = options.refuseRow ?? (() => null);
  /** Why the current bulk step's row is refused, or null. */
  const bulkRefusal = (c: TableContext<Row>): Message | null => {
    const bulk = c.bulk;
    if (bulk === null) return null;
    const row = c.rows.find((r) => r.id === bulk.ids[bulk.done]);
    return row === undefined ? null : refuseRow(bulk.action, row);
  };
  const serverPageSize = options.serverPageSize ?? defaultServerPageSize;
  type Ctx = TableContext<Row>;

  return setup({
    types: {
      context: {} as Ctx,
      events: {} as TableEvent<Row>,
      emitted: {} as TableEmitted,
      input: {} as PrimedTableInput<Row>,
      tags: {} as 'busy' | 'loading',
    },
    actors: {
      fetchPage: fromPromise<readonly Row[], FetchPageInput>(() => {
        throw new Error('fetchPage not provided');
      }),
      searchRows: fromPromise<readonly Row[], SearchRowsInput>(() => {
        throw new Error('searchRows not provided');
      }),
      runRowAction: fromPromise<RowActionOutcome<Row>, RowActionInput<Row>>(() => {
        throw new Error('runRowAction not provided');
      }),
      exportRows: fromPromise<Message | null, ExportRowsInput<Row>>(() => {
        throw new Error('exportRows not provided');
      }),
    },
    guards: {
      /** Started with its first page's answer (`PrimedTableInput`), for the plain list's first fetch. */
      hasFirstPage: (_, params: { rows: readonly Row[] | undefined; query: TableQuery }) =>
        params.rows !== undefined && params.query.keyword === '',
      hasKeyword: ({ context }) => context.query.keyword !== '',
      needsMore: ({ context }) => needsMore(context),
      hasRows: ({ context }) => context.rows.length > 0,
      isPageLoaded: ({ context }, params: { page: number }) =>
        Number.isInteger(params.page) && params.page >= 0 && params.page * context.query.size < context.shown.length,
      isPageOffered: ({ context }, params: { page: number }) =>
        Number.isInteger(params.page) &&
        params.page >= 0 &&
        params.page < pageCountOf(context.shown.length, context.query.size, context.exhausted),
      isSize: (_, params: { size: number }) => Number.isInteger(params.size) && params.size > 0 && params.size <= 1000,
      canRunOnRow: ({ context }, params: { id: number }) =>
        context.busy[params.id] === undefined && context.rows.some((r) => r.id === params.id),
      isBusyRow: ({ context }, params: { id: number }) => context.busy[params.id] !== undefined,
      hasSelection: ({ context }) => context.selected.length > 0,
      isExhausted: ({ context }) => context.exhausted,
      needsServerReload: ({ context }, params: { query: TableQuery }) =>
        params.query.keyword !== context.query.keyword ||
        params.query.order !== context.query.order ||
        !sameParams(params.query.params, context.query.params),
      isBulkFinished: ({ context }) => context.bulk === null || context.bulk.cancelled || context.bulk.done >= context.bulk.ids.length,
      isBulkRowMissing: ({ context }) => {
        const bulk = context.bulk;
        if (bulk === null) return false;
        const rowId = bulk.ids[bulk.done];
        return !context.rows.some((r) => r.id === rowId);
      },
      isBulkRowRefused: ({ context }) => bulkRefusal(context) !== null,
      hasFailures: ({ context }) => context.bulk !== null && context.bulk.failures.length > 0,
    },
    actions: {
      storePage: assign(({ context }, params: { rows: readonly Row[] }) => {
        const rows = context.pagesLoaded === 0 ? [...params.rows] : [...context.rows, ...params.rows];
        return {
          rows,
          shown: derive(rows, context.query),
          pagesLoaded: context.pagesLoaded + 1,
          exhausted: params.rows.length < serverPageSize,
        };
      }),
      storeMatches: assign(({ context }, params: { rows: readonly Row[] }) => ({
        rows: [...params.rows],
        shown: derive(params.rows, context.query),
        pagesLoaded: 0,
        exhausted: true,
      })),
      /** After a load: the page stays within what exists; "select all" applies. */
      settle: assign(({ context }) => {
        const page = clampPage(context.query.page, context.shown.length, context.query.size);
        return {
          query: { ...context.query, page },
          target: { kind: 'page', page },
          selected: context.selectAllAfterLoad ? context.shown.map((r) => r.id) : context.selected,
          selectAllAfterLoad: false,
        };
      }),
      stopLoadingMore: assign({ exhausted: () => false, selectAllAfterLoad: () => false }),
      announceQuery: emit(({ context }): QueryChanged => ({ type: 'query.changed', query: context.query })),
      notifyError: emit((_, params: { error: unknown }) => {
        const d = describeError(params.error);
        return notify(d.level, d.message);
      }),
      goToPage: assign(({ context }, params: { page: number }) => ({
        query: { ...context.query, page: params.page },
        target: { kind: 'page', page: params.page },
      })),
      setSize: assign(({ context }, params: { size: number }) => {
        const firstRow = context.query.page * context.query.size;
        const page = Math.floor(firstRow / params.size);
        return { query: { ...context.query, size: params.size, page }, target: { kind: 'page', page } };
      }),
      toggleSort: assign(({ context }, params: { key: string }) => {
        const query = { ...context.query, sort: toggleSort(context.query.sort, params.key) };
        return { query, shown: derive(context.rows, query) };
      }),
      setOrder: assign(({ context }, params: { order: string }) =>
        resetRows<Row>({ ...context.query, order: params.order, page: 0 }),
      ),
      setDraft: assign({ draft: (_, params: { text: string }) => params.text }),
      submitSearch: assign(({ context }) => {
        const keyword = context.draft.trim();
        return { ...resetRows<Row>({ ...context.query, keyword, page: 0 }), draft: keyword };
      }),
      clearSearch: assign(({ context }) => ({ ...resetRows<Row>({ ...context.query, keyword: '', page: 0 }), draft: '' })),
      setFilter: assign(({ context }, params: { key: string; value: string }) => {
        const filters: Record<string, string> = { ...context.query.filters };
        const value = params.value.trim();
        if (value === '') delete filters[params.key];
        else filters[params.key] = value;
        const query = { ...context.query, filters, page: 0 };
        const shown = derive(context.rows, query);
        const visible = new Set(shown.map((r) => r.id));
        return { query, shown, target: { kind: 'page', page: 0 }, selected: context.selected.filter((i) => visible.has(i)) };
      }),
      reload: assign(({ context }) => resetRows<Row>(context.query)),
      /** New server parameters: the list reloads from server page 0. */
      setParams: assign(({ context }, params: { params: Readonly<Record<string, string>> }) =>
        resetRows<Row>({ ...context.query, params: cleanParams(params.params), page: 0 }),
      ),
      applyQuery: assign((_, params: { query: TableQuery }) => ({
        ...resetRows<Row>(params.query),
        draft: params.query.keyword,
      })),
      applyLocalQuery: assign(({ context }, params: { query: TableQuery }) => {
        const query = { ...params.query };
        const shown = derive(context.rows, query);
        const visible = new Set(shown.map((r) => r.id));
        return { query, shown, target: { kind: 'page', page: query.page }, selected: context.selected.filter((i) => visible.has(i)) };
      }),
      toggleRow: assign({
        selected: ({ context }, params: { id: number }) =>
          context.selected.includes(params.id)
            ? context.selected.filter((i) => i !== params.id)
            : context.shown.some((r) => r.id === params.id)
              ? [...context.selected, params.id]
              : context.selected,
      }),
      togglePage: assign({
        selected: ({ context }) => {
          const start = context.query.page * context.query.size;
          const ids = context.shown.slice(start, start + context.query.size).map((r) => r.id);
          const all = ids.length > 0 && ids.every((i) => context.selected.includes(i));
          return all ? context.selected.filter((i) => !ids.includes(i)) : [...new Set([...context.selected, ...ids])];
        },
      }),
      selectAllShown: assign({ selected: ({ context }) => context.shown.map((r) => r.id) }),
      requestSelectAll: assign({ selectAllAfterLoad: () => true, target: () => ({ kind: 'all' }) }),
      clearSelection: assign({ selected: () => [] }),
      holdPending: assign({
        pending: (_, params: PendingRowAction) => params,
      }),
      dropPending: assign({ pending: () => null }),
      startRowAction: enqueueActions(({ context, enqueue }, params: PendingRowAction) => {
        const row = context.rows.find((r) => r.id === params.id);
        if (row === undefined || context.busy[params.id] !== undefined) return;
        enqueue.assign({ busy: { ...context.busy, [params.id]: params.action }, pending: null });
        enqueue(
          spawnChild('runRowAction', {
            id: rowActorId(params.id),
            input: { action: params.action, row, value: params.value },
          }),
        );
      }),
      applyOutcome: enqueueActions(({ context, enqueue }, params: { id: number; outcome: RowActionOutcome<Row> }) => {
        const { outcome } = params;
        const busy = { ...context.busy };
        delete busy[params.id];
        let rows = context.rows;
        if (outcome.removed === true) rows = rows.filter((r) => r.id !== params.id);
        else if (outcome.row !== undefined || outcome.patch !== undefined) {
          rows = rows.map((r) => (r.id === params.id ? { ...r, ...(outcome.row ?? {}), ...(outcome.patch ?? {}) } : r));
        }
        const view = keepInView(context, rows);
        enqueue.assign({ ...view, busy });
        if (view.query !== context.query) enqueue.emit({ type: 'query.changed', query: view.query });
      }),
      clearBusy: assign({
        busy: ({ context }, params: { id: number }) => {
          const busy = { ...context.busy };
          delete busy[params.id];
          return busy;
        },
      }),
      notifyOutcome: enqueueActions(({ enqueue }, params: { outcome: RowActionOutcome<Row> }) => {
        const { message, level = 'success' } = params.outcome;
        if (message !== undefined) enqueue.emit(notify(level, message));
      }),
      patchRow: enqueueActions(({ context, enqueue }, params: { id: number; patch: Partial<Row> }) => {
        const rows = context.rows.map((r) => (r.id === params.id ? { ...r, ...params.patch } : r));
        const view = keepInView(context, rows);
        enqueue.assign({ ...view, shown: derive(rows, context.query) });
        if (view.query !== context.query) enqueue.emit({ type: 'query.changed', query: view.query });
      }),
      prepareBulk: assign({
        bulk: ({ context }, params: { action: string; value: string }): BulkRun => {
          const chosen = new Set(context.selected);
          // the order the person sees
          const ids = context.shown.filter((r) => chosen.has(r.id)).map((r) => r.id);
          return { action: params.action, value: params.value, ids, done: 0, succeeded: [], failures: [], cancelled: false };
        },
      }),
      retryFailures: assign({
        bulk: ({ context }): BulkRun | null => {
          const bulk = context.bulk;
          if (bulk === null) return null;
          return { ...bulk, ids: bulk.failures.map((f) => f.id), done: 0, succeeded: [], failures: [], cancelled: false };
        },
      }),
      recordBulkSuccess: enqueueActions(({ context, enqueue }, params: { outcome: RowActionOutcome<Row> }) => {
        const bulk = context.bulk;
        if (bulk === null) return;
        const rowId = bulk.ids[bulk.done]!;
        const { outcome } = params;
        let rows = context.rows;
        if (outcome.removed === true) rows = rows.filter((r) => r.id !== rowId);
        else if (outcome.row !== undefined || outcome.patch !== undefined) {
          rows = rows.map((r) => (r.id === rowId ? { ...r, ...(outcome.row ?? {}), ...(outcome.patch ?? {}) } : r));
        }
        const view = keepInView(context, rows);
        enqueue.assign({ ...view, bulk: { ...bulk, done: bulk.done + 1, succeeded: [...bulk.succeeded, rowId] } });
        if (view.query !== context.query) enqueue.emit({ type: 'query.changed', query: view.query });
      }),
      recordBulkFailure: assign({
        bulk: ({ context }, params: { message: Message }): BulkRun | null => {
          const bulk = context.bulk;
          if (bulk === null) return null;
          const rowId = bulk.ids[bulk.done]!;
          return { ...bulk, done: bulk.done + 1, failures: [...bulk.failures, { id: rowId, message: params.message }] };
        },
      }),
      cancelBulk: assign({ bulk: ({ context }) => (context.bulk === null ? null : { ...context.bulk, cancelled: true }) }),
      /** After the report: the rows that failed stay selected (ready for another try), the rest not. */
      finishBulk: assign(({ context }) => {
        const failed = new Set(context.bulk?.failures.map((f) => f.id) ?? []);
        const present = new Set(context.rows.map((r) => r.id));
        return { bulk: null, selected: context.selected.filter((i) => failed.has(i) && present.has(i)) };
      }),
      notifyExported: enqueueActions(({ enqueue }, params: { message: Message | null }) => {
        if (params.message !== null) enqueue.emit(notify('success', params.message));
      }),
      setExportFormat: assign({ exportFormat: (_, params: { format: string }) => params.format }),
    },
  }).createMachine({
    id,
    context: ({ input }) => {
      const { query, baseParams } = input;
      return {
        ...(baseParams === undefined ? {} : { baseParams }),
        rows: [],
        shown: [],
        query,
        draft: query.keyword,
        pagesLoaded: 0,
        exhausted: false,
        target: { kind: 'page', page: query.page },
        selectAllAfterLoad: false,
        selected: [],
        busy: {},
        pending: null,
        bulk: null,
        exportFormat: '',
      };
    },
    initial: 'starting',
    on: {
      // single row actions answer whatever the list is doing meanwhile
      'xstate.done.actor.row.*': {
        guard: {
          type: 'isBusyRow',
          params: ({ event }: { event: unknown }) => ({ id: Number((event as { actorId: string }).actorId.slice(4)) }),
        },
        actions: [
          {
            type: 'applyOutcome',
            params: ({ event }: { event: unknown }) => {
              const e = event as { actorId: string; output: RowActionOutcome<Row> };
              return { id: Number(e.actorId.slice(4)), outcome: e.output };
            },
          },
          {
            type: 'notifyOutcome',
            params: ({ event }: { event: unknown }) => ({ outcome: (event as { output: RowActionOutcome<Row> }).output }),
          },
        ],
      },
      'xstate.error.actor.row.*': {
        guard: {
          type: 'isBusyRow',
          params: ({ event }: { event: unknown }) => ({ id: Number((event as { actorId: string }).actorId.slice(4)) }),
        },
        actions: [
          { type: 'clearBusy', params: ({ event }: { event: unknown }) => ({ id: Number((event as { actorId: string }).actorId.slice(4)) }) },
          { type: 'notifyError', params: ({ event }: { event: unknown }) => ({ error: (event as { error: unknown }).error }) },
        ],
      },
    } as never,
    states: {
      /**
       * The start; never rests here: with the first page's answer in the input, it is stored as
       * `fetchPage`'s answer would be (then more pages if the view needs them); else the first load.
       */
      starting: {
        always: [
          {
            guard: { type: 'hasFirstPage', params: ({ context, event }) => ({ rows: firstPageOf<Row>(event), query: context.query }) },
            target: 'checking',
            actions: { type: 'storePage', params: ({ event }) => ({ rows: firstPageOf<Row>(event) ?? [] }) },
          },
          { target: 'choosing' },
        ],
      },
      /** Where a (re)load starts: the search endpoint or the plain list. */
      choosing: {
        always: [{ guard: 'hasKeyword', target: 'searching' }, { target: 'loading' }],
      },
      loading: {
        tags: ['busy', 'loading'],
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: ({ context }) => fetchInputOf(context),
          onDone: { target: 'checking', actions: { type: 'storePage', params: ({ event }) => ({ rows: event.output }) } },
          onError: [
            {
              guard: 'hasRows',
              target: 'ready',
              actions: ['stopLoadingMore', { type: 'notifyError', params: ({ event }) => ({ error: event.error }) }],
            },
            { target: 'failed', actions: { type: 'notifyError', params: ({ event }) => ({ error: event.error }) } },
          ],
        },
      },
      /** Whether the rows loaded so far fill the view, or another server page is needed. */
      checking: {
        always: [{ guard: 'needsMore', target: 'loading', reenter: true }, { target: 'ready' }],
      },
      searching: {
        tags: ['busy', 'loading'],
        invoke: {
          id: 'searchRows',
          src: 'searchRows',
          input: ({ context }) => ({ keyword: context.query.keyword, order: context.query.order }),
          onDone: { target: 'ready', actions: { type: 'storeMatches', params: ({ event }) => ({ rows: event.output }) } },
          onError: { target: 'failed', actions: { type: 'notifyError', params: ({ event }) => ({ error: event.error }) } },
        },
      },
      failed: {
        entry: 'announceQuery',
        on: {
          'load.retry': { target: 'choosing', actions: 'reload' },
          'search.input': { actions: { type: 'setDraft', params: ({ event }) => ({ text: event.text }) } },
          'search.submit': { target: 'choosing', actions: 'submitSearch' },
          'search.clear': { target: 'choosing', actions: 'clearSearch' },
          'query.set': { target: 'choosing', actions: { type: 'applyQuery', params: ({ event }) => ({ query: event.query }) } },
          'params.set': { target: 'choosing', actions: { type: 'setParams', params: ({ event }) => ({ params: event.params }) } },
        },
      },
      ready: {
        entry: ['settle', 'announceQuery'],
        initial: 'idle',
        states: {
          idle: {
            on: {
              'page.go': [
                {
                  guard: { type: 'isPageLoaded', params: ({ event }) => ({ page: event.page }) },
                  actions: [{ type: 'goToPage', params: ({ event }) => ({ page: event.page }) }, 'announceQuery'],
                },
                {
                  guard: { type: 'isPageOffered', params: ({ event }) => ({ page: event.page }) },
                  target: `#${id}.loading`,
                  actions: { type: 'goToPage', params: ({ event }) => ({ page: event.page }) },
                },
              ],
              'page.size': {
                guard: { type: 'isSize', params: ({ event }) => ({ size: event.size }) },
                target: `#${id}.checking`,
                actions: { type: 'setSize', params: ({ event }) => ({ size: event.size }) },
              },
              'sort.toggle': { actions: [{ type: 'toggleSort', params: ({ event }) => ({ key: event.key }) }, 'announceQuery'] },
              'order.change': {
                target: `#${id}.choosing`,
                actions: { type: 'setOrder', params: ({ event }) => ({ order: event.order }) },
              },
              'search.input': { actions: { type: 'setDraft', params: ({ event }) => ({ text: event.text }) } },
              'search.submit': { target: `#${id}.choosing`, actions: 'submitSearch' },
              'search.clear': { target: `#${id}.choosing`, actions: 'clearSearch' },
              'filter.change': {
                target: `#${id}.checking`,
                actions: { type: 'setFilter', params: ({ event }) => ({ key: event.key, value: event.value }) },
              },
              'rows.reload': { target: `#${id}.choosing`, actions: 'reload' },
              'params.set': {
                target: `#${id}.choosing`,
                actions: { type: 'setParams', params: ({ event }) => ({ params: event.params }) },
              },
              'query.set': [
                {
                  guard: { type: 'needsServerReload', params: ({ event }) => ({ query: event.query }) },
                  target: `#${id}.choosing`,
                  actions: { type: 'applyQuery', params: ({ event }) => ({ query: event.query }) },
                },
                {
                  target: `#${id}.checking`,
                  actions: { type: 'applyLocalQuery', params: ({ event }) => ({ query: event.query }) },
                },
              ],
              'row.select': { actions: { type: 'toggleRow', params: ({ event }) => ({ id: event.id }) } },
              'selection.page': { actions: 'togglePage' },
              'selection.allMatching': [
                { guard: 'isExhausted', actions: 'selectAllShown' },
                { target: `#${id}.loading`, actions: 'requestSelectAll' },
              ],
              'selection.clear': { actions: 'clearSelection' },
              'row.action': [
                {
                  guard: ({ context, event }) =>
                    event.confirm === true && context.busy[event.id] === undefined && context.rows.some((r) => r.id === event.id),
                  target: 'confirmingRow',
                  actions: {
                    type: 'holdPending',
                    params: ({ event }) => ({ id: event.id, action: event.action, value: event.value ?? '' }),
                  },
                },
                {
                  guard: { type: 'canRunOnRow', params: ({ event }) => ({ id: event.id }) },
                  actions: {
                    type: 'startRowAction',
                    params: ({ event }) => ({ id: event.id, action: event.action, value: event.value ?? '' }),
                  },
                },
              ],
              'row.patch': { actions: { type: 'patchRow', params: ({ event }) => ({ id: event.id, patch: event.patch }) } },
              'bulk.request': {
                guard: 'hasSelection',
                target: 'confirmingBulk',
                actions: { type: 'prepareBulk', params: ({ event }) => ({ action: event.action, value: event.value ?? '' }) },
              },
              'selection.export': {
                guard: 'hasSelection',
                target: 'exporting',
                actions: { type: 'setExportFormat', params: ({ event }) => ({ format: event.format }) },
              },
            },
          },
          confirmingRow: {
            on: {
              'confirm.accept': {
                target: 'idle',
                actions: { type: 'startRowAction', params: ({ context }) => context.pending ?? { id: -1, action: '', value: '' } },
              },
              'confirm.cancel': { target: 'idle', actions: 'dropPending' },
            },
          },
          confirmingBulk: {
            on: {
              'confirm.accept': 'bulkRunning',
              'confirm.cancel': { target: 'idle', actions: assign({ bulk: () => null }) },
            },
          },
          bulkRunning: {
            tags: ['busy'],
            initial: 'next',
            on: { 'bulk.cancel': { actions: 'cancelBulk' } },
            states: {
              next: {
                always: [
                  { guard: 'isBulkFinished', target: `#${id}.ready.bulkReport` },
                  {
                    guard: 'isBulkRowMissing',
                    target: 'next',
                    reenter: true,
                    actions: { type: 'recordBulkFailure', params: () => ({ message: msg('table.bulk.rowGone') }) },
                  },
                  {
                    guard: 'isBulkRowRefused',
                    target: 'next',
                    reenter: true,
                    actions: {
                      type: 'recordBulkFailure',
                      params: ({ context }) => ({ message: bulkRefusal(context) ?? msg('table.bulk.rowGone') }),
                    },
                  },
                  { target: 'running' },
                ],
              },
              running: {
                invoke: {
                  id: 'runBulkStep',
                  src: 'runRowAction',
                  input: ({ context }) => {
                    const bulk = context.bulk!;
                    const rowId = bulk.ids[bulk.done];
                    return { action: bulk.action, row: context.rows.find((r) => r.id === rowId)!, value: bulk.value };
                  },
                  onDone: { target: 'next', actions: { type: 'recordBulkSuccess', params: ({ event }) => ({ outcome: event.output }) } },
                  onError: {
                    target: 'next',
                    actions: { type: 'recordBulkFailure', params: ({ event }) => ({ message: errorMessage(event.error) }) },
                  },
                },
              },
            },
          },
          bulkReport: {
            on: {
              'bulk.retry': { guard: 'hasFailures', target: 'bulkRunning', actions: 'retryFailures' },
              'report.dismiss': { target: 'idle', actions: 'finishBulk' },
            },
          },
          exporting: {
            tags: ['busy'],
            invoke: {
              id: 'exportRows',
              src: 'exportRows',
              input: ({ context }) => {
                const chosen = new Set(context.selected);
                return { format: context.exportFormat, rows: context.shown.filter((r) => chosen.has(r.id)) };
              },
              onDone: { target: 'idle', actions: { type: 'notifyExported', params: ({ event }) => ({ message: event.output }) } },
              onError: { target: 'idle', actions: { type: 'notifyError', params: ({ event }) => ({ error: event.error }) } },
            },
          },
        },
      },
    },
  });
}

export type TableMachine<Row extends TableRow> = ReturnType<typeof createTableMachine<Row>>;
export type TableSnapshot<Row extends TableRow> = SnapshotFrom<TableMachine<Row>>;
export type TableActorRef<Row extends TableRow> = ActorRefFrom<TableMachine<Row>>;
