import { describe, expect, it } from 'vitest';
import { type AnyEventObject, type SnapshotFrom } from 'xstate';
import { selectIsRendered, selectPhase, selectToken, turnstileMachine } from '../../src/machines/turnstile';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as walk, follows } from './support/replay';

type Snap = SnapshotFrom<typeof turnstileMachine>;

const fixtures: EventFixtures<typeof turnstileMachine> = {
  'widget.mounted': [{ type: 'widget.mounted' }],
  'load.retry': [{ type: 'load.retry' }],
  'token.received': [
    { type: 'token.received', token: '0.tok-first' },
    { type: 'token.received', token: '0.tok-refreshed' },
  ],
  'token.expired': [{ type: 'token.expired' }],
  'challenge.failed': [{ type: 'challenge.failed' }],
};
const loaded = doneActor('loadTurnstile');
const loadFailed = errorActor('loadTurnstile', new Error('Turnstile script timed out'));
const model = { fixtures, internal: [loaded, loadFailed] };

const realShortest = () => shortestPaths(turnstileMachine, model).filter(isRealistic);
const realSimple = () => simplePaths(turnstileMachine, model).filter(isRealistic);

function journey(events: readonly AnyEventObject[]): Snap {
  return walk(turnstileMachine, undefined, events);
}

describe('turnstile model', () => {
  it('reaches every state', () => {
    expect(unreachedStates(turnstileMachine, realShortest())).toEqual([]);
  });

  it('keeps its invariants on every simple path', () => {
    const paths = realSimple();
    expect(paths.length).toBeGreaterThan(5);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        // a token is held exactly while solved
        expect(s.context.token !== null).toBe(s.matches('solved'));
        expect(selectToken(s) !== '').toBe(s.matches('solved'));
        // the script loads only in loading, at most once at a time
        const children = Object.keys(s.children);
        expect(children).toEqual(s.matches('loading') ? ['loadTurnstile'] : []);
        expect(s.hasTag('busy')).toBe(s.matches('loading'));
        expect(s.hasTag('error')).toBe(s.matches('failed'));
        // the challenge is on the page only once the script is there
        expect(selectIsRendered(s)).toBe(selectPhase(s) === 'ready' || selectPhase(s) === 'solved');
        expect(s.status).toBe('active');
      }
    }
  });

  describe('pinned journeys', () => {
    it('mount, load, solve: the token is there', () => {
      const s = journey([{ type: 'widget.mounted' }, loaded, { type: 'token.received', token: 'abc' }]);
      expect(selectPhase(s)).toBe('solved');
      expect(selectToken(s)).toBe('abc');
    });
    it('a refreshed token replaces the old one; expiry drops it', () => {
      const solved = [{ type: 'widget.mounted' }, loaded, { type: 'token.received', token: 'a' }];
      expect(selectToken(journey([...solved, { type: 'token.received', token: 'b' }]))).toBe('b');
      const expired = journey([...solved, { type: 'token.expired' }]);
      expect(selectPhase(expired)).toBe('ready');
      expect(selectToken(expired)).toBe('');
      expect(selectToken(journey([...solved, { type: 'challenge.failed' }]))).toBe('');
    });
    it('a failed load can be retried', () => {
      const failed = journey([{ type: 'widget.mounted' }, loadFailed]);
      expect(selectPhase(failed)).toBe('failed');
      expect(selectPhase(journey([{ type: 'widget.mounted' }, loadFailed, { type: 'load.retry' }]))).toBe('loading');
    });
    it('nothing loads before the widget is on the page; a second mount does not load twice', () => {
      expect(selectPhase(journey([{ type: 'load.retry' }, { type: 'token.received', token: 'x' }]))).toBe('idle');
      const s = journey([{ type: 'widget.mounted' }, { type: 'widget.mounted' }]);
      expect(selectPhase(s)).toBe('loading');
    });
    it('a token before the script is ready is ignored', () => {
      expect(selectToken(journey([{ type: 'widget.mounted' }, { type: 'token.received', token: 'early' }]))).toBe('');
    });
  });

  describe('replay on a real actor with a stub loader', () => {
    async function replay(events: readonly AnyEventObject[], check: (i: number, s: Snap) => void) {
      const load = controlled<void, unknown>();
      await replayOn({ machine: turnstileMachine, stubs: { loadTurnstile: load } }, events, check);
      return load;
    }
    it.each(realShortest().filter((p) => p.steps.length > 1).map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      const load = await replay(
        p.steps.map((s) => s.event),
        follows(p),
      );
      const loads = p.steps.filter((s) => s.event.type === 'widget.mounted' || s.event.type === 'load.retry').length;
      expect(load.calls.length).toBeLessThanOrEqual(loads);
    });
  });
});
