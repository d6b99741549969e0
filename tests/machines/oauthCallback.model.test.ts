import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type Actor, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import { isMessageKey } from '../../src/i18n';
import type { User } from '../../src/domain/user';
import {
  maxAttempts,
  retryStep,
  oauthCallbackMachine,
  selectAttempt,
  selectPhase,
  type ExchangeCodeInput,
  type OAuthCallbackInput,
  type OAuthOutcome,
} from '../../src/machines/oauthCallback';
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
import { fakeSession } from './support/fakeSession';

const user: User = { id: 7, username: 'github_7', display_name: 'GitHub User', role: 1, status: 1 };
const session = fakeSession();
const input: OAuthCallbackInput = { session, provider: 'github', code: 'c0de', state: 'st4te12chars' };
const rejectedText = '登录状态校验失败（state 为空或不一致），请返回登录页重新发起登录';
const rejected = failure('oauthGitHub', rejectedText);

/** The machine takes no events of its own: everything happens through its invoke and delay. */
const fixtures: EventFixtures<typeof oauthCallbackMachine> = {};
const bind = doneActor('exchangeCode', { bound: true } satisfies OAuthOutcome);
const login = doneActor('exchangeCode', { bound: false, user } satisfies OAuthOutcome);
const secondStep = doneActor('exchangeCode', { bound: false, secondFactor: true } satisfies OAuthOutcome);
const adminLogin = doneActor('exchangeCode', { bound: false, user: { ...user, role: 10 }, enrolmentRequired: true } satisfies OAuthOutcome);
const fail = errorActor('exchangeCode', rejected);
const wait = afterDelay('retryBackoff', 'oauthCallback', 'retrying');
const internal = [bind, login, secondStep, fail, wait];
const model = { fixtures, internal, input };

type Snap = SnapshotFrom<typeof oauthCallbackMachine>;

/** Pure journey: apply events with the machine's own transition (no actor runs). */
function journey(events: readonly AnyEventObject[]): Snap {
  return walk(oauthCallbackMachine, input, events);
}
const realShortest = () => shortestPaths(oauthCallbackMachine, model).filter(isRealistic);
const realSimple = () => simplePaths(oauthCallbackMachine, model).filter(isRealistic);

afterEach(() => {
  vi.useRealTimers();
});

describe('oauthCallback model', () => {
  it('reaches every state', () => {
    const paths = realShortest();
    expect(unreachedStates(oauthCallbackMachine, paths)).toEqual([]);
    expect(paths.map(describePath)).toContain(
      'xstate.init → xstate.error.actor.exchangeCode → xstate.after.retryBackoff.oauthCallback.retrying → xstate.error.actor.exchangeCode → xstate.after.retryBackoff.oauthCallback.retrying → xstate.error.actor.exchangeCode',
    );
  });

  it('keeps its invariants on every simple path', () => {
    const paths = realSimple();
    expect(paths.length).toBeGreaterThan(5);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        // the attempt counter stays within 0..maxAttempts
        expect(s.context.attempt).toBeGreaterThanOrEqual(0);
        expect(s.context.attempt).toBeLessThanOrEqual(maxAttempts);
        // never two exchanges in flight; an exchange runs only while exchanging
        const running = Object.keys(s.children);
        expect(running.length).toBeLessThanOrEqual(1);
        expect(running.length === 1).toBe(s.matches('exchanging'));
        // waiting only after a failure, and the failure is on show
        if (s.matches('retrying')) {
          expect(s.context.attempt).toBeGreaterThan(0);
          expect(s.context.attempt).toBeLessThan(maxAttempts);
          expect(s.context.lastError).toEqual({ text: rejectedText });
        }
        // giving up means every attempt failed
        if (s.matches('failed')) expect(s.context.attempt).toBe(maxAttempts);
        // busy exactly while the outcome is unknown
        expect(s.hasTag('busy')).toBe(s.matches('exchanging') || s.matches('retrying'));
        expect(s.status === 'done').toBe(s.matches('bound') || s.matches('signedIn') || s.matches('secondFactor') || s.matches('failed'));
      }
    }
  });

  describe('pinned journeys', () => {
    it('success on the first try signs in', () => {
      const s = journey([login]);
      expect(s.value).toBe('signedIn');
      expect(s.status).toBe('done');
      expect(selectAttempt(s)).toBe(0);
      expect(selectPhase(s)).toBe('signedIn');
    });
    it('a user with two-factor sign-in on: handed over to the second step (the page still says processing)', () => {
      const s = journey([secondStep]);
      expect(s.value).toBe('secondFactor');
      expect(s.status).toBe('done');
      expect(selectPhase(s)).toBe('processing');
      expect(journey([fail, wait, secondStep]).value).toBe('secondFactor');
    });
    it('bind ends bound', () => {
      const s = journey([bind]);
      expect(s.value).toBe('bound');
      expect(selectPhase(s)).toBe('bound');
    });
    it('one failure, then success: retried once', () => {
      const s = journey([fail, wait, login]);
      expect(s.value).toBe('signedIn');
      expect(selectAttempt(s)).toBe(1);
    });
    it('failing three times gives up', () => {
      const afterOne = journey([fail]);
      expect(selectPhase(afterOne)).toBe('retrying');
      expect(selectAttempt(afterOne)).toBe(1);
      const s = journey([fail, wait, fail, wait, fail]);
      expect(s.value).toBe('failed');
      expect(s.status).toBe('done');
      expect(selectAttempt(s)).toBe(3);
      expect(s.context.lastError).toEqual({ text: '登录状态校验失败（state 为空或不一致），请返回登录页重新发起登录' });
      // nothing moves it after giving up
      expect(journey([fail, wait, fail, wait, fail, wait, login]).value).toBe('failed');
    });
    it('an HTTP failure keeps the catalogue message', () => {
      const s = journey([errorActor('exchangeCode', httpError('oauthLark', 500, 'boom'))]);
      expect(s.context.lastError).toEqual({ key: 'error.internal' });
    });
  });

  describe('replay on a real actor with stub actors', () => {
    /**
     * Plays the path on a real actor: each exchange is a stub promise settled when the path's
     * done/error event comes; the fake clock plays each retryBackoff for exactly its wait.
     * After every step the actor must agree with the traversal.
     */
    async function replay(events: readonly AnyEventObject[], check?: (step: number, s: Snap) => void) {
      vi.useFakeTimers();
      const exchange = controlled<OAuthOutcome, ExchangeCodeInput>();
      const live = fakeSession();
      const play = async (e: AnyEventObject, actor: Actor<typeof oauthCallbackMachine>) => {
        if (!e.type.startsWith('xstate.after.retryBackoff.')) return false;
        await vi.advanceTimersByTimeAsync(retryStep * actor.getSnapshot().context.attempt - 1);
        expect(actor.getSnapshot().value).toBe('retrying');
        await vi.advanceTimersByTimeAsync(1);
        return true;
      };
      const settle = () => vi.advanceTimersByTimeAsync(0);
      const run = await replayOn({ machine: oauthCallbackMachine, input: { ...input, session: live }, stubs: { exchangeCode: exchange }, play, settle }, events, check);
      return { ...run, calls: exchange.calls, received: live.getSnapshot().context.received };
    }

    const chosen = realShortest().filter((p) => p.steps.length > 1);
    it.each(chosen.map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      const { calls } = await replay(
        p.steps.map((s) => s.event),
        (i, s) => {
          expect(s.value).toEqual(p.steps[i]!.state.value);
          expect({ ...s.context, session }).toEqual(p.steps[i]!.state.context);
          expect(s.status).toEqual(p.steps[i]!.state.status);
        },
      );
      const exchanges = p.steps.filter((s) => s.event.type.includes('.actor.exchangeCode')).length;
      expect(calls.length).toBeGreaterThanOrEqual(exchanges);
      expect(calls.every((c) => c.code === input.code && c.state === input.state && c.provider === 'github')).toBe(true);
    });

    it('bind: notifies and goes to /setting (the session is not told)', async () => {
      const { emitted, received } = await replay([{ type: 'xstate.init' }, bind]);
      expect(received).toEqual([]);
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'signIn.oauth.bound' } },
        { type: 'navigate', to: '/setting', replace: true },
      ]);
    });

    it('login: hands the user to the session for / and says so', async () => {
      const { emitted, received } = await replay([{ type: 'xstate.init' }, login]);
      expect(received).toEqual([{ type: 'session.signedIn', user, to: '/', enrolmentRequired: false }]);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'signIn.loggedIn' } }]);
    });

    it('second factor: the session takes over (it shows the code form); no sign-in toast yet', async () => {
      const { emitted, received } = await replay([{ type: 'xstate.init' }, secondStep]);
      expect(received).toEqual([{ type: 'session.secondFactorNeeded', to: '/' }]);
      expect(emitted).toEqual([]);
    });

    it('an admin who must enrol is handed to the session flagged', async () => {
      const { received } = await replay([{ type: 'xstate.init' }, adminLogin]);
      expect(received).toEqual([{ type: 'session.signedIn', user: { ...user, role: 10 }, to: '/', enrolmentRequired: true }]);
    });

    it('every catalogue key it emits exists', async () => {
      const runs = [];
      for (const journeyEvents of [[bind], [login], [fail, wait, fail, wait, fail]]) {
        runs.push(await replay([{ type: 'xstate.init' }, ...journeyEvents]));
      }
      const keys = runs
        .flatMap((r) => r.emitted)
        .flatMap((e) => (e.type === 'notify' && 'key' in e.message ? [e.message.key] : []));
      expect(keys.length).toBeGreaterThan(2);
      expect(keys.filter((k) => !isMessageKey(k))).toEqual([]);
    });

    it('three failures: each shown, then back to /login', async () => {
      const { emitted, calls } = await replay([{ type: 'xstate.init' }, fail, wait, fail, wait, fail]);
      expect(calls).toHaveLength(3);
      expect(emitted).toEqual([
        { type: 'notify', level: 'error', message: { text: rejectedText } },
        { type: 'notify', level: 'error', message: { text: rejectedText } },
        { type: 'notify', level: 'error', message: { text: rejectedText } },
        { type: 'notify', level: 'error', message: { key: 'signIn.oauth.giveUp' } },
        { type: 'navigate', to: '/login', replace: true },
      ]);
    });
  });

  it('retryBackoff waits 2 s × attempt: 2 s, then 4 s', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const actor = createActor(
      oauthCallbackMachine.provide({
        actors: {
          exchangeCode: fromPromise<OAuthOutcome, ExchangeCodeInput>(async () => {
            calls += 1;
            await Promise.resolve();
            throw rejected;
          }),
        },
      }),
      { input },
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    expect(actor.getSnapshot().value).toBe('retrying');
    expect(selectAttempt(actor.getSnapshot())).toBe(1);

    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    expect(selectAttempt(actor.getSnapshot())).toBe(2);

    await vi.advanceTimersByTimeAsync(3999);
    expect(calls).toBe(2);
    expect(actor.getSnapshot().value).toBe('retrying');
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(3);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(selectAttempt(actor.getSnapshot())).toBe(3);
    actor.stop();
  });
});
