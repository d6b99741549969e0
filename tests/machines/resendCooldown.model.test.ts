import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  resendCooldownMachine,
  resendCooldownSeconds,
  selectIsCoolingDown,
  selectProgress,
  selectSecondsLeft,
  type ResendCooldownInput,
} from '../../src/machines/resendCooldown';
import { afterDelay, describePath, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { journey as walk, replayPath } from './support/replay';

/** The countdown takes no events of its own: it only ticks. */
const fixtures: EventFixtures<typeof resendCooldownMachine> = {};
const tick = afterDelay('tick', 'resendCooldown', 'coolingDown');
const model = (input?: ResendCooldownInput) => ({ fixtures, internal: [tick], input });

const journey = (input: ResendCooldownInput | undefined, ticks: number) =>
  walk(resendCooldownMachine, input as ResendCooldownInput, Array.from({ length: ticks }, () => tick));

afterEach(() => {
  vi.useRealTimers();
});

describe('resendCooldown model', () => {
  it('reaches every state (the default countdown is 30 s)', () => {
    expect(resendCooldownSeconds).toBe(30);
    const paths = shortestPaths(resendCooldownMachine, model()).filter(isRealistic);
    expect(unreachedStates(resendCooldownMachine, paths)).toEqual([]);
    const over = paths.find((p) => p.state.matches('over'))!;
    // the only way to the end is one tick per second, thirty times
    expect(over.steps.length).toBe(1 + 30);
    expect(describePath(over).split(' → ').filter((t) => t === tick.type)).toHaveLength(30);
  });

  it.each([undefined, { seconds: 30 }, { seconds: 5 }, { seconds: 1 }, { seconds: 0 }])(
    'keeps its invariants on every simple path (input %j)',
    (input) => {
      const total = input?.seconds ?? resendCooldownSeconds;
      const paths = simplePaths(resendCooldownMachine, model(input)).filter(isRealistic);
      expect(paths.length).toBeGreaterThan(0);
      for (const p of paths) {
        let previous: number | null = null;
        for (const s of snapshotsOf(p)) {
          // the count stays within 0..total and never goes up
          expect(s.context.total).toBe(total);
          expect(s.context.secondsLeft).toBeGreaterThanOrEqual(0);
          expect(s.context.secondsLeft).toBeLessThanOrEqual(total);
          if (previous !== null) expect(s.context.secondsLeft).toBeLessThanOrEqual(previous);
          previous = s.context.secondsLeft;
          // cooling down exactly while seconds are left; over means done
          expect(selectIsCoolingDown(s)).toBe(s.context.secondsLeft > 0);
          expect(s.matches('over')).toBe(s.context.secondsLeft === 0);
          expect(s.status === 'done').toBe(s.matches('over'));
          expect(selectProgress(s)).toBeGreaterThanOrEqual(0);
          expect(selectProgress(s)).toBeLessThanOrEqual(1);
        }
      }
    },
  );

  describe('pinned journeys', () => {
    it('starts at the total', () => {
      const s = journey(undefined, 0);
      expect(s.value).toBe('coolingDown');
      expect(selectSecondsLeft(s)).toBe(30);
      expect(selectProgress(s)).toBe(0);
    });
    it('each tick takes one second off', () => {
      expect(selectSecondsLeft(journey(undefined, 1))).toBe(29);
      expect(selectSecondsLeft(journey(undefined, 29))).toBe(1);
      expect(journey(undefined, 29).value).toBe('coolingDown');
    });
    it('the thirtieth tick ends it', () => {
      const s = journey(undefined, 30);
      expect(s.value).toBe('over');
      expect(s.status).toBe('done');
      expect(selectSecondsLeft(s)).toBe(0);
      expect(selectProgress(s)).toBe(1);
    });
    it('takes its length from the input', () => {
      expect(journey({ seconds: 3 }, 2).value).toBe('coolingDown');
      expect(journey({ seconds: 3 }, 3).value).toBe('over');
    });
    it('a zero, negative or fractional length is normalised', () => {
      expect(journey({ seconds: 0 }, 0).value).toBe('over');
      expect(journey({ seconds: -5 }, 0).context).toEqual({ total: 0, secondsLeft: 0 });
      expect(journey({ seconds: 2.7 }, 0).context).toEqual({ total: 2, secondsLeft: 2 });
    });
  });

  describe('replay on a real actor', () => {
    const cases = [undefined, { seconds: 4 }].flatMap((input) =>
      shortestPaths(resendCooldownMachine, model(input))
        .filter(isRealistic)
        .map((p) => [`${JSON.stringify(input ?? null)}: ${p.steps.length - 1} ticks`, input, p] as const),
    );
    it.each(cases)('%s', async (_, input, p) => {
      vi.useFakeTimers();
      const run = await replayPath(
        {
          machine: resendCooldownMachine,
          input,
          // a tick is one second of the fake clock
          play: async (event) => {
            if (event.type !== tick.type) return false;
            await vi.advanceTimersByTimeAsync(1000);
            return true;
          },
          settle: () => vi.advanceTimersByTimeAsync(0),
        },
        p,
      );
      expect(run.snapshot.status).toBe(p.state.status);
      expect(run.emitted).toEqual([]);
    });
  });

  it('tick: the 30-second countdown drops by one every second and ends after 30 s', async () => {
    vi.useFakeTimers();
    const seen: number[] = [];
    const actor = createActor(resendCooldownMachine, { input: undefined });
    actor.subscribe((s) => seen.push(s.context.secondsLeft));
    actor.start();
    expect(actor.getSnapshot().context.secondsLeft).toBe(30);
    for (let left = 29; left >= 1; left--) {
      await vi.advanceTimersByTimeAsync(999);
      expect(actor.getSnapshot().context.secondsLeft).toBe(left + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(actor.getSnapshot().context.secondsLeft).toBe(left);
      expect(actor.getSnapshot().value).toBe('coolingDown');
    }
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().value).toBe('over');
    expect(actor.getSnapshot().status).toBe('done');
    // every whole second was shown once, from 30 down to 0
    expect([...new Set(seen)]).toEqual(Array.from({ length: 31 }, (_, i) => 30 - i));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tick can be overridden by name (stories and tests shorten it)', async () => {
    vi.useFakeTimers();
    const fast = resendCooldownMachine.provide({ delays: { tick: 10 } });
    const actor = createActor(fast, { input: { seconds: 3 } }).start();
    await vi.advanceTimersByTimeAsync(30);
    expect(actor.getSnapshot().status).toBe('done');
  });
});
