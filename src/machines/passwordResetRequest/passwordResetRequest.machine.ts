import { assertEvent, assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { describeApiError, type ApiError } from '../../domain/apiError';
import { msg, notify, type NotifyEvent } from '../../domain/message';
import { checkTurnstile, validateResetRequest, type Verdict } from '../../domain/validation';
import { resendCooldownMachine, resendCooldownSeconds } from '../resendCooldown/resendCooldown.machine';

export interface PasswordResetRequestInput {
  /** status.turnstile_check: a bot-check token is needed before the request is sent. */
  readonly turnstileEnabled: boolean;
}

export type PasswordResetRequestEvent =
  /** The form was submitted with the e-mail as typed; `turnstileToken` is '' without a result. */
  { readonly type: 'reset.request'; readonly email: string; readonly turnstileToken: string };

export interface PasswordResetRequestContext {
  readonly turnstileEnabled: boolean;
  /** Seconds until the request can be sent again (0 when it can). */
  readonly secondsLeft: number;
}

/** `sendPasswordReset`: GET /api/reset_password?email=&turnstile=. */
export interface SendPasswordResetInput {
  readonly email: string;
  readonly turnstile: string;
}

export type PasswordResetRequestEmitted = NotifyEvent;

type Request = PasswordResetRequestEvent;

/** Spec §5: an empty e-mail does nothing; the bot-check wait message is the English one here. */
export function resetRequestVerdict(context: PasswordResetRequestContext, event: Request): Verdict {
  const email = validateResetRequest(event.email);
  if (!email.ok) return email;
  return checkTurnstile({ enabled: context.turnstileEnabled, token: event.turnstileToken, english: true });
}

/**
 * The /reset page: sends the reset mail (`sendPasswordReset`), says 'reset mail sent, please
 * check your mailbox' on success (the server's message on failure), and after the attempt the
 * button counts down 30 s (the resendCooldown machine) before it sends again.
 */
export const passwordResetRequestMachine = setup({
  types: {
    context: {} as PasswordResetRequestContext,
    input: {} as PasswordResetRequestInput,
    events: {} as PasswordResetRequestEvent,
    emitted: {} as PasswordResetRequestEmitted,
    tags: {} as 'busy',
  },
  actors: {
    sendPasswordReset: fromPromise<void, SendPasswordResetInput>(() => {
      throw new Error('sendPasswordReset not provided');
    }),
    resendCooldown: resendCooldownMachine,
  },
  guards: {
    canRequest: ({ context }, params: { event: Request }) => resetRequestVerdict(context, params.event).ok,
  },
  actions: {
    notifyRejection: enqueueActions(({ enqueue }, params: { verdict: Verdict }) => {
      if (!params.verdict.ok && params.verdict.message !== null) enqueue.emit(notify('info', params.verdict.message));
    }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeApiError(params.error as ApiError);
      return notify(d.level, d.message);
    }),
    notifySent: emit(() => notify('success', msg('account.reset.sent'))),
    startCooldown: assign({ secondsLeft: resendCooldownSeconds }),
    showCooldown: assign({ secondsLeft: (_, params: { secondsLeft: number }) => params.secondsLeft }),
    endCooldown: assign({ secondsLeft: 0 }),
  },
}).createMachine({
  id: 'passwordResetRequest',
  context: ({ input }) => ({ turnstileEnabled: input.turnstileEnabled, secondsLeft: 0 }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'reset.request': [
          { guard: { type: 'canRequest', params: ({ event }) => ({ event }) }, target: 'sending' },
          {
            actions: {
              type: 'notifyRejection',
              params: ({ context, event }) => ({ verdict: resetRequestVerdict(context, event) }),
            },
          },
        ],
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'sendPasswordReset',
        src: 'sendPasswordReset',
        input: ({ event }) => {
          assertEvent(event, 'reset.request');
          return { email: event.email.trim(), turnstile: event.turnstileToken };
        },
        onDone: { target: 'coolingDown', actions: 'notifySent' },
        onError: {
          target: 'coolingDown',
          actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    coolingDown: {
      entry: 'startCooldown',
      exit: 'endCooldown',
      invoke: {
        id: 'resendCooldown',
        src: 'resendCooldown',
        input: { seconds: resendCooldownSeconds },
        onSnapshot: {
          actions: {
            type: 'showCooldown',
            params: ({ event }) => ({ secondsLeft: event.snapshot.context.secondsLeft }),
          },
        },
        onDone: { target: 'idle' },
      },
    },
  },
});
