import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, type AnyEventObject } from 'xstate';
import { failure } from '../../src/domain/apiError';
import { relayChildren } from '../../src/machines/pageRelay';
import {
  resendCooldownSeconds,
  selectCanSend,
  selectIsCoolingDown,
  selectIsSending,
  selectProgress,
  selectSecondsLeft,
  sendCooldownMachine,
  sendCooldownWith,
  senderStatusOf,
  type SendCooldownEmitted,
  type SendCooldownEvent,
  type SendCooldownInput,
  type SendRequest,
} from '../../src/machines/sendCooldown';
import { afterDelay, describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { journey as walk, replayPath } from './support/replay';
import { controlled } from './support/stubs';

const request = (email: string, turnstile = 'tok'): SendCooldownEvent => ({ type: 'send.request', request: { email, turnstile } });
const alice = request('alice@example.com');
const bob = request('bob@example.com', '');
const fixtures: EventFixtures<typeof sendCooldownMachine> = { 'send.request': [alice, bob] };
const sent = doneActor('send');
const refused = errorActor('send', failure('send', '邮箱地址已被占用'));
const tick = afterDelay('tick', 'sendCooldown', 'coolingDown');
const internal = [sent, refused, tick];
const model = (input?: SendCooldownInput) => ({ fixtures, internal, input });

const journey = (input: SendCooldownInput | undefined, events: readonly AnyEventObject[]) =>
  walk(sendCooldownMachine, input as SendCooldownInput, events);
const ticks = (n: number) => Array.from({ length: n }, () => tick);

afterEach(() => {
  vi.useRealTimers();
});

describe('sendCooldown model', () => {
  it('reaches every state (the default countdown is 30 s)', () => {
    expect(resendCooldownSeconds).toBe(30);
    const paths = shortestPaths(sendCooldownMachine, model()).filter(isRealistic);
    expect(unreachedStates(sendCooldownMachine, paths)).toEqual([]);
    // the last second of a countdown: a request, its answer, then one tick per second, 29 times
    // (the thirtieth makes it ready: the initial state again)
    const last = paths.filter((p) => p.state.matches('coolingDown') && p.state.context.secondsLeft === 1);
    expect(last.length).toBeGreaterThan(0);
    for (const p of last) {
      expect(p.steps).toHaveLength(1 + 2 + 29);
      expect(describePath(p).split(' → ').filter((t) => t === tick.type)).toHaveLength(29);
    }
  });

  it.each([undefined, { seconds: 5 }, { seconds: 1 }, { seconds: 0 }])('keeps its invariants on every simple path (input %j)', (input) => {
    const total = input?.seconds ?? resendCooldownSeconds;
    const paths = simplePaths(sendCooldownMachine, model(input)).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      const snaps = snapshotsOf(p);
      for (const [i, s] of snaps.entries()) {
        const before = i > 0 ? snaps[i - 1]! : null;
        const event = p.steps[i]!.event;
        expect(s.status).toBe('active');
        expect(s.context.total).toBe(total);
        // seconds are left exactly while cooling down, within 1..total
        expect(selectIsCoolingDown(s)).toBe(s.context.secondsLeft > 0);
        expect(s.context.secondsLeft).toBeLessThanOrEqual(total);
        // exactly one of the three phases; the send runs only while sending
        expect([s.matches('ready'), s.matches('sending'), s.matches('coolingDown')].filter(Boolean)).toHaveLength(1);
        expect((s.children as Record<string, unknown>).send !== undefined).toBe(s.matches('sending'));
        expect(selectIsSending(s)).toBe(s.matches('sending'));
        expect(selectCanSend(s)).toBe(s.matches('ready'));
        expect(selectProgress(s)).toBeGreaterThanOrEqual(0);
        expect(selectProgress(s)).toBeLessThanOrEqual(1);
        // the parent's mirror says the same
        expect(senderStatusOf(s)).toEqual({
          phase: s.matches('sending') ? 'sending' : s.matches('coolingDown') ? 'coolingDown' : 'ready',
          secondsLeft: s.context.secondsLeft,
        });
        if (before === null) continue;
        // a send starts only from ready, on a request
        if (s.matches('sending') && !before.matches('sending')) {
          expect(before.matches('ready')).toBe(true);
          expect(event.type).toBe('send.request');
        }
        // a request while busy changes nothing
        if (event.type === 'send.request' && !before.matches('ready')) {
          expect(s.value).toEqual(before.value);
          expect(s.context).toEqual(before.context);
        }
        // the countdown starts at the total after the answer, success or not, and never goes up
        if (before.matches('sending') && !s.matches('sending')) {
          expect([sent.type, refused.type]).toContain(event.type);
          expect(s.context.secondsLeft).toBe(total > 0 ? total : 0);
        }
        if (before.matches('coolingDown') && event.type === tick.type) {
          expect(s.context.secondsLeft).toBe(before.context.secondsLeft - 1);
        }
      }
    }
  });

  describe('pinned journeys', () => {
    it('starts ready with nothing to count', () => {
      const s = journey(undefined, []);
      expect(s.value).toBe('ready');
      expect(selectSecondsLeft(s)).toBe(0);
      expect(selectCanSend(s)).toBe(true);
    });
    it('a request sends; the answer starts 30 s of countdown', () => {
      expect(selectIsSending(journey(undefined, [alice]))).toBe(true);
      const cooling = journey(undefined, [alice, sent]);
      expect(cooling.value).toBe('coolingDown');
      expect(selectSecondsLeft(cooling)).toBe(30);
      expect(selectProgress(cooling)).toBe(0);
      expect(selectCanSend(cooling)).toBe(false);
    });
    it('a failed send also cools down (the spec: after a send attempt)', () => {
      expect(selectSecondsLeft(journey(undefined, [alice, refused]))).toBe(30);
    });
    it('each tick takes one second off; the thirtieth makes it ready again', () => {
      expect(selectSecondsLeft(journey(undefined, [alice, sent, ...ticks(1)]))).toBe(29);
      expect(journey(undefined, [alice, sent, ...ticks(29)]).value).toBe('coolingDown');
      const again = journey(undefined, [alice, sent, ...ticks(30)]);
      expect(again.value).toBe('ready');
      expect(selectSecondsLeft(again)).toBe(0);
    });
    it('requests while sending or cooling down are ignored', () => {
      expect(journey(undefined, [alice, bob]).value).toBe('sending');
      expect(selectSecondsLeft(journey(undefined, [alice, sent, tick, bob]))).toBe(29);
    });
    it('takes its length from the input; zero, negative or fractional lengths are normalised', () => {
      expect(selectSecondsLeft(journey({ seconds: 3 }, [alice, sent]))).toBe(3);
      expect(journey({ seconds: 3 }, [alice, sent, ...ticks(3)]).value).toBe('ready');
      expect(journey({ seconds: 0 }, [alice, sent]).value).toBe('ready');
      expect(journey({ seconds: -5 }, []).context).toEqual({ total: 0, secondsLeft: 0 });
      expect(journey({ seconds: 2.7 }, [alice, sent]).context).toEqual({ total: 2, secondsLeft: 2 });
    });
  });

  describe('replay on a real actor with a stub send', () => {
    const cases = [undefined, { seconds: 3 }].flatMap((input) =>
      shortestPaths(sendCooldownMachine, model(input))
        .filter(isRealistic)
        .map((p) => [`${JSON.stringify(input ?? null)}: ${describePath(p).replaceAll(tick.type, 'tick')}`, input, p] as const),
    );
    it.each(cases)('%s', async (_, input, p) => {
      vi.useFakeTimers();
      const send = controlled<void, SendRequest>();
      const run = await replayPath(
        {
          machine: sendCooldownMachine,
          input,
          stubs: { send },
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
      const events = p.steps.map((s) => s.event);
      // one call per request that found it ready, with the request as given
      expect(send.calls).toEqual(events.filter((e, i) => e.type === 'send.request' && p.steps[i - 1]?.state.matches('ready')).map((e) => (e).request));
      // one fact per answer, in order
      const facts = events.flatMap((e): SendCooldownEmitted[] =>
        e.type === sent.type ? [{ type: 'send.succeeded' }] : e.type === refused.type ? [{ type: 'send.failed', error: refused.error }] : [],
      );
      expect(run.emitted).toEqual(facts);
    });
  });

  it('tick: after a send the count drops by one every second and it is ready after 30 s', async () => {
    vi.useFakeTimers();
    const send = controlled<void, SendRequest>();
    const actor = createActor(sendCooldownWith(send.logic), { input: undefined }).start();
    actor.send(alice);
    await vi.advanceTimersByTimeAsync(0);
    send.resolve(undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(selectSecondsLeft(actor.getSnapshot())).toBe(30);
    for (let left = 29; left >= 1; left--) {
      await vi.advanceTimersByTimeAsync(999);
      expect(selectSecondsLeft(actor.getSnapshot())).toBe(left + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(selectSecondsLeft(actor.getSnapshot())).toBe(left);
      // a request during the countdown sends nothing
      actor.send(alice);
    }
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().value).toBe('ready');
    expect(send.calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    actor.stop();
  });

  it('tick can be overridden by name (stories and tests shorten it)', async () => {
    vi.useFakeTimers();
    const fast = sendCooldownWith(fromPromise<void, SendRequest>(() => Promise.resolve())).provide({ delays: { tick: 10 } });
    const actor = createActor(fast, { input: { seconds: 3 } }).start();
    actor.send(alice);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('coolingDown');
    await vi.advanceTimersByTimeAsync(30);
    expect(actor.getSnapshot().value).toBe('ready');
    actor.stop();
  });

  it('without an injected send the attempt fails (and still cools down)', async () => {
    const actor = createActor(sendCooldownMachine, { input: { seconds: 1 } });
    const emitted: SendCooldownEmitted[] = [];
    actor.on('*', (e) => void emitted.push(e));
    actor.start();
    actor.send(alice);
    await new Promise((r) => setTimeout(r, 0));
    expect(emitted.map((e) => e.type)).toEqual(['send.failed']);
    expect(actor.getSnapshot().value).toBe('coolingDown');
    actor.stop();
  });

  it('a parent that invokes it and relays its facts hears them, and its mirror follows the child', async () => {
    vi.useFakeTimers();
    const send = controlled<void, SendRequest>();
    const heard: string[] = [];
    const mirrored: string[] = [];
    const parent = createMachine({
      invoke: [
        {
          id: 'sender',
          src: sendCooldownWith(send.logic),
          input: { seconds: 2 },
          onSnapshot: { actions: ({ event }) => void mirrored.push(JSON.stringify(senderStatusOf(event.snapshot as never))) },
        },
        { id: 'relay', src: relayChildren, input: ({ self }) => ({ page: self, ids: ['sender'] }) },
      ],
      on: { '*': { actions: ({ event }) => void heard.push(event.type) } },
    });
    const actor = createActor(parent).start();
    (actor.getSnapshot().children as Record<string, { send: (e: SendCooldownEvent) => void }>).sender!.send(alice);
    await vi.advanceTimersByTimeAsync(0);
    send.reject(new Error('down'));
    await vi.advanceTimersByTimeAsync(2000);
    expect(heard.filter((t) => t.startsWith('send.'))).toEqual(['send.failed']);
    expect(mirrored.map((m) => JSON.parse(m) as unknown)).toEqual([
      { phase: 'ready', secondsLeft: 0 },
      { phase: 'sending', secondsLeft: 0 },
      { phase: 'coolingDown', secondsLeft: 2 },
      { phase: 'coolingDown', secondsLeft: 1 },
      { phase: 'ready', secondsLeft: 0 },
    ]);
    actor.stop();
  });
});
