import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type Actor, type AnyEventObject, type SnapshotFrom } from 'xstate';
import {
  footerMachine,
  footerPollMs,
  maxFooterRereads,
  selectFooterHtml,
  selectIsPolling,
  selectRereads,
} from '../../src/machines/footer';
import {
  afterDelay,
  describePath,
  doneActor,
  errorActor,
  shortestPaths,
  simplePaths,
  unreachedStates,
  type EventFixtures,
} from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as walk } from './support/replay';

type Snap = SnapshotFrom<typeof footerMachine>;

const footerHtml = '<p>© 2024 Example Gateway · <a href="https://example.com">备案号</a></p>';

/** The footer takes no events of its own: it only reads and waits. */
const fixtures: EventFixtures<typeof footerMachine> = {};
const found = doneActor('readStoredFooter', footerHtml);
const none = doneActor('readStoredFooter', '');
const blank = doneActor('readStoredFooter', '   ');
const broken = errorActor('readStoredFooter', new Error('SecurityError: storage is disabled'));
const poll = afterDelay('footerPoll', 'footer', 'waiting');
const model = { fixtures, internal: [found, none, blank, broken, poll] };

function journey(events: readonly AnyEventObject[]): Snap {
  return walk(footerMachine, undefined, events);
}
/** `n` empty reads, each followed by the poll delay. */
const emptyRounds = (n: number): AnyEventObject[] => Array.from({ length: n }, () => [none, poll]).flat();

const realShortest = () => shortestPaths(footerMachine, model).filter(isRealistic);
const realSimple = () => simplePaths(footerMachine, model).filter(isRealistic);

afterEach(() => {
  vi.useRealTimers();
});

describe('footer model', () => {
  it('reads 200 ms apart, up to 5 re-reads', () => {
    expect(footerPollMs).toBe(200);
    expect(maxFooterRereads).toBe(5);
  });

  it('reaches every state', () => {
    const paths = realShortest();
    expect(unreachedStates(footerMachine, paths)).toEqual([]);
    const names = paths.map(describePath);
    expect(names).toContain('xstate.init → xstate.done.actor.readStoredFooter');
    expect(names).toContain(
      'xstate.init → xstate.done.actor.readStoredFooter → xstate.after.footerPoll.footer.waiting',
    );
  });

  it('keeps its invariants on every simple path', () => {
    const paths = realSimple();
    expect(paths.length).toBeGreaterThan(10);
    for (const p of paths) {
      let previous = 0;
      for (const s of snapshotsOf(p)) {
        // the re-read count stays within 0..5 and never goes down
        expect(selectRereads(s)).toBeGreaterThanOrEqual(previous);
        expect(selectRereads(s)).toBeLessThanOrEqual(maxFooterRereads);
        previous = selectRereads(s);
        // a footer is only ever a non-empty one, and finding one ends the polling
        if (selectFooterHtml(s) !== '') {
          expect(selectFooterHtml(s)).toBe(footerHtml);
          expect(s.matches('settled')).toBe(true);
        }
        // settling without a footer only after every re-read
        if (s.matches('settled') && selectFooterHtml(s) === '') expect(selectRereads(s)).toBe(maxFooterRereads);
        // one read at a time, and only while reading
        const running = Object.keys(s.children);
        expect(running).toEqual(s.matches('reading') ? ['readStoredFooter'] : []);
        expect(selectIsPolling(s)).toBe(!s.matches('settled'));
        expect(s.status === 'done').toBe(s.matches('settled'));
      }
    }
  });

  describe('pinned journeys', () => {
    it('a footer already stored: settled at the first read', () => {
      const s = journey([found]);
      expect(s.value).toBe('settled');
      expect(selectFooterHtml(s)).toBe(footerHtml);
      expect(selectRereads(s)).toBe(0);
    });
    it('the status arrives a little later: found on the third re-read', () => {
      const s = journey([...emptyRounds(3), found]);
      expect(s.value).toBe('settled');
      expect(selectFooterHtml(s)).toBe(footerHtml);
      expect(selectRereads(s)).toBe(3);
    });
    it('no footer configured: gives up after the fifth re-read with the default', () => {
      const waitingStill = journey(emptyRounds(5));
      expect(waitingStill.value).toBe('reading');
      expect(selectRereads(waitingStill)).toBe(5);
      const s = journey([...emptyRounds(5), none]);
      expect(s.value).toBe('settled');
      expect(selectFooterHtml(s)).toBe('');
      // nothing moves it afterwards
      expect(journey([...emptyRounds(5), none, found]).context.footerHtml).toBe('');
    });
    it('blank HTML counts as no footer', () => {
      const s = journey([blank]);
      expect(s.value).toBe('waiting');
      expect(selectFooterHtml(s)).toBe('');
    });
    it('an unreadable storage is retried like an empty one', () => {
      const s = journey([broken, poll, found]);
      expect(s.value).toBe('settled');
      expect(selectRereads(s)).toBe(1);
    });
  });

  describe('replay on a real actor with stub actors', () => {
    /** Plays the path: each read is a stub promise settled by the path's event; the fake clock plays each poll. */
    async function replay(events: readonly AnyEventObject[], check?: (step: number, s: Snap) => void) {
      vi.useFakeTimers();
      const read = controlled<string, unknown>();
      const play = async (e: AnyEventObject, actor: Actor<typeof footerMachine>) => {
        if (!e.type.startsWith('xstate.after.footerPoll.')) return false;
        await vi.advanceTimersByTimeAsync(footerPollMs - 1);
        expect(actor.getSnapshot().value).toBe('waiting');
        await vi.advanceTimersByTimeAsync(1);
        return true;
      };
      const settle = () => vi.advanceTimersByTimeAsync(0);
      const { snapshot } = await replayOn({ machine: footerMachine, stubs: { readStoredFooter: read }, play, settle }, events, check);
      return { snapshot, reads: read.calls.length };
    }

    const chosen = realShortest().filter((p) => p.steps.length > 1);
    it.each(chosen.map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      const { reads } = await replay(
        p.steps.map((s) => s.event),
        (i, s) => {
          expect(s.value).toEqual(p.steps[i]!.state.value);
          expect(s.context).toEqual(p.steps[i]!.state.context);
          expect(s.status).toEqual(p.steps[i]!.state.status);
        },
      );
      // one read per entry into `reading` (the first on start, then after each poll)
      expect(reads).toBe(p.steps.filter((s) => s.state.matches('reading')).length);
    });

    it('the longest journey: six reads, then the default', async () => {
      const { snapshot, reads } = await replay([{ type: 'xstate.init' }, ...emptyRounds(5), none]);
      expect(reads).toBe(1 + maxFooterRereads);
      expect(snapshot.value).toBe('settled');
      expect(selectFooterHtml(snapshot)).toBe('');
    });
  });

  describe('footerPoll (fake timers)', () => {
    it('re-reads every 200 ms and stops at the first non-empty footer', async () => {
      vi.useFakeTimers();
      const answers = ['', '', '', footerHtml];
      let reads = 0;
      const actor = createActor(
        footerMachine.provide({
          actors: {
            readStoredFooter: fromPromise<string>(() => Promise.resolve(answers[reads++] ?? 'unexpected read')),
          },
        }),
      ).start();
      await vi.advanceTimersByTimeAsync(0);
      expect(reads).toBe(1);
      for (const expected of [2, 3, 4]) {
        await vi.advanceTimersByTimeAsync(footerPollMs - 1);
        expect(reads).toBe(expected - 1);
        await vi.advanceTimersByTimeAsync(1);
        expect(reads).toBe(expected);
      }
      expect(actor.getSnapshot().value).toBe('settled');
      expect(selectFooterHtml(actor.getSnapshot())).toBe(footerHtml);
      await vi.advanceTimersByTimeAsync(footerPollMs * 10);
      expect(reads).toBe(4);
      actor.stop();
    });

    it('with nothing stored it reads at 0, 200, 400, 600, 800 and 1000 ms, then never again', async () => {
      vi.useFakeTimers();
      const at: number[] = [];
      const start = Date.now();
      const actor = createActor(
        footerMachine.provide({
          actors: {
            readStoredFooter: fromPromise<string>(() => {
              at.push(Date.now() - start);
              return Promise.resolve('');
            }),
          },
        }),
      ).start();
      await vi.advanceTimersByTimeAsync(footerPollMs * 20);
      expect(at).toEqual([0, 200, 400, 600, 800, 1000]);
      expect(actor.getSnapshot().status).toBe('done');
      expect(selectFooterHtml(actor.getSnapshot())).toBe('');
      actor.stop();
    });

    it('the delay is named, so it can be overridden', async () => {
      vi.useFakeTimers();
      let reads = 0;
      const actor = createActor(
        footerMachine.provide({
          delays: { footerPoll: 50 },
          actors: { readStoredFooter: fromPromise<string>(() => Promise.resolve(reads++ === 1 ? footerHtml : '')) },
        }),
      ).start();
      await vi.advanceTimersByTimeAsync(50);
      expect(reads).toBe(2);
      expect(actor.getSnapshot().value).toBe('settled');
      actor.stop();
    });
  });
});
