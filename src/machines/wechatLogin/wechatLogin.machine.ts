import { assign, emit, fromPromise, setup } from 'xstate';
import { describeApiError, type ApiError } from '../../domain/apiError';
import { notify, type Message, type NotifyEvent } from '../../domain/message';
import type { ExternalSignIn } from '../../domain/twoFactor';
import { signInHandOver, signInOutcomes, type SessionRef } from '../sessionWatch';

/** What a WeChat code login answers: the signed-in user, or the second step (never a bind). */
export type WeChatLoginOutcome = ExternalSignIn;

export type WeChatLoginEvent =
  | { readonly type: 'dialog.open' }
  | { readonly type: 'dialog.close' }
  | { readonly type: 'code.submit'; readonly code: string };

export interface WeChatLoginInput {
  /** The app's session actor: a signed-in user is handed to it (`session.signedIn`). */
  readonly session: SessionRef;
}

export interface WeChatLoginContext {
  readonly session: SessionRef;
  /** The code being checked (trimmed), kept for the retry of the same dialog. */
  readonly code: string;
  /** The last failure, shown in the dialog; cleared on open and on a new submit. */
  readonly error: Message | null;
}

export type WeChatLoginEmitted = NotifyEvent;

/** Spec: WeChat code login goes to the home page (a password login goes to /token). */
export const wechatLoginTarget = '/';

const handOver = signInHandOver<WeChatLoginContext, WeChatLoginEvent>(wechatLoginTarget);

/**
 * The login page's WeChat dialog: it shows the official account's QR code and a code input;
 * the code (obtained from the official account) is checked by the server, which answers the
 * user. Success hands the user to the session (`session.signedIn`, to the home page) and
 * closes; a user with two-factor sign-in on is handed to the session's second step instead
 * (`session.secondFactorNeeded`: the login page asks for the code); a failure shows the server's
 * message and keeps the dialog open. An empty code does nothing.
 */
export const wechatLoginMachine = setup({
  types: {
    context: {} as WeChatLoginContext,
    input: {} as WeChatLoginInput,
    events: {} as WeChatLoginEvent,
    emitted: {} as WeChatLoginEmitted,
    tags: {} as 'busy',
  },
  actors: {
    loginWithWeChat: fromPromise<WeChatLoginOutcome, string>(() => {
      throw new Error('loginWithWeChat not provided');
    }),
  },
  guards: {
    hasCode: (_, params: { code: string }) => params.code.trim() !== '',
    isSecondFactorNeeded: handOver.isSecondFactorNeeded,
  },
  actions: {
    takeCode: assign({ code: (_, params: { code: string }) => params.code.trim(), error: null }),
    clear: assign({ code: '', error: null }),
    recordFailure: assign({
      error: (_, params: { error: unknown }) => describeApiError(params.error as ApiError).message,
    }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeApiError(params.error as ApiError);
      return notify(d.level, d.message);
    }),
    tellSession: handOver.tellSession,
    handOverSecondFactor: handOver.handOverSecondFactor,
    notifySignedIn: handOver.notifySignedIn,
  },
}).createMachine({
  id: 'wechatLogin',
  context: ({ input }) => ({ session: input.session, code: '', error: null }),
  initial: 'closed',
  states: {
    closed: {
      on: { 'dialog.open': { target: 'open', actions: 'clear' } },
    },
    open: {
      on: {
        'dialog.close': { target: 'closed', actions: 'clear' },
        'code.submit': {
          guard: { type: 'hasCode', params: ({ event }) => ({ code: event.code }) },
          target: 'submitting',
          actions: { type: 'takeCode', params: ({ event }) => ({ code: event.code }) },
        },
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'loginWithWeChat',
        src: 'loginWithWeChat',
        input: ({ context }) => context.code,
        onDone: signInOutcomes({ secondFactor: 'closed', signedIn: 'closed', also: ['clear'] }),
        onError: {
          target: 'open',
          actions: [
            { type: 'recordFailure', params: ({ event }) => ({ error: event.error }) },
            { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
  },
});
