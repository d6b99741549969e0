import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { getShortestPaths, getSimplePaths } from 'xstate/graph';
import { failure, networkError } from '../../src/domain/apiError';
import { copyText } from '../../src/domain/chatLinks';
import { tokenStatusDisabled, tokenStatusEnabled } from '../../src/domain/constants';
import type { Message } from '../../src/domain/message';
import { parseTableQuery, type TableQuery } from '../../src/domain/tableQuery';
import type { Token } from '../../src/domain/token';
import { isMessageKey } from '../../src/i18n';
import type { KeyCopyEmitted } from '../../src/machines/keyCopy';
import { rowActorId, type ExportRowsInput, type FetchPageInput, type RowActionInput, type RowActionOutcome, type SearchRowsInput, type TableEmitted } from '../../src/machines/table';
import {
  selectBulkReport,
  selectIsCopying,
  selectPageRows,
  selectPendingRowAction,
  tokenActions,
  tokenKeyCopyMachine,
  tokenQuerySchema,
  tokenTableMachine,
} from '../../src/machines/tokenList';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { tokenRow } from './support/rows';

/*
 * The token list (one instance of the table machine) against a simulated token server of three
 * tokens (one server page, so the list is complete after the first fetch): the three server
 * orders, the search by name, toggling (the answer replaces the row), delete after a
 * confirmation, bulk disable; and the token key copier.
 */

const machine = tokenTableMachine;
type Snap = SnapshotFrom<typeof machine>;
type Event = Parameters<typeof machine.transition>[1];

const token = tokenRow;
const server: readonly Token[] = [
  token(3, 'gamma', { remain_quota: 100, used_quota: 900 }),
  token(2, 'beta', { status: tokenStatusDisabled, unlimited_quota: true, used_quota: 50 }),
  token(1, 'alpha', { remain_quota: 9000, used_quota: 10 }),
];
const tokenOrders = ['', 'remain_quota', 'used_quota'];

/** one-api's orders (contract §1.8): id desc, unlimited then remain_quota desc, used_quota desc. */
const listed = (order: string): readonly Token[] => {
  const rows = [...server];
  if (order === 'remain_quota') return rows.sort((a, b) => Number(b.unlimited_quota) - Number(a.unlimited_quota) || b.remain_quota - a.remain_quota);
  if (order === 'used_quota') return rows.sort((a, b) => b.used_quota - a.used_quota);
  return rows;
};
const start: TableQuery = parseTableQuery('', tokenQuerySchema);
const input = { query: start };

// ---- the person's events (exhaustive: a new table event fails to compile until it has one) ----

const fixtures: EventFixtures<typeof machine> = {
  'page.go': [{ type: 'page.go', page: 1 }],
  'page.size': [{ type: 'page.size', size: 20 }],
  'sort.toggle': [{ type: 'sort.toggle', key: 'used_quota' }],
  'order.change': [
    { type: 'order.change', order: 'remain_quota' },
    { type: 'order.change', order: 'used_quota' },
  ],
  'search.input': [{ type: 'search.input', text: ' al ' }],
  'search.submit': [{ type: 'search.submit' }],
  'search.clear': [{ type: 'search.clear' }],
  'filter.change': [{ type: 'filter.change', key: 'status', value: '1' }],
  'rows.reload': [{ type: 'rows.reload' }],
  'load.retry': [{ type: 'load.retry' }],
  'query.set': [{ type: 'query.set', query: parseTableQuery('?order=used_quota', tokenQuerySchema) }],
  'params.set': [{ type: 'params.set', params: {} }],
  'row.select': [{ type: 'row.select', id: 3 }],
  'selection.page': [{ type: 'selection.page' }],
  'selection.allMatching': [{ type: 'selection.allMatching' }],
  'selection.clear': [{ type: 'selection.clear' }],
  'row.action': [
    { type: 'row.action', id: 3, action: tokenActions.toggle },
    { type: 'row.action', id: 2, action: tokenActions.delete, confirm: true },
    { type: 'row.action', id: 1, action: tokenActions.test },
  ],
  'row.patch': [{ type: 'row.patch', id: 1, patch: { name: 'renamed' } }],
  'confirm.accept': [{ type: 'confirm.accept' }],
  'confirm.cancel': [{ type: 'confirm.cancel' }],
  'bulk.request': [{ type: 'bulk.request', action: tokenActions.disable }],
  'bulk.cancel': [{ type: 'bulk.cancel' }],
  'bulk.retry': [{ type: 'bulk.retry' }],
  'report.dismiss': [{ type: 'report.dismiss' }],
  'selection.export': [{ type: 'selection.export', format: 'copy' }],
};
type EventType = keyof typeof fixtures;

// ---- what the simulated server answers in a snapshot ----

const toggled = (row: Token): Token => ({ ...row, status: row.status === tokenStatusEnabled ? tokenStatusDisabled : tokenStatusEnabled });
const fetchFailed = errorActor('fetchPage', networkError('GET /api/token/', 'connect ECONNREFUSED'));
const refusedMessage = '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期';
const refusedEnable = failure('PUT /api/token/', '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期');

/** The token test's answers: the relay's reply (the row unchanged), or its refusal of the key. */
const testPassed = (row: Token): Message => ({
  key: 'tokens.test.success',
  params: { name: row.name, model: 'gpt-4o-mini', seconds: '0.42', reply: 'pong' },
});
const relayRefusalMessage = '该令牌状态不可用 (request id: 202611240912001)';
const relayRefusal = failure('GET /v1/models', relayRefusalMessage);

function answers(s: Snap): AnyEventObject[] {
  const c = s.context;
  const out: AnyEventObject[] = [];
  if (s.matches('loading')) out.push(doneActor('fetchPage', c.pagesLoaded === 0 ? listed(c.query.order) : []), fetchFailed);
  if (s.matches('searching')) out.push(doneActor('searchRows', listed(c.query.order).filter((r) => r.name.startsWith(c.query.keyword))));
  if (s.matches({ ready: { bulkRunning: 'running' } })) {
    const bulk = c.bulk!;
    const row = c.rows.find((r) => r.id === bulk.ids[bulk.done])!;
    out.push(doneActor('runBulkStep', { row: { ...row, status: tokenStatusDisabled } } satisfies RowActionOutcome<Token>));
    out.push(errorActor('runBulkStep', refusedEnable));
  }
  if (s.matches({ ready: 'exporting' })) out.push(doneActor('exportRows', null));
  for (const id of Object.keys(c.busy).map(Number)) {
    // a reload may have replaced the rows meanwhile: the server still has the token
    const row = c.rows.find((r) => r.id === id) ?? server.find((r) => r.id === id)!;
    if (c.busy[id] === tokenActions.test) {
      out.push(doneActor(rowActorId(id), { message: testPassed(row) } satisfies RowActionOutcome<Token>), errorActor(rowActorId(id), relayRefusal));
      continue;
    }
    const outcome: RowActionOutcome<Token> = c.busy[id] === 'delete' ? { removed: true, message: { key: 'common.success' } } : { row: toggled(row), message: { key: 'common.success' } };
    out.push(doneActor(rowActorId(id), outcome), errorActor(rowActorId(id), refusedEnable));
  }
  return out;
}

const eventsOf = (types: readonly EventType[]): Event[] => types.flatMap((t) => fixtures[t] as readonly Event[]);

/** What the list does: the explored events of the person (a bounded subset). */
const explored = [
  ...eventsOf(['row.action', 'confirm.accept', 'confirm.cancel', 'row.select', 'bulk.request', 'report.dismiss', 'search.input', 'search.submit', 'load.retry']),
  fixtures['order.change'][0]!,
];
const coarse = (s: Snap) =>
  JSON.stringify([s.value, s.context.rows.map((r) => [r.id, r.status]), s.context.query.order, s.context.query.keyword, s.context.draft, s.context.busy, s.context.selected, s.context.pending, s.context.bulk]);

type Path = { state: Snap; steps: { state: Snap; event: AnyEventObject }[] };
const traverse = (events: readonly Event[], limit: number) => ({
  input,
  events: (s: Snap) => [...events, ...answers(s)],
  serializeState: coarse,
  limit,
});

type ActionLike = readonly { readonly type: string; readonly params?: unknown }[];
const emittedOf = (actions: ActionLike) => actions.filter((a) => a.type === 'xstate.emit').map((a) => (a.params as { event: TableEmitted }).event);

function journey(events: readonly AnyEventObject[]): { s: Snap; emitted: TableEmitted[]; fetches: FetchPageInput[] } {
  let [s, actions] = initialTransition(machine, input);
  const emitted: TableEmitted[] = [...emittedOf(actions)];
  const fetches: FetchPageInput[] = [];
  const noteFetch = (acts: ActionLike) => {
    for (const a of acts) {
      const p = a.params as { src?: string; input?: FetchPageInput } | undefined;
      if (a.type === 'xstate.spawnChild' && p?.src === 'fetchPage' && p.input) fetches.push(p.input);
    }
  };
  noteFetch(actions);
  for (const e of events) {
    [s, actions] = transition(machine, s, e as Event);
    emitted.push(...emittedOf(actions));
    noteFetch(actions);
  }
  return { s, emitted, fetches };
}
const loaded = doneActor('fetchPage', listed(''));

/** The rules every snapshot keeps. */
function check(s: Snap, where: string): void {
  const c = s.context;
  // the order is always one of the server's three
  expect(tokenOrders, where).toContain(c.query.order);
  // rows come from the server: at most the three tokens, each once, toggles only between 1 and 2
  expect(c.rows.length, where).toBeLessThanOrEqual(server.length);
  expect(new Set(c.rows.map((r) => r.id)).size, where).toBe(c.rows.length);
  for (const r of c.rows) expect([tokenStatusEnabled, tokenStatusDisabled], where).toContain(r.status);
  // a busy row is a server token; a pending delete only while confirming
  for (const id of Object.keys(c.busy)) expect(server.some((r) => r.id === Number(id)), where).toBe(true);
  expect(selectPendingRowAction(s) !== null, where).toBe(s.matches({ ready: 'confirmingRow' }));
  expect(selectBulkReport(s) !== null, where).toBe(s.matches({ ready: 'bulkReport' }));
  // the view pages over loaded rows only
  expect(selectPageRows(s).length, where).toBeLessThanOrEqual(c.query.size);
  // loading is a tag of the two fetching states
  expect(s.hasTag('loading'), where).toBe(s.matches('loading') || s.matches('searching'));
}

describe('tokenTable model', () => {
  it('reaches every state (starting, choosing, checking and bulkRunning.next are transient)', () => {
    const own: Event[] = Object.values(fixtures as Record<string, readonly Event[]>).flat();
    // coarse: which condition the list is in, not which rows it holds
    const reach = (s: Snap) =>
      JSON.stringify([s.value, s.context.rows.length, s.context.selected.length > 0, Object.keys(s.context.busy).length, s.context.query.keyword !== '', s.context.draft !== '', s.context.bulk?.done]);
    const paths = getShortestPaths(machine, { ...traverse(own, 20000), serializeState: reach } as never) as unknown as Path[];
    expect(unreachedStates(machine, paths as never)).toEqual(['starting', 'choosing', 'checking', 'ready.bulkRunning.next']);
  });

  it('keeps its invariants on every snapshot of bounded simple paths', () => {
    // depth-first over simple paths (no snapshot twice on a path) up to 5 steps from the start
    const maxDepth = 5;
    let snapshots = 0;
    const walk = (s: Snap, seen: ReadonlySet<string>, trail: readonly string[]) => {
      check(s, trail.join(' → '));
      snapshots += 1;
      if (trail.length >= maxDepth) return;
      for (const e of [...explored, ...answers(s)]) {
        const [next] = transition(machine, s, e as Event);
        const key = coarse(next);
        if (seen.has(key)) continue;
        walk(next, new Set([...seen, key]), [...trail, e.type]);
      }
    };
    const [first] = initialTransition(machine, input);
    walk(first, new Set([coarse(first)]), []);
    expect(snapshots).toBeGreaterThan(200);
    // and the simple paths xstate/graph finds in a small slice (toggle and its answers)
    const paths = getSimplePaths(machine, traverse(eventsOf(['row.action']).slice(0, 1), 2000) as never) as unknown as Path[];
    expect(paths.length).toBeGreaterThan(3);
    for (const p of paths) for (const st of [p.state, ...p.steps.map((x) => x.state)]) check(st, describePath(p));
  });

  it('journey: the list loads, sorted by used quota on the server, then by remaining quota', () => {
    const first = journey([loaded]);
    expect(first.fetches).toEqual([{ page: 0, order: '' }]);
    expect(first.s.matches({ ready: 'idle' })).toBe(true);
    expect(selectPageRows(first.s).map((r) => r.name)).toEqual(['gamma', 'beta', 'alpha']);

    const byUsed = journey([loaded, { type: 'order.change', order: 'used_quota' }, doneActor('fetchPage', listed('used_quota'))]);
    expect(byUsed.fetches.at(-1)).toEqual({ page: 0, order: 'used_quota' });
    expect(selectPageRows(byUsed.s).map((r) => r.name)).toEqual(['gamma', 'beta', 'alpha']);
    const byRemain = journey([loaded, { type: 'order.change', order: 'remain_quota' }, doneActor('fetchPage', listed('remain_quota'))]);
    // unlimited first, then remaining quota descending
    expect(selectPageRows(byRemain.s).map((r) => r.name)).toEqual(['beta', 'alpha', 'gamma']);
    expect(byRemain.emitted.filter((e) => e.type === 'query.changed').at(-1)).toMatchObject({ query: { order: 'remain_quota' } });
  });

  it('journey: search by name (trimmed)', () => {
    const { s } = journey([loaded, { type: 'search.input', text: ' al ' }, { type: 'search.submit' }, doneActor('searchRows', [server[2]])]);
    expect(s.context.query.keyword).toBe('al');
    expect(selectPageRows(s).map((r) => r.name)).toEqual(['alpha']);
  });

  it('journey: toggle replaces the row with the answer; a refusal keeps it and says the server message', () => {
    const t = journey([loaded, { type: 'row.action', id: 3, action: 'toggle' }]);
    expect(t.s.context.busy).toEqual({ 3: 'toggle' });
    const done = journey([loaded, { type: 'row.action', id: 3, action: 'toggle' }, doneActor(rowActorId(3), { row: toggled(server[0]!), message: { key: 'common.success' } })]);
    expect(done.s.context.rows.find((r) => r.id === 3)?.status).toBe(tokenStatusDisabled);
    expect(done.emitted).toContainEqual({ type: 'notify', level: 'success', message: { key: 'common.success' } });
    const refused = journey([loaded, { type: 'row.action', id: 2, action: 'toggle' }, errorActor(rowActorId(2), refusedEnable)]);
    expect(refused.s.context.rows.find((r) => r.id === 2)?.status).toBe(tokenStatusDisabled);
    expect(refused.emitted).toContainEqual({ type: 'notify', level: 'error', message: { text: refusedMessage } });
  });

  it("journey: test keeps the row busy, then says the relay's reply or its refusal; the row is unchanged", () => {
    const testing = journey([loaded, { type: 'row.action', id: 1, action: tokenActions.test }]);
    expect(testing.s.context.busy).toEqual({ 1: 'test' });
    const passed = journey([loaded, { type: 'row.action', id: 1, action: 'test' }, doneActor(rowActorId(1), { message: testPassed(server[2]!) })]);
    expect(passed.s.context.busy).toEqual({});
    expect(passed.s.context.rows).toEqual(server);
    expect(passed.emitted).toContainEqual({ type: 'notify', level: 'success', message: testPassed(server[2]!) });
    const refused = journey([loaded, { type: 'row.action', id: 1, action: 'test' }, errorActor(rowActorId(1), relayRefusal)]);
    expect(refused.s.context.busy).toEqual({});
    expect(refused.s.context.rows).toEqual(server);
    expect(refused.emitted).toContainEqual({ type: 'notify', level: 'error', message: { text: relayRefusalMessage } });
    // the success message is in the catalogue
    expect(isMessageKey('tokens.test.success')).toBe(true);
  });

  it('journey: delete waits for the confirmation; cancel keeps the row, accept removes it', () => {
    const asked = journey([loaded, { type: 'row.action', id: 2, action: 'delete', confirm: true }]);
    expect(selectPendingRowAction(asked.s)).toEqual({ id: 2, action: 'delete', value: '' });
    const kept = journey([loaded, { type: 'row.action', id: 2, action: 'delete', confirm: true }, { type: 'confirm.cancel' }]);
    expect(kept.s.context.rows).toHaveLength(3);
    const removed = journey([
      loaded,
      { type: 'row.action', id: 2, action: 'delete', confirm: true },
      { type: 'confirm.accept' },
      doneActor(rowActorId(2), { removed: true, message: { key: 'common.success' } }),
    ]);
    expect(removed.s.context.rows.map((r) => r.id)).toEqual([3, 1]);
  });

  it('journey: bulk disable of the selection, one failure kept for the report', () => {
    const { s } = journey([
      loaded,
      { type: 'row.select', id: 3 },
      { type: 'row.select', id: 1 },
      { type: 'bulk.request', action: 'disable' },
      { type: 'confirm.accept' },
      doneActor('runBulkStep', { row: { ...server[0]!, status: tokenStatusDisabled } }),
      errorActor('runBulkStep', refusedEnable),
    ]);
    const report = selectBulkReport(s)!;
    expect(report.succeeded).toEqual([3]);
    expect(report.failures).toEqual([{ id: 1, message: { text: refusedMessage } }]);
  });

  it('replays toggle and delete on a real actor with stub actors', async () => {
    let rows = [...server];
    const actor = createActor(
      tokenTableMachine.provide({
        actors: {
          fetchPage: fromPromise<readonly Token[], FetchPageInput>(({ input: i }) => Promise.resolve(i.page === 0 ? listed(i.order) : [])),
          searchRows: fromPromise<readonly Token[], SearchRowsInput>(({ input: i }) => Promise.resolve(rows.filter((r) => r.name.startsWith(i.keyword)))),
          runRowAction: fromPromise<RowActionOutcome<Token>, RowActionInput<Token>>(({ input: i }) => {
            if (i.action === 'test') return Promise.resolve({ message: testPassed(i.row) });
            if (i.action === 'delete') {
              rows = rows.filter((r) => r.id !== i.row.id);
              return Promise.resolve({ removed: true });
            }
            return Promise.resolve({ row: toggled(i.row) });
          }),
          exportRows: fromPromise<Message | null, ExportRowsInput<Token>>(() => Promise.resolve(null)),
        },
      }),
      { input },
    );
    actor.start();
    await expect.poll(() => actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    actor.send({ type: 'row.action', id: 1, action: 'toggle' });
    await expect.poll(() => actor.getSnapshot().context.rows.find((r) => r.id === 1)?.status).toBe(tokenStatusDisabled);
    const notices: unknown[] = [];
    actor.on('notify', (e) => notices.push(e.message));
    actor.send({ type: 'row.action', id: 3, action: 'test' });
    expect(actor.getSnapshot().context.busy).toEqual({ 3: 'test' });
    await expect.poll(() => actor.getSnapshot().context.busy).toEqual({});
    expect(notices).toEqual([testPassed(server[0]!)]);
    expect(actor.getSnapshot().context.rows.find((r) => r.id === 3)).toEqual(server[0]);
    actor.send({ type: 'row.action', id: 2, action: 'delete', confirm: true });
    actor.send({ type: 'confirm.accept' });
    await expect.poll(() => actor.getSnapshot().context.rows.map((r) => r.id)).toEqual([3, 1]);
    for (const s of [actor.getSnapshot()]) check(s, 'replay');
    actor.stop();
  });
});

// ---------------------------------------------------------------------------------------------

type CopySnap = SnapshotFrom<typeof tokenKeyCopyMachine>;
const sk = copyText('raw', { key: server[0]!.key, serverAddress: 'http://localhost:3000', chatLink: '' });
const nextLink = copyText('next', { key: server[0]!.key, serverAddress: 'http://localhost:3000', chatLink: '' });
const copyFixtures: EventFixtures<typeof tokenKeyCopyMachine> = {
  'copy.request': [
    { type: 'copy.request', text: sk },
    { type: 'copy.request', text: nextLink },
  ],
};
const copied = doneActor('copyText');
const refused = errorActor('copyText', new Error('Write permission denied.'));
const copyModel = { fixtures: copyFixtures, internal: [copied, refused] };

function copyJourney(events: readonly AnyEventObject[]): { snap: CopySnap; emitted: KeyCopyEmitted[] } {
  let [s] = initialTransition(tokenKeyCopyMachine);
  const emitted: KeyCopyEmitted[] = [];
  for (const e of events) {
    const [next, actions] = transition(tokenKeyCopyMachine, s, e as never);
    for (const a of actions) if ((a.type as string) === 'xstate.emit') emitted.push(((a as { params?: unknown }).params as { event: KeyCopyEmitted }).event);
    s = next;
  }
  return { snap: s, emitted };
}

describe('tokenKeyCopy model', () => {
  it('reaches every state', () => {
    expect(unreachedStates(tokenKeyCopyMachine, shortestPaths(tokenKeyCopyMachine, copyModel))).toEqual([]);
  });

  it('keeps its invariants on every simple path: busy while copying, the key never in a toast', () => {
    const paths = simplePaths(tokenKeyCopyMachine, copyModel);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      let s = initialTransition(tokenKeyCopyMachine)[0];
      for (const step of p.steps) {
        const [next, actions] = transition(tokenKeyCopyMachine, s, step.event as never);
        for (const a of actions) {
          const e = (a.params as { event?: KeyCopyEmitted } | undefined)?.event;
          if ((a.type as string) === 'xstate.emit' && e?.type === 'notify') {
            expect(JSON.stringify(e.message)).not.toContain(server[0]!.key);
            if ('key' in e.message) expect(isMessageKey(e.message.key)).toBe(true);
          }
        }
        s = next;
        expect(selectIsCopying(s)).toBe(s.matches('copying'));
        if (s.matches('copying')) expect(s.context.text).not.toBe('');
      }
    }
  });

  it('says the token was copied', () => {
    const { snap, emitted } = copyJourney([copyFixtures['copy.request'][0]!, copied]);
    expect(snap.matches('idle')).toBe(true);
    expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'tokens.copied' } }]);
  });

  it('on a refused clipboard, warns (spec §8) and hands the text to the search box', () => {
    const { emitted } = copyJourney([copyFixtures['copy.request'][1]!, refused]);
    expect(emitted).toEqual([
      { type: 'notify', level: 'warning', message: { key: 'tokens.copyFailed' } },
      { type: 'search.fill', text: nextLink },
    ]);
  });

  it('replays on a real actor: the clipboard receives exactly sk-<key>', async () => {
    const written: string[] = [];
    const actor = createActor(
      tokenKeyCopyMachine.provide({
        actors: {
          copyText: fromPromise<void, { readonly text: string }>(({ input: i }) => {
            written.push(i.text);
            return Promise.resolve();
          }),
        },
      }),
    );
    const emitted: KeyCopyEmitted[] = [];
    actor.on('*', (e) => emitted.push(e));
    actor.start();
    actor.send(copyFixtures['copy.request'][0]!);
    expect(selectIsCopying(actor.getSnapshot())).toBe(true);
    await expect.poll(() => actor.getSnapshot().matches('idle')).toBe(true);
    expect(written).toEqual([`sk-${server[0]!.key}`]);
    expect(emitted.map((e) => e.type)).toEqual(['notify']);
    actor.stop();
  });
});
