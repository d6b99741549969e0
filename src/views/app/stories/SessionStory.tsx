import type { ReactNode } from 'react';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import type { Status } from '../../../domain/status';
import type { LoginAnswer } from '../../../domain/twoFactor';
import type { User } from '../../../domain/user';
import { sessionMachine, type SessionContext as SessionCtx } from '../../../machines/session/session.machine';
import { preferencesMachine } from '../../../machines/preferences/preferences.machine';
import type { ColorMode, Lang } from '../../../domain/preferences';
import { PreferencesContext, SessionContext } from '../sessionContext';

/*
 * Story support (conventions §4): the app-lifetime actors seeded with a frozen snapshot and
 * stub actors, so a container story shows one machine state and nothing runs by itself.
 */

export const storyStatus: Status = {
  version: 'v0.1.0',
  system_name: 'One API',
  logo: '',
  footer_html: '',
  quota_per_unit: 500000,
  display_in_currency: true,
  chat_link: '',
  server_address: 'http://localhost:3000',
  top_up_link: '',
  turnstile_check: false,
  turnstile_site_key: '',
  email_verification: false,
  github_oauth: false,
  github_client_id: '',
  wechat_login: false,
  wechat_qrcode: '',
  lark_client_id: '',
};

export const storyUsers = {
  common: { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1 },
  admin: { id: 3, username: 'boss', display_name: 'Admin Boss', role: 10, status: 1 },
  root: { id: 1, username: 'root', display_name: 'Root User', role: 100, status: 1 },
} satisfies Record<string, User>;

const never = <T,>() => new Promise<T>(() => undefined);

/** The session with stub actors: status/login/logout never answer unless given, a restored admin need not enrol; nothing is stored. */
export function stubSession(
  over: {
    readonly logIn?: (input: { username: string; password: string }) => Promise<LoginAnswer>;
    readonly verifySecondFactor?: (input: { readonly code: string }) => Promise<User>;
    /** A restored admin's enrolment check: not required unless given. */
    readonly checkEnrolment?: () => Promise<boolean>;
  } = {},
) {
  return sessionMachine.provide({
    actors: {
      loadStatus: fromPromise<Status>(() => never<Status>()),
      logIn: fromPromise<LoginAnswer, { username: string; password: string }>(({ input }) =>
        (over.logIn ?? (() => never<LoginAnswer>()))(input),
      ),
      verifySecondFactor: fromPromise<User, { readonly code: string }>(({ input }) =>
        (over.verifySecondFactor ?? (() => never<User>()))(input),
      ),
      logOut: fromPromise<void>(() => never<void>()),
      checkEnrolment: fromPromise<boolean>(() => (over.checkEnrolment ?? (() => Promise.resolve(false)))()),
      watchSession: fromCallback<EventObject>(() => undefined),
    },
    // A seeded (frozen) snapshot has no watcher child to send storage commands to.
    actions: { saveUser: () => undefined, saveStatus: () => undefined },
  });
}

export interface SessionSeed {
  /** The status region: 'ready' by default. */
  readonly phase?: 'loading' | 'ready' | 'failed';
  /** The auth region: signed in when a user is given, else signed out. */
  readonly auth?:
    | 'signedOut'
    | 'signingIn'
    | 'secondFactor'
    | 'verifyingSecondFactor'
    | 'checkingEnrolment'
    | 'signedIn'
    | 'expiring'
    | 'reauthenticating'
    | 'reauthSigningIn'
    | 'signingOut';
  readonly user?: User | null;
  /** The server status; the story status by default (null before the first answer). */
  readonly status?: Status | null;
  readonly pendingLogin?: SessionCtx['pendingLogin'];
  readonly secondFactor?: SessionCtx['secondFactor'];
  /** An admin held at the two-factor enrolment (TwoFactorRequiredForAdmins). */
  readonly enrolmentRequired?: boolean;
  readonly reauth?: SessionCtx['reauth'];
}

/** A frozen session snapshot: signed out with the story status unless told otherwise. */
export function seedSession(seed: SessionSeed = {}) {
  const user = seed.user ?? null;
  return sessionMachine.resolveState({
    value: { status: seed.phase ?? 'ready', auth: seed.auth ?? (user === null ? 'signedOut' : 'signedIn') },
    context: {
      user,
      status: seed.status === undefined ? storyStatus : seed.status,
      buildVersion: 'v0.1.0',
      pendingLogin: seed.pendingLogin ?? null,
      secondFactor: seed.secondFactor ?? null,
      enrolmentRequired: seed.enrolmentRequired ?? false,
      reauth: seed.reauth ?? null,
    },
  });
}

/** Provides a seeded session (and preferences) to the story's container. */
export function SessionStory({
  session = stubSession(),
  snapshot = seedSession(),
  lang = 'zh',
  colorMode = 'light',
  children,
}: {
  readonly session?: typeof sessionMachine;
  readonly snapshot?: ReturnType<typeof seedSession>;
  readonly lang?: Lang;
  readonly colorMode?: ColorMode;
  readonly children: ReactNode;
}) {
  return (
    <PreferencesContext.Provider
      logic={preferencesMachine.provide({
        // stories have both catalogues (.storybook/preview): a language loads at once
        actors: { applyPreferences: fromCallback<EventObject>(() => undefined), loadCatalogue: fromPromise(() => Promise.resolve()) },
      })}
      options={{ input: { lang, colorMode } }}
    >
      <SessionContext.Provider logic={session} options={{ snapshot }}>
        {children}
      </SessionContext.Provider>
    </PreferencesContext.Provider>
  );
}

/**
 * A story decorator for containers that only hand the session to their machine (the edit forms:
 * a save answered 401 waits for the session's sign-in dialog): root signed in, nothing answers.
 */
export function withStorySession(Story: () => ReactNode) {
  return (
    <SessionContext.Provider logic={stubSession()} options={{ snapshot: seedSession({ user: storyUsers.root }) }}>
      <Story />
    </SessionContext.Provider>
  );
}
