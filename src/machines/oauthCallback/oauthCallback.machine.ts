import { assign, emit, fromPromise, setup, type AnyEventObject } from 'xstate';
import { describeApiError, type ApiError } from '../../domain/apiError';
import { msg, navigate, notify, type Message, type NavigateEvent, type NotifyEvent } from '../../domain/message';
import { signInHandOver, signInOutcomes, type SessionRef, type SignInOutcome } from '../sessionWatch';

export type OAuthProvider = 'github' | 'lark';

/** What the server is asked: the provider's code and state. */
export interface ExchangeCodeInput {
  readonly provider: OAuthProvider;
  readonly code: string;
  readonly state: string;
}

export interface OAuthCallbackInput extends ExchangeCodeInput {
  /** The app's session actor: a signed-in user is handed to it (`session.signedIn`). */
  readonly session: SessionRef;
}

/**
 * `GET /api/oauth/{provider}?code=&state=`: message 'bind' means bound; `{require_2fa: true}` means
 * the identity was checked and the server waits for the second factor (no session yet); else the
 * user signed in (`enrolmentRequired`: an admin who must turn on two-factor sign-in first).
 */
export type OAuthOutcome = SignInOutcome;

export interface OAuthCallbackContext {
  readonly session: SessionRef;
  readonly provider: OAuthProvider;
  readonly code: string;
  readonly state: string;
  /** Failed exchanges so far (0..maxAttempts); the page shows it while retrying. */
  readonly attempt: number;
  /** What the last failure said, shown on the page while retrying or after giving up. */
  readonly lastError: Message | null;
}

/** Exchanges are tried this many times in all; the waits between them grow by `retryStep`. */
export const maxAttempts = 3;
/** Spec §4 / §9: the wait before a retry is 2 s times the attempt number. */
export const retryStep = 2000;

export type OAuthCallbackEmitted = NotifyEvent | NavigateEvent;

/** Where a user signed in by the callback goes. */
export const oauthSignInTarget = '/';

const handOver = signInHandOver<OAuthCallbackContext, AnyEventObject>(oauthSignInTarget);

/**
 * The /oauth/github and /oauth/lark callback pages: forwards the provider's code and state to
 * the server once on entry. 'bind' -> the account was bound (go to /setting); `require_2fa` -> the
 * session takes over with its second step (`session.secondFactorNeeded`); otherwise a user
 * signed in (handed to the session as `session.signedIn`, which stores it and goes to /). A failure is retried after
 * `retryBackoff` (2 s × attempt) until `maxAttempts` exchanges failed, then it sends the
 * person back to /login. (The original designed this retry but never reached it.)
 */
export const oauthCallbackMachine = setup({
  types: {
    context: {} as OAuthCallbackContext,
    input: {} as OAuthCallbackInput,
    emitted: {} as OAuthCallbackEmitted,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    exchangeCode: fromPromise<OAuthOutcome, ExchangeCodeInput>(() => {
      throw new Error('exchangeCode not provided');
    }),
  },
  guards: {
    canRetry: ({ context }) => context.attempt + 1 < maxAttempts,
    isBound: (_, params: { outcome: OAuthOutcome }) => params.outcome.bound,
    isSecondFactorNeeded: handOver.isSecondFactorNeeded,
  },
  delays: {
    retryBackoff: ({ context }) => retryStep * context.attempt,
  },
  actions: {
    recordFailure: assign({
      attempt: ({ context }) => context.attempt + 1,
      lastError: (_, params: { error: unknown }) => describeApiError(params.error as ApiError).message,
    }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeApiError(params.error as ApiError);
      return notify(d.level, d.message);
    }),
    notifyBound: emit(() => notify('success', msg('signIn.oauth.bound'))),
    goToSettings: emit(() => navigate('/setting', true)),
    tellSession: handOver.tellSession,
    handOverSecondFactor: handOver.handOverSecondFactor,
    notifySignedIn: handOver.notifySignedIn,
    notifyGiveUp: emit(() => notify('error', msg('signIn.oauth.giveUp'))),
    goToLogin: emit(() => navigate('/login', true)),
  },
}).createMachine({
  id: 'oauthCallback',
  context: ({ input }) => ({
    session: input.session,
    provider: input.provider,
    code: input.code,
    state: input.state,
    attempt: 0,
    lastError: null,
  }),
  initial: 'exchanging',
  states: {
    exchanging: {
      tags: ['busy'],
      invoke: {
        id: 'exchangeCode',
        src: 'exchangeCode',
        input: ({ context }) => ({ provider: context.provider, code: context.code, state: context.state }),
        onDone: [
          {
            guard: { type: 'isBound', params: ({ event }) => ({ outcome: event.output }) },
            target: 'bound',
            actions: ['notifyBound', 'goToSettings'],
          },
          ...signInOutcomes({ secondFactor: 'secondFactor', signedIn: 'signedIn' }),
        ],
        onError: [
          {
            guard: 'canRetry',
            target: 'retrying',
            actions: [
              { type: 'recordFailure', params: ({ event }) => ({ error: event.error }) },
              { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
            ],
          },
          {
            target: 'failed',
            actions: [
              { type: 'recordFailure', params: ({ event }) => ({ error: event.error }) },
              { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
              'notifyGiveUp',
              'goToLogin',
            ],
          },
        ],
      },
    },
    retrying: {
      tags: ['busy', 'error'],
      after: { retryBackoff: 'exchanging' },
    },
    bound: { type: 'final' },
    signedIn: { type: 'final' },
    /** Handed over to the session's second step (the login page asks for the code). */
    secondFactor: { type: 'final' },
    failed: { type: 'final', tags: ['error'] },
  },
});
