import { assign, emit, enqueueActions, setup } from 'xstate';
import { describeApiError, type ApiError } from '../../domain/apiError';
import { msg, notify, type NotifyEvent } from '../../domain/message';
import { checkTurnstile, validateResetRequest, type Verdict } from '../../domain/validation';
import { relayChildren } from '../pageRelay/pageRelay';
import {
  resendCooldownSeconds,
  sendCooldownMachine,
  senderReady,
  senderStatusOf,
  type SendCooldownEmitted,
  type SendCooldownSnapshot,
  type SendRequest,
  type SenderStatus,
} from '../sendCooldown/sendCooldown.machine';

export interface PasswordResetRequestInput {
  /** status.turnstile_check: a bot-check token is needed before the request is sent. */
  readonly turnstileEnabled: boolean;
}

/** The form was submitted with the e-mail as typed; `turnstileToken` is '' without a result. */
export type PasswordResetRequestSubmit = { readonly type: 'reset.request'; readonly email: string; readonly turnstileToken: string };

export type PasswordResetRequestEvent =
  | PasswordResetRequestSubmit
  /** The mail sender's answer (relayed from the sendCooldown child). */
  | SendCooldownEmitted;

export interface PasswordResetRequestContext {
  readonly turnstileEnabled: boolean;
  /** The mail sender (sendCooldown child) as last seen: sending, or seconds until it sends again. */
  readonly sender: SenderStatus;
}

/** `sendPasswordReset` (the sendCooldown child's send actor): GET /api/reset_password?email=&turnstile=. */
export type SendPasswordResetInput = SendRequest;

export type PasswordResetRequestEmitted = NotifyEvent;

type Request = PasswordResetRequestSubmit;

/** Spec §5: an empty e-mail does nothing; the bot-check wait message is the English one here. */
export function resetRequestVerdict(context: PasswordResetRequestContext, event: Request): Verdict {
  const email = validateResetRequest(event.email);
  if (!email.ok) return email;
  return checkTurnstile({ enabled: context.turnstileEnabled, token: event.turnstileToken, english: true });
}

/**
 * The /reset page: the `sendPasswordReset` child (sendCooldown) sends the reset mail and, after
 * the attempt, counts down 30 s before it sends again; a request while it is busy does nothing.
 * Its facts come back through `relayChildren`: 'reset mail sent, please check your mailbox' on
 * success, the server's message on failure. Its phase and count are mirrored in `sender`.
 */
export const passwordResetRequestMachine = setup({
  types: {
    context: {} as PasswordResetRequestContext,
    input: {} as PasswordResetRequestInput,
    events: {} as PasswordResetRequestEvent,
    emitted: {} as PasswordResetRequestEmitted,
  },
  actors: {
    /** The mail sender; its send actor comes with it (`sendCooldownWith`). */
    sendPasswordReset: sendCooldownMachine,
    relayChildren,
  },
  guards: {
    isSenderReady: ({ context }) => context.sender.phase === 'ready',
    canRequest: ({ context }, params: { event: Request }) =>
      context.sender.phase === 'ready' && resetRequestVerdict(context, params.event).ok,
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
    sendMail: enqueueActions(({ enqueue }, params: { event: Request }) => {
      enqueue.sendTo('sendPasswordReset', {
        type: 'send.request',
        request: { email: params.event.email.trim(), turnstile: params.event.turnstileToken },
      });
      enqueue.assign({ sender: { phase: 'sending', secondsLeft: 0 } });
    }),
    mirrorSender: assign({ sender: (_, params: { snapshot: SendCooldownSnapshot }) => senderStatusOf(params.snapshot) }),
  },
}).createMachine({
  id: 'passwordResetRequest',
  context: ({ input }) => ({ turnstileEnabled: input.turnstileEnabled, sender: senderReady }),
  invoke: [
    {
      id: 'sendPasswordReset',
      src: 'sendPasswordReset',
      input: { seconds: resendCooldownSeconds },
      onSnapshot: {
        actions: { type: 'mirrorSender', params: ({ event }) => ({ snapshot: event.snapshot }) },
      },
    },
    // after the sender, so it finds it
    { id: 'relayChildren', src: 'relayChildren', input: ({ self }) => ({ page: self, ids: ['sendPasswordReset'] }) },
  ],
  on: {
    'reset.request': [
      { guard: { type: 'canRequest', params: ({ event }) => ({ event }) }, actions: { type: 'sendMail', params: ({ event }) => ({ event }) } },
      {
        guard: 'isSenderReady',
        actions: {
          type: 'notifyRejection',
          params: ({ context, event }) => ({ verdict: resetRequestVerdict(context, event) }),
        },
      },
    ],
    'send.succeeded': { actions: 'notifySent' },
    'send.failed': { actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
  },
});
