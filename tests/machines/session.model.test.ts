import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createActor,
  fromCallback,
  type AnyEventObject,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';
import { failure, httpError, networkError } from '../../src/domain/apiError';
import type { Status } from '../../src/domain/status';
import type { LoginAnswer } from '../../src/domain/twoFactor';
import type { LoginPayload, User } from '../../src/domain/user';
import { isMessageKey, renderMessage } from '../../src/i18n';
import {
  hasNewVersion,
  selectIsAccessPending,
  selectIsAdmin,
  selectIsRoot,
  selectIsSignedIn,
  selectIsReauthOpen,
  selectIsSigningIn,
  selectMustEnrol,
  selectReauth,
  selectSecondFactor,
  selectStatus,
  selectStatusPhase,
  selectUser,
  expiryGraceMs,
  sessionMachine,
  type SessionInput,
  type SessionStorageCommand,
} from '../../src/machines/session';
import { afterDelay, describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as walk, follows } from './support/replay';

const status = (JSON.parse(readFileSync(new URL('../fixtures/api/status.json', import.meta.url), 'utf8')) as { data: Status }).data;
const alice: User = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1 };
const admin: User = { id: 3, username: 'boss', display_name: '', role: 10, status: 1 };
const root: User = { id: 1, username: 'root', display_name: 'Root User', role: 100, status: 1 };

const fixtures: EventFixtures<typeof sessionMachine> = {
  'login.submit': [
    { type: 'login.submit', username: ' alice ', password: 'secret123', from: '/log?p=2' },
    { type: 'login.submit', username: 'root', password: '123456' },
    { type: 'login.submit', username: '', password: 'secret123' },
    { type: 'login.submit', username: 'alice', password: '' },
  ],
  'session.signedIn': [
    { type: 'session.signedIn', user: admin, to: '/' },
    { type: 'session.signedIn', user: admin, to: '/', enrolmentRequired: true },
  ],
  'session.secondFactorNeeded': [{ type: 'session.secondFactorNeeded', to: '/' }],
  'session.enrolled': [{ type: 'session.enrolled' }],
  'session.userUpdated': [{ type: 'session.userUpdated', user: { ...alice, display_name: 'Alice B.' } }],
  'logout.request': [{ type: 'logout.request' }],
  'session.expired': [{ type: 'session.expired' }],
  'session.storageChanged': [
    { type: 'session.storageChanged', user: root },
    { type: 'session.storageChanged', user: null },
  ],
  'status.reload': [{ type: 'status.reload' }],
  'secondFactor.submit': [
    { type: 'secondFactor.submit', code: ' 123456 ' },
    { type: 'secondFactor.submit', code: '  ' },
  ],
  'secondFactor.modeToggle': [{ type: 'secondFactor.modeToggle' }],
  'secondFactor.cancel': [{ type: 'secondFactor.cancel' }],
  'reauth.request': [{ type: 'reauth.request' }],
  'reauth.submit': [
    { type: 'reauth.submit', password: 'secret123' },
    { type: 'reauth.submit', password: '' },
    { type: 'reauth.submit', password: 'secret123', username: ' root ' },
  ],
  'reauth.cancel': [{ type: 'reauth.cancel' }],
};
const [aliceLogin, rootLogin, noUsername, noPassword] = fixtures['login.submit'] as unknown as [AnyEventObject, AnyEventObject, AnyEventObject, AnyEventObject];
const signedInElsewhere = fixtures['session.signedIn'][0]!;
const enrolElsewhere = fixtures['session.signedIn'][1]!;
const secondFactorElsewhere = fixtures['session.secondFactorNeeded'][0]!;
const enrolled = fixtures['session.enrolled'][0]!;
const profileEdited = fixtures['session.userUpdated'][0]!;
const logout = fixtures['logout.request'][0]!;
const expired = fixtures['session.expired'][0]!;
const [otherTabIn, otherTabOut] = fixtures['session.storageChanged'] as unknown as [AnyEventObject, AnyEventObject];
const reload = fixtures['status.reload'][0]!;
const [codeSent, emptyCode] = fixtures['secondFactor.submit'] as unknown as [AnyEventObject, AnyEventObject];
const modeToggle = fixtures['secondFactor.modeToggle'][0]!;
const cancelSecond = fixtures['secondFactor.cancel'][0]!;
const reauthAsked = fixtures['reauth.request'][0]!;
const [reauthSent, reauthEmpty, reauthAsRoot] = fixtures['reauth.submit'] as unknown as [AnyEventObject, AnyEventObject, AnyEventObject];
const reauthCancel = fixtures['reauth.cancel'][0]!;
const graceOver = afterDelay('expiryGrace', 'session', 'auth.expiring');

const statusLoaded = doneActor('loadStatus', status);
const statusFailed = errorActor('loadStatus', networkError('getStatus', 'Failed to fetch'));
const loggedIn = doneActor('logIn', alice);
const rootLoggedIn = doneActor('logIn', root);
const loginRefused = errorActor('logIn', failure('login', '用户名或密码错误，或用户已被封禁'));
const loggedOut = doneActor('logOut');
const secondFactorAsked = doneActor('logIn', { require_2fa: true });
const adminMustEnrol = doneActor('logIn', { ...admin, require_2fa_setup: true });
const secondFactorPassed = doneActor('verifySecondFactor', alice);
const secondFactorRefused = errorActor('verifySecondFactor', failure('loginSecondFactor', '验证码错误或已使用，请输入验证器当前显示的 6 位数字'));
const logoutFailed = errorActor('logOut', httpError('logout', 500, 'Internal Server Error'));
const mustEnrolRestored = doneActor('checkEnrolment', true);
const needNotEnrol = doneActor('checkEnrolment', false);
const enrolmentUnknown = errorActor('checkEnrolment', networkError('enrolmentRequired', 'Failed to fetch'));
const enrolmentChecks = [mustEnrolRestored, needNotEnrol, enrolmentUnknown];

const signedOutInput: SessionInput = { user: null, status: null, buildVersion: 'v0.1.0' };
const signedInInput: SessionInput = { user: alice, status, buildVersion: 'v0.1.0' };
/** A reload of an admin's page: the stored user only (the login answer's enrolment flag is gone). */
const adminRestoredInput: SessionInput = { user: admin, status, buildVersion: 'v0.1.0' };

type Snap = SnapshotFrom<typeof sessionMachine>;
const serializeState = (s: Snap) =>
  JSON.stringify([
    s.value, s.context.user, s.context.status?.version ?? null, s.context.pendingLogin, s.context.secondFactor, s.context.enrolmentRequired, s.context.reauth, s.status,
  ]);
/**
 * The whole-machine traversals leave out the OAuth/WeChat hand-overs' enrolment variants (a flagged
 * sign-in, the code asked for elsewhere, the enrolment): beside the dialog's states they take the
 * space past the limit; the hand-overs have their own walk and journeys below.
 */
const traversalFixtures: EventFixtures<typeof sessionMachine> = {
  ...fixtures,
  'session.signedIn': [fixtures['session.signedIn'][0]!],
  'session.secondFactorNeeded': [],
  'session.enrolled': [],
};
const model = (input: SessionInput, internal: readonly AnyEventObject[]) => ({ fixtures: traversalFixtures, internal, input, serializeState, limit: 50_000 });
const outInternal = [
  statusLoaded, statusFailed, loggedIn, loginRefused, loggedOut, logoutFailed, secondFactorAsked, secondFactorPassed, secondFactorRefused,
  graceOver, rootLoggedIn,
];

function journey(input: SessionInput, events: readonly AnyEventObject[]): Snap {
  return walk(sessionMachine, input, events);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('session model', () => {
  it('reaches every state, from a signed-out and from a restored start', () => {
    const paths = [
      ...shortestPaths(sessionMachine, model(signedOutInput, outInternal)),
      ...shortestPaths(sessionMachine, model(signedInInput, outInternal)),
      ...shortestPaths(sessionMachine, model(adminRestoredInput, [...outInternal, ...enrolmentChecks])),
    ].filter(isRealistic);
    // `restoring` is transient: it decides at once and is never a resting snapshot.
    expect(unreachedStates(sessionMachine, paths)).toEqual(['auth.restoring']);
    expect(paths.map(describePath)).toContain('xstate.init → login.submit');
  });

  it('keeps its invariants on every simple path', () => {
    // The auth region's own events (the status region is independent and has its own checks).
    const authOnly: EventFixtures<typeof sessionMachine> = {
      ...fixtures,
      'login.submit': [aliceLogin, noUsername] as never,
      'session.storageChanged': [otherTabOut] as never,
      'session.userUpdated': [],
      'status.reload': [],
      'secondFactor.submit': [codeSent] as never,
      // (the mode switch only flips a flag; the pinned journeys cover it)
      'secondFactor.modeToggle': [],
      // (the hand-overs from OAuth/WeChat: one flagged sign-in and the enrolment; the second step
      // they ask for is the password login's, whose paths are here already)
      'session.signedIn': [enrolElsewhere] as never,
      'session.secondFactorNeeded': [],
      // the dialog's events have their own traversal below
      'reauth.request': [],
      'reauth.submit': [],
      'reauth.cancel': [],
    };
    const paths = simplePaths(sessionMachine, {
      fixtures: authOnly,
      internal: [loggedIn, loginRefused, loggedOut, secondFactorAsked, secondFactorPassed, secondFactorRefused, graceOver],
      input: signedOutInput,
      serializeState,
    }).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(20);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        // signed in exactly when a user is held
        expect(selectIsSignedIn(s)).toBe(s.context.user !== null);
        if (s.matches({ auth: 'signedIn' })) expect(s.context.user).not.toBeNull();
        if (s.matches({ auth: 'signedOut' })) expect(s.context.user).toBeNull();
        // a login plan exists exactly while a login runs, and never holds a password
        const loginRuns = s.matches({ auth: 'signingIn' }) || s.matches({ auth: 'secondFactor' }) || s.matches({ auth: 'verifyingSecondFactor' });
        expect(s.context.pendingLogin !== null).toBe(loginRuns);
        // the second step's data exists exactly while it is asked
        expect(s.context.secondFactor !== null).toBe(s.matches({ auth: 'secondFactor' }) || s.matches({ auth: 'verifyingSecondFactor' }));
        expect(selectSecondFactor(s) !== null).toBe(s.context.secondFactor !== null);
        expect(JSON.stringify(s.context)).not.toContain('secret123');
        // only a signed-in user can be held at the enrolment
        if (s.context.enrolmentRequired) expect(s.context.user).not.toBeNull();
        expect(selectMustEnrol(s)).toBe(s.context.enrolmentRequired);
        // one login or logout at a time, besides the status load and the watcher
        const running = Object.keys(s.children).filter((id) => id === 'logIn' || id === 'logOut' || id === 'verifySecondFactor');
        expect(running.length).toBeLessThanOrEqual(1);
        expect(selectIsSigningIn(s)).toBe(s.matches({ auth: 'signingIn' }));
        // the guarded pages wait while a login runs or a restored admin's enrolment is checked, and only for an admin
        expect(selectIsAccessPending(s)).toBe(s.matches({ auth: 'signingIn' }) || s.matches({ auth: 'checkingEnrolment' }));
        if (s.matches({ auth: 'checkingEnrolment' })) expect(selectIsAdmin(s)).toBe(true);
        expect(Object.keys(s.children)).toContain('watchSession');
        // the dialog's data exists exactly while it is open, and the user is kept all along
        const dialog = s.matches({ auth: 'reauthenticating' }) || s.matches({ auth: 'reauthSigningIn' });
        expect(s.context.reauth !== null).toBe(dialog);
        expect(selectIsReauthOpen(s)).toBe(dialog);
        expect(selectReauth(s)).toBe(dialog ? s.context.reauth : null);
        if (dialog || s.matches({ auth: 'expiring' })) expect(s.context.user).not.toBeNull();
      }
    }
  });

  /** The fixtures with only the given events fed (every other event type given none). */
  const onlyFixtures = (picked: Readonly<Record<string, readonly AnyEventObject[]>>) =>
    ({ ...Object.fromEntries(Object.keys(fixtures).map((k) => [k, []])), ...picked }) as unknown as EventFixtures<typeof sessionMachine>;

  it('keeps the enrolment invariants on every simple path from a restored admin', () => {
    const restoredOnly = onlyFixtures({
      'session.enrolled': [enrolled],
      'session.expired': [expired],
      'logout.request': [logout],
      'session.storageChanged': [otherTabOut],
    });
    const paths = simplePaths(sessionMachine, {
      fixtures: restoredOnly,
      internal: [...enrolmentChecks, loggedOut, graceOver],
      input: adminRestoredInput,
      serializeState,
      limit: 5000,
    }).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(5);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        const checking = s.matches({ auth: 'checkingEnrolment' });
        expect(selectIsAccessPending(s)).toBe(checking);
        // the check runs exactly while its state lasts, for a held admin only
        expect('checkEnrolment' in s.children).toBe(checking);
        if (checking) expect(selectIsAdmin(s)).toBe(true);
        if (s.context.enrolmentRequired) expect(s.context.user).not.toBeNull();
        expect(selectMustEnrol(s)).toBe(s.context.enrolmentRequired);
      }
    }
  });

  it('keeps the dialog invariants on every simple path from a 401', () => {
    const dialogOnly = onlyFixtures({
      'session.expired': [expired],
      'reauth.request': [reauthAsked],
      'reauth.submit': [reauthSent, reauthEmpty],
      'reauth.cancel': [reauthCancel],
      'logout.request': [logout],
    });
    const paths = simplePaths(sessionMachine, {
      fixtures: dialogOnly,
      internal: [loggedIn, rootLoggedIn, loginRefused, loggedOut, secondFactorAsked, graceOver],
      input: signedInInput,
      serializeState,
      limit: 5000,
    }).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(5);
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        const dialog = s.matches({ auth: 'reauthenticating' }) || s.matches({ auth: 'reauthSigningIn' });
        expect(s.context.reauth !== null).toBe(dialog);
        expect(selectIsReauthOpen(s)).toBe(dialog);
        expect(selectReauth(s)).toBe(dialog ? s.context.reauth : null);
        if (dialog || s.matches({ auth: 'expiring' })) expect(s.context.user).not.toBeNull();
        expect(selectIsSignedIn(s)).toBe(s.context.user !== null);
        expect(JSON.stringify(s.context)).not.toContain('secret123');
      }
    }
  });

  describe('pinned journeys', () => {
    it('restores the stored user and shows the stored status until the server answers', () => {
      const s = journey(signedInInput, []);
      expect(s.matches({ auth: 'signedIn' })).toBe(true);
      expect(selectUser(s)).toEqual(alice);
      expect(selectStatus(s)).toEqual(status);
      expect(selectStatusPhase(s)).toBe('loading');
      expect(selectStatusPhase(journey(signedInInput, [statusLoaded]))).toBe('ready');
      expect(selectStatusPhase(journey(signedInInput, [statusFailed]))).toBe('failed');
      expect(selectStatusPhase(journey(signedInInput, [statusFailed, reload]))).toBe('loading');
    });
    it('needs both fields to log in', () => {
      expect(journey(signedOutInput, [noUsername]).matches({ auth: 'signedOut' })).toBe(true);
      expect(journey(signedOutInput, [noPassword]).matches({ auth: 'signedOut' })).toBe(true);
      expect(journey(signedOutInput, [aliceLogin]).matches({ auth: 'signingIn' })).toBe(true);
    });
    it('logs in, then out', () => {
      const s = journey(signedOutInput, [aliceLogin, loggedIn]);
      expect(selectUser(s)).toEqual(alice);
      expect(selectUser(journey(signedOutInput, [aliceLogin, loggedIn, logout, loggedOut]))).toBeNull();
      expect(selectUser(journey(signedOutInput, [aliceLogin, loggedIn, logout, logoutFailed]))).toBeNull();
    });
    it('roles', () => {
      expect(selectIsAdmin(journey(signedOutInput, [signedInElsewhere]))).toBe(true);
      expect(selectIsRoot(journey(signedOutInput, [signedInElsewhere]))).toBe(false);
      expect(selectIsRoot(journey(signedOutInput, [otherTabIn]))).toBe(true);
      expect(selectIsAdmin(journey(signedInInput, []))).toBe(false);
    });
    it('a 401 and another tab signing out end the session', () => {
      expect(selectIsSignedIn(journey(signedInInput, [expired]))).toBe(true);
      expect(journey(signedInInput, [expired]).matches({ auth: 'expiring' })).toBe(true);
      expect(selectIsSignedIn(journey(signedInInput, [expired, graceOver]))).toBe(false);
      expect(selectIsSignedIn(journey(signedInInput, [otherTabOut]))).toBe(false);
      expect(selectUser(journey(signedOutInput, [otherTabIn]))).toEqual(root);
    });
    it('a second factor: no user until the code passes; an empty code is named; a refusal stays on the step', () => {
      const asked = journey(signedOutInput, [aliceLogin, secondFactorAsked]);
      expect(asked.matches({ auth: 'secondFactor' })).toBe(true);
      expect(selectUser(asked)).toBeNull();
      expect(selectSecondFactor(asked)).toEqual({ recovery: false, error: null });
      expect(selectSecondFactor(journey(signedOutInput, [aliceLogin, secondFactorAsked, emptyCode]))?.error).toEqual({
        key: 'twoFactor.error.codeRequired',
      });
      expect(selectSecondFactor(journey(signedOutInput, [aliceLogin, secondFactorAsked, modeToggle]))?.recovery).toBe(true);
      const refused = journey(signedOutInput, [aliceLogin, secondFactorAsked, codeSent, secondFactorRefused]);
      expect(refused.matches({ auth: 'secondFactor' })).toBe(true);
      expect(selectSecondFactor(refused)?.error).toEqual({ text: '验证码错误或已使用，请输入验证器当前显示的 6 位数字' });
      const passed = journey(signedOutInput, [aliceLogin, secondFactorAsked, codeSent, secondFactorPassed]);
      expect(selectUser(passed)).toEqual(alice);
      expect(passed.context.secondFactor).toBeNull();
      const back = journey(signedOutInput, [aliceLogin, secondFactorAsked, cancelSecond]);
      expect(back.matches({ auth: 'signedOut' })).toBe(true);
      expect(back.context.pendingLogin).toBeNull();
    });
    it('OAuth / WeChat with two-factor sign-in on: the session asks for the code, then signs in to the plan', () => {
      const asked = journey(signedOutInput, [secondFactorElsewhere]);
      expect(asked.matches({ auth: 'secondFactor' })).toBe(true);
      expect(selectUser(asked)).toBeNull();
      expect(selectSecondFactor(asked)).toEqual({ recovery: false, error: null });
      expect(asked.context.pendingLogin).toEqual({ to: '/', defaultPassword: false });
      const passed = journey(signedOutInput, [secondFactorElsewhere, codeSent, secondFactorPassed]);
      expect(selectUser(passed)).toEqual(alice);
      expect(journey(signedOutInput, [secondFactorElsewhere, cancelSecond]).matches({ auth: 'signedOut' })).toBe(true);
    });
    it('an admin who must enrol is held until enrolled (or signed out)', () => {
      expect(selectMustEnrol(journey(signedOutInput, [aliceLogin, adminMustEnrol]))).toBe(true);
      expect(selectMustEnrol(journey(signedOutInput, [enrolElsewhere]))).toBe(true);
      expect(selectMustEnrol(journey(signedOutInput, [signedInElsewhere]))).toBe(false);
      expect(selectMustEnrol(journey(signedOutInput, [enrolElsewhere, enrolled]))).toBe(false);
      expect(selectMustEnrol(journey(signedOutInput, [enrolElsewhere, logout, loggedOut]))).toBe(false);
      expect(selectMustEnrol(journey(signedOutInput, [enrolElsewhere, expired, graceOver]))).toBe(false);
      expect(selectMustEnrol(journey(signedOutInput, [aliceLogin, loggedIn]))).toBe(false);
    });
    it('a restored admin whose enrolment the start knows (asked early) is signed in at once when they need not enrol; else checked as always', () => {
      const known = journey({ ...adminRestoredInput, enrolmentRequired: false }, []);
      expect(known.matches({ auth: 'signedIn' })).toBe(true);
      expect(known.children.checkEnrolment).toBeUndefined();
      expect(selectIsAccessPending(known)).toBe(false);
      expect(selectMustEnrol(known)).toBe(false);
      // must enrol: the check runs (and warns) exactly as without the early answer
      expect(journey({ ...adminRestoredInput, enrolmentRequired: true }, []).matches({ auth: 'checkingEnrolment' })).toBe(true);
      // a common user or nobody: the input changes nothing
      expect(journey({ ...signedInInput, enrolmentRequired: false }, []).matches({ auth: 'signedIn' })).toBe(true);
      expect(journey({ ...signedOutInput, enrolmentRequired: false }, []).matches({ auth: 'signedOut' })).toBe(true);
      // only at the start: a later sign-in of an admin is told by its login answer
      expect(selectMustEnrol(journey({ ...adminRestoredInput, enrolmentRequired: false }, [expired, graceOver]))).toBe(false);
    });
    it('a restored admin is checked again: held when the status says so, as after the login; a common user is not checked', () => {
      const checking = journey(adminRestoredInput, []);
      expect(checking.matches({ auth: 'checkingEnrolment' })).toBe(true);
      expect(selectIsSignedIn(checking)).toBe(true);
      expect(selectIsAccessPending(checking)).toBe(true);
      expect(selectMustEnrol(checking)).toBe(false);
      const held = journey(adminRestoredInput, [mustEnrolRestored]);
      expect(held.matches({ auth: 'signedIn' })).toBe(true);
      expect(selectMustEnrol(held)).toBe(true);
      expect(selectIsAccessPending(held)).toBe(false);
      expect(selectMustEnrol(journey(adminRestoredInput, [mustEnrolRestored, enrolled]))).toBe(false);
      expect(selectMustEnrol(journey(adminRestoredInput, [needNotEnrol]))).toBe(false);
      // the status could not be read: the session goes on (the server still refuses the admin routes)
      const unknown = journey(adminRestoredInput, [enrolmentUnknown]);
      expect(unknown.matches({ auth: 'signedIn' })).toBe(true);
      expect(selectMustEnrol(unknown)).toBe(false);
      // a 401 or a logout during the check ends the session as anywhere else
      expect(selectUser(journey(adminRestoredInput, [expired]))).toBeNull();
      expect(selectUser(journey(adminRestoredInput, [logout, loggedOut]))).toBeNull();
      expect(journey(signedInInput, []).matches({ auth: 'signedIn' })).toBe(true);
      // a re-login's second step given up: the kept admin's session goes on as it was (not checked again)
      const back = journey(signedOutInput, [enrolElsewhere, aliceLogin, secondFactorAsked, cancelSecond]);
      expect(back.matches({ auth: 'signedIn' })).toBe(true);
      expect(selectMustEnrol(back)).toBe(true);
      expect(back.context.pendingLogin).toBeNull();
    });
    it('a form claims the session during the grace: the dialog opens with the user kept; the same user signing in restores it', () => {
      const open = journey(signedInInput, [expired, reauthAsked]);
      expect(open.matches({ auth: 'reauthenticating' })).toBe(true);
      expect(selectUser(open)).toEqual(alice);
      expect(selectReauth(open)).toEqual({ username: 'alice', error: null });
      // more 401s and more waiting forms change nothing
      expect(journey(signedInInput, [expired, reauthAsked, expired, reauthAsked]).matches({ auth: 'reauthenticating' })).toBe(true);
      expect(selectReauth(journey(signedInInput, [expired, reauthAsked, reauthEmpty]))?.error).toEqual({ key: 'reauth.passwordRequired' });
      expect(journey(signedInInput, [expired, reauthAsked, reauthSent]).matches({ auth: 'reauthSigningIn' })).toBe(true);
      const refused = journey(signedInInput, [expired, reauthAsked, reauthSent, loginRefused]);
      expect(refused.matches({ auth: 'reauthenticating' })).toBe(true);
      expect(selectReauth(refused)?.error).toEqual({ text: '用户名或密码错误，或用户已被封禁' });
      const back = journey(signedInInput, [expired, reauthAsked, reauthSent, loggedIn]);
      expect(back.matches({ auth: 'signedIn' })).toBe(true);
      expect(selectUser(back)).toEqual(alice);
      expect(back.context.reauth).toBeNull();
    });
    it('the dialog: cancel ends the session; another user is a fresh login; two-factor hands over to the login page; logout works', () => {
      const cancelled = journey(signedInInput, [expired, reauthAsked, reauthCancel]);
      expect(cancelled.matches({ auth: 'signedOut' })).toBe(true);
      expect(selectUser(cancelled)).toBeNull();
      const typedRoot = journey(signedInInput, [expired, reauthAsked, reauthAsRoot]);
      expect(typedRoot.context.reauth?.username).toBe('root');
      expect(selectUser(journey(signedInInput, [expired, reauthAsked, reauthAsRoot, rootLoggedIn]))).toEqual(root);
      // the server answered another account for alice's name
      expect(selectUser(journey(signedInInput, [expired, reauthAsked, reauthSent, rootLoggedIn]))).toEqual(root);
      const handover = journey(signedInInput, [expired, reauthAsked, reauthSent, secondFactorAsked]);
      expect(handover.matches({ auth: 'secondFactor' })).toBe(true);
      expect(selectUser(handover)).toBeNull();
      expect(handover.context.reauth).toBeNull();
      for (const before of [[expired], [expired, reauthAsked], [expired, reauthAsked, reauthSent]]) {
        const out = journey(signedInInput, [...before, logout, loggedOut]);
        expect(out.matches({ auth: 'signedOut' })).toBe(true);
        expect(selectUser(out)).toBeNull();
      }
      // another tab signing in as the same user restores the session
      expect(journey(signedInInput, [expired, reauthAsked, { type: 'session.storageChanged', user: alice }]).matches({ auth: 'signedIn' })).toBe(true);
    });
    it('the profile update replaces the user', () => {
      expect(selectUser(journey(signedInInput, [profileEdited]))?.display_name).toBe('Alice B.');
    });
    it('the new-version rule', () => {
      expect(hasNewVersion('v0.6.10', 'v0.1.0')).toBe(true);
      expect(hasNewVersion('v0.1.0', 'v0.1.0')).toBe(false);
      expect(hasNewVersion('v0.0.0', 'v0.1.0')).toBe(false);
      expect(hasNewVersion('', 'v0.1.0')).toBe(false);
    });
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(input: SessionInput, events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      vi.useFakeTimers();
      const logIn = controlled<LoginAnswer, LoginPayload>();
      const stubs = {
        loadStatus: controlled<Status, unknown>(),
        logIn,
        logOut: controlled<void, unknown>(),
        verifySecondFactor: controlled<User, unknown>(),
        checkEnrolment: controlled<boolean, unknown>(),
      };
      const stored: SessionStorageCommand[] = [];
      const watchSession = fromCallback<EventObject>(({ receive }) => {
        receive((e) => stored.push(e as SessionStorageCommand));
      });
      const machine = sessionMachine.provide({ actors: { watchSession } });
      const settle = () => vi.advanceTimersByTimeAsync(0);
      const { emitted } = await replayOn({ machine, input, stubs, settle }, events, check);
      const rendered = emitted.map((x) => (x.type === 'notify' ? renderMessage('zh', x.message) : x.to));
      return { logins: logIn.calls, stored, emitted, rendered };
    }

    const chosen = shortestPaths(sessionMachine, model(signedOutInput, outInternal))
      .filter(isRealistic)
      .filter((p) => p.steps.length > 2);
    /** Replays a path from `input`, checking each step against the path's own expectations. */
    const replayFrom = (input: SessionInput) => async (_: string, p: (typeof chosen)[number]) => {
      await replay(
        input,
        p.steps.map((s) => s.event),
        follows(p),
      );
    };
    it.each(chosen.map((p) => [describePath(p), p] as const))('%s', replayFrom(signedOutInput));

    it('a login stores the user, says so and goes to the guard origin', async () => {
      const r = await replay(signedOutInput, [{ type: 'xstate.init' }, statusLoaded, aliceLogin, loggedIn]);
      expect(r.logins).toEqual([{ username: 'alice', password: 'secret123' }]);
      expect(r.stored).toEqual([
        { type: 'status.save', status },
        { type: 'user.save', user: alice },
      ]);
      expect(r.rendered).toEqual(['新版本可用：v0.6.10，请使用快捷键 Shift + F5 刷新页面', '登录成功！', '/log?p=2']);
      expect(r.emitted[0]).toMatchObject({ level: 'notice' });
    });

    it('without an origin a login goes to /token', async () => {
      const plain = { type: 'login.submit', username: 'alice', password: 'secret123' };
      const r = await replay(signedOutInput, [{ type: 'xstate.init' }, plain, loggedIn]);
      expect(r.rendered).toEqual(['登录成功！', '/token']);
    });

    it('the default root password goes to /user/edit with the warning', async () => {
      const r = await replay(signedOutInput, [{ type: 'xstate.init' }, rootLogin, rootLoggedIn]);
      expect(r.rendered).toEqual(['登录成功！', '请立刻修改默认密码！', '/user/edit']);
      expect(r.emitted[1]).toMatchObject({ level: 'warning' });
    });

    it('a refused login shows the server message and stores nothing', async () => {
      const r = await replay(signedOutInput, [{ type: 'xstate.init' }, aliceLogin, loginRefused]);
      expect(r.rendered).toEqual(['用户名或密码错误，或用户已被封禁']);
      expect(r.stored).toEqual([]);
    });

    it('a second factor sends the trimmed code, then stores the user and goes to the origin', async () => {
      const r = await replay(signedOutInput, [{ type: 'xstate.init' }, aliceLogin, secondFactorAsked, codeSent, secondFactorPassed]);
      expect(r.stored).toEqual([{ type: 'user.save', user: alice }]);
      expect(r.rendered).toEqual(['登录成功！', '/log?p=2']);
    });

    it('an admin who must enrol is stored without the flag and sent to the personal settings', async () => {
      const r = await replay(signedOutInput, [{ type: 'xstate.init' }, aliceLogin, adminMustEnrol]);
      expect(r.stored).toEqual([{ type: 'user.save', user: admin }]);
      expect(r.rendered).toEqual(['登录成功！', '/setting', '管理员已要求管理员账户开启两步验证，请现在绑定。']);
    });

    const restoredAdmin = shortestPaths(sessionMachine, model(adminRestoredInput, [...enrolmentChecks, loggedOut]))
      .filter(isRealistic)
      .filter((p) => p.steps.length <= 3 && p.steps.some((s) => s.event.type.endsWith('.checkEnrolment')));
    it.each(restoredAdmin.map((p) => [describePath(p), p] as const))('restored admin: %s', replayFrom(adminRestoredInput));

    it('a restored admin who must enrol is warned as after the login, and nothing is stored', async () => {
      const r = await replay(adminRestoredInput, [{ type: 'xstate.init' }, mustEnrolRestored]);
      expect(r.stored).toEqual([]);
      expect(r.rendered).toEqual(['管理员已要求管理员账户开启两步验证，请现在绑定。']);
      expect(r.emitted[0]).toMatchObject({ level: 'warning' });
      const free = await replay(adminRestoredInput, [{ type: 'xstate.init' }, needNotEnrol]);
      expect(free.emitted).toEqual([]);
    });

    it('an unreachable server says so', async () => {
      const r = await replay(signedOutInput, [{ type: 'xstate.init' }, statusFailed]);
      expect(r.rendered).toEqual(['无法正常连接至服务器！']);
    });

    it('logout clears the stored user and goes to /login, even when the server call fails', async () => {
      const ok = await replay(signedInInput, [{ type: 'xstate.init' }, logout, loggedOut]);
      expect(ok.stored).toEqual([{ type: 'user.save', user: null }]);
      expect(ok.rendered).toEqual(['注销成功！', '/login']);
      const failed = await replay(signedInInput, [{ type: 'xstate.init' }, logout, logoutFailed]);
      expect(failed.stored).toEqual([{ type: 'user.save', user: null }]);
      expect(failed.rendered).toEqual(['错误：服务器内部错误，请联系管理员！', '/login']);
    });

    it('a 401 clears the user and goes to /login?expired=true once the grace is over', async () => {
      const r = await replay(signedInInput, [{ type: 'xstate.init' }, expired, graceOver]);
      expect(r.stored).toEqual([{ type: 'user.save', user: null }]);
      expect(r.emitted).toEqual([{ type: 'navigate', to: '/login?expired=true', replace: true }]);
    });

    it('expiryGrace: nothing happens for 49 ms; at 50 ms the user is cleared and the login page opens', async () => {
      vi.useFakeTimers();
      const stored: SessionStorageCommand[] = [];
      const watchSession = fromCallback<EventObject>(({ receive }) => {
        receive((e) => stored.push(e as SessionStorageCommand));
      });
      const stubs = { loadStatus: controlled<Status, unknown>(), logIn: controlled<LoginAnswer, LoginPayload>(), logOut: controlled<void, unknown>(), verifySecondFactor: controlled<User, unknown>() };
      const machine = sessionMachine.provide({
        actors: { watchSession, loadStatus: stubs.loadStatus.logic, logIn: stubs.logIn.logic, logOut: stubs.logOut.logic, verifySecondFactor: stubs.verifySecondFactor.logic } as never,
      });
      const actor = createActor(machine, { input: signedInInput });
      const emitted: AnyEventObject[] = [];
      actor.on('*', (e) => void emitted.push(e));
      actor.start();
      actor.send(expired);
      expect(expiryGraceMs).toBe(50);
      await vi.advanceTimersByTimeAsync(49);
      expect(actor.getSnapshot().matches({ auth: 'expiring' })).toBe(true);
      expect(emitted).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(actor.getSnapshot().matches({ auth: 'signedOut' })).toBe(true);
      expect(stored).toEqual([{ type: 'user.save', user: null }]);
      expect(emitted).toEqual([{ type: 'navigate', to: '/login?expired=true', replace: true }]);
      // a form that claims the session in time keeps it open past the grace
      const claimed = createActor(machine, { input: signedInInput }).start();
      claimed.send(expired);
      await vi.advanceTimersByTimeAsync(10);
      claimed.send(reauthAsked);
      await vi.advanceTimersByTimeAsync(1000);
      expect(claimed.getSnapshot().matches({ auth: 'reauthenticating' })).toBe(true);
      claimed.stop();
      actor.stop();
    });

    it('the dialog: the same user signs in with the kept name and is greeted; another user goes home; cancel is the old expiry', async () => {
      const same = await replay(signedInInput, [{ type: 'xstate.init' }, expired, reauthAsked, reauthSent, loggedIn]);
      expect(same.logins).toEqual([{ username: 'alice', password: 'secret123' }]);
      expect(same.rendered).toEqual(['登录成功！']);
      expect(same.stored).toEqual([{ type: 'user.save', user: alice }]);
      const other = await replay(signedInInput, [{ type: 'xstate.init' }, expired, reauthAsked, reauthAsRoot, rootLoggedIn]);
      expect(other.logins).toEqual([{ username: 'root', password: 'secret123' }]);
      expect(other.rendered).toEqual(['登录成功！', '/']);
      const cancelled = await replay(signedInInput, [{ type: 'xstate.init' }, expired, reauthAsked, reauthCancel]);
      expect(cancelled.rendered).toEqual(['/login?expired=true']);
      expect(cancelled.stored).toEqual([{ type: 'user.save', user: null }]);
      const handover = await replay(signedInInput, [{ type: 'xstate.init' }, expired, reauthAsked, reauthSent, secondFactorAsked]);
      expect(handover.rendered).toEqual(['/login']);
      const out = await replay(signedInInput, [{ type: 'xstate.init' }, expired, reauthAsked, logout, loggedOut]);
      expect(out.rendered).toEqual(['注销成功！', '/login']);
    });

    it('another tab: follows it without writing storage back', async () => {
      const r = await replay(signedInInput, [{ type: 'xstate.init' }, otherTabOut, otherTabIn]);
      expect(r.stored).toEqual([]);
      expect(r.emitted).toEqual([]);
    });

    it('a user signed in by OAuth or WeChat is stored and sent on', async () => {
      const r = await replay(signedOutInput, [{ type: 'xstate.init' }, signedInElsewhere]);
      expect(r.stored).toEqual([{ type: 'user.save', user: admin }]);
      expect(r.emitted).toEqual([{ type: 'navigate', to: '/', replace: false }]);
    });

    it('a second step asked by OAuth or WeChat shows the code form on /login, then goes to the plan', async () => {
      const r = await replay(signedOutInput, [{ type: 'xstate.init' }, secondFactorElsewhere, codeSent, secondFactorPassed]);
      expect(r.stored).toEqual([{ type: 'user.save', user: alice }]);
      expect(r.rendered).toEqual(['/login', '登录成功！', '/']);
    });

    it('an admin signed in by OAuth who must enrol goes to the personal settings', async () => {
      const r = await replay(signedOutInput, [{ type: 'xstate.init' }, enrolElsewhere]);
      expect(r.stored).toEqual([{ type: 'user.save', user: admin }]);
      expect(r.emitted).toEqual([{ type: 'navigate', to: '/setting', replace: false }]);
    });

    it('every catalogue key it emits exists', async () => {
      const all = [
        ...(await replay(signedOutInput, [{ type: 'xstate.init' }, statusLoaded, rootLogin, rootLoggedIn, logout, loggedOut])).emitted,
        ...(await replay(signedOutInput, [{ type: 'xstate.init' }, statusFailed])).emitted,
      ];
      for (const e of all) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });
});
