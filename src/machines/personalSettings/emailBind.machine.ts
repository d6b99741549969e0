import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import { msg, notify, type NotifyEvent } from '../../domain/message';
import { checkTurnstile, validateBindCode, validateEmailForCode, type Verdict } from '../../domain/validation';
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
import type { AccountBound } from './wechatBind.machine';

export interface EmailBindInput {
  /** status.turnstile_check: a bot-check token is needed before a code is sent. */
  readonly turnstileEnabled: boolean;
}

export type EmailBindField = 'email' | 'code';

export type EmailBindEvent =
  | { readonly type: 'email.open' }
  | { readonly type: 'email.cancel' }
  | { readonly type: 'field.change'; readonly field: EmailBindField; readonly value: string }
  /** "Send code" with the bot check's current token ('' while it has none). */
  | { readonly type: 'code.send'; readonly turnstileToken: string }
  | { readonly type: 'email.submit' }
  /** status.turnstile_check changed while the tab is open (the status reloaded). */
  | { readonly type: 'turnstile.change'; readonly enabled: boolean }
  /** The code sender's answer (relayed from the sendCooldown child). */
  | SendCooldownEmitted;

export interface EmailBindContext {
  readonly turnstileEnabled: boolean;
  readonly email: string;
  /** email_verification_code as typed. */
  readonly code: string;
  /** The code sender (sendCooldown child) as last seen: sending, or seconds until it sends again. */
  readonly sender: SenderStatus;
}

export type EmailBindEmitted = NotifyEvent | AccountBound;

/** `sendVerificationCode` (the sendCooldown child's send actor): GET /api/verification?email=&turnstile=. */
export type SendBindCodeInput = SendRequest;

/** `bindEmail`: GET /api/oauth/email/bind?email=&code=. */
export interface BindEmailInput {
  readonly email: string;
  readonly code: string;
}

type SendCode = Extract<EmailBindEvent, { type: 'code.send' }>;

/** Sending a code: nothing with an empty e-mail, then the bot check (spec §5). */
export function sendCodeVerdict(context: EmailBindContext, event: SendCode): Verdict {
  const email = validateEmailForCode(context.email);
  if (!email.ok) return email;
  return checkTurnstile({ enabled: context.turnstileEnabled, token: event.turnstileToken, english: false });
}

/**
 * "Bind e-mail":
 * - the dialog: the e-mail and code fields; submitting with an empty code (or e-mail) does
 *   nothing; `bindEmail` then says '邮箱账户绑定成功！', closes and emits `account.bound`.
 * - the code: "send code" (silent without an e-mail, the Turnstile wait message without a
 *   bot-check result, nothing at all while the sender is busy) has the `sendVerificationCode`
 *   child (sendCooldown) send it and count down 30 s after the attempt. Its facts come back
 *   through `relayChildren`: '验证码发送成功，请检查你的邮箱！' on success, the error's message on
 *   failure. Its phase and count are mirrored in `sender`.
 */
export const emailBindMachine = setup({
  types: {
    context: {} as EmailBindContext,
    input: {} as EmailBindInput,
    events: {} as EmailBindEvent,
    emitted: {} as EmailBindEmitted,
    tags: {} as 'busy',
  },
  actors: {
    /** The code sender; its send actor comes with it (`sendCooldownWith`). */
    sendVerificationCode: sendCooldownMachine,
    bindEmail: fromPromise<void, BindEmailInput>(() => {
      throw new Error('bindEmail not provided');
    }),
    relayChildren,
  },
  guards: {
    isSenderReady: ({ context }) => context.sender.phase === 'ready',
    canSendCode: ({ context }, params: { event: SendCode }) => context.sender.phase === 'ready' && sendCodeVerdict(context, params.event).ok,
    canBind: ({ context }) => validateBindCode(context.code).ok && validateEmailForCode(context.email).ok,
  },
  actions: {
    setField: assign(({ context }, params: { field: EmailBindField; value: string }) => ({ ...context, [params.field]: params.value })),
    resetForm: assign({ email: '', code: '' }),
    notifyRejection: enqueueActions(({ enqueue }, params: { verdict: Verdict }) => {
      if (!params.verdict.ok && params.verdict.message !== null) enqueue.emit(notify('info', params.verdict.message));
    }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
    notifyCodeSent: emit(() => notify('success', msg('account.register.codeSent'))),
    notifyBound: emit(() => notify('success', msg('personal.email.bound'))),
    emitBound: emit((): AccountBound => ({ type: 'account.bound' })),
    setTurnstile: assign({ turnstileEnabled: (_, params: { enabled: boolean }) => params.enabled }),
    sendCode: enqueueActions(({ enqueue, context }, params: { event: SendCode }) => {
      enqueue.sendTo('sendVerificationCode', {
        type: 'send.request',
        request: { email: context.email.trim(), turnstile: params.event.turnstileToken },
      });
      enqueue.assign({ sender: { phase: 'sending', secondsLeft: 0 } });
    }),
    mirrorSender: assign({ sender: (_, params: { snapshot: SendCooldownSnapshot }) => senderStatusOf(params.snapshot) }),
  },
}).createMachine({
  id: 'emailBind',
  context: ({ input }) => ({ turnstileEnabled: input.turnstileEnabled, email: '', code: '', sender: senderReady }),
  invoke: [
    {
      id: 'sendVerificationCode',
      src: 'sendVerificationCode',
      input: { seconds: resendCooldownSeconds },
      onSnapshot: {
        actions: { type: 'mirrorSender', params: ({ event }) => ({ snapshot: event.snapshot }) },
      },
    },
    // after the sender, so it finds it
    { id: 'relayChildren', src: 'relayChildren', input: ({ self }) => ({ page: self, ids: ['sendVerificationCode'] }) },
  ],
  on: {
    'turnstile.change': { actions: { type: 'setTurnstile', params: ({ event }) => ({ enabled: event.enabled }) } },
    // only while the sender is ready: nothing is sent, and nothing said, during a send or its countdown
    'code.send': [
      {
        guard: { type: 'canSendCode', params: ({ event }) => ({ event }) },
        actions: { type: 'sendCode', params: ({ event }) => ({ event }) },
      },
      {
        guard: 'isSenderReady',
        actions: {
          type: 'notifyRejection',
          params: ({ context, event }) => ({ verdict: sendCodeVerdict(context, event) }),
        },
      },
    ],
    'send.succeeded': { actions: 'notifyCodeSent' },
    'send.failed': { actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
  },
  initial: 'closed',
  states: {
    closed: { on: { 'email.open': 'open' } },
    open: {
      on: {
        'email.cancel': 'closed',
        'field.change': { actions: { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) } },
        'email.submit': { guard: 'canBind', target: 'binding' },
      },
    },
    binding: {
      tags: ['busy'],
      invoke: {
        id: 'bindEmail',
        src: 'bindEmail',
        input: ({ context }) => ({ email: context.email.trim(), code: context.code.trim() }),
        onDone: { target: 'closed', actions: ['notifyBound', 'emitBound', 'resetForm'] },
        onError: { target: 'open', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
