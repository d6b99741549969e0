import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, waitFor, type AnyEventObject, type SnapshotFrom } from 'xstate';
import type { Channel, ChannelRow, ChannelTagCount, ChannelTestRun, ChannelTestRunResult } from '../../src/domain/channel';
import type { Message } from '../../src/domain/message';
import type { ExportRowsInput, FetchPageInput, RowActionInput, RowActionOutcome, SearchRowsInput } from '../../src/domain/rowAction';
import { parseTableQuery, type TableQuery } from '../../src/domain/tableQuery';
import { channelListActionsMachine, channelTableMachine, channelTableSchema, type ChannelListPrefs } from '../../src/machines/channelList';
import { channelListPageChildren, channelListPageMachine, type ChannelListPageEmitted } from '../../src/machines/channelListPage';
import { channelTagsMachine, selectTagCounts, selectTagEditCount, type UpdateChannelsByTagInput } from '../../src/machines/channelTags';
import { selectIsComplete, selectLoadedCount, selectPageCount, selectPageRows, selectShownCount } from '../../src/machines/table';
import { channelTestMachine, type ChannelTestOutcome } from '../../src/machines/channelTest';
import { shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { pathOf, replayPath } from './support/replay';
import { expectRoutingOnPaths, routedOf, type Routed } from './support/routing';

/*
 * The admin channel list's page machine (src/machines/channelListPage): it invokes the channel
 * table, the list's own workflows and the live channel tests, and routes their facts: a live test
 * result patches its row, deleted channels reload the table, a chosen bulk value becomes the
 * table's bulk request, toasts / navigation / the address bar's query leave the page. One state;
 * every explored step is checked for its routing, a path is replayed on a real actor, and real
 * children with stub actors play the journeys end to end.
 */

const machine = channelListPageMachine;
type Snap = SnapshotFrom<typeof machine>;

/** The address bar's view at mount (a page size other than the default, so it is seen to pass). */
const query: TableQuery = { ...parseTableQuery('', channelTableSchema), size: 20 };
const input = { query };

const result = (over: Partial<ChannelTestRunResult> = {}): ChannelTestRunResult => ({
  index: 0,
  channel_id: 7,
  success: false,
  message: 'upstream said 401',
  time: 0.5,
  model: 'gpt-3.5-turbo',
  status: 3,
  response_time: 500,
  test_time: 1_764_000_000,
  ...over,
});

// ---- the children's facts, relayed to the page (exhaustive: a new event fails to compile) ----

const fixtures: EventFixtures<typeof machine> = {
  'test.result': [{ type: 'test.result', result: result() }, { type: 'test.result', result: result({ channel_id: 4, success: true, status: 1 }) }],
  'channels.deleted': [{ type: 'channels.deleted', count: 2 }],
  'channels.tagEdited': [{ type: 'channels.tagEdited', tag: 'team-a', count: 2 }],
  'bulk.valueChosen': [
    { type: 'bulk.valueChosen', action: 'setGroup', value: 'vip' },
    { type: 'bulk.valueChosen', action: 'priority', value: '5' },
  ],
  notify: [{ type: 'notify', level: 'success', message: { key: 'common.success' } }],
  navigate: [{ type: 'navigate', to: '/channel/edit/7' }],
  'query.changed': [{ type: 'query.changed', query: { ...query, keyword: 'openai' } }],
};

/** What the page must do with each fact: one action, to the right place. */
function expectedRouting(s: Snap, event: AnyEventObject): Routed[] {
  const table = s.children.table;
  switch (event.type) {
    case 'test.result': {
      const r = (event as unknown as { result: ChannelTestRunResult }).result;
      const last_test = { success: r.success, message: r.message, response_time: r.success ? r.response_time : 0, test_time: r.test_time };
      return [{ kind: 'send', to: table, event: { type: 'row.patch', id: r.channel_id, patch: { status: r.status, response_time: r.response_time, test_time: r.test_time, last_test } } }];
    }
    case 'channels.deleted':
      return [
        { kind: 'send', to: table, event: { type: 'rows.reload' } },
        { kind: 'send', to: s.children.channelTags, event: { type: 'tags.reload' } },
      ];
    case 'channels.tagEdited':
      return [{ kind: 'send', to: table, event: { type: 'rows.reload' } }];
    case 'bulk.valueChosen': {
      const e = event as unknown as { action: string; value: string };
      return [{ kind: 'send', to: table, event: { type: 'bulk.request', action: e.action, value: e.value } }];
    }
    case 'notify':
    case 'navigate':
      return [{ kind: 'emit', event }];
    case 'query.changed':
      // the address bar's, and the tag counts read again with the rows the table settled on
      return [{ kind: 'emit', event }, { kind: 'send', to: s.children.channelTags, event: { type: 'tags.reload' } }];
    default:
      return [];
  }
}

const childIds = ['channelListActions', 'channelTags', 'channelTest', 'relayEmitted', 'table'];

/** The rules every snapshot keeps: the children live for the whole page, the table's start is the address bar's. */
function check(s: Snap, where: string): void {
  expect(s.matches('active'), where).toBe(true);
  expect(s.status, where).toBe('active');
  expect(Object.keys(s.children).sort(), where).toEqual(childIds);
  expect(s.context.tableInput, where).toEqual(input);
}

describe('channelListPage model', () => {
  const opts = { fixtures, input };

  it('reaches every state', () => {
    expect(unreachedStates(machine, shortestPaths(machine, opts))).toEqual([]);
  });

  it('starts its children: the table from the address bar, the list workflows, the tests, and the relay of all three', () => {
    const [s, actions] = initialTransition(machine, input);
    check(s, 'initial');
    const spawned = actions.filter((a) => a.type === 'xstate.spawnChild').map((a) => (a.params as { id: string }).id);
    expect(spawned).toEqual(['table', 'channelListActions', 'channelTest', 'channelTags', 'relayEmitted']);
    expect(Object.values(channelListPageChildren)).toEqual(['table', 'channelListActions', 'channelTest', 'channelTags']);
    expect(s.children.table!.getSnapshot().context.query).toEqual(query);
  });

  it('keeps its rules and routes every fact on every step of its paths', () => {
    const paths = simplePaths(machine, { ...opts, serializeState: (s) => JSON.stringify([s.value, s.context]) });
    expect(paths.length).toBeGreaterThan(0);
    expectRoutingOnPaths(machine, input, paths, { check, expected: expectedRouting });
  });

  it('pins the routing of a live result: status, response time, test time and the result (a failure keeps no time) reach the row', () => {
    const [s] = initialTransition(machine, input);
    const [, actions] = transition(machine, s, { type: 'test.result', result: result() });
    const last_test = { success: false, message: 'upstream said 401', response_time: 0, test_time: 1_764_000_000 };
    expect(routedOf(actions)).toEqual([
      { kind: 'send', to: s.children.table, event: { type: 'row.patch', id: 7, patch: { status: 3, response_time: 500, test_time: 1_764_000_000, last_test } } },
    ]);
  });

  it('pins the routing of every fact, one step from the start', () => {
    const [s] = initialTransition(machine, input);
    for (const events of Object.values(fixtures)) {
      for (const event of events as readonly AnyEventObject[]) {
        const [, actions] = transition(machine, s, event as never);
        expect(routedOf(actions), event.type).toEqual(expectedRouting(s, event));
      }
    }
  });

  it('ignores what is no fact of its children (a person intent sent to the page by mistake)', () => {
    const [s] = initialTransition(machine, input);
    const [next, actions] = transition(machine, s, { type: 'rows.reload' } as unknown as AnyEventObject as never);
    expect(routedOf(actions)).toEqual([]);
    expect(next.context).toEqual(s.context);
  });
});

// ---- real actors: the page with real children on stub actors ----

const never = <T,>() => new Promise<T>(() => undefined);

/** The channel test machine with nothing running: its current run answered by `currentRun`, every other call left pending. */
const idleChannelTests = (currentRun: () => Promise<ChannelTestRun | null>) =>
  channelTestMachine.provide({
    actors: {
      fetchCurrentRun: fromPromise<ChannelTestRun | null>(currentRun),
      startTestRun: fromPromise(() => never<ChannelTestRun>()),
      fetchTestRun: fromPromise(() => never<ChannelTestRun>()),
      cancelTestRun: fromPromise(() => never<ChannelTestRun>()),
      listAllChannels: fromPromise(() => never<Channel[]>()),
      testChannel: fromPromise(() => never<ChannelTestOutcome>()),
    },
  });
const channel = (id: number, name: string, over: Partial<ChannelRow> = {}): ChannelRow => ({
  id,
  type: 1,
  name,
  status: 1,
  models: 'gpt-3.5-turbo,gpt-4o',
  group: 'default',
  response_time: 0,
  test_time: 0,
  ...over,
});
const server: ChannelRow[] = [channel(7, 'openai-main'), channel(5, 'disabled-one', { status: 2 }), channel(4, 'gemini-free', { type: 24 })];

interface Stubs {
  /** The table's page loads, in order. */
  readonly loads: FetchPageInput[];
  /** The bulk steps the table ran. */
  readonly steps: RowActionInput<ChannelRow>[];
  /** The edits by tag sent. */
  readonly tagEdits: UpdateChannelsByTagInput[];
}

function children(run: ChannelTestRun | null, stubs: Stubs, never_: boolean) {
  const table = channelTableMachine.provide({
    actors: {
      fetchPage: fromPromise<readonly ChannelRow[], FetchPageInput>(({ input: i }) => {
        stubs.loads.push(i);
        return never_ ? never() : Promise.resolve(i.page === 0 ? server : []);
      }),
      searchRows: fromPromise<readonly ChannelRow[], SearchRowsInput>(({ input: i }) => Promise.resolve(server.filter((r) => r.name.includes(i.keyword)))),
      runRowAction: fromPromise<RowActionOutcome<ChannelRow>, RowActionInput<ChannelRow>>(({ input: i }) => {
        stubs.steps.push(i);
        return Promise.resolve({ patch: { group: i.value } });
      }),
      exportRows: fromPromise<Message | null, ExportRowsInput<ChannelRow>>(() => Promise.resolve(null)),
    },
  });
  const actions = channelListActionsMachine.provide({
    actors: {
      loadListPrefs: fromPromise<ChannelListPrefs>(() => (never_ ? never() : Promise.resolve({ showDetail: false, noticeDismissed: true }))),
      deleteDisabledChannels: fromPromise<number>(() => Promise.resolve(1)),
      fetchGroups: fromPromise<readonly string[]>(() => Promise.resolve(['default', 'vip'])),
    },
    actions: { storeShowDetail: () => undefined, storeNoticeDismissed: () => undefined },
  });
  const tests = idleChannelTests(() => (never_ ? never() : Promise.resolve(run)));
  const tags = channelTagsMachine.provide({
    actors: {
      fetchTags: fromPromise<readonly ChannelTagCount[]>(() => (never_ ? never() : Promise.resolve([{ tag: 'team-a', count: 2 }]))),
      updateChannelsByTag: fromPromise<number, UpdateChannelsByTagInput>(({ input: i }) => {
        stubs.tagEdits.push(i);
        return Promise.resolve(2);
      }),
    },
  });
  return machine.provide({ actors: { table, channelListActions: actions, channelTest: tests, channelTags: tags } });
}

function startPage(run: ChannelTestRun | null = null) {
  const stubs: Stubs = { loads: [], steps: [], tagEdits: [] };
  const page = createActor(children(run, stubs, false), { input });
  const emitted: ChannelListPageEmitted[] = [];
  page.on('*', (e) => emitted.push(e));
  page.start();
  const c = page.getSnapshot().children;
  return { page, table: c.table!, actions: c.channelListActions!, tests: c.channelTest!, tags: c.channelTags!, emitted, stubs };
}

const runningRun = (results: ChannelTestRunResult[]): ChannelTestRun => ({
  id: 3,
  scope: 'all',
  status: 'running',
  total: 3,
  done: results.length,
  started_at: 1_764_000_000,
  finished_at: 0,
  channel_ids: [7, 5, 4],
  results,
});

describe('channelListPage replay (real actor, children that never answer)', () => {
  it('follows a path of facts: the page stays active with the same context at every step', async () => {
    const path = pathOf(machine, input, [
      { type: 'test.result', result: result() },
      { type: 'channels.deleted', count: 2 },
      { type: 'channels.tagEdited', tag: 'team-a', count: 2 },
      { type: 'bulk.valueChosen', action: 'priority', value: '5' },
      { type: 'query.changed', query: { ...query, keyword: 'x' } },
    ]);
    const run = await replayPath({ machine: children(null, { loads: [], steps: [], tagEdits: [] }, true), input }, path);
    expect(run.emitted).toEqual([{ type: 'query.changed', query: { ...query, keyword: 'x' } }]);
  });
});

describe('channelListPage journeys (real children, stub actors)', () => {
  it('a live test result patches its row (status, response time, test time, the result) and nothing else', async () => {
    const failed = result({ channel_id: 7, status: 3, response_time: 900, test_time: 1_764_000_100 });
    const { page, table } = startPage(runningRun([failed]));
    await waitFor(table, (s) => s.matches({ ready: 'idle' }) && s.context.rows.find((r) => r.id === 7)?.status === 3);
    const row = table.getSnapshot().context.rows.find((r) => r.id === 7)!;
    expect(row).toEqual({
      ...server[0],
      status: 3,
      response_time: 900,
      test_time: 1_764_000_100,
      last_test: { success: false, message: 'upstream said 401', response_time: 0, test_time: 1_764_000_100 },
    });
    page.stop();
  });

  it('deleting the disabled channels reloads the table and says how many', async () => {
    const { page, table, actions, emitted, stubs } = startPage();
    await waitFor(table, (s) => s.matches({ ready: 'idle' }));
    const before = stubs.loads.length;
    actions.send({ type: 'deleteDisabled.request' });
    actions.send({ type: 'deleteDisabled.accept' });
    await waitFor(actions, (s) => s.matches({ deleteDisabled: 'idle' }));
    await waitFor(table, (s) => s.matches({ ready: 'idle' }) && stubs.loads.length > before);
    expect(emitted).toContainEqual({ type: 'notify', level: 'success', message: { key: 'channels.deleteDisabled.done', params: { count: 1 } } });
    page.stop();
  });

  it('an edit by tag reloads the table and the tag counts, and says how many channels changed', async () => {
    const { page, table, tags, emitted, stubs } = startPage();
    await waitFor(table, (s) => s.matches({ ready: 'idle' }));
    await waitFor(tags, (s) => s.matches({ list: 'ready' }));
    const before = stubs.loads.length;
    tags.send({ type: 'tagEdit.open' });
    tags.send({ type: 'tagEdit.field', field: 'status', on: true });
    tags.send({ type: 'tagEdit.submit' });
    tags.send({ type: 'tagEdit.confirm' });
    await waitFor(tags, (s) => s.matches({ edit: 'closed', list: 'ready' }));
    await waitFor(table, (s) => s.matches({ ready: 'idle' }) && stubs.loads.length > before);
    expect(stubs.tagEdits).toEqual([{ edit: { tag: 'team-a', status: 2 } }]);
    expect(emitted).toContainEqual({ type: 'notify', level: 'success', message: { key: 'channels.tagEdit.done', params: { tag: 'team-a', count: 2 } } });
    page.stop();
  });

  it('a chosen bulk value becomes the table request: the table confirms, then runs it on the selection', async () => {
    const { page, table, actions, stubs } = startPage();
    await waitFor(table, (s) => s.matches({ ready: 'idle' }));
    table.send({ type: 'row.select', id: 7 });
    table.send({ type: 'row.select', id: 4 });
    actions.send({ type: 'bulkValue.open', action: 'setGroup' });
    await waitFor(actions, (s) => s.matches({ bulkValue: 'prompting' }));
    actions.send({ type: 'bulkValue.input', value: ' vip ' });
    actions.send({ type: 'bulkValue.submit' });
    await waitFor(table, (s) => s.matches({ ready: 'confirmingBulk' }));
    expect(table.getSnapshot().context.bulk).toMatchObject({ action: 'setGroup', value: 'vip' });
    table.send({ type: 'confirm.accept' });
    await waitFor(table, (s) => s.matches({ ready: 'bulkReport' }));
    expect(stubs.steps.map((s) => [s.action, s.row.id, s.value])).toEqual([
      ['setGroup', 7, 'vip'],
      ['setGroup', 4, 'vip'],
    ]);
    page.stop();
  });

  it("a submitted search leaves the page as query.changed (the address bar's), from the address bar's start", async () => {
    const { page, table, emitted } = startPage();
    await waitFor(table, (s) => s.matches({ ready: 'idle' }));
    table.send({ type: 'search.input', text: 'gemini' });
    table.send({ type: 'search.submit' });
    await waitFor(table, (s) => s.matches({ ready: 'idle' }) && s.context.rows.length === 1);
    const last = emitted.filter((e) => e.type === 'query.changed').at(-1);
    expect(last).toMatchObject({ query: { keyword: 'gemini', size: 20 } });
    page.stop();
  });

  it('a stopped page stops its children and their relay', async () => {
    const { page, table, actions, tests, tags } = startPage();
    await waitFor(table, (s) => s.matches({ ready: 'idle' }));
    const relay = page.getSnapshot().children.relayEmitted!;
    page.stop();
    for (const child of [table, actions, tests, tags, relay]) expect(child.getSnapshot().status).toBe('stopped');
  });
});

// ---- the tag filter over every channel: the list is loaded server page by server page ----

describe('channelListPage: the tag filter reaches every channel, and its count, the pager and the edit by tag agree', () => {
  /** A server of `total` channels (id desc, one-api's 10 per page), those with id ≤ `taggedUpTo` tagged "rare". */
  function bigPage(total: number, taggedUpTo: number) {
    const rows: ChannelRow[] = Array.from({ length: total }, (_, i) => {
      const id = total - i;
      return channel(id, `ch-${String(id)}`, { tags: id <= taggedUpTo ? ['rare'] : [] });
    });
    const counts = (): ChannelTagCount[] => {
      const n = rows.filter((r) => r.tags?.includes('rare') === true).length;
      return n === 0 ? [] : [{ tag: 'rare', count: n }];
    };
    const loads: FetchPageInput[] = [];
    let tagReads = 0;
    const table = channelTableMachine.provide({
      actors: {
        fetchPage: fromPromise<readonly ChannelRow[], FetchPageInput>(({ input: i }) => {
          loads.push(i);
          return Promise.resolve(rows.slice(i.page * 10, i.page * 10 + 10));
        }),
        searchRows: fromPromise<readonly ChannelRow[], SearchRowsInput>(({ input: i }) => Promise.resolve(rows.filter((r) => r.name.startsWith(i.keyword)))),
        runRowAction: fromPromise<RowActionOutcome<ChannelRow>, RowActionInput<ChannelRow>>(() => never()),
        exportRows: fromPromise<Message | null, ExportRowsInput<ChannelRow>>(() => Promise.resolve(null)),
      },
    });
    const actions = channelListActionsMachine.provide({
      actors: {
        loadListPrefs: fromPromise<ChannelListPrefs>(() => Promise.resolve({ showDetail: false, noticeDismissed: true })),
        deleteDisabledChannels: fromPromise<number>(() => never()),
        fetchGroups: fromPromise<readonly string[]>(() => never()),
      },
      actions: { storeShowDetail: () => undefined, storeNoticeDismissed: () => undefined },
    });
    const tests = idleChannelTests(() => Promise.resolve(null));
    const tags = channelTagsMachine.provide({
      actors: {
        fetchTags: fromPromise<readonly ChannelTagCount[]>(() => {
          tagReads += 1;
          return Promise.resolve(counts());
        }),
        updateChannelsByTag: fromPromise<number, UpdateChannelsByTagInput>(() => never()),
      },
    });
    const page = createActor(machine.provide({ actors: { table, channelListActions: actions, channelTest: tests, channelTags: tags } }), { input });
    page.start();
    const c = page.getSnapshot().children;
    return { page, table: c.table!, tags: c.channelTags!, rows, loads, tagReads: () => tagReads };
  }

  it('300 channels, the three tagged ones on the last server page: all three shown, the pager complete, the filter, the pager and the dialog all say 3', async () => {
    const { page, table, tags, rows, loads, tagReads } = bigPage(300, 3);
    await waitFor(table, (s) => s.matches({ ready: 'idle' }));
    await waitFor(tags, (s) => s.matches({ list: 'ready' }));
    // the first view: one server page (the page size is 20: two), nothing tagged among them
    expect(selectShownCount(table.getSnapshot())).toBe(20);
    expect(table.getSnapshot().context.rows.some((r) => r.tags?.includes('rare') === true)).toBe(false);
    const readsBefore = tagReads();

    table.send({ type: 'filter.change', key: 'tags', value: 'rare' });
    await waitFor(table, (s) => s.matches({ ready: 'idle' }), { timeout: 5_000 });
    const s = table.getSnapshot();
    // the loader went on to the end (30 full pages and the empty one after), not just the loaded pages
    expect(loads.map((l) => l.page)).toEqual(Array.from({ length: 31 }, (_, i) => i));
    expect(selectLoadedCount(s)).toBe(300);
    expect(selectIsComplete(s)).toBe(true);
    expect(selectPageRows(s).map((r) => r.id)).toEqual([3, 2, 1]);
    expect(selectShownCount(s)).toBe(3);
    expect(selectPageCount(s)).toBe(1);
    expect(rows.filter((r) => r.tags?.includes('rare') === true).map((r) => r.id)).toEqual([3, 2, 1]);

    // the counts were read again with the rows the filter settled on, and say the same
    await waitFor(tags, (t) => t.matches({ list: 'ready' }) && tagReads() > readsBefore);
    expect(selectTagCounts(tags.getSnapshot())).toEqual([{ tag: 'rare', count: 3 }]);
    // the edit by tag (opening reads the counts again) confirms the same number
    tags.send({ type: 'tagEdit.open', tag: 'rare' });
    await waitFor(tags, (t) => t.matches({ list: 'ready', edit: 'editing' }));
    expect(selectTagEditCount(tags.getSnapshot())).toBe(selectShownCount(table.getSnapshot()));
    page.stop();
  });

  it('25 tagged among 300 (the oldest): the first view fills from the last server pages, the pager pages over the tagged ones only', async () => {
    const { page, table } = bigPage(300, 25);
    await waitFor(table, (s) => s.matches({ ready: 'idle' }));
    table.send({ type: 'filter.change', key: 'tags', value: 'rare' });
    await waitFor(table, (s) => s.matches({ ready: 'idle' }), { timeout: 5_000 });
    // the first 20 tagged are on server pages 27-29: the loader stopped once the view was full
    expect(selectPageRows(table.getSnapshot()).map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i));
    expect(selectIsComplete(table.getSnapshot())).toBe(false);
    table.send({ type: 'page.go', page: 1 });
    await waitFor(table, (s) => s.matches({ ready: 'idle' }) && s.context.query.page === 1, { timeout: 5_000 });
    const s = table.getSnapshot();
    expect(selectPageRows(s).map((r) => r.id)).toEqual([5, 4, 3, 2, 1]);
    expect(selectShownCount(s)).toBe(25);
    expect(selectPageCount(s)).toBe(2);
    // the last server page read was full: whether more follow is known only from the next one
    // (the pager says "more available" until then, and a person asking for all matching reads it)
    expect(selectIsComplete(s)).toBe(false);
    table.send({ type: 'selection.allMatching' });
    await waitFor(table, (t) => t.matches({ ready: 'idle' }) && t.context.exhausted, { timeout: 5_000 });
    expect(selectShownCount(table.getSnapshot())).toBe(25);
    expect(selectPageCount(table.getSnapshot())).toBe(2);
    expect(table.getSnapshot().context.selected).toHaveLength(25);
    page.stop();
  });
});
