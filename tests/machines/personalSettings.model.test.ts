import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createActor,
  fromPromise,
  initialTransition,
  transition,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type SnapshotFrom,
} from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import type { User } from '../../src/domain/user';
import { isMessageKey } from '../../src/i18n';
import {
  emailBindMachine,
  inviteLink,
  personalSettingsMachine,
  selectCanSendCode,
  selectCodeSecondsLeft,
  selectDeleteOpen,
  selectEmailOpen,
  selectIsBindingEmail,
  selectIsBindingWeChat,
  selectIsCopyingInvite,
  selectIsDeleting,
  selectIsGeneratingToken,
  selectIsLoadingAccount,
  selectIsSendingCode,
  selectIsSettingsBusy,
  selectShownSecret,
  selectWeChatOpen,
  selfDeleteMachine,
  wechatBindMachine,
  type BindEmailInput,
  type BindWeChatInput,
  type CopyTextInput,
  type SendBindCodeInput,
} from '../../src/machines/personalSettings';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { senderEvents } from './support/sender';
import { sendCooldownWith } from '../../src/machines/sendCooldown';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { replayPath } from './support/replay';
import { controlled } from './support/stubs';

const alice: User = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1, email: '', github_id: '', wechat_id: '' };
const origin = 'https://console.example.com';
const token = '0123456789abcdef0123456789abcdef';

/** Walks `events` through the pure transition, collecting what the machine emits. */
function walk<M extends AnyStateMachine>(machine: M, input: unknown, events: readonly AnyEventObject[]) {
  let [s] = initialTransition(machine, input as never) as [AnyMachineSnapshot, unknown];
  const emitted: AnyEventObject[] = [];
  for (const e of events) {
    const [next, actions] = transition(machine, s as never, e as never) as [AnyMachineSnapshot, { type: string; params?: unknown }[]];
    for (const a of actions) if (a.type === 'xstate.emit') emitted.push((a.params as { event: AnyEventObject }).event);
    s = next;
  }
  return { s, emitted };
}

const keysKnown = (emitted: readonly AnyEventObject[]) => {
  for (const e of emitted) {
    const m = (e as { message?: { key?: string } }).message;
    if (e.type === 'notify' && m?.key !== undefined) expect(isMessageKey(m.key), m.key).toBe(true);
  }
};

/**
 * Replays a path on a real actor: the path's done/error events settle the stub of the same id,
 * every other event is sent; after each step the snapshot must equal the path's.
 */

// ---------------------------------------------------------------------------------------------

describe('personalSettings model', () => {
  const fixtures: EventFixtures<typeof personalSettingsMachine> = {
    'token.generate': [{ type: 'token.generate' }],
    'invite.copy': [{ type: 'invite.copy' }],
    'account.reload': [{ type: 'account.reload' }],
    'secret.dismiss': [{ type: 'secret.dismiss' }],
  };
  const internal = [
    doneActor('loadSelf', alice),
    errorActor('loadSelf', httpError('GET /api/user/self', 500, 'Internal Server Error')),
    doneActor('generateAccessToken', token),
    errorActor('generateAccessToken', failure('GET /api/user/token', '请重试，系统生成的 UUID 竟然重复了！')),
    doneActor('fetchAffCode', 'Ab3x'),
    errorActor('fetchAffCode', failure('GET /api/user/aff', 'database is locked')),
    doneActor('copyText'),
    errorActor('copyText', new Error('Write permission denied.')),
  ];
  const model = { fixtures, internal, input: { origin } };
  const realShortest = () => shortestPaths(personalSettingsMachine, model).filter(isRealistic);
  const run = (events: readonly AnyEventObject[]) => walk(personalSettingsMachine, { origin }, events);
  type Snap = SnapshotFrom<typeof personalSettingsMachine>;

  it('reaches every state', () => {
    expect(unreachedStates(personalSettingsMachine, realShortest())).toEqual([]);
  });

  it('keeps its invariants on every simple path', () => {
    const paths = simplePaths(personalSettingsMachine, { ...model, limit: 3000 }).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        const children = Object.keys(s.children);
        expect(children.length).toBe(s.matches('ready') ? 0 : 1);
        expect(selectIsSettingsBusy(s)).toBe(!s.matches('ready'));
        expect(selectIsLoadingAccount(s)).toBe(s.matches('loading'));
        expect(selectIsGeneratingToken(s)).toBe(s.matches('generatingToken') || s.matches('copyingToken'));
        expect(selectIsCopyingInvite(s)).toBe(s.matches('fetchingInvite') || s.matches('copyingInvite'));
        // something is being copied exactly while a copy runs; a shown value is never empty
        expect(s.context.pending !== '').toBe(s.matches('copyingToken') || s.matches('copyingInvite'));
        const shown = selectShownSecret(s);
        if (shown !== null) expect(shown.text).not.toBe('');
        if (s.matches('copyingInvite')) expect(s.context.pending.startsWith(`${origin}/register?aff=`)).toBe(true);
      }
    }
  });

  describe('pinned journeys', () => {
    const loaded = doneActor('loadSelf', alice);
    it('a generated token is copied and the toast says so', () => {
      const { s, emitted } = run([loaded, { type: 'token.generate' }, doneActor('generateAccessToken', token), doneActor('copyText')]);
      expect(s.value).toBe('ready');
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'personal.token.copied' } }]);
    });
    it('a refused clipboard shows the token to copy by hand, until dismissed', () => {
      const refused = run([loaded, { type: 'token.generate' }, doneActor('generateAccessToken', token), errorActor('copyText', new Error('denied'))]);
      expect(selectShownSecret(refused.s as Snap)).toEqual({ kind: 'token', text: token });
      expect(refused.emitted).toEqual([{ type: 'notify', level: 'warning', message: { key: 'personal.copyFailed' } }]);
      const dismissed = run([loaded, { type: 'token.generate' }, doneActor('generateAccessToken', token), errorActor('copyText', new Error('denied')), { type: 'secret.dismiss' }]);
      expect(selectShownSecret(dismissed.s as Snap)).toBeNull();
    });
    it('the invite link is <origin>/register?aff=<code>', () => {
      const { s, emitted } = run([loaded, { type: 'invite.copy' }, doneActor('fetchAffCode', 'Ab3x')]);
      expect(s.value).toBe('copyingInvite');
      expect(s.context.pending).toBe('https://console.example.com/register?aff=Ab3x');
      const done = run([loaded, { type: 'invite.copy' }, doneActor('fetchAffCode', 'Ab3x'), doneActor('copyText')]);
      expect([...emitted, ...done.emitted]).toEqual([{ type: 'notify', level: 'success', message: { key: 'personal.invite.copied' } }]);
      expect(inviteLink('https://x.example/', 'a b')).toBe('https://x.example/register?aff=a%20b');
    });
    it("a refused call shows the server's message", () => {
      const { s, emitted } = run([loaded, { type: 'token.generate' }, errorActor('generateAccessToken', failure('GET /api/user/token', 'nope'))]);
      expect(s.value).toBe('ready');
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { text: 'nope' } }]);
    });
  });

  it.each(realShortest().filter((p) => p.steps.length > 2).map((p) => [describePath(p), p] as const))('replays %s', async (_, p) => {
    const stubs = {
      loadSelf: controlled<User, unknown>(),
      generateAccessToken: controlled<string, unknown>(),
      fetchAffCode: controlled<string, unknown>(),
      copyText: controlled<void, CopyTextInput>(),
    };
    const { emitted } = await replayPath({ machine: personalSettingsMachine, input: { origin }, stubs }, p);
    keysKnown(emitted);
  });
});

// ---------------------------------------------------------------------------------------------

describe('selfDelete model', () => {
  const fixtures: EventFixtures<typeof selfDeleteMachine> = {
    'delete.open': [{ type: 'delete.open' }],
    'delete.cancel': [{ type: 'delete.cancel' }],
    'confirmation.change': [
      { type: 'confirmation.change', value: 'alice' },
      { type: 'confirmation.change', value: 'Alice' },
    ],
    'delete.confirm': [{ type: 'delete.confirm' }],
  };
  const deleted = doneActor('deleteSelf');
  const refused = errorActor('deleteSelf', failure('DELETE /api/user/self', '不能删除超级管理员账户'));
  const model = { fixtures, internal: [deleted, refused], input: { username: 'alice' } };
  const realShortest = () => shortestPaths(selfDeleteMachine, model).filter(isRealistic);
  const run = (events: readonly AnyEventObject[]) => walk(selfDeleteMachine, { username: 'alice' }, events);
  const open = { type: 'delete.open' };
  const type = (value: string) => ({ type: 'confirmation.change', value });
  const confirm = { type: 'delete.confirm' };

  it('reaches every state', () => {
    expect(unreachedStates(selfDeleteMachine, realShortest())).toEqual([]);
  });

  it('keeps its invariants on every simple path', () => {
    const paths = simplePaths(selfDeleteMachine, model).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        // the call runs only with the exact username typed
        if (s.matches('deleting')) {
          expect(Object.keys(s.children)).toEqual(['deleteSelf']);
          expect(s.context.confirmation).toBe('alice');
        } else expect(Object.keys(s.children)).toEqual([]);
        if (s.matches('closed')) expect(s.context.confirmation).toBe('');
        expect(selectDeleteOpen(s)).toBe(s.matches('open') || s.matches('deleting'));
        expect(selectIsDeleting(s)).toBe(s.matches('deleting') || s.matches('deleted'));
      }
    }
  });

  describe('pinned journeys', () => {
    it('a wrong name says "请输入你的账户名以确认删除！" and keeps the dialog', () => {
      const { s, emitted } = run([open, type('Alice'), confirm]);
      expect(s.value).toBe('open');
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { key: 'validation.selfDelete.mismatch' } }]);
    });
    it('the exact name deletes, says "账户已删除！" and tells the shell', () => {
      const { s, emitted } = run([open, type('alice'), confirm, deleted]);
      expect(s.value).toBe('deleted');
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'personal.delete.done' } },
        { type: 'account.deleted' },
      ]);
      keysKnown(emitted);
    });
    it("root's refusal keeps the dialog open with the server's message", () => {
      const { s, emitted } = run([open, type('alice'), confirm, refused]);
      expect(s.value).toBe('open');
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { text: '不能删除超级管理员账户' } }]);
    });
    it('cancelling forgets what was typed', () => {
      expect(run([open, type('alice'), { type: 'delete.cancel' }, open]).s.context.confirmation).toBe('');
    });
  });

  it.each(realShortest().filter((p) => p.steps.length > 2).map((p) => [describePath(p), p] as const))('replays %s', async (_, p) => {
    const stubs = { deleteSelf: controlled<void, unknown>() };
    await replayPath({ machine: selfDeleteMachine, input: { username: 'alice' }, stubs }, p);
  });
});

// ---------------------------------------------------------------------------------------------

describe('wechatBind model', () => {
  const fixtures: EventFixtures<typeof wechatBindMachine> = {
    'wechat.open': [{ type: 'wechat.open' }],
    'wechat.cancel': [{ type: 'wechat.cancel' }],
    'wechat.submit': [
      { type: 'wechat.submit', code: '' },
      { type: 'wechat.submit', code: ' 123456 ' },
    ],
  };
  const bound = doneActor('bindWeChat');
  const refused = errorActor('bindWeChat', failure('GET /api/oauth/wechat/bind', '该微信账号已被绑定'));
  const model = { fixtures, internal: [bound, refused] };
  const realShortest = () => shortestPaths(wechatBindMachine, model).filter(isRealistic);
  const run = (events: readonly AnyEventObject[]) => walk(wechatBindMachine, undefined, events);

  it('reaches every state', () => {
    expect(unreachedStates(wechatBindMachine, realShortest())).toEqual([]);
  });

  it('keeps its invariants on every simple path', () => {
    const paths = simplePaths(wechatBindMachine, model).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        expect(Object.keys(s.children)).toEqual(s.matches('binding') ? ['bindWeChat'] : []);
        expect(selectWeChatOpen(s)).toBe(!s.matches('closed'));
        expect(selectIsBindingWeChat(s)).toBe(s.matches('binding'));
      }
    }
  });

  describe('pinned journeys', () => {
    it('an empty code does nothing', () => {
      const { s, emitted } = run([{ type: 'wechat.open' }, fixtures['wechat.submit'][0]!]);
      expect(s.value).toBe('open');
      expect(emitted).toEqual([]);
    });
    it('a bound account says "微信账户绑定成功！", closes and tells the tab', () => {
      const { s, emitted } = run([{ type: 'wechat.open' }, fixtures['wechat.submit'][1]!, bound]);
      expect(s.value).toBe('closed');
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'personal.wechat.bound' } },
        { type: 'account.bound' },
      ]);
      keysKnown(emitted);
    });
    it('a refusal keeps the dialog open', () => {
      expect(run([{ type: 'wechat.open' }, fixtures['wechat.submit'][1]!, refused]).s.value).toBe('open');
    });
  });

  it('sends the trimmed code', async () => {
    const stub = controlled<void, BindWeChatInput>();
    const actor = createActor(wechatBindMachine.provide({ actors: { bindWeChat: stub.logic } })).start();
    actor.send({ type: 'wechat.open' });
    actor.send(fixtures['wechat.submit'][1]!);
    expect(stub.calls).toEqual([{ code: '123456' }]);
    stub.resolve(undefined);
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('closed');
    actor.stop();
  });

  it.each(realShortest().filter((p) => p.steps.length > 2).map((p) => [describePath(p), p] as const))('replays %s', async (_, p) => {
    const stubs = { bindWeChat: controlled<void, BindWeChatInput>() };
    await replayPath({ machine: wechatBindMachine, stubs }, p);
  });
});

// ---------------------------------------------------------------------------------------------

describe('emailBind model', () => {
  /** The code sender (the sendCooldown child invoked as `sendVerificationCode`): its facts and snapshots. */
  const sender = senderEvents('sendVerificationCode', failure('GET /api/verification', '邮箱地址已被占用'));
  const fixtures: EventFixtures<typeof emailBindMachine> = {
    'email.open': [{ type: 'email.open' }],
    'email.cancel': [{ type: 'email.cancel' }],
    'field.change': [
      { type: 'field.change', field: 'email', value: 'alice@example.com' },
      { type: 'field.change', field: 'code', value: '8d3f' },
    ],
    'code.send': [
      { type: 'code.send', turnstileToken: '' },
      { type: 'code.send', turnstileToken: 'XXXX.DUMMY.TOKEN' },
    ],
    'email.submit': [{ type: 'email.submit' }],
    'turnstile.change': [{ type: 'turnstile.change', enabled: false }],
    'send.succeeded': [sender.succeeded],
    'send.failed': [sender.failed],
  };
  const sent = sender.succeeded;
  const cooling = sender.cooling;
  const cooled = sender.ready;
  const bound = doneActor('bindEmail');
  const bindRefused = errorActor('bindEmail', failure('GET /api/oauth/email/bind', '验证码错误或已过期'));
  const internal = [bound, bindRefused, ...sender.snapshots];
  const input = { turnstileEnabled: true };
  const model = { fixtures, internal, input, occurs: sender.occurs };
  const realistic = (p: Parameters<typeof isRealistic>[0]) => isRealistic(p) && sender.isRealistic(p);
  const realShortest = () => shortestPaths(emailBindMachine, model).filter(realistic);
  const phase = (s: SnapshotFrom<typeof emailBindMachine>) => s.context.sender.phase;
  const run = (events: readonly AnyEventObject[]) => walk(emailBindMachine, input, events);
  const email = fixtures['field.change'][0]!;
  const code = fixtures['field.change'][1]!;
  const sendNoToken = fixtures['code.send'][0]!;
  const send = fixtures['code.send'][1]!;
  const open = { type: 'email.open' };
  const submit = { type: 'email.submit' };

  it('reaches every state, and every phase of the code sender', () => {
    expect(unreachedStates(emailBindMachine, realShortest())).toEqual([]);
    expect(new Set(realShortest().map((p) => phase(p.state)))).toEqual(new Set(['ready', 'sending', 'coolingDown']));
  });

  it('keeps its invariants on every simple path', () => {
    // bounded: one value per field, the refusals of the send left to the pinned journeys
    const bounded = {
      fixtures: { ...fixtures, 'code.send': [send], 'email.cancel': [], 'turnstile.change': [], 'send.succeeded': [], 'send.failed': [] },
      internal: [bound, bindRefused, cooling, cooled],
      input,
      occurs: sender.occurs,
    } as unknown as typeof model;
    const paths = simplePaths(emailBindMachine, bounded).filter(realistic);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        const children = Object.keys(s.children).sort();
        // the code sender (and its relay) live as long as the binding; the binding call only while binding
        const expected = [...(s.matches('binding') ? ['bindEmail'] : []), 'relayChildren', 'sendVerificationCode'].sort();
        expect(children).toEqual(expected);
        expect(selectEmailOpen(s)).toBe(!s.matches('closed'));
        expect(selectIsBindingEmail(s)).toBe(s.matches('binding'));
        expect(selectIsSendingCode(s)).toBe(phase(s) === 'sending');
        expect(selectCanSendCode(s)).toBe(phase(s) === 'ready');
        // the countdown shows exactly while the sender cools down
        expect(selectCodeSecondsLeft(s) > 0).toBe(phase(s) === 'coolingDown');
        // a binding never runs without both fields
        if (s.matches('binding')) expect(s.context.email !== '' && s.context.code !== '').toBe(true);
      }
    }
  });

  describe('pinned journeys', () => {
    it('without a bot-check result, the Turnstile wait message and nothing sent', () => {
      const { s, emitted } = run([open, email, sendNoToken]);
      expect(phase(s)).toBe('ready');
      expect(emitted).toEqual([{ type: 'notify', level: 'info', message: { key: 'validation.turnstile.wait' } }]);
    });
    it('Turnstile turned off while the tab is open (the status reloaded): a code goes without a bot-check result', () => {
      const { s, emitted } = run([open, email, { type: 'turnstile.change', enabled: false }, sendNoToken]);
      expect(phase(s)).toBe('sending');
      expect(s.context.turnstileEnabled).toBe(false);
      expect(emitted).toEqual([]);
    });
    it('an empty e-mail sends nothing and says nothing', () => {
      const { s, emitted } = run([open, send]);
      expect(phase(s)).toBe('ready');
      expect(emitted).toEqual([]);
    });
    it('a sent code counts down 30 s', () => {
      const { s, emitted } = run([open, email, send, sent, cooling]);
      expect(phase(s)).toBe('coolingDown');
      expect(selectCodeSecondsLeft(s)).toBe(30);
      // pressing during the countdown says nothing and changes nothing
      expect(run([open, email, send, sent, cooling, sendNoToken]).s.context).toEqual(s.context);
      expect(run([open, email, send, sent, cooling, sendNoToken]).emitted).toEqual(emitted);
      expect(selectCanSendCode(run([open, email, send, sent, cooling, cooled]).s)).toBe(true);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'account.register.codeSent' } }]);
    });
    it("a refused code shows the server's message", () => {
      const { emitted } = run([open, email, send, sender.failed, cooling]);
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { text: '邮箱地址已被占用' } }]);
    });
    it('an empty code does nothing', () => {
      const { s, emitted } = run([open, email, submit]);
      expect(s.matches('open')).toBe(true);
      expect(emitted).toEqual([]);
    });
    it('a bound e-mail says "邮箱账户绑定成功！", closes, empties the form and tells the tab', () => {
      const { s, emitted } = run([open, email, code, submit, bound]);
      expect(s.matches('closed')).toBe(true);
      expect(s.context.email).toBe('');
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'personal.email.bound' } },
        { type: 'account.bound' },
      ]);
      keysKnown(emitted);
    });
    it('a wrong code keeps the dialog and the fields', () => {
      const { s, emitted } = run([open, email, code, submit, bindRefused]);
      expect(s.matches('open')).toBe(true);
      expect(s.context.code).toBe('8d3f');
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { text: '验证码错误或已过期' } }]);
    });
  });

  describe('on a real actor', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('the resend cooldown (its tick delay) allows a new code after 30 s', async () => {
      vi.useFakeTimers();
      const sendCode = controlled<void, SendBindCodeInput>();
      const actor = createActor(
        emailBindMachine.provide({ actors: { sendVerificationCode: sendCooldownWith(sendCode.logic), bindEmail: fromPromise<void, BindEmailInput>(() => Promise.resolve()) } }),
        { input },
      ).start();
      actor.send({ type: 'email.open' });
      actor.send(email);
      actor.send(send);
      await vi.advanceTimersByTimeAsync(0);
      expect(sendCode.calls).toEqual([{ email: 'alice@example.com', turnstile: 'XXXX.DUMMY.TOKEN' }]);
      sendCode.resolve(undefined);
      await vi.advanceTimersByTimeAsync(0);
      expect(selectCodeSecondsLeft(actor.getSnapshot())).toBe(30);
      await vi.advanceTimersByTimeAsync(1000);
      expect(selectCodeSecondsLeft(actor.getSnapshot())).toBe(29);
      actor.send(send);
      await vi.advanceTimersByTimeAsync(0);
      expect(sendCode.calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(29_000);
      expect(selectCanSendCode(actor.getSnapshot())).toBe(true);
      expect(selectCodeSecondsLeft(actor.getSnapshot())).toBe(0);
      actor.send(send);
      await vi.advanceTimersByTimeAsync(0);
      expect(sendCode.calls).toHaveLength(2);
      actor.stop();
    });

    it.each(realShortest().filter((p) => p.steps.length > 2).map((p) => [describePath(p), p] as const))('replays %s', async (_, p) => {
      vi.useFakeTimers();
      const sendCode = controlled<void, SendBindCodeInput>();
      const stubs = { bindEmail: controlled<void, BindEmailInput>() };
      const machine = emailBindMachine.provide({ actors: { sendVerificationCode: sendCooldownWith(sendCode.logic) } });
      await replayPath({ machine, input, stubs, play: sender.play(sendCode), settle: () => vi.advanceTimersByTimeAsync(0) }, p);
    });
  });
});
