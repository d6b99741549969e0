import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { failure, httpError, networkError } from '../../src/domain/apiError';
import type { Message } from '../../src/domain/message';
import { applySort } from '../../src/domain/paging';
import { formatTableQuery, matchesFilters, parseTableQuery, type TableQuery, type TableQuerySchema } from '../../src/domain/tableQuery';
import {
  createTableMachine,
  pageCountOf,
  rowActorId,
  selectBulkReport,
  selectBulkRunning,
  selectBulkToConfirm,
  selectIsExporting,
  selectIsIdle,
  selectIsLoading,
  selectPageCount,
  selectPageRows,
  selectPendingRowAction,
  type ExportRowsInput,
  type FetchPageInput,
  type RowActionInput,
  type RowActionOutcome,
  type SearchRowsInput,
  type TableEmitted,
  type TableSnapshotLike,
} from '../../src/machines/table';
import { describePath, doneActor, errorActor, unreachedStates, type EventFixtures } from './support/model';
import { replay as replayOn } from './support/replay';

/*
 * The one table machine, instantiated on a small row type with server pages of 3 rows and client
 * pages of 3 (the address may ask for 2). The server is simulated: `fetchPage` answers the page
 * the machine asked for (p = pagesLoaded, in the current order), so every traversal sees the rows
 * a real list would show. The third page is short (one row) or, if that row was deleted
 * meanwhile, empty: both answers are explored.
 */

interface Row {
  readonly id: number;
  readonly name: string;
  readonly quota: number;
  readonly group: string;
}

const serverPageSize = 3;
const machine = createTableMachine<Row>({ id: 'testTable', serverPageSize });
type Snap = SnapshotFrom<typeof machine>;
type Event = Parameters<typeof machine.transition>[1];
/** The selectors take any table's snapshot. */
const like = (s: Snap) => s as unknown as TableSnapshotLike<Row>;

const table: readonly Row[] = [
  { id: 1, name: 'alpha', quota: 30, group: 'default' },
  { id: 2, name: 'bravo', quota: 10, group: 'vip' },
  { id: 3, name: 'charlie', quota: 20, group: 'default,vip' },
  { id: 4, name: 'delta', quota: 0, group: 'svip' },
  { id: 5, name: 'echo', quota: 50, group: 'vip' },
  { id: 6, name: 'foxtrot', quota: 40, group: 'default' },
  { id: 7, name: 'golf', quota: 60, group: 'vip' },
];
const byId = (id: number): Row => table.find((r) => r.id === id)!;

const schema: TableQuerySchema = { sortKeys: ['id', 'name', 'quota', 'group'], orders: ['', 'quota'], filterKeys: ['group'], sizes: [2, 3, 10] };
const parse = (search: string): TableQuery => parseTableQuery(search, schema);
const start: TableQuery = parse('?size=3');
const input = { query: start };

/** The same list with server-side parameters in the address (`p.group=`). */
const paramSchema: TableQuerySchema = { ...schema, paramKeys: ['group'] };
const parseWithParams = (search: string): TableQuery => parseTableQuery(search, paramSchema);
type Params = Readonly<Record<string, string>> | undefined;
/** The server's `group` parameter: rows whose group list has it. */
const inGroup = (r: Row, params: Params) => params?.group === undefined || r.group.split(',').includes(params.group);

/** The list in a server `order` (one-api orders by id, or by a column descending), filtered by the server parameters. */
const listed = (order: string, params?: Params): readonly Row[] =>
  (order === 'quota' ? [...table].sort((a, b) => b.quota - a.quota) : table).filter((r) => inGroup(r, params));
const serverPage = (order: string, p: number, params?: Params): readonly Row[] =>
  listed(order, params).slice(p * serverPageSize, (p + 1) * serverPageSize);
const searchMatches = (keyword: string, order: string): readonly Row[] => listed(order).filter((r) => r.name.includes(keyword));

// ---- fixtures: the person's events (exhaustive: a new event fails to compile) ----

const fixtures: EventFixtures<typeof machine> = {
  'page.go': [
    { type: 'page.go', page: 1 },
    { type: 'page.go', page: 2 },
    { type: 'page.go', page: -1 },
  ],
  'page.size': [
    { type: 'page.size', size: 2 },
    { type: 'page.size', size: 0 },
  ],
  'sort.toggle': [{ type: 'sort.toggle', key: 'quota' }],
  'order.change': [{ type: 'order.change', order: 'quota' }],
  'search.input': [{ type: 'search.input', text: ' ch ' }],
  'search.submit': [{ type: 'search.submit' }],
  'search.clear': [{ type: 'search.clear' }],
  'filter.change': [
    { type: 'filter.change', key: 'group', value: ' vip ' },
    { type: 'filter.change', key: 'group', value: '' },
  ],
  'rows.reload': [{ type: 'rows.reload' }],
  'load.retry': [{ type: 'load.retry' }],
  'query.set': [
    { type: 'query.set', query: parse('?size=3&page=2&sort=name&f.group=default') },
    { type: 'query.set', query: parse('?size=3&q=ch&order=quota') },
    { type: 'query.set', query: parseWithParams('?size=3&p.group=svip') },
  ],
  'params.set': [
    { type: 'params.set', params: { group: ' vip ' } },
    { type: 'params.set', params: { group: '' } },
  ],
  'row.select': [
    { type: 'row.select', id: 1 },
    { type: 'row.select', id: 5 },
  ],
  'selection.page': [{ type: 'selection.page' }],
  'selection.allMatching': [{ type: 'selection.allMatching' }],
  'selection.clear': [{ type: 'selection.clear' }],
  'row.action': [
    { type: 'row.action', id: 1, action: 'delete', confirm: true },
    { type: 'row.action', id: 2, action: 'quota', value: '99' },
    { type: 'row.action', id: 7, action: 'delete', confirm: true },
  ],
  'row.patch': [{ type: 'row.patch', id: 3, patch: { group: 'svip' } }],
  'confirm.accept': [{ type: 'confirm.accept' }],
  'confirm.cancel': [{ type: 'confirm.cancel' }],
  'bulk.request': [{ type: 'bulk.request', action: 'group', value: 'svip' }],
  'bulk.cancel': [{ type: 'bulk.cancel' }],
  'bulk.retry': [{ type: 'bulk.retry' }],
  'report.dismiss': [{ type: 'report.dismiss' }],
  'selection.export': [{ type: 'selection.export', format: 'copy' }],
};
type EventType = keyof typeof fixtures;

// ---- fixtures: what the invoked and spawned actors answer (as XState would send it) ----

const fetchDone = (rows: readonly Row[]) => doneActor('fetchPage', rows);
const fullPage = (order: string, p: 0 | 1) => fetchDone(serverPage(order, p));
const shortPage = (order: string) => fetchDone(serverPage(order, 2));
const emptyPage = fetchDone([]);
const fetchFailed = errorActor('fetchPage', networkError('fetchPage', 'connect ECONNREFUSED'));
const searchDone = (keyword: string, order: string) => doneActor('searchRows', searchMatches(keyword, order));
const searchFailed = errorActor('searchRows', httpError('searchRows', 500, 'Internal Server Error'));
const stepPatched = doneActor('runBulkStep', { patch: { group: 'svip' } } satisfies RowActionOutcome<Row>);
const stepRemoved = doneActor('runBulkStep', { removed: true } satisfies RowActionOutcome<Row>);
const stepFailed = errorActor('runBulkStep', failure('runRowAction', '无权进行此操作，权限不足'));
const copied: Message = { text: '已复制到剪贴板' };
const exported = doneActor('exportRows', copied);
const exportedQuietly = doneActor('exportRows', null);
const exportFailed = errorActor('exportRows', networkError('exportRows', 'clipboard unavailable'));
const rowDeleted: RowActionOutcome<Row> = { removed: true, message: { text: '删除成功' } };
const rowPatched: RowActionOutcome<Row> = { patch: { quota: 99 } };
const rowDone = (id: number, outcome: RowActionOutcome<Row>) => doneActor(rowActorId(id), outcome);
const rowFailed = (id: number) => errorActor(rowActorId(id), failure('runRowAction', '渠道不存在'));

/** The answers the running actors could give in this snapshot (the simulated server). */
function answers(s: Snap): AnyEventObject[] {
  const c = s.context;
  const out: AnyEventObject[] = [];
  if (s.matches('loading')) {
    const p = c.pagesLoaded;
    const page = serverPage(c.query.order, p, c.query.params);
    out.push(fetchDone(page));
    // the last row may have been deleted meanwhile
    if (p === 2 && page.length > 0) out.push(emptyPage);
    out.push(fetchFailed);
  }
  if (s.matches('searching')) out.push(searchDone(c.query.keyword, c.query.order), searchFailed);
  if (s.matches({ ready: { bulkRunning: 'running' } })) out.push(stepPatched, stepRemoved, stepFailed);
  if (s.matches({ ready: 'exporting' })) out.push(exported, exportedQuietly, exportFailed);
  for (const id of Object.keys(c.busy).map(Number)) {
    out.push(rowDone(id, c.busy[id] === 'delete' ? rowDeleted : rowPatched), rowFailed(id));
  }
  return out;
}

const eventsOf = (types: readonly EventType[]): Event[] => types.flatMap((t) => fixtures[t] as readonly Event[]);
const allTypes = Object.keys(fixtures) as EventType[];

// ---- helpers ----

type ActionLike = readonly { readonly type: string; readonly params?: unknown }[];
/** What a transition emitted (`emit` actions carry the event). */
const emittedOf = (actions: ActionLike) =>
  actions.filter((a) => a.type === 'xstate.emit').map((a) => (a.params as { event: TableEmitted }).event);

interface Step {
  readonly event: AnyEventObject;
  readonly snapshot: Snap;
  readonly emitted: readonly TableEmitted[];
  /** Inputs of the actors started by this step, by actor id. */
  readonly started: readonly { readonly id: string; readonly input: unknown }[];
}

/** Runs events through the pure transition function, keeping what each step emitted and started. */
function journey(events: readonly AnyEventObject[], query: TableQuery = start): { s: Snap; steps: Step[] } {
  const [first, firstActions] = initialTransition(machine, { query });
  const startedOf = (actions: readonly { type: string; params?: unknown }[]) =>
    actions
      .filter((a) => a.type === 'xstate.spawnChild')
      .map((a) => a.params as { id: string; input: unknown })
      .map(({ id, input: i }) => ({ id, input: i }));
  const steps: Step[] = [{ event: { type: 'xstate.init' }, snapshot: first, emitted: emittedOf(firstActions), started: startedOf(firstActions) }];
  let s = first;
  for (const event of events) {
    const [next, actions] = transition(machine, s, event as Event);
    s = next;
    steps.push({ event, snapshot: s, emitted: emittedOf(actions), started: startedOf(actions) });
  }
  return { s, steps };
}
const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id);
const queriesOf = (steps: readonly Step[]) => steps.flatMap((st) => st.emitted).filter((e) => e.type === 'query.changed').map((e) => e.query);
const notesOf = (steps: readonly Step[]) => steps.flatMap((st) => st.emitted).filter((e) => e.type === 'notify');
const startedInputs = (steps: readonly Step[], id: string) => steps.flatMap((st) => st.started).filter((a) => a.id === id).map((a) => a.input);

/** Loads the first page of the plain list (p0 full). */
const firstPage = [fullPage('', 0)];

// ---- invariants ----

const shownOf = (rows: readonly Row[], query: TableQuery): readonly Row[] =>
  applySort(
    rows.filter((r) => matchesFilters(r, query.filters)),
    query.sort as never,
  );

const bulkStates = ['confirmingBulk', 'bulkRunning', 'bulkReport'] as const;

/** What holds in every snapshot, whatever led there: the broken rules, named (none expected). */
function brokenRules(s: Snap): string[] {
  const c = s.context;
  const broken: string[] = [];
  const rule = (ok: boolean, name: string) => {
    if (!ok) broken.push(name);
  };
  const ready = s.matches('ready');
  rule(s.status === 'active', 'status active');
  const rowIds = ids(c.rows);
  rule(new Set(rowIds).size === rowIds.length, 'row ids unique');
  // shown is exactly the loaded rows filtered and sorted
  rule(JSON.stringify(c.shown) === JSON.stringify(shownOf(c.rows, c.query)), 'shown = filter + sort of rows');
  // the selection is among the rows the person sees
  const shownIds = new Set(ids(c.shown));
  rule(
    c.selected.every((i) => shownIds.has(i)),
    'selected ⊆ shown',
  );
  rule(new Set(c.selected).size === c.selected.length, 'selected unique');
  // the page is one the pager offers once loading has settled
  if (ready) {
    const count = pageCountOf(c.shown.length, c.query.size, c.exhausted);
    rule(Number.isInteger(c.query.page) && c.query.page >= 0 && c.query.page < count, `page ${c.query.page} in [0, ${count})`);
    rule(selectPageCount(like(s)) === count, 'selectPageCount');
    rule(selectPageRows(like(s)).length <= c.query.size, 'page rows ≤ size');
  }
  // a busy row has its action running
  for (const id of Object.keys(c.busy)) rule(s.children[rowActorId(Number(id))] !== undefined, `row ${id} runs`);
  // the bulk run exists exactly while it is confirmed, run or reported
  const inBulk = bulkStates.some((b) => s.matches({ ready: b }));
  rule((c.bulk !== null) === inBulk, 'bulk non-null ⇔ bulk state');
  if (c.bulk !== null) {
    const b = c.bulk;
    rule(b.done <= b.ids.length, 'bulk.done ≤ ids');
    rule(new Set(b.ids).size === b.ids.length, 'bulk ids unique');
    const tried = [...b.succeeded, ...b.failures.map((f) => f.id)].sort().join();
    rule(tried === b.ids.slice(0, b.done).sort().join(), 'each tried id counted once');
  }
  rule((selectBulkToConfirm(like(s)) !== null) === s.matches({ ready: 'confirmingBulk' }), 'selectBulkToConfirm');
  rule((selectBulkRunning(like(s)) !== null) === s.matches({ ready: 'bulkRunning' }), 'selectBulkRunning');
  rule((selectBulkReport(like(s)) !== null) === s.matches({ ready: 'bulkReport' }), 'selectBulkReport');
  // a pending row action exists exactly while it waits for the confirmation
  rule((c.pending !== null) === s.matches({ ready: 'confirmingRow' }), 'pending ⇔ confirmingRow');
  rule(selectPendingRowAction(like(s)) === c.pending, 'selectPendingRowAction');
  // the keyword is trimmed, filters hold no empty value
  rule(c.query.keyword === c.query.keyword.trim(), 'keyword trimmed');
  rule(
    Object.values(c.query.filters).every((v) => v !== '' && v === v.trim()),
    'filter values trimmed, never empty',
  );
  rule(
    Object.values(c.query.params ?? {}).every((v) => v !== '' && v === v.trim()),
    'server parameter values trimmed, never empty',
  );
  // the rows loaded are the server's answer to the current parameters (new parameters reload)
  rule(
    c.rows.every((r) => inGroup(r, c.query.params) || c.query.keyword !== ''),
    'rows match the server parameters',
  );
  // one call at a time, in its state
  const loading = s.matches('loading');
  const searching = s.matches('searching');
  const running = s.matches({ ready: 'bulkRunning' });
  const exporting = s.matches({ ready: 'exporting' });
  rule((s.children.fetchPage !== undefined) === loading, 'fetchPage runs while loading');
  rule((s.children.searchRows !== undefined) === searching, 'searchRows runs while searching');
  rule((s.children.runBulkStep !== undefined) === s.matches({ ready: { bulkRunning: 'running' } }), 'runBulkStep runs while running');
  rule((s.children.exportRows !== undefined) === exporting, 'exportRows runs while exporting');
  rule(selectIsLoading(like(s)) === (loading || searching), 'selectIsLoading');
  rule(s.hasTag('busy') === (loading || searching || running || exporting), 'busy tag');
  rule(selectIsIdle(like(s)) === s.matches({ ready: 'idle' }), 'selectIsIdle');
  rule(selectIsExporting(like(s)) === exporting, 'selectIsExporting');
  return broken;
}
const checkSnapshot = (s: Snap, where: string) => expect(brokenRules(s), where).toEqual([]);

/**
 * What holds from one snapshot to the next: a row becomes busy only while it is loaded. (It may
 * leave while its action runs: a reload or a bulk step removes it, and the spinner waits for the
 * answer, so `busy ⊆ rows` holds where an action starts, not everywhere.)
 */
function checkStep(prev: Snap | undefined, s: Snap): string[] {
  const rowIds = new Set(ids(s.context.rows).map(String));
  return Object.keys(s.context.busy).filter((id) => prev?.context.busy[Number(id)] === undefined && !rowIds.has(id));
}

// ---- traversals ----

const serializeFull = (s: Snap) => JSON.stringify([s.value, s.context]);

interface Scene {
  readonly name: string;
  /** Events from the initial snapshot to where the scene starts. */
  readonly from: readonly AnyEventObject[];
  /** The person's events explored (the actors' answers always are). */
  readonly types: readonly EventType[];
  readonly query?: TableQuery;
}

function sceneOptions(scene: Scene) {
  const own = eventsOf(scene.types);
  return {
    fromState: journey(scene.from, scene.query).s,
    // events the snapshot ignores change nothing: they are left out of the graph
    events: (s: Snap) => (s.status === 'active' ? [...own.filter((e) => s.can(e)), ...(answers(s) as Event[])] : []),
    serializeState: serializeFull,
    limit: 20000,
  };
}


interface Edge {
  readonly event: AnyEventObject;
  readonly key: string;
  /** The queries of the `query.changed` events this transition emitted, as JSON. */
  readonly announced: readonly string[];
}
type Adjacency = Map<string, { readonly state: Snap; readonly edges: readonly Edge[] }>;

/**
 * The scene's graph, breadth first from its start, through the pure transition function (the same
 * traversal `xstate/graph` does, keeping what each transition emitted).
 */
function explore(scene: Scene): { adj: Adjacency; startKey: string } {
  const opts = sceneOptions(scene);
  const adj: Adjacency = new Map();
  const startKey = serializeFull(opts.fromState);
  const queue: [string, Snap][] = [[startKey, opts.fromState]];
  const seen = new Set([startKey]);
  while (queue.length > 0) {
    const [key, s] = queue.shift()!;
    const edges: Edge[] = [];
    for (const event of opts.events(s)) {
      const [next, actions] = transition(machine, s, event);
      const nextKey = serializeFull(next);
      const announced = emittedOf(actions).flatMap((e) => (e.type === 'query.changed' ? [JSON.stringify(e.query)] : []));
      edges.push({ event, key: nextKey, announced });
      if (!seen.has(nextKey)) {
        seen.add(nextKey);
        queue.push([nextKey, next]);
        expect(seen.size, `${scene.name}: states`).toBeLessThan(opts.limit);
      }
    }
    adj.set(key, { state: s, edges });
  }
  return { adj, startKey };
}

/**
 * Walks every simple path of at most `depth` steps from `startKey` (no snapshot twice on a path),
 * checking the path invariant at each step; returns how many paths were walked.
 */
function walkSimplePaths(adj: Adjacency, startKey: string, depth: number, name: string): number {
  let walked = 0;
  const onPath = new Set<string>();
  const events: string[] = [];
  const visit = (key: string, prev: Snap | undefined) => {
    walked++;
    const s = adj.get(key)!.state;
    const stray = checkStep(prev, s);
    if (stray.length > 0) expect(stray, `busy ⊆ rows where it starts, in ${name} after ${events.join(' → ')}`).toEqual([]);
    if (events.length >= depth) return;
    onPath.add(key);
    for (const t of adj.get(key)!.edges) {
      if (onPath.has(t.key)) continue;
      events.push(t.event.type);
      visit(t.key, s);
      events.pop();
    }
    onPath.delete(key);
  };
  visit(startKey, undefined);
  return walked;
}

/**
 * Every edge: each `query.changed` carries the query the machine now holds, and a settled list
 * (ready or failed) whose query changed, or that was just entered, announced it.
 */
function checkAnnouncements(adj: Adjacency, name: string): number {
  let edges = 0;
  const settled = (s: Snap) => s.matches('ready') || s.matches('failed');
  for (const node of adj.values()) {
    for (const t of node.edges) {
      edges++;
      const next = adj.get(t.key)!.state;
      const now = JSON.stringify(next.context.query);
      const where = `${name}: ${JSON.stringify(node.state.value)} + ${t.event.type}`;
      for (const q of t.announced) expect(q, `announced query at ${where}`).toBe(now);
      const changed = JSON.stringify(node.state.context.query) !== now;
      if (settled(next) && (changed || !settled(node.state))) expect(t.announced.length, `query.changed at ${where}`).toBeGreaterThan(0);
    }
  }
  return edges;
}

const scenes: readonly (Scene & { readonly depth: number })[] = [
  { name: 'paging and order', from: [], types: ['page.go', 'page.size', 'sort.toggle', 'order.change', 'rows.reload', 'load.retry'], depth: 12 },
  {
    name: 'search, filters and the address',
    from: firstPage,
    types: ['search.input', 'search.submit', 'search.clear', 'filter.change', 'query.set', 'load.retry', 'page.go'],
    depth: 8,
  },
  {
    name: 'selection and export',
    from: firstPage,
    types: ['row.select', 'selection.page', 'selection.allMatching', 'selection.clear', 'selection.export', 'filter.change'],
    depth: 8,
  },
  {
    name: 'server parameters',
    from: firstPage,
    types: ['params.set', 'page.go', 'rows.reload', 'load.retry', 'sort.toggle', 'query.set'],
    depth: 8,
  },
  { name: 'row actions', from: firstPage, types: ['row.action', 'confirm.accept', 'confirm.cancel', 'rows.reload', 'row.patch', 'row.select'], depth: 8 },
  {
    name: 'row actions on the last page',
    from: [...firstPage, { type: 'page.go', page: 1 }, fullPage('', 1), { type: 'page.go', page: 2 }, shortPage('')],
    types: ['row.action', 'confirm.accept', 'row.select', 'bulk.request'],
    depth: 7,
  },
  {
    name: 'bulk runs',
    from: [...firstPage, { type: 'page.go', page: 1 }, fullPage('', 1)],
    types: ['row.select', 'bulk.request', 'confirm.accept', 'confirm.cancel', 'bulk.cancel', 'bulk.retry', 'report.dismiss'],
    depth: 12,
  },
];

const explored = new Map<string, ReturnType<typeof explore>>();
const exploredScene = (scene: Scene) => {
  let e = explored.get(scene.name);
  if (e === undefined) {
    e = explore(scene);
    explored.set(scene.name, e);
  }
  return e;
};

/** States the machine only passes through (eventless transitions): no snapshot rests there. */
const transient = ['starting', 'choosing', 'checking', 'ready.bulkRunning.next'];

describe('table model', () => {
  it('reaches every state', () => {
    // a coarse key (the state and what its guards read) keeps the whole-machine graph small
    const coarse = (s: Snap) => {
      const c = s.context;
      const b = c.bulk;
      return JSON.stringify([
        s.value,
        c.rows.length > 0,
        c.selected.length > 0,
        Object.keys(c.busy).length,
        c.pending !== null,
        b === null ? null : [b.done < b.ids.length, b.failures.length > 0, b.cancelled],
        c.exhausted,
        c.query.keyword,
      ]);
    };
    const own = eventsOf(allTypes);
    const paths = getShortestPaths(machine, {
      input,
      events: (s: Snap) => [...own, ...answers(s)],
      serializeState: coarse,
      limit: 20000,
    } as never) as unknown as { state: Snap; steps: { state: Snap; event: AnyEventObject }[] }[];
    expect(unreachedStates(machine, paths as never)).toEqual(transient);
    for (const id of transient) expect(machine.getStateNodeById(`testTable.${id}`).always?.length).toBeGreaterThan(0);
  });

  describe.each(scenes)('$name', (scene) => {
    it('keeps its invariants on every reachable snapshot and every bounded simple path', () => {
      const { adj, startKey } = exploredScene(scene);
      expect(adj.size).toBeGreaterThan(10);
      for (const [key, node] of adj) checkSnapshot(node.state, `${scene.name} ${key.slice(0, 200)}`);
      const walked = walkSimplePaths(adj, startKey, scene.depth, scene.name);
      expect(walked).toBeGreaterThan(adj.size / 2);
    });
    it('announces the query it holds', () => {
      const { adj } = exploredScene(scene);
      expect(checkAnnouncements(adj, scene.name)).toBeGreaterThan(0);
    });
  });

  describe('pinned journeys', () => {
    const go = (page: number) => ({ type: 'page.go', page });
    const select = (id: number) => ({ type: 'row.select', id });
    const threePages = [...firstPage, go(1), fullPage('', 1), go(2), shortPage('')];

    it('pages forward through three server pages, fetching p = 0, 1, 2', () => {
      const { s, steps } = journey(threePages);
      expect(s.value).toEqual({ ready: 'idle' });
      expect(ids(s.context.rows)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(s.context.exhausted).toBe(true);
      expect(selectPageCount(like(s))).toBe(3);
      expect(ids(selectPageRows(like(s)))).toEqual([7]);
      expect(startedInputs(steps, 'fetchPage')).toEqual([0, 1, 2].map((page) => ({ page, order: '' })));
      expect(queriesOf(steps).map((q) => q.page)).toEqual([0, 1, 2]);
      // a loaded page is shown without a fetch
      const back = journey([...threePages, go(0)]);
      expect(startedInputs(back.steps, 'fetchPage')).toHaveLength(3);
      expect(ids(selectPageRows(like(back.s)))).toEqual([1, 2, 3]);
    });
    it('ignores pages the pager does not offer', () => {
      for (const page of [-1, 0.5, 3, Number.NaN]) expect(journey([...firstPage, go(page)]).s.context.query.page).toBe(0);
      expect(journey([...firstPage, go(2)]).s.value).toEqual({ ready: 'idle' });
    });
    it('toggles a column sort ascending, then descending, without fetching', () => {
      const toggle = { type: 'sort.toggle', key: 'quota' };
      const asc = journey([...firstPage, toggle]);
      expect(asc.s.context.query.sort).toEqual({ key: 'quota', direction: 'asc' });
      expect(ids(asc.s.context.shown)).toEqual([2, 3, 1]);
      const desc = journey([...firstPage, toggle, toggle]);
      expect(desc.s.context.query.sort).toEqual({ key: 'quota', direction: 'desc' });
      expect(ids(desc.s.context.shown)).toEqual([1, 3, 2]);
      expect(startedInputs(desc.steps, 'fetchPage')).toHaveLength(1);
      expect(queriesOf(desc.steps).map((q) => q.sort?.direction)).toEqual([undefined, 'asc', 'desc']);
    });
    it('a server order reloads from p = 0 on page 1', () => {
      const { s, steps } = journey([...firstPage, go(1), fullPage('', 1), select(4), { type: 'order.change', order: 'quota' }]);
      expect(s.value).toBe('loading');
      expect(s.context.rows).toEqual([]);
      expect(s.context.selected).toEqual([]);
      expect(s.context.query).toMatchObject({ order: 'quota', page: 0 });
      expect(startedInputs(steps, 'fetchPage').at(-1)).toEqual({ page: 0, order: 'quota' });
      const done = journey([...firstPage, go(1), fullPage('', 1), { type: 'order.change', order: 'quota' }, fullPage('quota', 0)]);
      expect(ids(selectPageRows(like(done.s)))).toEqual([7, 5, 6]);
      expect(queriesOf(done.steps).at(-1)).toMatchObject({ order: 'quota', page: 0 });
    });
    it('a search switches to the search endpoint with the trimmed keyword; clearing goes back to the list', () => {
      const searched = journey([...firstPage, { type: 'search.input', text: '  ch ' }, { type: 'search.submit' }]);
      expect(searched.s.value).toBe('searching');
      expect(searched.s.context.query.keyword).toBe('ch');
      expect(startedInputs(searched.steps, 'searchRows')).toEqual([{ keyword: 'ch', order: '' }]);
      const found = journey([...firstPage, { type: 'search.input', text: '  ch ' }, { type: 'search.submit' }, searchDone('ch', '')]);
      expect(found.s.value).toEqual({ ready: 'idle' });
      expect(ids(found.s.context.rows)).toEqual([3, 5]);
      expect(found.s.context.exhausted).toBe(true);
      expect(queriesOf(found.steps).at(-1)).toMatchObject({ keyword: 'ch', page: 0 });
      const cleared = journey([...firstPage, { type: 'search.input', text: 'ch' }, { type: 'search.submit' }, searchDone('ch', ''), { type: 'search.clear' }, ...firstPage]);
      expect(cleared.s.context.query.keyword).toBe('');
      expect(cleared.s.context.draft).toBe('');
      expect(startedInputs(cleared.steps, 'fetchPage')).toEqual([
        { page: 0, order: '' },
        { page: 0, order: '' },
      ]);
      expect(ids(cleared.s.context.rows)).toEqual([1, 2, 3]);
      expect(queriesOf(cleared.steps).at(-1)).toMatchObject({ keyword: '' });
    });
    it('a filter narrows the loaded rows, resets the page and loads more to fill it', () => {
      const narrowed = journey([...firstPage, go(1), fullPage('', 1), { type: 'filter.change', key: 'group', value: ' vip ' }]);
      expect(narrowed.s.value).toEqual({ ready: 'idle' });
      expect(narrowed.s.context.query).toMatchObject({ page: 0, filters: { group: 'vip' } });
      expect(ids(narrowed.s.context.shown)).toEqual([2, 3, 5]);
      expect(queriesOf(narrowed.steps).at(-1)).toMatchObject({ page: 0, filters: { group: 'vip' } });
      const filling = journey([...firstPage, { type: 'filter.change', key: 'group', value: 'default' }]);
      expect(filling.s.value).toBe('loading');
      const filled = journey([...firstPage, { type: 'filter.change', key: 'group', value: 'default' }, fullPage('', 1)]);
      expect(ids(selectPageRows(like(filled.s)))).toEqual([1, 3, 6]);
      const cleared = journey([...firstPage, { type: 'filter.change', key: 'group', value: 'vip' }, fullPage('', 1), { type: 'filter.change', key: 'group', value: ' ' }]);
      expect(cleared.s.context.query.filters).toEqual({});
    });
    it('select all matching loads every remaining page, then selects every row', () => {
      const loading = journey([...firstPage, { type: 'selection.allMatching' }, fullPage('', 1)]);
      expect(loading.s.value).toBe('loading');
      expect(loading.s.context.selected).toEqual([]);
      const { s, steps } = journey([...firstPage, { type: 'selection.allMatching' }, fullPage('', 1), shortPage('')]);
      expect(s.value).toEqual({ ready: 'idle' });
      expect(s.context.selected).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(s.context.query.page).toBe(0);
      expect(startedInputs(steps, 'fetchPage').map((i) => (i as FetchPageInput).page)).toEqual([0, 1, 2]);
      // a failed page keeps what was loaded and selects nothing
      const failed = journey([...firstPage, { type: 'selection.allMatching' }, fetchFailed]);
      expect(failed.s.value).toEqual({ ready: 'idle' });
      expect(failed.s.context.selected).toEqual([]);
      expect(notesOf(failed.steps)).toHaveLength(1);
    });
    it('deletes a row after the confirmation; cancelling keeps it', () => {
      const ask = { type: 'row.action', id: 1, action: 'delete', confirm: true };
      const asking = journey([...firstPage, ask]);
      expect(asking.s.value).toEqual({ ready: 'confirmingRow' });
      expect(selectPendingRowAction(like(asking.s))).toEqual({ id: 1, action: 'delete', value: '' });
      const running = journey([...firstPage, select(1), ask, { type: 'confirm.accept' }]);
      expect(running.s.value).toEqual({ ready: 'idle' });
      expect(running.s.context.busy).toEqual({ 1: 'delete' });
      expect(startedInputs(running.steps, rowActorId(1))).toEqual([{ action: 'delete', row: byId(1), value: '' }]);
      const { s, steps } = journey([...firstPage, select(1), ask, { type: 'confirm.accept' }, rowDone(1, rowDeleted)]);
      expect(ids(s.context.rows)).toEqual([2, 3]);
      expect(s.context.busy).toEqual({});
      expect(s.context.selected).toEqual([]);
      expect(notesOf(steps)).toEqual([{ type: 'notify', level: 'success', message: { text: '删除成功' } }]);
      const kept = journey([...firstPage, ask, { type: 'confirm.cancel' }]);
      expect(kept.s.value).toEqual({ ready: 'idle' });
      expect(kept.s.context.pending).toBeNull();
      expect(ids(kept.s.context.rows)).toEqual([1, 2, 3]);
    });
    it('deleting the only row of the last page moves to the page before and says so', () => {
      const ask = { type: 'row.action', id: 7, action: 'delete', confirm: true };
      const { s, steps } = journey([...threePages, ask, { type: 'confirm.accept' }, rowDone(7, rowDeleted)]);
      expect(s.context.query.page).toBe(1);
      expect(ids(selectPageRows(like(s)))).toEqual([4, 5, 6]);
      expect(queriesOf(steps).at(-1)).toMatchObject({ page: 1 });
    });
    it('a row patched out of the filter leaves the selection', () => {
      const { s } = journey([...firstPage, { type: 'filter.change', key: 'group', value: 'vip' }, fullPage('', 1), select(5), select(3), { type: 'row.patch', id: 3, patch: { group: 'svip' } }]);
      expect(ids(s.context.shown)).toEqual([2, 5]);
      expect(s.context.selected).toEqual([5]);
    });
    const bulkOfThree = [...firstPage, select(1), select(2), select(3), { type: 'bulk.request', action: 'group', value: 'svip' }];
    it('a bulk run with one failure reports it; the retry runs only that row', () => {
      const confirm = journey(bulkOfThree);
      expect(selectBulkToConfirm(like(confirm.s))?.ids).toEqual([1, 2, 3]);
      const report = journey([...bulkOfThree, { type: 'confirm.accept' }, stepPatched, stepFailed, stepPatched]);
      expect(report.s.value).toEqual({ ready: 'bulkReport' });
      const bulk = selectBulkReport(like(report.s))!;
      expect(bulk).toMatchObject({ done: 3, succeeded: [1, 3], cancelled: false });
      expect(bulk.failures).toEqual([{ id: 2, message: { text: '无权进行此操作，权限不足' } }]);
      expect(startedInputs(report.steps, 'runBulkStep').map((i) => (i as RowActionInput<Row>).row.id)).toEqual([1, 2, 3]);
      expect(report.s.context.rows.map((r) => r.group)).toEqual(['svip', 'vip', 'svip']);
      const retried = journey([...bulkOfThree, { type: 'confirm.accept' }, stepPatched, stepFailed, stepPatched, { type: 'bulk.retry' }, stepPatched]);
      expect(startedInputs(retried.steps, 'runBulkStep').slice(3)).toEqual([{ action: 'group', row: byId(2), value: 'svip' }]);
      expect(selectBulkReport(like(retried.s))).toMatchObject({ ids: [2], done: 1, succeeded: [2], failures: [] });
      const closed = journey([...bulkOfThree, { type: 'confirm.accept' }, stepPatched, stepFailed, stepPatched, { type: 'report.dismiss' }]);
      expect(closed.s.value).toEqual({ ready: 'idle' });
      expect(closed.s.context.bulk).toBeNull();
      expect(closed.s.context.selected).toEqual([2]);
    });
    it('stopping a bulk run lets the running row finish and runs no more', () => {
      const { s, steps } = journey([...bulkOfThree, { type: 'confirm.accept' }, stepPatched, { type: 'bulk.cancel' }, stepPatched]);
      expect(s.value).toEqual({ ready: 'bulkReport' });
      expect(selectBulkReport(like(s))).toMatchObject({ ids: [1, 2, 3], done: 2, cancelled: true, succeeded: [1, 2] });
      expect(startedInputs(steps, 'runBulkStep')).toHaveLength(2);
    });
    it('exports the selected rows in the order shown, with the format asked', () => {
      const { s, steps } = journey([...firstPage, { type: 'sort.toggle', key: 'quota' }, select(1), select(3), { type: 'selection.export', format: 'download' }]);
      expect(s.value).toEqual({ ready: 'exporting' });
      expect(startedInputs(steps, 'exportRows')).toEqual([{ format: 'download', rows: [byId(3), byId(1)] }]);
      const done = journey([...firstPage, select(1), { type: 'selection.export', format: 'copy' }, exported]);
      expect(done.s.value).toEqual({ ready: 'idle' });
      expect(notesOf(done.steps)).toEqual([{ type: 'notify', level: 'success', message: copied }]);
      expect(journey([...firstPage, { type: 'selection.export', format: 'copy' }]).s.value).toEqual({ ready: 'idle' });
    });
  });

  describe('the address round trip', () => {
    it('a page, size and sort read from the address load enough pages to show that page', () => {
      const url = '?sort=quota&dir=desc&size=2&page=3';
      const query = parse(url);
      const { s, steps } = journey([fullPage('', 0), fullPage('', 1)], query);
      expect(s.value).toEqual({ ready: 'idle' });
      expect(s.context.query).toEqual(query);
      expect(ids(selectPageRows(like(s)))).toEqual([2, 4]);
      expect(startedInputs(steps, 'fetchPage')).toHaveLength(2);
      expect(formatTableQuery(queriesOf(steps).at(-1)!)).toBe(url);
    });
    it('filters read from the address load until the page fills', () => {
      const url = '?f.group=vip&sort=name&size=2&page=2';
      const query = parse(url);
      const { s, steps } = journey([fullPage('', 0), fullPage('', 1), shortPage('')], query);
      expect(ids(selectPageRows(like(s)))).toEqual([5, 7]);
      expect(formatTableQuery(queriesOf(steps).at(-1)!)).toBe(url);
    });
    it('a page beyond the list settles on its last page', () => {
      const { s, steps } = journey([fullPage('', 0), fullPage('', 1), shortPage('')], parse('?size=2&page=9'));
      expect(s.context.query.page).toBe(3);
      expect(formatTableQuery(queriesOf(steps).at(-1)!)).toBe('?size=2&page=4');
    });
    it('a keyword read from the address searches', () => {
      const { s, steps } = journey([searchDone('ch', 'quota')], parse('?q=ch&order=quota'));
      expect(startedInputs(steps, 'searchRows')).toEqual([{ keyword: 'ch', order: 'quota' }]);
      expect(s.context.draft).toBe('ch');
      expect(formatTableQuery(queriesOf(steps).at(-1)!)).toBe('?q=ch&order=quota');
    });
    it('params.set reloads from server page 0 with the parameters, kept in the address', () => {
      const go = (page: number) => ({ type: 'page.go', page });
      const vip = { group: 'vip' };
      const set = { type: 'params.set', params: { group: ' vip ', empty: ' ' } };
      const { s, steps } = journey([...firstPage, go(1), fullPage('', 1), set, fetchDone(serverPage('', 0, vip)), go(1), fetchDone(serverPage('', 1, vip))]);
      expect(s.value).toEqual({ ready: 'idle' });
      expect(s.context.query.params).toEqual(vip);
      expect(ids(s.context.rows)).toEqual([2, 3, 5, 7]);
      expect(s.context.exhausted).toBe(true);
      expect(startedInputs(steps, 'fetchPage')).toEqual([
        { page: 0, order: '' },
        { page: 1, order: '' },
        { page: 0, order: '', params: vip },
        { page: 1, order: '', params: vip },
      ]);
      expect(formatTableQuery(queriesOf(steps).at(-1)!)).toBe('?p.group=vip&size=3&page=2');
      expect(parseWithParams(formatTableQuery(s.context.query))).toEqual(s.context.query);
      // the same parameters again reload (the apply button refreshes); none clears them
      const again = journey([...firstPage, set, fetchDone(serverPage('', 0, vip)), set]);
      expect(again.s.value).toBe('loading');
      expect(startedInputs(again.steps, 'fetchPage').at(-1)).toEqual({ page: 0, order: '', params: vip });
      const cleared = journey([...firstPage, set, fetchDone(serverPage('', 0, vip)), { type: 'params.set', params: {} }, fullPage('', 0)]);
      expect(cleared.s.context.query.params).toEqual({});
      expect(formatTableQuery(cleared.s.context.query)).toBe('?size=3');
    });
    it('params.set from a failed load tries again with the parameters; the address carries them back', () => {
      const failed = journey([fetchFailed, { type: 'params.set', params: { group: 'svip' } }]);
      expect(failed.s.value).toBe('loading');
      expect(startedInputs(failed.steps, 'fetchPage').at(-1)).toEqual({ page: 0, order: '', params: { group: 'svip' } });
      const fromAddress = journey([fetchDone(serverPage('', 0, { group: 'svip' }))], parseWithParams('?size=3&p.group=svip'));
      expect(startedInputs(fromAddress.steps, 'fetchPage')).toEqual([{ page: 0, order: '', params: { group: 'svip' } }]);
      expect(ids(fromAddress.s.context.rows)).toEqual([4]);
      // a query.set whose parameters differ reloads; the same ones do not
      const back = { type: 'query.set', query: parseWithParams('?size=3') };
      const reloaded = journey([...fromAddress.steps.slice(1).map((st) => st.event), back], parseWithParams('?size=3&p.group=svip'));
      expect(reloaded.s.value).toBe('loading');
      const same = { type: 'query.set', query: parseWithParams('?size=3&p.group=svip&sort=name') };
      const local = journey([...fromAddress.steps.slice(1).map((st) => st.event), same], parseWithParams('?size=3&p.group=svip'));
      expect(local.s.value).toEqual({ ready: 'idle' });
    });
    it('fixed base parameters go into every fetch under the query parameters', () => {
      const [first, actions] = initialTransition(machine, { query: parseWithParams('?p.group=vip'), baseParams: { scope: 'self', group: 'x' } });
      expect(first.value).toBe('loading');
      const started = actions.filter((a) => a.type === 'xstate.spawnChild').map((a) => (a.params as unknown as { input: unknown }).input);
      expect(started).toEqual([{ page: 0, order: '', params: { scope: 'self', group: 'vip' } }]);
    });
    it('query.set from the address applies sort, filters and page without a fetch when the rows are loaded', () => {
      const set = { type: 'query.set', query: parse('?size=3&page=2&sort=name&f.group=vip') };
      const { s, steps } = journey([...firstPage, { type: 'page.go', page: 1 }, fullPage('', 1), set, shortPage('')]);
      expect(s.context.query).toEqual(set.query);
      expect(ids(selectPageRows(like(s)))).toEqual([7]);
      expect(startedInputs(steps, 'fetchPage')).toHaveLength(3);
    });
  });

  describe('replay on a real actor with stub actors', () => {
    /** Stub actors keyed by actor id: each call stays pending until the test settles it. */
    function stubs() {
      const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
      const calls: { id: string; input: unknown }[] = [];
      const logic = <O, I>() =>
        fromPromise<O, I>(({ input, self }) => {
          calls.push({ id: self.id, input });
          return new Promise<O>((resolve, reject) => {
            pending.set(self.id, { resolve: resolve as (v: unknown) => void, reject });
          });
        });
      return {
        pending,
        calls,
        actors: {
          fetchPage: logic<readonly Row[], FetchPageInput>(),
          searchRows: logic<readonly Row[], SearchRowsInput>(),
          runRowAction: logic<RowActionOutcome<Row>, RowActionInput<Row>>(),
          exportRows: logic<Message | null, ExportRowsInput<Row>>(),
        },
      };
    }
    /**
     * Plays the events on a started actor through the shared replay, settling the stub of each
     * answer by actor id (row actions run side by side, one actor per row); compares each step
     * with the pure journey, then what was emitted and started.
     */
    async function replay(events: readonly AnyEventObject[], query: TableQuery = start) {
      const expected = journey(events, query);
      const stub = stubs();
      // the initial step lets the actor settle after starting, as every later step does
      const played = [{ type: 'xstate.init' }, ...events];
      const play = (e: AnyEventObject): boolean => {
        const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(e.type);
        if (!answer) return false;
        const call = stub.pending.get(answer[2]!);
        expect(call, `${answer[2]} runs before ${e.type}`).toBeDefined();
        stub.pending.delete(answer[2]!);
        if (answer[1] === 'done') call!.resolve((e as { output?: unknown }).output);
        else call!.reject((e as { error?: unknown }).error);
        return true;
      };
      const { snapshot, emitted } = await replayOn({ machine: machine.provide({ actors: stub.actors }), input: { query }, play }, played, (i, s) => {
        const want = expected.steps[i]!.snapshot;
        expect(s.value, `value after ${describePath({ steps: played.slice(1, i + 1).map((ev) => ({ event: ev })) })}`).toEqual(want.value);
        expect(s.context).toEqual(want.context);
      });
      expect(emitted).toEqual(expected.steps.flatMap((st) => st.emitted));
      expect(stub.calls).toEqual(expected.steps.flatMap((st) => st.started));
      return { snapshot, emitted, calls: stub.calls };
    }

    const go = (page: number) => ({ type: 'page.go', page });
    const select = (id: number) => ({ type: 'row.select', id });
    const chosen: Record<string, { events: AnyEventObject[]; query?: TableQuery }> = {
      'three pages forward': { events: [...firstPage, go(1), fullPage('', 1), go(2), shortPage(''), go(0)] },
      'sort, order, search and back': {
        events: [
          ...firstPage,
          { type: 'sort.toggle', key: 'quota' },
          { type: 'order.change', order: 'quota' },
          fullPage('quota', 0),
          { type: 'search.input', text: ' ch ' },
          { type: 'search.submit' },
          searchDone('ch', 'quota'),
          { type: 'search.clear' },
          fetchFailed,
          { type: 'load.retry' },
          fullPage('quota', 0),
        ],
      },
      'filter and select all matching': {
        events: [...firstPage, { type: 'filter.change', key: 'group', value: 'vip' }, fullPage('', 1), { type: 'selection.allMatching' }, shortPage('')],
      },
      'row actions side by side, one deleted on the last page': {
        events: [
          ...firstPage,
          go(1),
          fullPage('', 1),
          go(2),
          shortPage(''),
          { type: 'row.action', id: 2, action: 'quota', value: '99' },
          { type: 'row.action', id: 7, action: 'delete', confirm: true },
          { type: 'confirm.accept' },
          rowFailed(2),
          rowDone(7, rowDeleted),
        ],
      },
      'bulk run, failure, retry, stop': {
        events: [
          ...firstPage,
          select(1),
          select(2),
          select(3),
          { type: 'bulk.request', action: 'group', value: 'svip' },
          { type: 'confirm.accept' },
          stepPatched,
          stepFailed,
          stepRemoved,
          { type: 'bulk.retry' },
          { type: 'bulk.cancel' },
          stepFailed,
          { type: 'report.dismiss' },
          { type: 'selection.export', format: 'copy' },
          exported,
        ],
      },
      'the address': { events: [fullPage('', 0), fullPage('', 1), shortPage('')], query: parse('?f.group=vip&sort=name&size=2&page=2') },
      'server parameters, paging and a failure': {
        events: [
          ...firstPage,
          { type: 'params.set', params: { group: 'vip' } },
          fetchDone(serverPage('', 0, { group: 'vip' })),
          go(1),
          fetchFailed,
          { type: 'params.set', params: { group: '' } },
          fullPage('', 0),
        ],
      },
    };
    it.each(Object.entries(chosen))('%s', async (_, { events, query }) => {
      await replay(events, query);
    });

    it.each(scenes.map((scene) => [scene.name, scene] as const))('shortest paths of %s', async (_, scene) => {
      const { adj, startKey } = exploredScene(scene);
      // breadth first from the scene's start: the first path to each state value
      const seen = new Map<string, AnyEventObject[]>();
      const queue: [string, AnyEventObject[]][] = [[startKey, []]];
      const visited = new Set([startKey]);
      while (queue.length > 0) {
        const [key, path] = queue.shift()!;
        const value = JSON.stringify(adj.get(key)!.state.value);
        if (!seen.has(value)) seen.set(value, path);
        for (const t of adj.get(key)!.edges) {
          if (visited.has(t.key)) continue;
          visited.add(t.key);
          queue.push([t.key, [...path, t.event]]);
        }
      }
      expect(seen.size).toBeGreaterThan(1);
      for (const path of seen.values()) await replay([...scene.from, ...path], scene.query);
    });
  });
});

/*
 * A table started with the answer of its first fetch (`PrimedTableInput.firstPage`: the page's first
 * load asked for it early): its first snapshot is what the plain start reaches once `fetchPage`
 * answered that page, without a loading snapshot and without asking the server for it again.
 */
describe('a table started with its first page', () => {
  const first = serverPage('', 0);
  /** A started actor whose `fetchPage` records its inputs and never answers. */
  const started = (primed: { readonly query: TableQuery; readonly firstPage?: readonly Row[] }) => {
    const asked: FetchPageInput[] = [];
    const searched: SearchRowsInput[] = [];
    const actor = createActor(
      machine.provide({
        actors: {
          fetchPage: fromPromise<readonly Row[], FetchPageInput>(({ input }) => {
            asked.push(input);
            return new Promise(() => undefined);
          }),
          searchRows: fromPromise<readonly Row[], SearchRowsInput>(({ input }) => {
            searched.push(input);
            return new Promise(() => undefined);
          }),
        },
      }),
      { input: primed },
    );
    const emitted: TableEmitted[] = [];
    actor.on('*', (e) => emitted.push(e));
    const firstSnapshot = actor.getSnapshot();
    actor.start();
    return { actor, firstSnapshot, asked, searched, emitted };
  };

  it('draws the first page from its first snapshot on, and asks nothing for it', () => {
    const { actor, firstSnapshot, asked, emitted } = started({ query: start, firstPage: first });
    expect(firstSnapshot.value).toEqual({ ready: 'idle' });
    expect(firstSnapshot.context.rows).toEqual(first);
    expect(selectPageRows(like(firstSnapshot))).toEqual(first);
    expect(firstSnapshot.context.pagesLoaded).toBe(1);
    expect(firstSnapshot.context.exhausted).toBe(false);
    expect(selectPageCount(like(firstSnapshot))).toBe(2);
    expect(asked).toEqual([]);
    // the address is written as after a load
    expect(emitted).toEqual([{ type: 'query.changed', query: start }]);
    actor.stop();
  });

  it('equals the plain start once fetchPage answered the same page', () => {
    const plain = initialTransition(machine, { query: start })[0];
    const [answered] = transition(machine, plain, doneActor('fetchPage', first) as Event);
    const [primed] = initialTransition(machine, { query: start, firstPage: first });
    expect(primed.value).toEqual(answered.value);
    expect(primed.context).toEqual(answered.context);
  });

  it('a short first page is the whole list', () => {
    const { firstSnapshot, asked } = started({ query: start, firstPage: first.slice(0, 1) });
    expect(firstSnapshot.value).toEqual({ ready: 'idle' });
    expect(firstSnapshot.context.exhausted).toBe(true);
    expect(asked).toEqual([]);
  });

  it('an empty first page draws the empty list', () => {
    const { firstSnapshot, asked } = started({ query: start, firstPage: [] });
    expect(firstSnapshot.value).toEqual({ ready: 'idle' });
    expect(firstSnapshot.context.rows).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('fetches the next pages the address asks for after the first', () => {
    const { firstSnapshot, asked } = started({ query: parse('?size=3&page=2'), firstPage: first });
    expect(firstSnapshot.value).toBe('loading');
    expect(firstSnapshot.context.rows).toEqual(first);
    expect(asked).toEqual([{ page: 1, order: '' }]);
  });

  it('a search in the address starts with the search, and the first page is not used later', () => {
    const { actor, firstSnapshot, asked, searched } = started({ query: parse('?size=3&q=ch'), firstPage: first });
    expect(firstSnapshot.value).toBe('searching');
    expect(firstSnapshot.context.rows).toEqual([]);
    expect(searched).toEqual([{ keyword: 'ch', order: '' }]);
    actor.send(doneActor('searchRows', searchMatches('ch', '')) as Event);
    actor.send({ type: 'search.clear' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(asked).toEqual([{ page: 0, order: '' }]);
    actor.stop();
  });

  it('a reload asks the server again (the first page is used once)', () => {
    const { actor, asked } = started({ query: start, firstPage: first });
    actor.send({ type: 'rows.reload' });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.rows).toEqual([]);
    expect(asked).toEqual([{ page: 0, order: '' }]);
    actor.stop();
  });

  it('without it, starts by loading the first page as always', () => {
    const { actor, firstSnapshot, asked } = started({ query: start });
    expect(firstSnapshot.value).toBe('loading');
    expect(asked).toEqual([{ page: 0, order: '' }]);
    actor.stop();
  });

  it('reaches every state from the primed start too', () => {
    const paths = getShortestPaths(machine, {
      input: { query: start, firstPage: first },
      events: (s: Snap) => [...eventsOf(['page.go', 'rows.reload', 'search.submit', 'search.input', 'load.retry', 'row.select', 'bulk.request', 'confirm.accept', 'bulk.cancel', 'bulk.retry', 'report.dismiss', 'row.action', 'confirm.cancel', 'selection.export']), ...answers(s)],
      serializeState: (s: Snap) => JSON.stringify([s.value, s.context.rows.length, s.context.selected.length, s.context.pending !== null, s.context.bulk?.done ?? null, s.context.query.keyword, s.context.draft]),
      limit: 20000,
    } as never) as unknown as { state: Snap }[];
    expect(unreachedStates(machine, paths as never).join()).toEqual(transient.join());
  });
});
