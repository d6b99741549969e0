import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure } from '../../src/domain/apiError';
import type { PaletteEntities } from '../../src/domain/commandPalette';
import { isMessageKey, renderMessage } from '../../src/i18n';
import {
  commandPaletteMachine,
  searchDebounceMs,
  selectActiveIndex,
  selectIsOpen,
  selectIsSearching,
  selectQuery,
  selectResults,
  selectSearchError,
  type CommandPaletteEvent,
  type SearchEntitiesInput,
} from '../../src/machines/commandPalette';
import { afterDelay, describePath, doneActor, errorActor, shortestPaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { journey as walk, pathOf, replay, replayPath } from './support/replay';

type Snap = SnapshotFrom<typeof commandPaletteMachine>;
type Ev<T extends CommandPaletteEvent['type']> = Extract<CommandPaletteEvent, { type: T }>;

const openAdmin: Ev<'palette.open'> = { type: 'palette.open', isAdmin: true };
const openCommon: Ev<'palette.open'> = { type: 'palette.open', isAdmin: false };
const toggle: Ev<'palette.toggle'> = { type: 'palette.toggle', isAdmin: true };
const close = { type: 'palette.close' } as const;
const type = (value: string): Ev<'query.change'> => ({ type: 'query.change', value });
const next = { type: 'selection.next' } as const;
const previous = { type: 'selection.previous' } as const;
const pick = (index: number): Ev<'selection.set'> => ({ type: 'selection.set', index });
const run = { type: 'selection.run' } as const;
const retry = { type: 'search.retry' } as const;

const fixtures: EventFixtures<typeof commandPaletteMachine> = {
  'palette.open': [openAdmin, openCommon],
  'palette.toggle': [toggle],
  'palette.close': [close],
  'query.change': [type('openai'), type(''), type('test all')],
  'selection.next': [next],
  'selection.previous': [previous],
  'selection.set': [pick(1), pick(99)],
  'selection.run': [run],
  'search.retry': [retry],
};

const entities: PaletteEntities = {
  channels: [{ id: 3, name: 'openai-main' }],
  tokens: [{ id: 5, name: 'openai ci' }],
  users: [{ id: 7, name: 'openai-bot' }],
};
const commonEntities: PaletteEntities = { channels: [], tokens: [{ id: 5, name: 'openai ci' }], users: [] };
const found = doneActor('searchEntities', entities);
const serverMessage = '无权进行此操作，权限不足';
const searchRefused = errorActor('searchEntities', failure('searchEntities', serverMessage));
const debounced = afterDelay('searchDebounce', 'commandPalette', 'open.debouncing');
const testStarted = doneActor('testAllChannels');
const testRefused = errorActor('testAllChannels', failure('testAllChannels', serverMessage));
const internal = [found, searchRefused, debounced, testStarted, testRefused];
/** Arrows and pointer only over a typed query: the full list of an empty query would multiply the states by its length. */
const occurs = (s: Snap, e: AnyEventObject): boolean => !(e.type.startsWith('selection.') && e.type !== 'selection.run' && s.context.query === '');
const model = { fixtures, internal, occurs };

const journey = (events: readonly AnyEventObject[]): Snap => walk(commandPaletteMachine, undefined, events);
const realShortest = () => shortestPaths(commandPaletteMachine, model).filter(isRealistic);
const child = (s: Snap, id: string) => (s.children as Record<string, { getSnapshot(): { input?: unknown } } | undefined>)[id];
const adminOnly = new Set(['page:/channel', 'page:/user', 'page:/redemption', 'action:testChannels']);

describe('commandPalette model', () => {
  it('starts closed', () => {
    const s = journey([]);
    expect(s.value).toBe('closed');
    expect(selectIsOpen(s)).toBe(false);
  });

  it('reaches every state', () => {
    const paths = realShortest();
    expect(unreachedStates(commandPaletteMachine, paths)).toEqual([]);
    const failed = paths.find((p) => p.state.matches({ open: 'failed' }))!;
    expect(describePath(failed)).toContain(`${debounced.type} → ${searchRefused.type}`);
  });

  // Every reachable state (the graph's shortest path to each one, all events of the fixture map):
  // the simple paths of this chart are too many to walk on a 2-core machine.
  it('keeps its invariants on the path to every reachable state', () => {
    const paths = realShortest();
    expect(paths.length).toBeGreaterThan(10);
    for (const p of paths) {
      const snaps = snapshotsOf(p);
      for (const [i, s] of snaps.entries()) {
        expect(s.status).toBe('active');
        // a search runs only while searching, a channel test only while testing
        expect(child(s, 'searchEntities') !== undefined).toBe(s.matches({ open: 'searching' }));
        expect(child(s, 'testAllChannels') !== undefined).toBe(s.matches('testingChannels'));
        expect(selectIsOpen(s)).toBe(s.matches('open'));
        expect(selectSearchError(s) !== null).toBe(s.matches({ open: 'failed' }));
        expect(selectIsSearching(s)).toBe(s.matches({ open: 'searching' }) || s.matches({ open: 'debouncing' }));
        // the selection is always on an item (or 0 when there is none)
        const results = selectResults(s);
        expect(selectActiveIndex(s)).toBeGreaterThanOrEqual(0);
        expect(selectActiveIndex(s)).toBeLessThanOrEqual(Math.max(0, results.length - 1));
        // a common user never sees admin pages, actions, channels or users
        if (!s.context.isAdmin) {
          expect(results.filter((r) => adminOnly.has(r.id) || r.group === 'channels' || r.group === 'users')).toEqual([]);
        }
        // a search is for the query typed, trimmed, never empty
        const search = child(s, 'searchEntities')?.getSnapshot().input as SearchEntitiesInput | undefined;
        if (search !== undefined) expect(search).toEqual({ keyword: selectQuery(s).trim(), isAdmin: s.context.isAdmin });
        if (search !== undefined) expect(search.keyword).not.toBe('');
        if (i === 0) continue;
        const prev = snaps[i - 1]!;
        const e = p.steps[i]!.event;
        // the palette closes only when asked, or by running an item
        if (prev.matches('open') && !s.matches('open')) expect([close.type, toggle.type, run.type]).toContain(e.type);
        // the query changes only as typed
        if (selectQuery(s) !== selectQuery(prev) && s.matches('open') && prev.matches('open')) expect(e).toEqual(type(selectQuery(s)));
        // a search starts only after the pause in typing, or on retry
        if (s.matches({ open: 'searching' }) && !prev.matches({ open: 'searching' })) expect([debounced.type, retry.type]).toContain(e.type);
        // the channel test starts only from running its action, as an admin
        if (s.matches('testingChannels') && !prev.matches('testingChannels')) {
          expect(e).toEqual(run);
          expect(prev.context.isAdmin).toBe(true);
        }
      }
    }
  });

  describe('pinned journeys', () => {
    it('typing waits, searches, then lists the entities after pages and actions', () => {
      expect(journey([openAdmin, type('openai')]).value).toEqual({ open: 'debouncing' });
      expect(journey([openAdmin, type('openai'), debounced]).value).toEqual({ open: 'searching' });
      const s = journey([openAdmin, type('openai'), debounced, found]);
      expect(s.value).toEqual({ open: 'idle' });
      expect(selectResults(s).map((r) => r.id)).toEqual(['channels:3', 'tokens:5', 'users:7']);
    });
    it('Enter on a channel navigates to its edit page and closes', () => {
      const s = journey([openAdmin, type('openai'), debounced, found, run]);
      expect(s.value).toBe('closed');
    });
    it('arrows wrap around', () => {
      const s = journey([openAdmin, type('openai'), debounced, found, previous]);
      expect(selectActiveIndex(s)).toBe(2);
      expect(selectActiveIndex(journey([openAdmin, type('openai'), debounced, found, previous, next]))).toBe(0);
    });
    it('a common user finds no admin page', () => {
      const s = journey([openCommon, type('渠道')]);
      expect(selectResults(s)).toEqual([]);
      expect(selectResults(journey([openCommon])).some((r) => adminOnly.has(r.id))).toBe(false);
      expect(selectResults(journey([openAdmin])).filter((r) => adminOnly.has(r.id)).length).toBe(4);
    });
    it('a failed search shows why and retries', () => {
      const failed = journey([openAdmin, type('openai'), debounced, searchRefused]);
      expect(failed.value).toEqual({ open: 'failed' });
      expect(renderMessage('zh', selectSearchError(failed)!)).toBe(serverMessage);
      expect(journey([openAdmin, type('openai'), debounced, searchRefused, retry]).value).toEqual({ open: 'searching' });
    });
    it('clearing the query stops waiting and forgets entities', () => {
      const s = journey([openAdmin, type('openai'), debounced, found, type('')]);
      expect(s.value).toEqual({ open: 'idle' });
      expect(selectResults(s).some((r) => r.group === 'channels')).toBe(false);
    });
    it('reopening starts afresh', () => {
      const s = journey([openAdmin, type('openai'), close, openCommon]);
      expect(selectQuery(s)).toBe('');
      expect(s.context.isAdmin).toBe(false);
    });
    it('Ctrl+K toggles', () => {
      expect(journey([toggle]).value).toEqual({ open: 'idle' });
      expect(journey([toggle, toggle]).value).toBe('closed');
    });
  });

  describe('replay on a real actor with stub actors', () => {
    afterEach(() => void vi.useRealTimers());
    const stubs = () => ({
      searchEntities: controlled<PaletteEntities, SearchEntitiesInput>(),
      testAllChannels: controlled<void, void>(),
    });
    const options = (s: ReturnType<typeof stubs>) => ({
      machine: commandPaletteMachine,
      stubs: s,
      settle: () => vi.advanceTimersByTimeAsync(0),
      play: async (e: AnyEventObject) => {
        if (!e.type.startsWith('xstate.after.')) return false;
        await vi.advanceTimersByTimeAsync(searchDebounceMs);
        return true;
      },
    });
    // one shortest path to each distinct state value (the replay is the slow part)
    const byValue = new Map(realShortest().filter((p) => p.steps.length > 1).map((p) => [JSON.stringify([p.state.value, p.state.context.isAdmin]), p] as const));
    const chosen = [
      ...byValue.values(),
      pathOf(commandPaletteMachine, undefined, [openAdmin, type('openai'), debounced, searchRefused, retry, found, next, run]),
    ];
    it.each(chosen.map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      vi.useFakeTimers();
      expect(isRealistic(p)).toBe(true);
      await replayPath(options(stubs()), p);
    });

    it('emits navigate to the edit page of the channel chosen', async () => {
      vi.useFakeTimers();
      const s = stubs();
      const { emitted } = await replay(options(s), [openAdmin, type(' openai '), debounced, found, run]);
      expect(s.searchEntities.calls).toEqual([{ keyword: 'openai', isAdmin: true }]);
      expect(emitted).toEqual([{ type: 'navigate', to: '/channel/edit/3', replace: false }]);
    });
    it('emits the commands for theme, language and sign-out', async () => {
      vi.useFakeTimers();
      for (const [q, command] of [['dark', 'theme.toggle'], ['language', 'lang.toggle'], ['sign out', 'signOut']] as const) {
        const { emitted } = await replay(options(stubs()), [openCommon, type(q), debounced, doneActor('searchEntities', commonEntities), run]);
        expect(emitted).toEqual([{ type: 'command', command }]);
      }
    });
    it('runs the channel test and says it started, or why not', async () => {
      vi.useFakeTimers();
      const ok = await replay(options(stubs()), [openAdmin, type('test all'), debounced, found, run, testStarted]);
      expect(ok.snapshot.value).toBe('closed');
      expect(ok.emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'palette.testChannels.started' } }]);
      const refused = await replay(options(stubs()), [openAdmin, type('test all'), debounced, found, run, testRefused]);
      expect(refused.emitted.map((e) => e.type === 'notify' && renderMessage('en', e.message))).toEqual([serverMessage]);
      for (const e of ok.emitted) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key)).toBe(true);
    });
    it('a common user cannot run the channel test even if asked', () => {
      const s = journey([openCommon, type('test all')]);
      expect(selectResults(s).some((r) => r.id === 'action:testChannels')).toBe(false);
    });
  });

  describe('the searchDebounce delay', () => {
    afterEach(() => void vi.useRealTimers());
    it(`waits ${searchDebounceMs} ms after the last keystroke, and a new keystroke aborts the running search`, async () => {
      vi.useFakeTimers();
      const calls: { input: SearchEntitiesInput; signal: AbortSignal }[] = [];
      const machine = commandPaletteMachine.provide({
        actors: {
          searchEntities: fromPromise<PaletteEntities, SearchEntitiesInput>(({ input, signal }) => {
            calls.push({ input, signal });
            return new Promise<PaletteEntities>(() => undefined);
          }),
        },
      });
      const actor = createActor(machine).start();
      actor.send(openAdmin);
      actor.send(type('op'));
      await vi.advanceTimersByTimeAsync(searchDebounceMs - 1);
      actor.send(type('ope'));
      await vi.advanceTimersByTimeAsync(searchDebounceMs - 1);
      expect(calls).toEqual([]);
      expect(actor.getSnapshot().value).toEqual({ open: 'debouncing' });
      await vi.advanceTimersByTimeAsync(1);
      expect(actor.getSnapshot().value).toEqual({ open: 'searching' });
      expect(calls.map((c) => c.input)).toEqual([{ keyword: 'ope', isAdmin: true }]);
      actor.send(type('open'));
      expect(calls[0]!.signal.aborted).toBe(true);
      await vi.advanceTimersByTimeAsync(searchDebounceMs);
      expect(calls.map((c) => c.input.keyword)).toEqual(['ope', 'open']);
      expect(calls[1]!.signal.aborted).toBe(false);
      actor.send(close);
      expect(calls[1]!.signal.aborted).toBe(true);
      actor.stop();
    });
    it('is named, so tests and stories can override it', () => {
      expect(Object.keys(commandPaletteMachine.implementations.delays)).toEqual(['searchDebounce']);
    });
  });
});
