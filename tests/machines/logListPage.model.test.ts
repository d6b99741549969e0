import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, waitFor, type AnyEventObject, type SnapshotFrom } from 'xstate';
import type { Log } from '../../src/domain/log';
import type { Message } from '../../src/domain/message';
import type { ExportRowsInput, FetchPageInput, RowActionInput, RowActionOutcome, SearchRowsInput } from '../../src/domain/rowAction';
import { defaultTableQuery } from '../../src/domain/tableQuery';
import type { User } from '../../src/domain/user';
import { logExportMachine, logStatMachine, logTableMachine, type LogCallInput } from '../../src/machines/logList';
import { logListPageChildren, logListPageMachine, selectIsAdminScope, selectOpenedAt, selectScope } from '../../src/machines/logListPage';
import { sessionFactsOf, type SessionChanged } from '../../src/machines/sessionWatch';
import { fakeSession } from './support/fakeSession';
import { doneActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { journey } from './support/replay';
import { expectRoutingOnPaths, type Routed } from './support/routing';

/*
 * The /log page machine: invokes the log table, stat and export for the caller's scope, follows
 * the session (a role change restarts the children for the other scope at the table's view),
 * reads the clock once (the form's default end) and relays the children's toasts and the table's
 * query. Every explored step is checked for its routing; real actors replay the journeys.
 */

const machine = logListPageMachine;
type Snap = SnapshotFrom<typeof machine>;

const alice: User = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1 };
const boss: User = { id: 3, username: 'boss', display_name: 'Boss', role: 10, status: 1 };
const session = fakeSession({ user: alice });
const input = { session, query: defaultTableQuery };
const now = 1_763_892_000;

const report = (user: User | null, changed: SessionChanged['changed']): SessionChanged => ({
  type: 'session.changed',
  facts: sessionFactsOf({ user, status: null }),
  changed,
});
const promoted = report(boss, ['user', 'admin']);
const demoted = report(alice, ['user', 'admin']);
const signedOut = report(null, ['user']);
const filtered = { ...defaultTableQuery, params: { model_name: 'gpt-4o' } };

const fixtures: EventFixtures<typeof machine> = {
  notify: [{ type: 'notify', level: 'error', message: { text: '无效的参数' } }],
  'query.changed': [{ type: 'query.changed', query: filtered }],
  'session.changed': [promoted, demoted, signedOut],
};
const clockRead = doneActor('readClock', now);
const model = { fixtures, internal: [clockRead], input };

function expectedRouting(_: Snap, event: AnyEventObject): Routed[] {
  if (event.type === 'notify' || event.type === 'query.changed') return [{ kind: 'emit', event }];
  return [];
}

function check(s: Snap, where: string): void {
  expect(s.matches('active'), where).toBe(true);
  expect(s.context.session, where).toBe(session);
  for (const id of [...logListPageChildren, 'relayChildren', 'followSession']) expect(s.children[id as keyof typeof s.children], `${where}: ${id}`).toBeDefined();
  // every child works for the page's scope
  const scope = selectScope(s);
  expect(s.children.logTable!.getSnapshot().context.baseParams, where).toEqual({ scope });
  expect(s.children.logStat!.getSnapshot().context.scope, where).toBe(scope);
  expect(s.children.logExport!.getSnapshot().context.scope, where).toBe(scope);
  expect(selectIsAdminScope(s), where).toBe(scope === 'admin');
}

describe('logListPage model', () => {
  it('reaches every state', () => {
    expect(unreachedStates(machine, shortestPaths(machine, model))).toEqual([]);
  });

  it('starts its children for the session user scope, at the address bar view', () => {
    const [s] = initialTransition(machine, input);
    check(s, 'initial');
    expect(selectScope(s)).toBe('self');
    expect(selectOpenedAt(s)).toBe(0);
    const [admin] = initialTransition(machine, { session: fakeSession({ user: boss }), query: filtered });
    expect(selectScope(admin)).toBe('admin');
    expect(admin.children.logTable!.getSnapshot().context.query).toEqual(filtered);
  });

  it('keeps its rules and routes every fact on every step of its paths', () => {
    const paths = simplePaths(machine, { ...model, serializeState: (s) => JSON.stringify([s.context.scope, s.context.openedAt, s.context.query]) });
    expect(paths.length).toBeGreaterThan(0);
    expectRoutingOnPaths(machine, input, paths, {
      check,
      expected: expectedRouting,
      alsoCheck: (next, event, where) => {
        if (event.type === 'query.changed') expect(next.context.query, where).toBe(event.query);
        if ((event as AnyEventObject).type === 'xstate.done.actor.readClock') expect(selectOpenedAt(next), where).toBe(now);
      },
    });
  });

  describe('pinned journeys', () => {
    it('a user made admin while the page lives gets every user logs, at the same filters', () => {
      const s = journey(machine, input, [fixtures['query.changed'][0]!, promoted]);
      expect(selectScope(s)).toBe('admin');
      expect(s.children.logTable!.getSnapshot().context.query).toEqual(filtered);
    });
    it('an admin demoted goes back to their own logs; a report that changes nothing restarts nothing', () => {
      const [start] = initialTransition(machine, input);
      const [same, actions] = transition(machine, start, demoted);
      expect(same.children.logTable).toBe(start.children.logTable);
      expect(actions).toEqual([]);
      expect(selectScope(journey(machine, input, [promoted, demoted]))).toBe('self');
    });
    it('signing out keeps the scope (the login guard takes the page away)', () => {
      expect(selectScope(journey(machine, { session: fakeSession({ user: boss }), query: defaultTableQuery }, [signedOut]))).toBe('admin');
    });
    it('the clock answers once: the form default end is measured from it', () => {
      expect(selectOpenedAt(journey(machine, input, [clockRead]))).toBe(now);
    });
  });
});

// ---- real actors: the page with stub children and a live session ----

const never = <T,>() => new Promise<T>(() => undefined);

function startPage(user: User) {
  const live = fakeSession({ user });
  const fetched: FetchPageInput[] = [];
  const stats: LogCallInput[] = [];
  const page = createActor(
    machine.provide({
      actors: {
        readClock: fromPromise<number>(() => Promise.resolve(now)),
        logTable: logTableMachine.provide({
          actors: {
            fetchPage: fromPromise<readonly Log[], FetchPageInput>(({ input: i }) => {
              fetched.push(i);
              return Promise.resolve([]);
            }),
            searchRows: fromPromise<readonly Log[], SearchRowsInput>(() => never()),
            runRowAction: fromPromise<RowActionOutcome<Log>, RowActionInput<Log>>(() => never()),
            exportRows: fromPromise<Message | null, ExportRowsInput<Log>>(() => never()),
          },
        }),
        logStat: logStatMachine.provide({
          actors: {
            fetchLogStat: fromPromise<number, LogCallInput>(({ input: i }) => {
              stats.push(i);
              return Promise.resolve(2713);
            }),
          },
        }),
        logExport: logExportMachine.provide({ actors: { downloadLogs: fromPromise<string, LogCallInput>(() => never()) } }),
      },
    }),
    { input: { session: live, query: defaultTableQuery } },
  );
  const emitted: AnyEventObject[] = [];
  page.on('*', (e) => void emitted.push(e));
  page.start();
  return { page, live, fetched, stats, emitted };
}

describe('logListPage journeys (real actors, stub children)', () => {
  it('reads the fixed clock and lists the caller own logs', async () => {
    const { page, fetched } = startPage(alice);
    await waitFor(page, (s) => s.context.openedAt === now);
    await waitFor(page.getSnapshot().children.logTable!, (s) => s.matches('ready'));
    expect(fetched[0]!.params).toEqual({ scope: 'self' });
    page.stop();
  });

  it('the role changes in the session: the list reloads for every user, keeping the filters', async () => {
    const { page, live, fetched, emitted } = startPage(alice);
    const table = page.getSnapshot().children.logTable!;
    await waitFor(table, (s) => s.matches('ready'));
    table.send({ type: 'params.set', params: { model_name: 'gpt-4o' } });
    await waitFor(table, (s) => s.matches('ready') && fetched.length === 2);
    expect(emitted.some((e) => e.type === 'query.changed')).toBe(true);
    live.send({ type: 'session.userUpdated', user: boss });
    await waitFor(page, (s) => s.context.scope === 'admin');
    const again = page.getSnapshot().children.logTable!;
    expect(again).not.toBe(table);
    await waitFor(again, (s) => s.matches('ready'));
    expect(fetched.at(-1)!.params).toEqual({ scope: 'admin', model_name: 'gpt-4o' });
    page.stop();
  });

  it('the stat answers for the scope; its toasts leave the page', async () => {
    const { page, stats } = startPage(boss);
    const stat = page.getSnapshot().children.logStat!;
    stat.send({ type: 'stat.load', params: {} });
    await waitFor(stat, (s) => s.matches('ready'));
    expect(stats).toEqual([{ filter: {}, scope: 'admin' }]);
    page.stop();
  });
});
