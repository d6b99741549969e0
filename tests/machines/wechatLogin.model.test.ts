import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure } from '../../src/domain/apiError';
import { isMessageKey } from '../../src/i18n';
import type { User } from '../../src/domain/user';
import {
  selectError,
  selectIsOpen,
  selectIsSubmitting,
  wechatLoginMachine,
  type WeChatLoginOutcome,
} from '../../src/machines/wechatLogin';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as walk, follows } from './support/replay';
import { fakeSession } from './support/fakeSession';

const user: User = { id: 3, username: 'wechat_3', display_name: 'WeChat User', role: 1, status: 1 };
const fixtures: EventFixtures<typeof wechatLoginMachine> = {
  'dialog.open': [{ type: 'dialog.open' }],
  'dialog.close': [{ type: 'dialog.close' }],
  'code.submit': [
    { type: 'code.submit', code: ' 123456 ' },
    { type: 'code.submit', code: '' },
    { type: 'code.submit', code: '   ' },
  ],
};
const [submit, submitEmpty, submitBlank] = fixtures['code.submit'] as unknown as [AnyEventObject, AnyEventObject, AnyEventObject];
const open = fixtures['dialog.open'][0]!;
const close = fixtures['dialog.close'][0]!;
const loggedIn = doneActor('loginWithWeChat', { bound: false, user });
const secondFactorAsked = doneActor('loginWithWeChat', { bound: false, secondFactor: true });
const adminMustEnrol = doneActor('loginWithWeChat', { bound: false, user: { ...user, role: 10 }, enrolmentRequired: true });
const rejected = errorActor('loginWithWeChat', failure('wechatLogin', '验证码错误或已过期'));
const session = fakeSession();
const input = { session };
const model = { fixtures, internal: [loggedIn, secondFactorAsked, rejected], input };

type Snap = SnapshotFrom<typeof wechatLoginMachine>;
const realShortest = () => shortestPaths(wechatLoginMachine, model).filter(isRealistic);
const realSimple = () => simplePaths(wechatLoginMachine, model).filter(isRealistic);

function journey(events: readonly AnyEventObject[]): Snap {
  return walk(wechatLoginMachine, input, events);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('wechatLogin model', () => {
  it('reaches every state', () => {
    const paths = realShortest();
    expect(unreachedStates(wechatLoginMachine, paths)).toEqual([]);
    expect(paths.map(describePath)).toContain('xstate.init → dialog.open → code.submit');
  });

  it('keeps its invariants on every simple path', () => {
    const paths = realSimple();
    expect(paths.length).toBeGreaterThan(3);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        // never two logins in flight; one runs exactly while submitting
        const running = Object.keys(s.children);
        expect(running.length).toBeLessThanOrEqual(1);
        expect(running.length === 1).toBe(s.matches('submitting'));
        expect(selectIsSubmitting(s)).toBe(s.matches('submitting'));
        // only a non-empty, trimmed code is ever sent
        if (s.matches('submitting')) expect(s.context.code).toBe('123456');
        // a closed dialog holds nothing
        if (s.matches('closed')) expect(s.context).toEqual({ session, code: '', error: null });
        // an error is on show only in the open dialog
        if (s.context.error !== null) expect(s.matches('open')).toBe(true);
      }
    }
  });

  describe('pinned journeys', () => {
    it('opening shows the dialog', () => {
      const s = journey([open]);
      expect(selectIsOpen(s)).toBe(true);
      expect(selectIsSubmitting(s)).toBe(false);
    });
    it('an empty or blank code does nothing', () => {
      expect(journey([open, submitEmpty]).value).toBe('open');
      expect(journey([open, submitBlank]).value).toBe('open');
    });
    it('a good code signs in and closes', () => {
      const s = journey([open, submit, loggedIn]);
      expect(s.value).toBe('closed');
      expect(selectIsOpen(s)).toBe(false);
    });
    it('a bad code shows the server message and stays open', () => {
      const s = journey([open, submit, rejected]);
      expect(s.value).toBe('open');
      expect(selectError(s)).toEqual({ text: '验证码错误或已过期' });
      // a new try clears it
      expect(selectError(journey([open, submit, rejected, submit]))).toBeNull();
      // closing clears it
      expect(selectError(journey([open, submit, rejected, close, open]))).toBeNull();
    });
    it('a user with two-factor sign-in on: the dialog closes (the session asks for the code)', () => {
      const s = journey([open, submit, secondFactorAsked]);
      expect(s.value).toBe('closed');
      expect(s.context).toEqual({ session, code: '', error: null });
    });
    it('the dialog cannot be closed while the code is checked', () => {
      expect(journey([open, submit, close]).value).toBe('submitting');
    });
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      vi.useFakeTimers();
      const login = controlled<WeChatLoginOutcome, string>();
      const settle = () => vi.advanceTimersByTimeAsync(0);
      const live = fakeSession();
      const { emitted } = await replayOn({ machine: wechatLoginMachine, input: { session: live }, stubs: { loginWithWeChat: login }, settle }, events, check);
      return { codes: login.calls, emitted, received: live.getSnapshot().context.received };
    }

    const chosen = realSimple().filter((p) => p.steps.length > 2);
    it.each(chosen.map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      await replay(
        p.steps.map((s) => s.event),
        (i, s) => follows(p)(i, { value: s.value, context: { ...s.context, session } } as unknown as Snap),
      );
    });

    it('success hands the user to the session for / and says so', async () => {
      const { codes, emitted, received } = await replay([{ type: 'xstate.init' }, open, submitEmpty, submit, loggedIn]);
      expect(codes).toEqual(['123456']);
      expect(isMessageKey('signIn.loggedIn')).toBe(true);
      expect(received).toEqual([{ type: 'session.signedIn', user, to: '/', enrolmentRequired: false }]);
      expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'signIn.loggedIn' } }]);
    });

    it('a second step is handed over to the session (no sign-in toast: not signed in yet)', async () => {
      const { emitted, received } = await replay([{ type: 'xstate.init' }, open, submit, secondFactorAsked]);
      expect(received).toEqual([{ type: 'session.secondFactorNeeded', to: '/' }]);
      expect(emitted).toEqual([]);
    });

    it('an admin who must enrol is handed over flagged', async () => {
      const { received } = await replay([{ type: 'xstate.init' }, open, submit, adminMustEnrol]);
      expect(received).toEqual([{ type: 'session.signedIn', user: { ...user, role: 10 }, to: '/', enrolmentRequired: true }]);
    });

    it('failure shows the server message as a toast', async () => {
      const { emitted, received } = await replay([{ type: 'xstate.init' }, open, submit, rejected]);
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { text: '验证码错误或已过期' } }]);
      expect(received).toEqual([]);
    });
  });
});
