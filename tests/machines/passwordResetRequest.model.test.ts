import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, initialTransition, transition, type Actor, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import { checkTurnstile } from '../../src/domain/validation';
import { isMessageKey, renderMessage } from '../../src/i18n';
import {
  passwordResetRequestMachine,
  resetRequestVerdict,
  selectCanRequest,
  selectIsSending,
  selectSecondsLeft,
  type PasswordResetRequestEmitted,
  type PasswordResetRequestEvent,
  type PasswordResetRequestInput,
  type SendPasswordResetInput,
} from '../../src/machines/passwordResetRequest';
import { resendCooldownMachine, resendCooldownSeconds } from '../../src/machines/resendCooldown';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as walk } from './support/replay';

type Snap = SnapshotFrom<typeof passwordResetRequestMachine>;
type Request = PasswordResetRequestEvent;

const on: PasswordResetRequestInput = { turnstileEnabled: true };
const off: PasswordResetRequestInput = { turnstileEnabled: false };

const email = 'alice@example.com';
const request = (typed: string, turnstileToken = 'tok'): Request => ({ type: 'reset.request', email: typed, turnstileToken });
/** Passes: the e-mail as typed, with the spaces a paste leaves; it is sent trimmed. */
const good = request(` ${email} `);
const noEmail = request('');
const blankEmail = request('   ');
const noToken = request(email, '');
const nothing = request('', '');

const fixtures: EventFixtures<typeof passwordResetRequestMachine> = {
  'reset.request': [good, noEmail, blankEmail, noToken, nothing],
};
const serverMessage = '该邮箱地址未注册';
const sent = doneActor('sendPasswordReset');
const failed = errorActor('sendPasswordReset', failure('sendPasswordReset', serverMessage));
const tickedTo = (secondsLeft: number): AnyEventObject => ({
  type: 'xstate.snapshot.resendCooldown',
  snapshot: resendCooldownMachine.resolveState({ value: 'coolingDown', context: { total: resendCooldownSeconds, secondsLeft } }),
});
const ticked = tickedTo(12);
const cooled = doneActor('resendCooldown');
const internal = [sent, failed, ticked, cooled];
const model = (input: PasswordResetRequestInput) => ({ fixtures, internal, input });

function journey(events: readonly AnyEventObject[], input: PasswordResetRequestInput = on): Snap {
  return walk(passwordResetRequestMachine, input, events);
}
const realShortest = (input: PasswordResetRequestInput) => shortestPaths(passwordResetRequestMachine, model(input)).filter(isRealistic);

/** The input the (unstarted) send actor of a snapshot was created with. */
const sendInput = (s: Snap): SendPasswordResetInput | undefined => {
  const child = (s.children as Record<string, { getSnapshot(): { input?: unknown } } | undefined>).sendPasswordReset;
  return child?.getSnapshot().input as SendPasswordResetInput | undefined;
};

afterEach(() => {
  vi.useRealTimers();
});

describe('passwordResetRequest model', () => {
  it.each([
    ['bot check on', on],
    ['bot check off', off],
  ])('reaches every state (%s)', (_, input) => {
    const paths = realShortest(input);
    expect(unreachedStates(passwordResetRequestMachine, paths)).toEqual([]);
    // the shortest way to the countdown is one request and the server's answer
    const cooling = paths.find((p) => p.state.matches('coolingDown'))!;
    expect(describePath(cooling)).toBe(`xstate.init → reset.request → ${sent.type}`);
  });

  it.each([
    ['bot check on', on],
    ['bot check off', off],
  ])('keeps its invariants on every simple path (%s)', (_, input) => {
    // One passing request, one with an empty e-mail and one without a token keep the paths few.
    const few: EventFixtures<typeof passwordResetRequestMachine> = { 'reset.request': [good, noEmail, noToken] };
    const paths = simplePaths(passwordResetRequestMachine, { fixtures: few, internal, input }).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(5);
    const passing = input.turnstileEnabled ? [good] : [good, noToken];
    for (const p of paths) {
      const snaps = snapshotsOf(p);
      for (const [i, s] of snaps.entries()) {
        expect(s.status).toBe('active');
        // the flag never changes
        expect(s.context.turnstileEnabled).toBe(input.turnstileEnabled);
        // the countdown is within 0..30 and above 0 exactly while cooling down
        expect(selectSecondsLeft(s)).toBeGreaterThanOrEqual(0);
        expect(selectSecondsLeft(s)).toBeLessThanOrEqual(resendCooldownSeconds);
        expect(selectSecondsLeft(s) > 0).toBe(s.matches('coolingDown'));
        // each call runs only in its own state
        const children = s.children as Record<string, unknown>;
        expect(children.sendPasswordReset !== undefined).toBe(s.matches('sending'));
        expect(children.resendCooldown !== undefined).toBe(s.matches('coolingDown'));
        // busy, the selectors and the states agree
        expect(s.hasTag('busy')).toBe(s.matches('sending'));
        expect(selectIsSending(s)).toBe(s.hasTag('busy'));
        expect(selectCanRequest(s)).toBe(s.matches('idle'));
        expect(s.can(good)).toBe(s.matches('idle'));
        // a request leaves only after a passing event, with the e-mail trimmed
        if (i > 0 && s.matches('sending') && !snaps[i - 1]!.matches('sending')) {
          const e = p.steps[i]!.event;
          expect(snaps[i - 1]!.matches('idle')).toBe(true);
          expect(passing).toContainEqual(e);
          // the graph keeps one snapshot per state and context, whichever request reached it
          // first, so the call's input is taken from this step's own transition
          const [next] = transition(passwordResetRequestMachine, snaps[i - 1]!, e);
          expect(sendInput(next)).toEqual({ email: e.email.trim(), turnstile: e.turnstileToken });
          expect(sendInput(next)!.email).toBe(email);
          if (input.turnstileEnabled) expect(sendInput(next)!.turnstile).not.toBe('');
        }
        // the countdown starts only after an answer, success or failure, and at 30
        if (i > 0 && s.matches('coolingDown') && !snaps[i - 1]!.matches('coolingDown')) {
          expect(snaps[i - 1]!.matches('sending')).toBe(true);
          expect([sent.type, failed.type]).toContain(p.steps[i]!.event.type);
          expect(selectSecondsLeft(s)).toBe(resendCooldownSeconds);
        }
        // back to idle only when the countdown is over
        if (i > 0 && s.matches('idle') && !snaps[i - 1]!.matches('idle')) {
          expect(p.steps[i]!.event.type).toBe(cooled.type);
        }
      }
    }
  });

  describe('pinned journeys', () => {
    it('a passing request is sent, with the e-mail trimmed', () => {
      const s = journey([good]);
      expect(s.value).toBe('sending');
      expect(selectIsSending(s)).toBe(true);
      expect(sendInput(s)).toEqual({ email, turnstile: 'tok' });
    });
    it('an empty or blank e-mail does nothing, with or without the bot check', () => {
      for (const input of [on, off]) {
        for (const e of [noEmail, blankEmail, nothing]) {
          const s = journey([e], input);
          expect(s.value).toBe('idle');
          expect(s.context.secondsLeft).toBe(0);
          expect(resetRequestVerdict(s.context, e)).toEqual({ ok: false, message: null });
        }
      }
    });
    it('without a token the bot check holds the request; without the bot check it goes', () => {
      expect(journey([noToken], on).value).toBe('idle');
      expect(resetRequestVerdict(journey([], on).context, noToken)).toEqual(
        checkTurnstile({ enabled: true, token: '', english: true }),
      );
      const s = journey([noToken], off);
      expect(s.value).toBe('sending');
      expect(sendInput(s)).toEqual({ email, turnstile: '' });
    });
    it('after a success: 30 s of countdown, then it can be sent again', () => {
      const cooling = journey([good, sent]);
      expect(cooling.value).toBe('coolingDown');
      expect(selectSecondsLeft(cooling)).toBe(30);
      expect(selectCanRequest(cooling)).toBe(false);
      expect(selectIsSending(cooling)).toBe(false);
      expect(selectSecondsLeft(journey([good, sent, ticked]))).toBe(12);
      // pressing during the countdown does nothing
      expect(journey([good, sent, good]).value).toBe('coolingDown');
      expect(journey([good, sent, ticked, good]).context.secondsLeft).toBe(12);
      const again = journey([good, sent, ticked, cooled]);
      expect(again.value).toBe('idle');
      expect(selectSecondsLeft(again)).toBe(0);
      expect(selectCanRequest(again)).toBe(true);
      expect(journey([good, sent, ticked, cooled, good]).value).toBe('sending');
    });
    it('after a failure the button cools down for 30 s too (spec: after an attempt)', () => {
      const s = journey([good, failed]);
      expect(s.value).toBe('coolingDown');
      expect(selectSecondsLeft(s)).toBe(30);
      expect(journey([good, failed, cooled]).value).toBe('idle');
    });
    it('pressing while the request is on its way does nothing', () => {
      const s = journey([good, good]);
      expect(s.value).toBe('sending');
      expect(selectCanRequest(s)).toBe(false);
    });
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(input: PasswordResetRequestInput, events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      vi.useFakeTimers();
      const send = controlled<void, SendPasswordResetInput>();
      const play = async (e: AnyEventObject, actor: Actor<typeof passwordResetRequestMachine>) => {
        const ev = e as AnyEventObject & { snapshot?: { context: { secondsLeft: number } } };
        if (e.type === ticked.type) {
          const left = actor.getSnapshot().context.secondsLeft;
          await vi.advanceTimersByTimeAsync((left - ev.snapshot!.context.secondsLeft) * 1000);
        } else if (e.type === cooled.type) {
          await vi.advanceTimersByTimeAsync(actor.getSnapshot().context.secondsLeft * 1000);
        } else return false;
        return true;
      };
      const settle = () => vi.advanceTimersByTimeAsync(0);
      const stubs = { sendPasswordReset: send };
      return { ...(await replayOn({ machine: passwordResetRequestMachine, input, stubs, play, settle }, events, check)), send };
    }
    const rendered = (e: PasswordResetRequestEmitted) => renderMessage('zh', e.message);

    /** A hand-chosen path, with the snapshots the pure transition gives after each event. */
    const handPath = (input: PasswordResetRequestInput, events: readonly AnyEventObject[]) => {
      const steps: { event: AnyEventObject; state: Snap }[] = [];
      let [s] = initialTransition(passwordResetRequestMachine, input);
      steps.push({ event: { type: 'xstate.init' }, state: s });
      for (const event of events) {
        [s] = transition(passwordResetRequestMachine, s, event as never);
        steps.push({ event, state: s });
      }
      return { state: s, steps };
    };
    const chosen = (input: PasswordResetRequestInput) => [
      ...realShortest(input).filter((p) => p.steps.length > 1),
      // whole round trips: a refusal, the countdown, then a success and the countdown again
      handPath(input, [noEmail, noToken, good, failed, ticked, cooled, good, sent, tickedTo(1), cooled]),
      handPath(input, [good, good, sent, tickedTo(29), good, cooled, blankEmail]),
    ];
    for (const [name, input] of [
      ['on', on],
      ['off', off],
    ] as const) {
      it.each(chosen(input).map((p) => [describePath(p), p] as const))(`bot check ${name}: %s`, async (_, p) => {
        expect(isRealistic(p)).toBe(true);
        const { snapshot } = await replay(
          input,
          p.steps.map((s) => s.event),
          (i, s) => {
            expect(s.value).toEqual(p.steps[i]!.state.value);
            expect(s.context).toEqual(p.steps[i]!.state.context);
            expect(s.status).toEqual(p.steps[i]!.state.status);
          },
        );
        expect(snapshot.value).toEqual(p.state.value);
      });
    }

    it('sends the trimmed e-mail and the token, then says the reset mail is sent', async () => {
      const { emitted, send } = await replay(on, [good, sent]);
      expect(send.calls).toEqual([{ email, turnstile: 'tok' }]);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'account.reset.sent' } }]);
      expect(emitted.map(rendered)).toEqual(['重置邮件发送成功，请检查邮箱！']);
    });
    it('an empty e-mail is silent and sends nothing', async () => {
      for (const e of [noEmail, blankEmail, nothing]) {
        const { emitted, send, snapshot } = await replay(on, [e]);
        expect(emitted).toEqual([]);
        expect(send.calls).toEqual([]);
        expect(snapshot.value).toBe('idle');
      }
    });
    it('the bot-check wait is the English sentence, even in the zh catalogue', async () => {
      const { emitted, send } = await replay(on, [noToken]);
      expect(send.calls).toEqual([]);
      expect(emitted).toEqual([{ type: 'notify', level: 'info', message: { key: 'validation.turnstile.waitEnglish' } }]);
      expect(emitted.map(rendered)).toEqual(['please retry in a few seconds, Turnstile is checking the user environment!']);
      // without the bot check the same request goes out with an empty token
      const plain = await replay(off, [noToken, sent]);
      expect(plain.send.calls).toEqual([{ email, turnstile: '' }]);
    });
    it("a failure shows the server's message verbatim; an HTTP error the catalogue one", async () => {
      const refused = await replay(on, [good, failed]);
      expect(refused.emitted).toEqual([{ type: 'notify', level: 'error', message: { text: serverMessage } }]);
      expect(refused.emitted.map(rendered)).toEqual([serverMessage]);
      expect(refused.snapshot.context.secondsLeft).toBe(30);
      const http = errorActor('sendPasswordReset', httpError('sendPasswordReset', 500, 'Internal Server Error'));
      expect((await replay(on, [good, http])).emitted.map(rendered)).toEqual(['错误：服务器内部错误，请联系管理员！']);
    });
    it('every catalogue key it emits exists', async () => {
      const http = errorActor('sendPasswordReset', httpError('sendPasswordReset', 500, 'Internal Server Error'));
      const all = [
        ...(await replay(on, [good, sent])).emitted,
        ...(await replay(on, [noToken])).emitted,
        ...(await replay(on, [good, http])).emitted,
      ];
      const keys = all.flatMap((e) => ('key' in e.message ? [e.message.key] : []));
      expect(keys).toEqual(['account.reset.sent', 'validation.turnstile.waitEnglish', 'error.internal']);
      for (const key of keys) expect(isMessageKey(key), key).toBe(true);
    });
  });

  it('tick (resendCooldown): after a request the button counts down every second and sends again after 30 s', async () => {
    vi.useFakeTimers();
    const stub = controlled<void, SendPasswordResetInput>();
    const live = createActor(passwordResetRequestMachine.provide({ actors: { sendPasswordReset: stub.logic } }), { input: on });
    const seen: number[] = [];
    live.subscribe((s) => {
      if (s.matches('coolingDown')) seen.push(s.context.secondsLeft);
    });
    live.start();
    live.send(good);
    await vi.advanceTimersByTimeAsync(0);
    stub.reject(failure('sendPasswordReset', serverMessage));
    await vi.advanceTimersByTimeAsync(0);
    expect(live.getSnapshot().value).toBe('coolingDown');
    expect(selectSecondsLeft(live.getSnapshot())).toBe(30);
    for (let left = 29; left >= 1; left--) {
      await vi.advanceTimersByTimeAsync(999);
      expect(selectSecondsLeft(live.getSnapshot())).toBe(left + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(selectSecondsLeft(live.getSnapshot())).toBe(left);
      expect(selectCanRequest(live.getSnapshot())).toBe(false);
      // pressing during the countdown sends nothing
      live.send(good);
    }
    await vi.advanceTimersByTimeAsync(999);
    expect(selectCanRequest(live.getSnapshot())).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(live.getSnapshot().value).toBe('idle');
    expect(selectCanRequest(live.getSnapshot())).toBe(true);
    expect(selectSecondsLeft(live.getSnapshot())).toBe(0);
    // every whole second from 30 to 1 was shown while cooling down, never 0
    expect([...new Set(seen)]).toEqual(Array.from({ length: 30 }, (_, i) => 30 - i));
    expect(stub.calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    // and the request can be sent again
    live.send(good);
    await vi.advanceTimersByTimeAsync(0);
    expect(selectIsSending(live.getSnapshot())).toBe(true);
    expect(stub.calls).toEqual([
      { email, turnstile: 'tok' },
      { email, turnstile: 'tok' },
    ]);
    live.stop();
  });
});
