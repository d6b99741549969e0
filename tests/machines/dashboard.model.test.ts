import { describe, expect, it } from 'vitest';
import { createActor, transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure } from '../../src/domain/apiError';
import type { DashboardRow } from '../../src/domain/dashboard';
import { isMessageKey } from '../../src/i18n';
import {
  dashboardMachine,
  queryOf,
  selectIsLoading,
  selectIsSearching,
  selectLoadFailed,
  selectPreset,
  selectRange,
  selectRangeProblem,
  selectRows,
  selectSearchResults,
  selectViewer,
  type DashboardUserOption,
  type LoadDashboardInput,
  type LoadDashboardOutput,
} from '../../src/machines/dashboard';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as journeyOf, follows } from './support/replay';

type Snap = SnapshotFrom<typeof dashboardMachine>;

/** 2026-11-23 12:00 UTC. */
const now = 1_795_435_200;
const adminInput = { isAdmin: true, now, utcOffset: 0 };
const userInput = { isAdmin: false, now, utcOffset: 480 };

const rows: DashboardRow[] = [{ Day: '2026-11-23', ModelName: 'gpt-4o', RequestCount: 3, Quota: 900, PromptTokens: 30, CompletionTokens: 60 }];
const output: LoadDashboardOutput = { rows, account: { quota: 5000, usedQuota: 900 } };
const alice: DashboardUserOption = { id: 2, username: 'alice', display_name: 'Alice' };

const fixtures: EventFixtures<typeof dashboardMachine> = {
  'range.preset': [
    { type: 'range.preset', preset: '30d' },
    { type: 'range.preset', preset: 'custom' },
  ],
  'range.customChange': [
    { type: 'range.customChange', field: 'end', value: '2026-11-01' },
    { type: 'range.customChange', field: 'end', value: '2026-11-20' },
  ],
  'range.apply': [{ type: 'range.apply' }],
  'metric.change': [{ type: 'metric.change', metric: 'tokens' }],
  'viewer.change': [
    { type: 'viewer.change', viewer: { kind: 'all' } },
    { type: 'viewer.change', viewer: { kind: 'user', id: 2, username: 'alice' } },
  ],
  'search.change': [{ type: 'search.change', keyword: 'ali' }],
  'search.submit': [{ type: 'search.submit' }],
  'dashboard.retry': [{ type: 'dashboard.retry' }],
};
const loaded = doneActor('loadDashboard', output);
const loadFailed = errorActor('loadDashboard', failure('loadDashboard', '无法获取统计信息'));
const found = doneActor('searchUsers', [alice]);
const searchFailed = errorActor('searchUsers', failure('searchUsers', '无权进行此操作，权限不足'));
const internal = [loaded, loadFailed, found, searchFailed];

/** States that differ only in what the view draws from (rows, account) are one state of the graph. */
const serializeState = (s: Snap): string => {
  const c = s.context;
  return JSON.stringify([s.value, s.status, c.preset, c.viewer.kind, c.rangeProblem !== null, c.results === null, c.keyword.trim() !== '']);
};
const adminModel = { fixtures, internal, input: adminInput, serializeState };
const userModel = { fixtures, internal, input: userInput, serializeState };
/* The simple-path walks keep one fixture per event kind that changes context, so paths stay few. */
const walk = (input: typeof adminInput) => ({
  fixtures: {
    ...fixtures,
    'range.preset': [fixtures['range.preset'][0]!],
    'range.customChange': [],
    'range.apply': [],
    'metric.change': [],
    'viewer.change': [fixtures['viewer.change'][0]!],
    'search.change': [],
    'search.submit': [],
  } as unknown as EventFixtures<typeof dashboardMachine>,
  internal: [loaded, loadFailed],
  input,
  serializeState,
});

const realShortest = (model: typeof adminModel) => shortestPaths(dashboardMachine, model).filter(isRealistic);

function journey(input: typeof adminInput, events: readonly AnyEventObject[]): Snap {
  return journeyOf(dashboardMachine, input, events);
}

describe('dashboard model', () => {
  it('reaches every state', () => {
    const paths = [...realShortest(adminModel), ...realShortest(userModel)];
    expect(unreachedStates(dashboardMachine, paths)).toEqual([]);
  });

  it.each([
    ['admin', adminInput],
    ['user', userInput],
  ] as const)('keeps its invariants on every simple path (%s)', (who, input) => {
    const paths = simplePaths(dashboardMachine, walk(input)).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        const children = Object.keys(s.children).sort();
        const expected = [...(s.matches({ usage: 'loading' }) ? ['loadDashboard'] : []), ...(s.matches({ search: 'searching' }) ? ['searchUsers'] : [])];
        expect(children).toEqual(expected.sort());
        expect(s.status).toBe('active');
        expect(selectIsLoading(s)).toBe(s.matches({ usage: 'loading' }));
        expect(selectLoadFailed(s)).toBe(s.matches({ usage: 'failed' }));
        expect(selectIsSearching(s)).toBe(s.matches({ search: 'searching' }));
        // a common user only ever sees their own usage and never searches
        if (who === 'user') {
          expect(selectViewer(s)).toEqual({ kind: 'self' });
          expect(selectIsSearching(s)).toBe(false);
          expect(selectSearchResults(s)).toBeNull();
        }
        // the range is whole days, ends with today for a preset, and never longer than 366 days
        const range = selectRange(s);
        expect(range.end).toBeGreaterThan(range.start);
        expect(range.end - range.start + 1).toBeLessThanOrEqual(366 * 86_400);
        expect((range.end + 1 - range.start) % 86_400).toBe(0);
      }
    }
  });

  describe('pinned journeys', () => {
    it('loads the week of the caller, then is ready', () => {
      const s = journey(userInput, [loaded]);
      expect(s.value).toEqual({ usage: 'ready', search: 'idle' });
      expect(selectRows(s)).toEqual(rows);
      expect(queryOf(s.context)).toEqual({ start_timestamp: 1_794_844_800, end_timestamp: 1_795_449_599, utc_offset: 480 });
    });
    it('a preset loads again; a second change while loading restarts the load', () => {
      const s = journey(adminInput, [{ type: 'range.preset', preset: '30d' }, { type: 'range.preset', preset: 'today' }]);
      expect(s.value).toEqual({ usage: 'loading', search: 'idle' });
      expect(selectPreset(s)).toBe('today');
      expect(selectRange(s)).toEqual({ start: 1_795_392_000, end: 1_795_478_399 });
    });
    it('custom: choosing it loads nothing; a refused range says why; a good one loads', () => {
      let s = journey(adminInput, [loaded, { type: 'range.preset', preset: 'custom' }]);
      expect(s.value).toEqual({ usage: 'ready', search: 'idle' });
      expect(s.context.customStart).toBe('2026-11-17');
      s = journey(adminInput, [loaded, { type: 'range.preset', preset: 'custom' }, { type: 'range.customChange', field: 'end', value: '2026-11-01' }, { type: 'range.apply' }]);
      expect(s.value).toEqual({ usage: 'ready', search: 'idle' });
      expect(selectRangeProblem(s)).toBe('endBeforeStart');
      s = transition(dashboardMachine, s, { type: 'range.customChange', field: 'end', value: '2026-11-20' })[0];
      expect(selectRangeProblem(s)).toBeNull();
      s = transition(dashboardMachine, s, { type: 'range.apply' })[0];
      expect(s.value).toEqual({ usage: 'loading', search: 'idle' });
      expect(selectRange(s)).toEqual({ start: 1_794_873_600, end: 1_795_219_199 });
    });
    it('a failed load can be retried', () => {
      expect(journey(adminInput, [loadFailed]).value).toEqual({ usage: 'failed', search: 'idle' });
      expect(journey(adminInput, [loadFailed, { type: 'dashboard.retry' }, loaded]).value).toEqual({ usage: 'ready', search: 'idle' });
    });
    it('admins view all users (user_id 0) or a picked user; common users cannot', () => {
      const all = journey(adminInput, [loaded, { type: 'viewer.change', viewer: { kind: 'all' } }]);
      expect(queryOf(all.context).user_id).toBe(0);
      expect(all.value).toEqual({ usage: 'loading', search: 'idle' });
      const picked = journey(adminInput, [{ type: 'search.change', keyword: 'ali' }, { type: 'search.submit' }, found, { type: 'viewer.change', viewer: { kind: 'user', id: 2, username: 'alice' } }]);
      expect(selectSearchResults(picked)).toEqual([alice]);
      expect(queryOf(picked.context).user_id).toBe(2);
      const refused = journey(userInput, [loaded, { type: 'viewer.change', viewer: { kind: 'all' } }, { type: 'search.change', keyword: 'ali' }, { type: 'search.submit' }]);
      expect(refused.value).toEqual({ usage: 'ready', search: 'idle' });
      expect(selectViewer(refused)).toEqual({ kind: 'self' });
    });
    it('an empty keyword clears the results without a search', () => {
      const s = journey(adminInput, [{ type: 'search.change', keyword: 'ali' }, { type: 'search.submit' }, found, { type: 'search.change', keyword: ' ' }, { type: 'search.submit' }]);
      expect(s.value).toEqual({ usage: 'loading', search: 'idle' });
      expect(selectSearchResults(s)).toBeNull();
    });
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(input: typeof adminInput, events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      const loadDashboard = controlled<LoadDashboardOutput, LoadDashboardInput>();
      const searchUsers = controlled<readonly DashboardUserOption[], { keyword: string }>();
      const stubs = { loadDashboard, searchUsers };
      return { ...(await replayOn({ machine: dashboardMachine, input, stubs }, events, check)), ...stubs };
    }

    const replayable = (model: typeof adminModel) =>
      realShortest(model)
        .filter((p) => p.steps.length > 1)
        .slice(0, 30)
        .map((p) => [describePath(p), p] as const);

    it.each([...replayable(adminModel).map(([n, p]) => [`admin: ${n}`, adminInput, p] as const), ...replayable(userModel).map(([n, p]) => [`user: ${n}`, userInput, p] as const)])(
      '%s',
      async (_, input, p) => {
        await replay(
          input,
          p.steps.map((s) => s.event),
          follows(p),
        );
      },
    );

    it('the latest request wins: a load overtaken by a newer one is dropped', async () => {
      const loadDashboard = controlled<LoadDashboardOutput, LoadDashboardInput>();
      const searchUsers = controlled<readonly DashboardUserOption[], { keyword: string }>();
      const actor = createActor(dashboardMachine.provide({ actors: { loadDashboard: loadDashboard.logic, searchUsers: searchUsers.logic } }), { input: adminInput }).start();
      const first = loadDashboard.calls.length;
      actor.send({ type: 'viewer.change', viewer: { kind: 'all' } });
      loadDashboard.resolve({ rows: [...rows, ...rows], account: null });
      await new Promise((r) => setTimeout(r, 0));
      expect(first).toBe(1);
      expect(loadDashboard.calls).toEqual([
        { query: { start_timestamp: 1_794_873_600, end_timestamp: 1_795_478_399, utc_offset: 0 }, account: 'self' },
        { query: { start_timestamp: 1_794_873_600, end_timestamp: 1_795_478_399, utc_offset: 0, user_id: 0 }, account: null },
      ]);
      expect(actor.getSnapshot().value).toEqual({ usage: 'ready', search: 'idle' });
      expect(selectRows(actor.getSnapshot())).toHaveLength(2);
      actor.stop();
    });

    it("says the server's message when a load or a search fails; every key is in the catalogue", async () => {
      const { emitted } = await replay(adminInput, [loadFailed, { type: 'search.change', keyword: 'x' }, { type: 'search.submit' }, searchFailed]);
      expect(emitted).toEqual([
        { type: 'notify', level: 'error', message: { text: '无法获取统计信息' } },
        { type: 'notify', level: 'error', message: { text: '无权进行此操作，权限不足' } },
      ]);
      for (const e of emitted) if ('key' in e.message) expect(isMessageKey(e.message.key)).toBe(true);
    });
  });
});
