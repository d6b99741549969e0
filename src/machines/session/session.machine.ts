import { assign, emit, enqueueActions, fromCallback, fromPromise, sendTo, setup, type EventObject } from 'xstate';
import { describeApiError, type ApiError } from '../../domain/apiError';
import { msg, navigate, notify, type Message, type NavigateEvent, type NotifyEvent } from '../../domain/message';
import type { Status } from '../../domain/status';
import { isAdmin } from '../../domain/constants';
import { needsSecondFactor, type LoginAnswer } from '../../domain/twoFactor';
import type { LoginPayload, User } from '../../domain/user';

export interface SessionInput {
  /** The user record restored from localStorage `user` (null when none or malformed). */
  readonly user: User | null;
  /** The last stored status, shown until `/api/status` answers. */
  readonly status: Status | null;
  /** The console's build version (`v` + package version). */
  readonly buildVersion: string;
  /**
   * A restored admin's enrolment, when it is known at start (the first load asked for the
   * two-factor status early): `false` draws the admin pages at once, without `checkingEnrolment`.
   */
  readonly enrolmentRequired?: boolean;
}

/** What a login in flight will do when it succeeds (never the password itself). */
export interface PendingLogin {
  /** The guard's origin, else /token; /user/edit for the default root password. */
  readonly to: string;
  readonly defaultPassword: boolean;
}

/** The second step of a password login (TOTP or recovery code). */
export interface SecondFactorStep {
  /** The user chose to type a recovery code instead of a TOTP code. */
  readonly recovery: boolean;
  /** The last refusal, or the empty field named. */
  readonly error: Message | null;
}

export interface SessionContext {
  readonly user: User | null;
  readonly status: Status | null;
  readonly buildVersion: string;
  readonly pendingLogin: PendingLogin | null;
  /** Set while the login waits for its second factor. */
  readonly secondFactor: SecondFactorStep | null;
  /**
   * The signed-in admin must enrol in two-factor sign-in first (TwoFactorRequiredForAdmins): the
   * login answer said so, or (a restored admin) the two-factor status did; the shell keeps them on
   * the enrolment until `session.enrolled`.
   */
  readonly enrolmentRequired: boolean;
  /** Set while the sign-in dialog over an expired session is open. */
  readonly reauth: ReauthStep | null;
}

/** The sign-in dialog shown when a 401 interrupted a save (the user record is kept meanwhile). */
export interface ReauthStep {
  /** The user name the last `reauth.submit` signed in as (the kept user's until one is sent). */
  readonly username: string;
  /** The last refusal, or the empty password named. */
  readonly error: Message | null;
}

export type SessionEvent =
  /** The login form was sent; `from` is where the login guard came from. */
  | { readonly type: 'login.submit'; readonly username: string; readonly password: string; readonly from?: string }
  /** Another workflow (OAuth callback, WeChat code) signed a user in (an admin who must enrol first: flagged). */
  | { readonly type: 'session.signedIn'; readonly user: User; readonly to: string; readonly enrolmentRequired?: boolean }
  /** Another workflow (OAuth callback, WeChat code) checked the identity; the server waits for the second factor. */
  | { readonly type: 'session.secondFactorNeeded'; readonly to: string }
  /** The signed-in user turned two-factor sign-in on. */
  | { readonly type: 'session.enrolled' }
  /** The profile changed (own edit, top-up): the stored record follows. */
  | { readonly type: 'session.userUpdated'; readonly user: User }
  | { readonly type: 'logout.request' }
  /** A call answered 401. */
  | { readonly type: 'session.expired' }
  /** Another tab changed or removed localStorage `user`. */
  | { readonly type: 'session.storageChanged'; readonly user: User | null }
  | { readonly type: 'status.reload' }
  /** The second step's code (TOTP or recovery code) was sent. */
  | { readonly type: 'secondFactor.submit'; readonly code: string }
  /** Switch between the TOTP code and a recovery code. */
  | { readonly type: 'secondFactor.modeToggle' }
  /** Give up the second step (back to the password form). */
  | { readonly type: 'secondFactor.cancel' }
  /** A form whose save answered 401 waits for the session: open the sign-in dialog instead of leaving. */
  | { readonly type: 'reauth.request' }
  /** The dialog's password (the user name defaults to the kept user's; another one is a fresh login). */
  | { readonly type: 'reauth.submit'; readonly password: string; readonly username?: string }
  /** Close the dialog: today's expiry (/login?expired=true). */
  | { readonly type: 'reauth.cancel' };

/** What the session tells its storage actor (`watchSession`) to persist. */
export type SessionStorageCommand =
  | { readonly type: 'user.save'; readonly user: User | null }
  | { readonly type: 'status.save'; readonly status: Status };

export type SessionEmitted = NotifyEvent | NavigateEvent;

/** Where a normal password login lands (spec §2). */
export const afterLogin = '/token';
/** Where an admin who must enrol in two-factor sign-in is sent (the personal settings). */
export const twoFactorEnrolment = '/setting';
/** Where the default root account is sent to change its password. */
export const afterDefaultLogin = '/user/edit';
export const expiredLogin = '/login?expired=true';
/** The bootstrap root account (contract §3.3): logging in with it shows a warning. */
export const defaultRootCredentials: LoginPayload = { username: 'root', password: '123456' };

const isDefaultRoot = (c: LoginPayload): boolean =>
  c.username === defaultRootCredentials.username && c.password === defaultRootCredentials.password;

/** The new-version rule (spec §1): the server runs another version, and not the unset v0.0.0. */
export const hasNewVersion = (serverVersion: string, buildVersion: string): boolean =>
  serverVersion !== '' && serverVersion !== 'v0.0.0' && serverVersion !== buildVersion;

type LoginSubmit = Extract<SessionEvent, { type: 'login.submit' }>;
type SecondFactorSubmit = Extract<SessionEvent, { type: 'secondFactor.submit' }>;
type ReauthSubmit = Extract<SessionEvent, { type: 'reauth.submit' }>;

/** How long a 401 waits for a form to claim the session (`reauth.request`) before leaving for the login page. */
export const expiryGraceMs = 50;
/** Where a sign-in in the dialog as someone else lands (nothing is retried). */
export const afterOtherUserLogin = '/';

/** The user name a dialog submit signs in as: the typed one, else the kept user's. */
const reauthNameOf = (event: ReauthSubmit, user: User | null): string => {
  const typed = event.username?.trim() ?? '';
  return typed !== '' ? typed : (user?.username ?? '');
};

/** The user of a login answer, without the enrolment flag. */
const userOf = (answer: LoginAnswer): User => {
  if (needsSecondFactor(answer)) throw new Error('no user in a second-factor answer');
  const { require_2fa_setup: _flag, ...user } = answer;
  return user;
};

/**
 * The app-lifetime session, two regions:
 * - `status`: loads `/api/status` on start (the stored copy shows meanwhile), stores it and its
 *   derived keys, and posts the new-version notice; failure says '无法正常连接至服务器！'.
 * - `auth`: restored from the stored user; `login.submit` (both fields needed, else silent)
 *   calls `logIn`, stores the user, says '登录成功！' and goes to the guard's origin or /token
 *   (the default root password goes to /user/edit with '请立刻修改默认密码！'); logout clears the
 *   user everywhere and goes to /login; `session.expired` (any 401) does the same to
 *   /login?expired=true; `session.storageChanged` follows another tab.
 *   While signed in, a 401 first waits `expiryGrace` (state `expiring`, user kept): a form whose
 *   save was refused claims the session with `reauth.request` (see `awaitSession`), which opens
 *   the sign-in dialog (`reauthenticating`) instead of leaving. The same user signing in again
 *   (`reauthSigningIn`) returns to `signedIn` and the waiting forms save again; `reauth.cancel`
 *   is today's expiry; another user (typed or answered) is a fresh login to `/` (the forms are
 *   lost); an account with two-factor sign-in hands over to the login page's second step (no
 *   retry). Logout works from every one of these states.
 *
 * Actors (provided in src/main.tsx): `loadStatus` (GET /api/status), `logIn`
 * (POST /api/user/login), `logOut` (GET /api/user/logout), `checkEnrolment` (GET
 * /api/user/2fa/status, for a restored admin), `watchSession` (long-lived: persists
 * `user.save` / `status.save` commands and sends back `session.expired` and
 * `session.storageChanged`).
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    input: {} as SessionInput,
    events: {} as SessionEvent,
    emitted: {} as SessionEmitted,
    tags: {} as 'busy',
  },
  actors: {
    loadStatus: fromPromise<Status>(() => {
      throw new Error('loadStatus not provided');
    }),
    logIn: fromPromise<LoginAnswer, LoginPayload>(() => {
      throw new Error('logIn not provided');
    }),
    verifySecondFactor: fromPromise<User, { readonly code: string }>(() => {
      throw new Error('verifySecondFactor not provided');
    }),
    logOut: fromPromise<void>(() => {
      throw new Error('logOut not provided');
    }),
    /** Whether the signed-in user must enrol in two-factor sign-in first (GET /api/user/2fa/status `required`). */
    checkEnrolment: fromPromise<boolean>(() => {
      throw new Error('checkEnrolment not provided');
    }),
    watchSession: fromCallback<EventObject>(() => {
      throw new Error('watchSession not provided');
    }),
  },
  guards: {
    hasUser: ({ context }) => context.user !== null,
    /** A restored admin: the admin pages are drawn only once the enrolment is known. */
    hasAdminUser: ({ context }) => context.user !== null && isAdmin(context.user.role),
    /** A restored admin whom the start's input (the `xstate.init` event's) knows need not enrol (`SessionInput.enrolmentRequired`). */
    isKnownEnrolledAdmin: ({ context }, params: { readonly event: object }) =>
      context.user !== null && isAdmin(context.user.role) && (params.event as { readonly input?: SessionInput }).input?.enrolmentRequired === false,
    isEnrolmentRequired: (_, params: { required: boolean }) => params.required,
    canLogIn: (_, params: { event: LoginSubmit }) =>
      params.event.username.trim() !== '' && params.event.password !== '',
    isNewUser: (_, params: { user: User | null }) => params.user !== null,
    isSecondFactorNeeded: (_, params: { answer: LoginAnswer }) => needsSecondFactor(params.answer),
    hasCode: (_, params: { event: SecondFactorSubmit }) => params.event.code.trim() !== '',
    mustEnrol: (_, params: { answer: LoginAnswer }) => !needsSecondFactor(params.answer) && params.answer.require_2fa_setup === true,
    hasPassword: (_, params: { event: ReauthSubmit }) => params.event.password !== '',
    /** The dialog signed in the kept user again: the name sent and the id answered are theirs. */
    isSameUser: ({ context }, params: { answer: LoginAnswer }) =>
      context.user !== null &&
      !needsSecondFactor(params.answer) &&
      params.answer.id === context.user.id &&
      (context.reauth?.username ?? context.user.username) === context.user.username,
  },
  delays: {
    expiryGrace: expiryGraceMs,
  },
  actions: {
    takeUser: assign({ user: (_, params: { user: User | null }) => params.user }),
    takeStatus: assign({ status: (_, params: { status: Status }) => params.status }),
    saveUser: sendTo('watchSession', (_, params: { user: User | null }): SessionStorageCommand => ({
      type: 'user.save',
      user: params.user,
    })),
    saveStatus: sendTo('watchSession', (_, params: { status: Status }): SessionStorageCommand => ({
      type: 'status.save',
      status: params.status,
    })),
    notifyNewVersion: enqueueActions(({ context, enqueue }, params: { status: Status }) => {
      if (hasNewVersion(params.status.version, context.buildVersion))
        enqueue.emit(notify('notice', msg('shell.newVersion', { version: params.status.version })));
    }),
    notifyStatusFailed: emit(() => notify('error', msg('shell.statusUnreachable'))),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeApiError(params.error as ApiError);
      return notify(d.level, d.message);
    }),
    planLogin: assign({
      pendingLogin: (_, params: { event: LoginSubmit }): PendingLogin =>
        isDefaultRoot(params.event)
          ? { to: afterDefaultLogin, defaultPassword: true }
          : { to: params.event.from ?? afterLogin, defaultPassword: false },
    }),
    forgetLogin: assign({ pendingLogin: null, secondFactor: null, reauth: null }),
    askSecondFactor: assign({ secondFactor: { recovery: false, error: null } }),
    toggleSecondFactorMode: assign({
      secondFactor: ({ context }) => ({ recovery: !(context.secondFactor?.recovery ?? false), error: null }),
    }),
    needSecondFactorCode: assign({
      secondFactor: ({ context }) => ({ recovery: context.secondFactor?.recovery ?? false, error: msg('twoFactor.error.codeRequired') }),
    }),
    refuseSecondFactor: assign({
      secondFactor: ({ context }, params: { error: unknown }) => ({
        recovery: context.secondFactor?.recovery ?? false,
        error: describeApiError(params.error as ApiError).message,
      }),
    }),
    planEnrolment: assign({ pendingLogin: { to: twoFactorEnrolment, defaultPassword: false }, enrolmentRequired: true }),
    planExternalSecondFactor: assign({
      pendingLogin: (_, params: { to: string }): PendingLogin => ({ to: params.to, defaultPassword: false }),
      secondFactor: { recovery: false, error: null },
    }),
    takeEnrolment: assign({ enrolmentRequired: (_, params: { required: boolean }) => params.required }),
    notifyEnrolmentRequired: emit(() => notify('warning', msg('twoFactor.status.required'))),
    announceLogin: enqueueActions(({ context, enqueue }) => {
      const plan = context.pendingLogin ?? { to: afterLogin, defaultPassword: false };
      enqueue.emit(notify('success', msg('signIn.loggedIn')));
      if (plan.defaultPassword) enqueue.emit(notify('warning', msg('shell.changeDefaultPassword')));
      enqueue.emit(navigate(plan.to));
    }),
    goTo: emit((_, params: { to: string }) => navigate(params.to)),
    notifyLoggedOut: emit(() => notify('success', msg('shell.loggedOut'))),
    goToLogin: emit(() => navigate('/login')),
    goToSecondFactor: emit(() => navigate('/login', true)),
    goToExpiredLogin: emit(() => navigate(expiredLogin, true)),
    openReauth: assign({ reauth: ({ context }): ReauthStep => ({ username: context.user?.username ?? '', error: null }) }),
    planReauth: assign({
      reauth: ({ context }, params: { event: ReauthSubmit }): ReauthStep => ({ username: reauthNameOf(params.event, context.user), error: null }),
    }),
    needReauthPassword: assign({
      reauth: ({ context }): ReauthStep => ({ username: context.reauth?.username ?? context.user?.username ?? '', error: msg('reauth.passwordRequired') }),
    }),
    refuseReauth: assign({
      reauth: ({ context }, params: { error: unknown }): ReauthStep => ({
        username: context.reauth?.username ?? context.user?.username ?? '',
        error: describeApiError(params.error as ApiError).message,
      }),
    }),
    forgetReauth: assign({ reauth: null }),
    notifyReauthenticated: emit(() => notify('success', msg('signIn.loggedIn'))),
    planSecondFactorHandover: assign({ pendingLogin: { to: afterLogin, defaultPassword: false } }),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    user: input.user,
    status: input.status,
    buildVersion: input.buildVersion,
    pendingLogin: null,
    secondFactor: null,
    enrolmentRequired: false,
    reauth: null,
  }),
  invoke: { id: 'watchSession', src: 'watchSession' },
  type: 'parallel',
  on: {
    'session.signedIn': {
      target: '.auth.signedIn',
      actions: [
        { type: 'takeUser', params: ({ event }) => ({ user: event.user }) },
        { type: 'saveUser', params: ({ event }) => ({ user: event.user }) },
        { type: 'takeEnrolment', params: ({ event }) => ({ required: event.enrolmentRequired === true }) },
        { type: 'goTo', params: ({ event }) => ({ to: event.enrolmentRequired === true ? twoFactorEnrolment : event.to }) },
      ],
    },
    // The OAuth callback / WeChat code login answered `require_2fa`: the login page asks for the code.
    'session.secondFactorNeeded': {
      target: '.auth.secondFactor',
      actions: [{ type: 'planExternalSecondFactor', params: ({ event }) => ({ to: event.to }) }, 'goToSecondFactor'],
    },
    'session.expired': {
      target: '.auth.signedOut',
      actions: [
        { type: 'takeUser', params: { user: null } },
        { type: 'saveUser', params: { user: null } },
        'goToExpiredLogin',
      ],
    },
    'session.storageChanged': [
      {
        guard: { type: 'isNewUser', params: ({ event }) => ({ user: event.user }) },
        target: '.auth.signedIn',
        actions: { type: 'takeUser', params: ({ event }) => ({ user: event.user }) },
      },
      { target: '.auth.signedOut', actions: { type: 'takeUser', params: { user: null } } },
    ],
  },
  states: {
    status: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadStatus',
            src: 'loadStatus',
            input: undefined,
            onDone: {
              target: 'ready',
              actions: [
                { type: 'takeStatus', params: ({ event }) => ({ status: event.output }) },
                { type: 'saveStatus', params: ({ event }) => ({ status: event.output }) },
                { type: 'notifyNewVersion', params: ({ event }) => ({ status: event.output }) },
              ],
            },
            onError: { target: 'failed', actions: 'notifyStatusFailed' },
          },
        },
        ready: { on: { 'status.reload': 'loading' } },
        failed: { on: { 'status.reload': 'loading' } },
      },
    },
    auth: {
      initial: 'restoring',
      states: {
        /**
         * Decides from the stored user at start (and, for an admin, the enrolment when the input
         * knows it already); never rests here.
         */
        restoring: {
          always: [
            { guard: { type: 'isKnownEnrolledAdmin', params: ({ event }) => ({ event }) }, target: 'signedIn' },
            { guard: 'hasAdminUser', target: 'checkingEnrolment' },
            { guard: 'hasUser', target: 'signedIn' },
            { target: 'signedOut' },
          ],
        },
        /**
         * A restored admin (reload, new tab): the login answer's enrolment flag is gone, so the
         * two-factor status tells again whether they must enrol; meanwhile the guarded pages wait
         * (selectIsAccessPending). Held exactly as after the login when it is required; when the
         * status cannot be read the session goes on (the server still refuses the admin routes).
         */
        checkingEnrolment: {
          tags: ['busy'],
          invoke: {
            id: 'checkEnrolment',
            src: 'checkEnrolment',
            input: undefined,
            onDone: [
              {
                guard: { type: 'isEnrolmentRequired', params: ({ event }) => ({ required: event.output }) },
                target: 'signedIn',
                actions: [{ type: 'takeEnrolment', params: { required: true } }, 'notifyEnrolmentRequired'],
              },
              { target: 'signedIn', actions: { type: 'takeEnrolment', params: { required: false } } },
            ],
            onError: 'signedIn',
          },
          on: {
            'session.userUpdated': {
              actions: [
                { type: 'takeUser', params: ({ event }) => ({ user: event.user }) },
                { type: 'saveUser', params: ({ event }) => ({ user: event.user }) },
              ],
            },
            'logout.request': 'signingOut',
          },
        },
        /** A finished or abandoned login's plan is dropped on arrival (after it was used). */
        signedOut: {
          entry: ['forgetLogin', { type: 'takeEnrolment', params: { required: false } }],
          on: {
            'login.submit': {
              guard: { type: 'canLogIn', params: ({ event }) => ({ event }) },
              target: 'signingIn',
              actions: { type: 'planLogin', params: ({ event }) => ({ event }) },
            },
          },
        },
        signingIn: {
          tags: ['busy'],
          invoke: {
            id: 'logIn',
            src: 'logIn',
            input: ({ event }) => {
              const e = event as LoginSubmit;
              return { username: e.username.trim(), password: e.password };
            },
            onDone: [
              {
                guard: { type: 'isSecondFactorNeeded', params: ({ event }) => ({ answer: event.output }) },
                target: 'secondFactor',
                actions: 'askSecondFactor',
              },
              {
                guard: { type: 'mustEnrol', params: ({ event }) => ({ answer: event.output }) },
                target: 'signedIn',
                actions: [
                  { type: 'takeUser', params: ({ event }) => ({ user: userOf(event.output) }) },
                  { type: 'saveUser', params: ({ event }) => ({ user: userOf(event.output) }) },
                  'planEnrolment',
                  'announceLogin',
                  'notifyEnrolmentRequired',
                ],
              },
              {
                target: 'signedIn',
                actions: [
                  { type: 'takeUser', params: ({ event }) => ({ user: userOf(event.output) }) },
                  { type: 'saveUser', params: ({ event }) => ({ user: userOf(event.output) }) },
                  'announceLogin',
                ],
              },
            ],
            // A refused login leaves an earlier session (a re-login while signed in) as it was.
            onError: [
              {
                guard: 'hasUser',
                target: 'signedIn',
                actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
              },
              { target: 'signedOut', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
            ],
          },
        },
        /** The password was right; the server waits for a TOTP or recovery code (no session yet). */
        secondFactor: {
          on: {
            'secondFactor.submit': [
              { guard: { type: 'hasCode', params: ({ event }) => ({ event }) }, target: 'verifyingSecondFactor' },
              { actions: 'needSecondFactorCode' },
            ],
            'secondFactor.modeToggle': { actions: 'toggleSecondFactorMode' },
            // (back to a kept session as it was, else to the password form)
            'secondFactor.cancel': [{ guard: 'hasUser', target: 'signedIn' }, { target: 'signedOut' }],
          },
        },
        verifyingSecondFactor: {
          tags: ['busy'],
          invoke: {
            id: 'verifySecondFactor',
            src: 'verifySecondFactor',
            input: ({ event }) => ({ code: (event as SecondFactorSubmit).code.trim() }),
            onDone: {
              target: 'signedIn',
              actions: [
                { type: 'takeUser', params: ({ event }) => ({ user: event.output }) },
                { type: 'saveUser', params: ({ event }) => ({ user: event.output }) },
                'announceLogin',
              ],
            },
            onError: {
              target: 'secondFactor',
              actions: { type: 'refuseSecondFactor', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        signedIn: {
          entry: 'forgetLogin',
          on: {
            'login.submit': {
              guard: { type: 'canLogIn', params: ({ event }) => ({ event }) },
              target: 'signingIn',
              actions: { type: 'planLogin', params: ({ event }) => ({ event }) },
            },
            'session.enrolled': { actions: { type: 'takeEnrolment', params: { required: false } } },
            'session.userUpdated': {
              actions: [
                { type: 'takeUser', params: ({ event }) => ({ user: event.user }) },
                { type: 'saveUser', params: ({ event }) => ({ user: event.user }) },
              ],
            },
            'logout.request': 'signingOut',
            // a 401 waits a moment for a form to claim the session before leaving
            'session.expired': 'expiring',
            'reauth.request': { target: 'reauthenticating', actions: 'openReauth' },
          },
        },
        /** A 401 came; the user is kept for `expiryGrace` so that a waiting form can ask for the dialog. */
        expiring: {
          on: {
            'session.expired': {},
            'reauth.request': { target: 'reauthenticating', actions: 'openReauth' },
            'logout.request': 'signingOut',
          },
          after: {
            expiryGrace: {
              target: 'signedOut',
              actions: [{ type: 'takeUser', params: { user: null } }, { type: 'saveUser', params: { user: null } }, 'goToExpiredLogin'],
            },
          },
        },
        /** The sign-in dialog is open over the page; the user record is kept. */
        reauthenticating: {
          on: {
            'session.expired': {},
            'reauth.request': {},
            'reauth.submit': [
              {
                guard: { type: 'hasPassword', params: ({ event }) => ({ event }) },
                target: 'reauthSigningIn',
                actions: { type: 'planReauth', params: ({ event }) => ({ event }) },
              },
              { actions: 'needReauthPassword' },
            ],
            'reauth.cancel': {
              target: 'signedOut',
              actions: ['forgetReauth', { type: 'takeUser', params: { user: null } }, { type: 'saveUser', params: { user: null } }, 'goToExpiredLogin'],
            },
            'logout.request': { target: 'signingOut', actions: 'forgetReauth' },
          },
        },
        /** The dialog's login is in flight. */
        reauthSigningIn: {
          tags: ['busy'],
          on: {
            'session.expired': {},
            'reauth.request': {},
            'logout.request': { target: 'signingOut', actions: 'forgetReauth' },
          },
          invoke: {
            id: 'logIn',
            src: 'logIn',
            input: ({ context, event }) => ({
              username: context.reauth?.username ?? context.user?.username ?? '',
              password: (event as ReauthSubmit).password,
            }),
            onDone: [
              {
                // two-factor: the login page's second step takes over (nothing is retried)
                guard: { type: 'isSecondFactorNeeded', params: ({ event }) => ({ answer: event.output }) },
                target: 'secondFactor',
                actions: [
                  'forgetReauth',
                  { type: 'takeUser', params: { user: null } },
                  { type: 'saveUser', params: { user: null } },
                  'planSecondFactorHandover',
                  'askSecondFactor',
                  'goToLogin',
                ],
              },
              {
                guard: { type: 'isSameUser', params: ({ event }) => ({ answer: event.output }) },
                target: 'signedIn',
                actions: [
                  'forgetReauth',
                  { type: 'takeUser', params: ({ event }) => ({ user: userOf(event.output) }) },
                  { type: 'saveUser', params: ({ event }) => ({ user: userOf(event.output) }) },
                  'notifyReauthenticated',
                ],
              },
              {
                // someone else signed in: a fresh login, nothing is retried
                target: 'signedIn',
                actions: [
                  'forgetReauth',
                  { type: 'takeUser', params: ({ event }) => ({ user: userOf(event.output) }) },
                  { type: 'saveUser', params: ({ event }) => ({ user: userOf(event.output) }) },
                  'notifyReauthenticated',
                  { type: 'goTo', params: { to: afterOtherUserLogin } },
                ],
              },
            ],
            onError: {
              target: 'reauthenticating',
              actions: { type: 'refuseReauth', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        signingOut: {
          tags: ['busy'],
          invoke: {
            id: 'logOut',
            src: 'logOut',
            input: undefined,
            onDone: {
              target: 'signedOut',
              actions: [
                { type: 'takeUser', params: { user: null } },
                { type: 'saveUser', params: { user: null } },
                'notifyLoggedOut',
                'goToLogin',
              ],
            },
            // The server could not end its session; this console still forgets the user.
            onError: {
              target: 'signedOut',
              actions: [
                { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
                { type: 'takeUser', params: { user: null } },
                { type: 'saveUser', params: { user: null } },
                'goToLogin',
              ],
            },
          },
        },
      },
    },
  },
});
