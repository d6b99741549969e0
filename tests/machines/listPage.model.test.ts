import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, waitFor, type AnyEventObject, type SnapshotFrom } from 'xstate';
import type { Message, NotifyEvent } from '../../src/domain/message';
import type { ExportRowsInput, FetchPageInput, RowActionInput, RowActionOutcome, SearchRowsInput } from '../../src/domain/rowAction';
import { parseTableQuery, type TableQuery } from '../../src/domain/tableQuery';
import type { Redemption } from '../../src/domain/redemption';
import type { Token } from '../../src/domain/token';
import type { KeyCopyMachine } from '../../src/machines/keyCopy';
import type { CopyListPageMachine, ListPageEmitted } from '../../src/machines/listPage';
import { redemptionKeyCopyMachine, redemptionTableMachine } from '../../src/machines/redemptionList';
import { redemptionListPageMachine } from '../../src/machines/redemptionListPage';
import type { TableEmitted, TableMachine, TableRow } from '../../src/machines/table';
import { tokenKeyCopyMachine, tokenQuerySchema, tokenTableMachine } from '../../src/machines/tokenList';
import { tokenListPageMachine } from '../../src/machines/tokenListPage';
import { shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { expectRoutingOnPaths, routedOf, type Routed } from './support/routing';
import { tokenRow } from './support/rows';

/*
 * The list pages whose rows carry keys (src/machines/listPage): the parent invokes the list's
 * table and key copier and routes between them. The graph is one state; what matters is the
 * routing, so every explored step is checked for it (a child's fact becomes exactly one action),
 * and real actors with stub children replay the journeys: a refused copy fills the search box, the
 * children's toasts and the table's query reach the page's listeners.
 */

type Machine = CopyListPageMachine;
type Snap = SnapshotFrom<Machine>;
type Event = Parameters<Machine['transition']>[1];

/** The address bar's view at mount (a page size other than the default, so it is seen to pass). */
const query: TableQuery = { ...parseTableQuery('', tokenQuerySchema), size: 20 };
const input = { query };
const copied = 'sk-'.padEnd(51, 'k');

// ---- the children's facts, relayed to the page (exhaustive: a new event fails to compile) ----

const fixtures: EventFixtures<Machine> = {
  'search.fill': [{ type: 'search.fill', text: copied }],
  notify: [
    { type: 'notify', level: 'warning', message: { key: 'tokens.copyFailed' } },
    { type: 'notify', level: 'success', message: { key: 'tokens.copied' } },
  ],
  'query.changed': [{ type: 'query.changed', query: { ...query, keyword: 'chat' } }],
};


/** What the page must do with each fact: one action, to the right place. */
function expectedRouting(snapshot: Snap, event: AnyEventObject): Routed[] {
  if (event.type === 'search.fill') return [{ kind: 'send', to: snapshot.children.table, event: { type: 'search.input', text: (event as unknown as { text: string }).text } }];
  if (event.type === 'notify' || event.type === 'query.changed') return [{ kind: 'emit', event }];
  return [];
}

/** The rules every snapshot keeps: the children live for the whole page, the table's start is the address bar's. */
function check(s: Snap, where: string): void {
  expect(s.matches('active'), where).toBe(true);
  expect(s.status, where).toBe('active');
  expect(Object.keys(s.children).sort(), where).toEqual(['keyCopy', 'relayEmitted', 'table']);
  expect(s.context.tableInput, where).toEqual(input);
}

const pages = [
  { name: 'tokenListPage', machine: tokenListPageMachine as unknown as Machine },
  { name: 'redemptionListPage', machine: redemptionListPageMachine as unknown as Machine },
];

describe.each(pages)('$name model', ({ machine }) => {
  const opts = { fixtures, input };

  it('reaches every state', () => {
    const paths = shortestPaths(machine, opts);
    expect(unreachedStates(machine, paths)).toEqual([]);
  });

  it('starts its children: the table from the address bar, the copier, and the relay of both', () => {
    const [s, actions] = initialTransition(machine, input);
    check(s, 'initial');
    const spawned = actions.filter((a) => a.type === 'xstate.spawnChild').map((a) => (a.params as { id: string; src: unknown }).id);
    expect(spawned).toEqual(['table', 'keyCopy', 'relayEmitted']);
  });

  it('keeps its rules and routes every fact on every step of its paths', () => {
    const paths = simplePaths(machine, { ...opts, serializeState: (s) => JSON.stringify([s.value, s.context]) });
    expect(paths.length).toBeGreaterThan(0);
    expectRoutingOnPaths(machine, input, paths, { check, expected: expectedRouting });
  });

  it('pins the routing of a refused copy: the copied text goes to the table as the search draft', () => {
    const [s] = initialTransition(machine, input);
    const [, actions] = transition(machine, s, { type: 'search.fill', text: copied });
    expect(routedOf(actions)).toEqual([{ kind: 'send', to: s.children.table, event: { type: 'search.input', text: copied } }]);
  });

  it('ignores what is no fact of its children', () => {
    const [s] = initialTransition(machine, input);
    const [next, actions] = transition(machine, s, { type: 'copy.request', text: copied } as unknown as Event);
    expect(routedOf(actions)).toEqual([]);
    expect(next.context).toEqual(s.context);
  });
});

// ---- real actors: the page with stub children ----

const token = (id: number, name: string): Token => tokenRow(id, name);
const code = (id: number, name: string): Redemption => ({
  id,
  name,
  key: `c${id}`.padEnd(32, 'y'),
  status: 1,
  quota: 100000,
  created_time: 1_763_000_000 + id,
  redeemed_time: 0,
});

interface JourneyCase<Row extends TableRow> {
  readonly name: string;
  readonly page: CopyListPageMachine<Row>;
  readonly table: TableMachine<Row>;
  readonly keyCopy: KeyCopyMachine;
  readonly server: readonly Row[];
  readonly copiedMessage: string;
  readonly copyFailedMessage: string;
}

function journeys<Row extends TableRow & { readonly name: string }>(c: JourneyCase<Row>): void {
  const table = c.table.provide({
    actors: {
      fetchPage: fromPromise<readonly Row[], FetchPageInput>(({ input: i }) => Promise.resolve(i.page === 0 ? c.server : [])),
      searchRows: fromPromise<readonly Row[], SearchRowsInput>(({ input: i }) => Promise.resolve(c.server.filter((r) => r.name.startsWith(i.keyword)))),
      runRowAction: fromPromise<RowActionOutcome<Row>, RowActionInput<Row>>(() => Promise.resolve({ removed: true })),
      exportRows: fromPromise<Message | null, ExportRowsInput<Row>>(() => Promise.resolve(null)),
    },
  });
  const keyCopy = (clipboard: 'grants' | 'refuses', written: string[]) =>
    c.keyCopy.provide({
      actors: {
        copyText: fromPromise<void, { readonly text: string }>(async ({ input: i }) => {
          await Promise.resolve();
          if (clipboard === 'refuses') throw new Error('NotAllowedError');
          written.push(i.text);
        }),
      },
    });

  function startPage(clipboard: 'grants' | 'refuses') {
    const written: string[] = [];
    const page = createActor((c.page as unknown as Machine).provide({ actors: { table: table as never, keyCopy: keyCopy(clipboard, written) } }), { input });
    const emitted: ListPageEmitted[] = [];
    page.on('*', (e) => emitted.push(e));
    page.start();
    const children = page.getSnapshot().children;
    return { page, table: children.table!, keyCopy: children.keyCopy!, emitted, written };
  }
  const notices = (emitted: readonly ListPageEmitted[]): NotifyEvent[] => emitted.filter((e): e is NotifyEvent => e.type === 'notify');
  const first = c.server[0]!;

  describe(`${c.name} journeys (real actors, stub children)`, () => {
    it('the clipboard refuses: the warning leaves the page, the key lands in the search box, the address bar does not change', async () => {
      const { page, table: t, keyCopy: k, emitted } = startPage('refuses');
      await waitFor(t, (s) => s.matches('ready'));
      k.send({ type: 'copy.request', text: copied });
      await waitFor(t, (s) => s.context.draft === copied);
      expect(notices(emitted)).toEqual([{ type: 'notify', level: 'warning', message: { key: c.copyFailedMessage } }]);
      // the draft is not submitted: no search runs and the query (the URL) keeps no key
      expect(t.getSnapshot().context.query.keyword).toBe('');
      expect(JSON.stringify(emitted.filter((e) => e.type === 'query.changed'))).not.toContain(copied);
      page.stop();
    });

    it('the clipboard grants: the success toast leaves the page without the key, the search box stays empty', async () => {
      const { page, table: t, keyCopy: k, emitted, written } = startPage('grants');
      await waitFor(t, (s) => s.matches('ready'));
      k.send({ type: 'copy.request', text: copied });
      await waitFor(k, (s) => !s.hasTag('busy'));
      expect(written).toEqual([copied]);
      expect(notices(emitted)).toEqual([{ type: 'notify', level: 'success', message: { key: c.copiedMessage } }]);
      expect(JSON.stringify(emitted)).not.toContain(copied);
      expect(t.getSnapshot().context.draft).toBe('');
      page.stop();
    });

    it("a search the person submits leaves the page as query.changed (the address bar's)", async () => {
      const { page, table: t, emitted } = startPage('grants');
      await waitFor(t, (s) => s.matches('ready'));
      t.send({ type: 'search.input', text: first.name });
      t.send({ type: 'search.submit' });
      await waitFor(t, (s) => s.matches('ready') && s.context.rows.length === 1);
      const last = emitted.filter((e): e is Extract<TableEmitted, { type: 'query.changed' }> => e.type === 'query.changed').at(-1);
      expect(last?.query.keyword).toBe(first.name);
      // the table started from the address bar's view the page was given
      expect(last?.query.size).toBe(20);
      page.stop();
    });

    it('a refusal while the table is still loading fills the box too, and the load still lands', async () => {
      const { page, table: t, keyCopy: k } = startPage('refuses');
      k.send({ type: 'copy.request', text: copied });
      await waitFor(t, (s) => s.context.draft === copied && s.matches('ready'));
      expect(t.getSnapshot().context.rows.map((r) => r.id)).toEqual(c.server.map((r) => r.id));
      page.stop();
    });

    it('a stopped page stops its children and their relay', async () => {
      const { page, table: t, keyCopy: k } = startPage('refuses');
      await waitFor(t, (s) => s.matches('ready'));
      const relay = page.getSnapshot().children.relayEmitted!;
      page.stop();
      for (const child of [t, k, relay]) expect(child.getSnapshot().status).toBe('stopped');
    });
  });
}

journeys<Token>({
  name: 'tokenListPage',
  page: tokenListPageMachine,
  table: tokenTableMachine,
  keyCopy: tokenKeyCopyMachine,
  server: [token(2, 'chat'), token(1, 'batch')],
  copiedMessage: 'tokens.copied',
  copyFailedMessage: 'tokens.copyFailed',
});
journeys<Redemption>({
  name: 'redemptionListPage',
  page: redemptionListPageMachine,
  table: redemptionTableMachine,
  keyCopy: redemptionKeyCopyMachine,
  server: [code(2, 'spring'), code(1, 'autumn')],
  copiedMessage: 'redemptions.copied',
  copyFailedMessage: 'redemptions.copyFailed',
});
