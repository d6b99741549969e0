import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, createMachine, fromCallback, type Actor, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import { checkTurnstile } from '../../src/domain/validation';
import { renderMessage, isMessageKey } from '../../src/i18n';
import {
  afterRegistration,
  registerMachine,
  selectAffCode,
  selectCanSendCode,
  selectFieldErrors,
  selectCodeSecondsLeft,
  selectIsRegistered,
  selectIsSendingCode,
  selectIsSubmitting,
  type RegisterEmitted,
  type RegisterEvent,
  type RegisterFlags,
  type RegisterInput,
  type RegisterUserInput,
  type RegistrationValues,
  type RememberAffCodeInput,
  type SendVerificationCodeInput,
} from '../../src/machines/register';
import { resendCooldownSeconds, sendCooldownWith } from '../../src/machines/sendCooldown';
import { followSession, sessionFactsOf, type SessionChanged } from '../../src/machines/sessionWatch';
import type { Status } from '../../src/domain/status';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { senderEvents } from './support/sender';
import { replay as replayOn, journey as walk, follows } from './support/replay';

type Snap = SnapshotFrom<typeof registerMachine>;
type Submit = Extract<RegisterEvent, { type: 'register.submit' }>;
type SendCode = Extract<RegisterEvent, { type: 'code.send' }>;

/** The server's flags (reported by the session watcher) and the link's inviter code. */
interface Case extends RegisterFlags {
  readonly affCode: string;
}
const full: Case = { emailVerification: true, turnstileEnabled: true, affCode: '' };
const plain: Case = { emailVerification: false, turnstileEnabled: false, affCode: 'Ab3x' };

/** A session whose status says `flags` (its `set` event replaces the status). */
const fakeSession = (flags: RegisterFlags) =>
  createActor(
    createMachine({
      types: {} as { context: { status: unknown }; events: { type: 'set'; flags: RegisterFlags } },
      context: { status: { email_verification: flags.emailVerification, turnstile_check: flags.turnstileEnabled } },
      on: {
        set: {
          actions: assign(({ event }) => ({
            status: { email_verification: event.flags.emailVerification, turnstile_check: event.flags.turnstileEnabled },
          })),
        },
      },
    }),
  );
/** Traversals and replays play the watcher's report as an event of the path; this session is never read. */
const idleSession = fakeSession(plain);
const inputOf = (c: Case): RegisterInput => ({ session: idleSession, affCode: c.affCode });
/** The watcher's report of a status with these flags (signed out). */
const statusOf = (c: RegisterFlags): SessionChanged => ({
  type: 'session.changed',
  facts: sessionFactsOf({ user: null, status: { email_verification: c.emailVerification, turnstile_check: c.turnstileEnabled } as Status }),
  changed: ['turnstileEnabled', 'emailVerification'],
});
/** The watcher replaced by one that reports nothing (the path's `session.changed` stands for it). */
const silentWatcher = registerMachine.provide({ actors: { followSession: fromCallback(() => undefined) } });

const good: RegistrationValues = {
  username: 'alice',
  password: 'secret123',
  password2: 'secret123',
  email: 'alice@example.com',
  verification_code: 'a1b2c3',
};
const submit = (values: Partial<RegistrationValues>, turnstileToken = 'tok'): Submit => ({
  type: 'register.submit',
  values: { ...good, ...values },
  turnstileToken,
});
const valid = submit({});
const noToken = submit({}, '');
const shortPassword = submit({ password: 'short', password2: 'short' });
const mismatch = submit({ password2: 'secret124' });
const noUsername = submit({ username: '' });
const empty = submit({ username: '', password: '', password2: '', email: '', verification_code: '' });
const editUsername = { type: 'field.edit', field: 'username' } as const;
const longUsername = submit({ username: 'u'.repeat(13) });
const longPassword = submit({ password: 'p'.repeat(21), password2: 'p'.repeat(21) });
const sendCode = (email: string, turnstileToken = 'tok'): SendCode => ({ type: 'code.send', email, turnstileToken });
const codeOk = sendCode('alice@example.com');
const codeNoEmail = sendCode('');
const codeNoToken = sendCode('alice@example.com', '');

/** The code sender (the sendCooldown child invoked as `sendVerificationCode`): its facts and snapshots. */
const sender = senderEvents('sendVerificationCode');
const codeSent = sender.succeeded;
const codeFailed = sender.failed;
const cooling = sender.cooling;
const ticked = sender.lastSecond;
const cooled = sender.ready;
const fixtures: EventFixtures<typeof registerMachine> = {
  'session.changed': [statusOf(full), statusOf(plain)],
  'register.submit': [valid, noToken, shortPassword, mismatch, noUsername, longUsername, longPassword, empty],
  'field.edit': [editUsername],
  'code.send': [codeOk, codeNoEmail, codeNoToken],
  'send.succeeded': [codeSent],
  'send.failed': [codeFailed],
};
const registered = doneActor('registerUser');
const registerFailed = errorActor('registerUser', failure('register', '管理员关闭了新用户注册'));
const remembered = doneActor('rememberAffCode', 'INV1');
const storageRefused = errorActor('rememberAffCode', new Error('storage refused'));
const internal = [registered, registerFailed, ...sender.snapshots, remembered, storageRefused];
/** The model of one case: the session reports the case's flags (at start, or later). */
const model = (c: Case) => ({
  fixtures: { ...fixtures, 'session.changed': [statusOf(c)] },
  internal,
  input: inputOf(c),
  occurs: sender.occurs,
});

/** The snapshot after the session reported the case's flags and `events` followed. */
function journey(events: readonly AnyEventObject[], c: Case = full): Snap {
  return walk(registerMachine, inputOf(c), [statusOf(c), ...events]);
}
const realistic = (p: Parameters<typeof isRealistic>[0]) => isRealistic(p) && sender.isRealistic(p);
const realShortest = (c: Case) => shortestPaths(registerMachine, model(c)).filter(realistic);

afterEach(() => {
  vi.useRealTimers();
});

describe('register model', () => {
  it('reaches every state (e-mail verification and bot check on)', () => {
    expect(unreachedStates(registerMachine, realShortest(full))).toEqual([]);
  });
  it('without e-mail verification every state is reached too, and the code sender is never asked', () => {
    const paths = realShortest(plain);
    expect(unreachedStates(registerMachine, paths)).toEqual([]);
    for (const p of paths) for (const s of snapshotsOf(p)) expect(selectCanSendCode(s)).toBe(true);
  });
  it('invariant: a request in flight never carries field errors', () => {
    for (const p of realShortest(full)) for (const s of snapshotsOf(p)) if (s.matches('submitting')) expect(selectFieldErrors(s)).toEqual({});
  });
  it('with e-mail verification the code is sent and cooled down', () => {
    const paths = realShortest(full);
    expect(paths.some((p) => selectIsSendingCode(p.state))).toBe(true);
    expect(paths.some((p) => selectCodeSecondsLeft(p.state) === resendCooldownSeconds)).toBe(true);
  });

  it.each([
    ['e-mail verification and bot check on', full],
    ['both off, with an invite code', plain],
  ])('keeps its invariants on every simple path (%s)', (_, input) => {
    // One passing and one failing event of each kind keeps the simple paths few (the pinned
    // journeys and the shortest paths cover the other fixtures).
    const few: EventFixtures<typeof registerMachine> = {
      'session.changed': [statusOf(input)],
      'register.submit': [valid, noToken],
      // typing changes only the field messages (pinned below)
      'field.edit': [],
      'code.send': [codeOk, codeNoEmail],
      // the sender's facts change nothing but what is said (pinned below)
      'send.succeeded': [],
      'send.failed': [],
    };
    const paths = simplePaths(registerMachine, {
      fixtures: few,
      internal: [registered, registerFailed, cooling, cooled, remembered],
      input: inputOf(input),
      occurs: sender.occurs,
    }).filter(realistic);
    expect(paths.length).toBeGreaterThan(10);
    for (const p of paths) {
      const snaps = snapshotsOf(p);
      for (const [i, s] of snaps.entries()) {
        // the flags are off until the session reports them, then the session's
        const reported = p.steps.slice(1, i + 1).some((step) => step.event.type === 'session.changed');
        expect(s.context.emailVerification).toBe(reported && input.emailVerification);
        expect(s.context.turnstileEnabled).toBe(reported && input.turnstileEnabled);
        // the inviter code is the link's or the remembered one
        expect([input.affCode, 'INV1']).toContain(selectAffCode(s));
        // the countdown is within 0..30 and shown exactly while the sender cools down
        const sending = s.context.sender.phase;
        expect(selectCodeSecondsLeft(s)).toBeGreaterThanOrEqual(0);
        expect(selectCodeSecondsLeft(s)).toBeLessThanOrEqual(resendCooldownSeconds);
        expect(selectCodeSecondsLeft(s) > 0).toBe(sending === 'coolingDown');
        // the sender lives as long as the page; the registration call only while submitting
        const children = s.children as Record<string, unknown>;
        expect(children.sendVerificationCode).toBeDefined();
        expect(children.relayChildren).toBeDefined();
        expect(children.registerUser !== undefined).toBe(s.matches('submitting'));
        expect(selectCanSendCode(s)).toBe(sending === 'ready');
        expect(selectIsSendingCode(s)).toBe(sending === 'sending');
        // without e-mail verification no code is ever sent
        if (!input.emailVerification) expect(sending).toBe('ready');
        // busy exactly while submitting
        expect(s.hasTag('busy')).toBe(selectIsSubmitting(s));
        // a request leaves only after a submit that passes every check
        if (i > 0 && s.matches('submitting') && !snaps[i - 1]!.matches('submitting')) {
          const e = p.steps[i]!.event as Submit;
          // without the bot check an empty token is fine
          expect(s.context.turnstileEnabled ? [valid] : [valid, noToken]).toContainEqual(e);
        }
        // a code leaves only after a request that passes every check, while the sender is ready
        if (i > 0 && sending === 'sending' && snaps[i - 1]!.context.sender.phase !== 'sending') {
          expect(p.steps[i]!.event).toEqual(codeOk);
          expect(selectCanSendCode(snaps[i - 1]!)).toBe(true);
        }
        // registered only through the server's yes
        if (selectIsRegistered(s) && i > 0 && !selectIsRegistered(snaps[i - 1]!)) {
          expect(p.steps[i]!.event.type).toBe(registered.type);
        }
        expect(s.status).toBe('active');
      }
    }
  }, 120_000);

  describe('pinned journeys', () => {
    it('a valid form with a token is sent, and the yes registers', () => {
      expect(selectIsSubmitting(journey([valid]))).toBe(true);
      expect(selectIsRegistered(journey([valid, registered]))).toBe(true);
    });
    it('invalid forms and a missing token send nothing', () => {
      for (const e of [shortPassword, mismatch, noUsername, noToken, longUsername, longPassword]) {
        expect(journey([e]).value).toBe('editing');
      }
    });
    it('without the bot check no token is needed', () => {
      expect(selectIsSubmitting(journey([noToken], plain))).toBe(true);
    });
    it('a refusal returns to the form, which can be sent again', () => {
      const s = journey([valid, registerFailed]);
      expect(s.value).toBe('editing');
      expect(selectIsSubmitting(journey([valid, registerFailed, valid]))).toBe(true);
    });
    it('sending a code: the sender is asked, then its countdown shows, then it can be sent again', () => {
      const sending = journey([codeOk]);
      expect(selectIsSendingCode(sending)).toBe(true);
      expect(selectCanSendCode(sending)).toBe(false);
      const counting = journey([codeOk, codeSent, cooling]);
      expect(selectCodeSecondsLeft(counting)).toBe(30);
      expect(selectCanSendCode(counting)).toBe(false);
      expect(selectCodeSecondsLeft(journey([codeOk, codeSent, cooling, ticked]))).toBe(1);
      // pressing again while sending or during the countdown does nothing (not even a message)
      expect(journey([codeOk, codeSent, cooling, codeNoToken]).context).toEqual(counting.context);
      expect(journey([codeOk, codeNoEmail]).context).toEqual(sending.context);
      const again = journey([codeOk, codeSent, cooling, ticked, cooled]);
      expect(selectCanSendCode(again)).toBe(true);
      expect(selectCodeSecondsLeft(again)).toBe(0);
    });
    it("the sender's facts change nothing but what is said", () => {
      const sending = journey([codeOk]);
      expect(journey([codeOk, codeFailed]).context).toEqual(sending.context);
      expect(journey([codeOk, codeSent]).context).toEqual(sending.context);
    });
    it('no e-mail or no token: no code request', () => {
      expect(selectCanSendCode(journey([codeNoEmail]))).toBe(true);
      expect(selectIsSendingCode(journey([codeNoToken]))).toBe(false);
      expect(selectIsSendingCode(journey([codeOk], plain))).toBe(false);
    });
    it('the form and the code run side by side', () => {
      const s = journey([codeOk, valid]);
      expect(s.value).toBe('submitting');
      expect(selectIsSendingCode(s)).toBe(true);
    });
    it('the remembered inviter code is used when the link has none', () => {
      expect(selectAffCode(journey([remembered]))).toBe('INV1');
      expect(selectAffCode(journey([storageRefused], plain))).toBe('Ab3x');
    });
  });

  describe('replay on a real actor with stub actors', () => {
    /** Replays `events` as they are (a path's own `session.changed` stands for the watcher's report). */
    async function replayEvents(input: Case, events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      vi.useFakeTimers();
      const registerUser = controlled<void, RegisterUserInput>();
      const sendCode = controlled<void, SendVerificationCodeInput>();
      const remember = controlled<string, RememberAffCodeInput>();
      const play: (e: AnyEventObject, actor: Actor<typeof registerMachine>) => Promise<boolean> = sender.play(sendCode);
      const settle = () => vi.advanceTimersByTimeAsync(0);
      const stubs = { registerUser, rememberAffCode: remember };
      const machine = silentWatcher.provide({ actors: { sendVerificationCode: sendCooldownWith(sendCode.logic) } });
      return { ...(await replayOn({ machine, input: inputOf(input), stubs, play, settle }, events, check)), registerUser, sendCode, remember };
    }
    /** Replays `events` after the session reported the case's flags. */
    const replay = (input: Case, events: readonly AnyEventObject[]) => replayEvents(input, [statusOf(input), ...events]);
    const rendered = (e: RegisterEmitted) => (e.type === 'notify' ? renderMessage('zh', e.message) : e.to);

    for (const [name, input] of [
      ['on', full],
      ['off', plain],
    ] as const) {
      it.each(realShortest(input).filter((p) => p.steps.length > 1).map((p) => [describePath(p), p] as const))(
        `flags ${name}: %s`,
        async (_, p) => {
          await replayEvents(
            input,
            p.steps.map((s) => s.event),
            follows(p),
          );
        },
      );
    }

    it('registers with the payload, the token and the remembered inviter, then says so and goes to /login', async () => {
      const { emitted, registerUser } = await replay(full, [remembered, valid, registered]);
      expect(registerUser.calls).toEqual([
        {
          payload: { ...good, aff_code: 'INV1' },
          turnstile: 'tok',
        },
      ]);
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'account.register.success' } },
        { type: 'navigate', to: afterRegistration, replace: false },
      ]);
      expect(emitted.map(rendered)).toEqual(['注册成功！', '/login']);
    });
    it('without e-mail verification the e-mail and code are not sent', async () => {
      const { registerUser } = await replay(plain, [storageRefused, submit({}, '')]);
      expect(registerUser.calls[0]!.payload).toEqual({
        ...good,
        email: '',
        verification_code: '',
        aff_code: 'Ab3x',
      });
    });
    it('field rules are said at their fields (no toast); the bot-check wait is a toast', async () => {
      const say = async (e: Submit, input = full) => (await replay(input, [e])).emitted.map(rendered);
      const errorsAfter = (events: readonly AnyEventObject[], input: Case = full) =>
        Object.fromEntries(Object.entries(selectFieldErrors(journey(events, input))).map(([f, m]) => [f, rendered({ type: 'notify', level: 'info', message: m })]));
      expect(await say(noToken)).toEqual(['请稍后几秒重试，Turnstile 正在检查用户环境！']);
      for (const e of [shortPassword, mismatch, noUsername, longUsername, longPassword, empty]) expect(await say(e)).toEqual([]);
      expect(errorsAfter([empty])).toEqual({
        username: '用户名不能为空',
        password: '密码不能为空',
        email: '邮箱地址不能为空',
        verification_code: '验证码不能为空',
      });
      expect(errorsAfter([empty], plain)).toEqual({ username: '用户名不能为空', password: '密码不能为空' });
      expect(errorsAfter([shortPassword])).toEqual({ password: '密码长度必须在 8 到 20 个字符之间' });
      expect(errorsAfter([mismatch])).toEqual({ password2: '两次输入的密码不一致' });
      expect(errorsAfter([longUsername])).toEqual({ username: '用户名长度不能超过 12 个字符' });
      expect(errorsAfter([longPassword])).toEqual({ password: '密码长度必须在 8 到 20 个字符之间' });
      expect(errorsAfter([submit({ email: `${'e'.repeat(50)}@x.com` })])).toEqual({ email: '邮箱地址长度不能超过 50 个字符' });
      // without e-mail verification the e-mail field is not sent, so not checked
      expect(errorsAfter([submit({ email: `${'e'.repeat(50)}@x.com`, verification_code: '' })], plain)).toEqual({});
      // typing into a field takes its message away; the others stay
      expect(Object.keys(selectFieldErrors(journey([empty, editUsername])))).toEqual(['password', 'email', 'verification_code']);
      // a passing submit clears them all
      expect(selectFieldErrors(journey([empty, valid]))).toEqual({});
      expect(journey([empty, valid]).matches('submitting')).toBe(true);
      const t = checkTurnstile({ enabled: true, token: '', english: false });
      expect(t.ok).toBe(false);
    });
    it('a server refusal shows its message; an HTTP error the catalogue one', async () => {
      expect((await replay(full, [valid, registerFailed])).emitted).toEqual([
        { type: 'notify', level: 'error', message: { text: '管理员关闭了新用户注册' } },
      ]);
      const http = errorActor('registerUser', httpError('register', 500, 'Internal Server Error'));
      expect((await replay(full, [valid, http])).emitted.map(rendered)).toEqual(['错误：服务器内部错误，请联系管理员！']);
    });
    it('sends the code with the e-mail and token and says so; the bot-check wait blocks it', async () => {
      const { emitted, sendCode: sent } = await replay(full, [sendCode(' alice@example.com '), codeSent, cooling]);
      expect(sent.calls).toEqual([{ email: 'alice@example.com', turnstile: 'tok' }]);
      expect(emitted.map(rendered)).toEqual(['验证码发送成功，请检查你的邮箱！']);
      expect((await replay(full, [codeNoToken])).emitted.map(rendered)).toEqual([
        '请稍后几秒重试，Turnstile 正在检查用户环境！',
      ]);
      expect((await replay(full, [codeNoEmail])).emitted).toEqual([]);
    });
    it("a refused code request shows the server's message, and the countdown runs all the same", async () => {
      const run = await replay(full, [codeOk, codeFailed, cooling]);
      expect(run.emitted).toEqual([{ type: 'notify', level: 'error', message: { text: '邮箱地址已被占用' } }]);
      expect(run.sendCode.calls).toHaveLength(1);
    });
    it('every catalogue key it emits exists', async () => {
      const all = [
        ...(await replay(full, [valid, registered])).emitted,
        ...(await replay(full, [codeOk, codeSent, cooling])).emitted,
        ...(await replay(full, [codeOk, codeFailed, cooling])).emitted,
        ...(await replay(full, [shortPassword])).emitted,
        ...(await replay(full, [longUsername])).emitted,
        ...(await replay(full, [longPassword])).emitted,
      ];
      for (const e of all) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });

  it('tick (sendCooldown): after a code request the button counts down every second and is free after 30 s', async () => {
    vi.useFakeTimers();
    const stub = controlled<void, SendVerificationCodeInput>();
    const live = createActor(
      silentWatcher.provide({
        actors: { sendVerificationCode: sendCooldownWith(stub.logic), rememberAffCode: controlled<string, RememberAffCodeInput>().logic },
      }),
      { input: inputOf(full) },
    ).start();
    live.send(statusOf(full));
    live.send(codeOk);
    await vi.advanceTimersByTimeAsync(0);
    stub.resolve(undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(selectCodeSecondsLeft(live.getSnapshot())).toBe(30);
    for (let left = 29; left >= 1; left--) {
      await vi.advanceTimersByTimeAsync(1000);
      expect(selectCodeSecondsLeft(live.getSnapshot())).toBe(left);
      expect(selectCanSendCode(live.getSnapshot())).toBe(false);
      // pressing during the countdown sends nothing
      live.send(codeOk);
    }
    await vi.advanceTimersByTimeAsync(999);
    expect(selectCanSendCode(live.getSnapshot())).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(selectCanSendCode(live.getSnapshot())).toBe(true);
    expect(selectCodeSecondsLeft(live.getSnapshot())).toBe(0);
    expect(stub.calls).toHaveLength(1);
    live.stop();
  });

  it('followSession: the flags follow the session, at start and whenever its status changes', async () => {
    const session = fakeSession(plain).start();
    const seen: RegisterFlags[] = [];
    const live = createActor(registerMachine.provide({ actors: { rememberAffCode: controlled<string, RememberAffCodeInput>().logic } }), {
      input: { session, affCode: '' },
    });
    live.subscribe((s) => {
      const last = seen[seen.length - 1];
      const now = { emailVerification: s.context.emailVerification, turnstileEnabled: s.context.turnstileEnabled };
      if (last === undefined || last.emailVerification !== now.emailVerification || last.turnstileEnabled !== now.turnstileEnabled) seen.push(now);
    });
    live.start();
    await Promise.resolve();
    expect(seen.at(-1)).toEqual({ emailVerification: false, turnstileEnabled: false });
    session.send({ type: 'set', flags: { emailVerification: true, turnstileEnabled: false } });
    expect(live.getSnapshot().context).toMatchObject({ emailVerification: true, turnstileEnabled: false });
    session.send({ type: 'set', flags: full });
    expect(live.getSnapshot().context).toMatchObject({ emailVerification: true, turnstileEnabled: true });
    // e-mail verification appearing while the page is open: a code can now be sent
    expect(live.getSnapshot().can(codeOk)).toBe(true);
    // the page's watcher is the one every page machine shares
    expect(registerMachine.implementations.actors['followSession']).toBe(followSession);
    live.stop();
    // stopped: the watcher no longer listens
    session.send({ type: 'set', flags: plain });
    expect(live.getSnapshot().context.emailVerification).toBe(true);
    session.stop();
  });
});
