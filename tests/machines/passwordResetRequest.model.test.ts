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
import { resendCooldownSeconds, sendCooldownWith, type SenderPhase } from '../../src/machines/sendCooldown';
import { describePath, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { senderEvents } from './support/sender';
import { replay as replayOn, journey as walk } from './support/replay';

type Snap = SnapshotFrom<typeof passwordResetRequestMachine>;
type Request = Extract<PasswordResetRequestEvent, { type: 'reset.request' }>;

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

const serverMessage = '该邮箱地址未注册';
/** The mail sender (the sendCooldown child invoked as `sendPasswordReset`): its facts and snapshots. */
const sender = senderEvents('sendPasswordReset', failure('sendPasswordReset', serverMessage));
const sent = sender.succeeded;
const failed = sender.failed;
const cooling = sender.cooling;
const ticked = sender.lastSecond;
const cooled = sender.ready;
const fixtures: EventFixtures<typeof passwordResetRequestMachine> = {
  'reset.request': [good, noEmail, blankEmail, noToken, nothing],
  'send.succeeded': [sent],
  'send.failed': [failed],
};
const internal = sender.snapshots;
const model = (input: PasswordResetRequestInput) => ({ fixtures, internal, input, occurs: sender.occurs });
const phase = (s: Snap): SenderPhase => s.context.sender.phase;

function journey(events: readonly AnyEventObject[], input: PasswordResetRequestInput = on): Snap {
  return walk(passwordResetRequestMachine, input, events);
}
const realistic = (p: Parameters<typeof isRealistic>[0]) => isRealistic(p) && sender.isRealistic(p);
const realShortest = (input: PasswordResetRequestInput) => shortestPaths(passwordResetRequestMachine, model(input)).filter(realistic);

/** The request a step hands to the mail sender (`send.request`), if any. */
const forwarded = (before: Snap, e: AnyEventObject): SendPasswordResetInput | undefined => {
  const [, actions] = transition(passwordResetRequestMachine, before, e as never);
  const send = actions.find((a) => a.type === 'xstate.sendTo') as { params: { event: { request: SendPasswordResetInput } } } | undefined;
  return send?.params.event.request;
};

afterEach(() => {
  vi.useRealTimers();
});

describe('passwordResetRequest model', () => {
  it.each([
    ['bot check on', on],
    ['bot check off', off],
  ])('reaches every phase of the sender (%s)', (_, input) => {
    const paths = realShortest(input);
    expect(unreachedStates(passwordResetRequestMachine, paths)).toEqual([]);
    expect(new Set(paths.map((p) => phase(p.state)))).toEqual(new Set(['ready', 'sending', 'coolingDown']));
    // the shortest way to the countdown is one request and the sender's countdown
    const counting = paths.find((p) => selectSecondsLeft(p.state) === 30)!;
    expect(describePath(counting)).toBe(`xstate.init → reset.request → ${cooling.type}`);
  });

  it.each([
    ['bot check on', on],
    ['bot check off', off],
  ])('keeps its invariants on every simple path (%s)', (_, input) => {
    // One passing request, one with an empty e-mail and one without a token keep the paths few.
    const few: EventFixtures<typeof passwordResetRequestMachine> = { 'reset.request': [good, noEmail, noToken], 'send.succeeded': [sent], 'send.failed': [failed] };
    const paths = simplePaths(passwordResetRequestMachine, { fixtures: few, internal, input, occurs: sender.occurs }).filter(realistic);
    expect(paths.length).toBeGreaterThan(3);
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
        expect(selectSecondsLeft(s) > 0).toBe(phase(s) === 'coolingDown');
        // the sender lives as long as the page
        const children = s.children as Record<string, unknown>;
        expect(children.sendPasswordReset).toBeDefined();
        expect(children.relayChildren).toBeDefined();
        // the selectors and the sender's phase agree
        expect(selectIsSending(s)).toBe(phase(s) === 'sending');
        expect(selectCanRequest(s)).toBe(phase(s) === 'ready');
        expect(s.can(good)).toBe(phase(s) === 'ready');
        if (i === 0) continue;
        const before = snaps[i - 1]!;
        const e = p.steps[i]!.event;
        // a request leaves only after a passing event while the sender is ready, with the e-mail trimmed
        const request = forwarded(before, e);
        expect(request !== undefined).toBe(phase(s) === 'sending' && phase(before) !== 'sending');
        if (request !== undefined) {
          expect(phase(before)).toBe('ready');
          expect(passing).toContainEqual(e);
          expect(request).toEqual({ email, turnstile: (e as Request).turnstileToken });
          if (input.turnstileEnabled) expect(request.turnstile).not.toBe('');
        }
        // the countdown starts only after the sender's answer, and at 30
        if (phase(s) === 'coolingDown' && phase(before) !== 'coolingDown') {
          expect(phase(before)).toBe('sending');
          expect(selectSecondsLeft(s)).toBe(resendCooldownSeconds);
        }
        // ready again only when the countdown is over
        if (phase(s) === 'ready' && phase(before) !== 'ready') {
          expect(e).toEqual(cooled);
        }
      }
    }
  });

  describe('pinned journeys', () => {
    it('a passing request is sent, with the e-mail trimmed', () => {
      const s = journey([good]);
      expect(selectIsSending(s)).toBe(true);
      expect(forwarded(journey([]), good)).toEqual({ email, turnstile: 'tok' });
    });
    it('an empty or blank e-mail does nothing, with or without the bot check', () => {
      for (const input of [on, off]) {
        for (const e of [noEmail, blankEmail, nothing]) {
          const s = journey([e], input);
          expect(selectCanRequest(s)).toBe(true);
          expect(selectSecondsLeft(s)).toBe(0);
          expect(resetRequestVerdict(s.context, e)).toEqual({ ok: false, message: null });
        }
      }
    });
    it('without a token the bot check holds the request; without the bot check it goes', () => {
      expect(selectCanRequest(journey([noToken], on))).toBe(true);
      expect(resetRequestVerdict(journey([], on).context, noToken)).toEqual(
        checkTurnstile({ enabled: true, token: '', english: true }),
      );
      expect(selectIsSending(journey([noToken], off))).toBe(true);
      expect(forwarded(journey([], off), noToken)).toEqual({ email, turnstile: '' });
    });
    it('after a success: 30 s of countdown, then it can be sent again', () => {
      const counting = journey([good, sent, cooling]);
      expect(phase(counting)).toBe('coolingDown');
      expect(selectSecondsLeft(counting)).toBe(30);
      expect(selectCanRequest(counting)).toBe(false);
      expect(selectIsSending(counting)).toBe(false);
      expect(selectSecondsLeft(journey([good, sent, cooling, ticked]))).toBe(1);
      // pressing during the countdown does nothing
      expect(forwarded(counting, good)).toBeUndefined();
      expect(journey([good, sent, cooling, ticked, good]).context).toEqual(journey([good, sent, cooling, ticked]).context);
      const again = journey([good, sent, cooling, ticked, cooled]);
      expect(selectSecondsLeft(again)).toBe(0);
      expect(selectCanRequest(again)).toBe(true);
      expect(selectIsSending(journey([good, sent, cooling, ticked, cooled, good]))).toBe(true);
    });
    it('after a failure the button cools down for 30 s too (spec: after an attempt)', () => {
      const s = journey([good, failed, cooling]);
      expect(selectSecondsLeft(s)).toBe(30);
      expect(selectCanRequest(journey([good, failed, cooling, cooled]))).toBe(true);
    });
    it('pressing while the request is on its way does nothing', () => {
      const s = journey([good, good]);
      expect(selectIsSending(s)).toBe(true);
      expect(selectCanRequest(s)).toBe(false);
      expect(forwarded(journey([good]), good)).toBeUndefined();
    });
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(input: PasswordResetRequestInput, events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      vi.useFakeTimers();
      const send = controlled<void, SendPasswordResetInput>();
      const play: (e: AnyEventObject, actor: Actor<typeof passwordResetRequestMachine>) => Promise<boolean> = sender.play(send);
      const settle = () => vi.advanceTimersByTimeAsync(0);
      const machine = passwordResetRequestMachine.provide({ actors: { sendPasswordReset: sendCooldownWith(send.logic) } });
      return { ...(await replayOn({ machine, input, play, settle }, events, check)), send };
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
      handPath(input, [noEmail, noToken, good, failed, cooling, ticked, cooled, good, sent, cooling, cooled]),
      handPath(input, [good, good, sent, cooling, ticked, good, cooled, blankEmail]),
    ];
    for (const [name, input] of [
      ['on', on],
      ['off', off],
    ] as const) {
      it.each(chosen(input).map((p) => [describePath(p), p] as const))(`bot check ${name}: %s`, async (_, p) => {
        expect(realistic(p)).toBe(true);
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
      const { emitted, send } = await replay(on, [good, sent, cooling]);
      expect(send.calls).toEqual([{ email, turnstile: 'tok' }]);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'account.reset.sent' } }]);
      expect(emitted.map(rendered)).toEqual(['重置邮件发送成功，请检查邮箱！']);
    });
    it('an empty e-mail is silent and sends nothing', async () => {
      for (const e of [noEmail, blankEmail, nothing]) {
        const { emitted, send, snapshot } = await replay(on, [e]);
        expect(emitted).toEqual([]);
        expect(send.calls).toEqual([]);
        expect(selectCanRequest(snapshot)).toBe(true);
      }
    });
    it('the bot-check wait is the English sentence, even in the zh catalogue', async () => {
      const { emitted, send } = await replay(on, [noToken]);
      expect(send.calls).toEqual([]);
      expect(emitted).toEqual([{ type: 'notify', level: 'info', message: { key: 'validation.turnstile.waitEnglish' } }]);
      expect(emitted.map(rendered)).toEqual(['please retry in a few seconds, Turnstile is checking the user environment!']);
      // without the bot check the same request goes out with an empty token
      const plain = await replay(off, [noToken, sent, cooling]);
      expect(plain.send.calls).toEqual([{ email, turnstile: '' }]);
    });
    it("a failure shows the server's message verbatim; an HTTP error the catalogue one", async () => {
      const refused = await replay(on, [good, failed, cooling]);
      expect(refused.emitted).toEqual([{ type: 'notify', level: 'error', message: { text: serverMessage } }]);
      expect(refused.emitted.map(rendered)).toEqual([serverMessage]);
      expect(selectSecondsLeft(refused.snapshot)).toBe(30);
      const http = { ...failed, error: httpError('sendPasswordReset', 500, 'Internal Server Error') };
      expect((await replay(on, [good, http, cooling])).emitted.map(rendered)).toEqual(['错误：服务器内部错误，请联系管理员！']);
    });
    it('every catalogue key it emits exists', async () => {
      const http = { ...failed, error: httpError('sendPasswordReset', 500, 'Internal Server Error') };
      const all = [
        ...(await replay(on, [good, sent, cooling])).emitted,
        ...(await replay(on, [noToken])).emitted,
        ...(await replay(on, [good, http, cooling])).emitted,
      ];
      const keys = all.flatMap((e) => ('key' in e.message ? [e.message.key] : []));
      expect(keys).toEqual(['account.reset.sent', 'validation.turnstile.waitEnglish', 'error.internal']);
      for (const key of keys) expect(isMessageKey(key), key).toBe(true);
    });
  });

  it('tick (sendCooldown): after a request the button counts down every second and sends again after 30 s', async () => {
    vi.useFakeTimers();
    const stub = controlled<void, SendPasswordResetInput>();
    const live = createActor(passwordResetRequestMachine.provide({ actors: { sendPasswordReset: sendCooldownWith(stub.logic) } }), { input: on });
    const seen: number[] = [];
    live.subscribe((s) => {
      if (phase(s) === 'coolingDown') seen.push(selectSecondsLeft(s));
    });
    live.start();
    live.send(good);
    await vi.advanceTimersByTimeAsync(0);
    stub.reject(failure('sendPasswordReset', serverMessage));
    await vi.advanceTimersByTimeAsync(0);
    expect(phase(live.getSnapshot())).toBe('coolingDown');
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
    expect(phase(live.getSnapshot())).toBe('ready');
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
