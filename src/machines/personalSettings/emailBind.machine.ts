import { assertEvent, assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import { msg, notify, type NotifyEvent } from '../../domain/message';
import { checkTurnstile, validateBindCode, validateEmailForCode, type Verdict } from '../../domain/validation';
import { resendCooldownMachine, resendCooldownSeconds } from '../resendCooldown/resendCooldown.machine';
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
  | { readonly type: 'turnstile.change'; readonly enabled: boolean };

export interface EmailBindContext {
  readonly turnstileEnabled: boolean;
  readonly email: string;
  /** email_verification_code as typed. */
  readonly code: string;
  /** Seconds until a code can be sent again (0 when it can). */
  readonly codeSecondsLeft: number;
}

export type EmailBindEmitted = NotifyEvent | AccountBound;

/** `sendVerificationCode`: GET /api/verification?email=&turnstile=. */
export interface SendBindCodeInput {
  readonly email: string;
  readonly turnstile: string;
}

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
 * "Bind e-mail", two regions:
 * - `dialog`: the e-mail and code fields; submitting with an empty code (or e-mail) does
 *   nothing; `bindEmail` then says '邮箱账户绑定成功！', closes and emits `account.bound`.
 * - `code`: "send code" (silent without an e-mail, the Turnstile wait message without a bot-check
 *   result) calls `sendVerificationCode`, says '验证码发送成功，请检查你的邮箱！', and after the
 *   attempt counts down 30 s (the resendCooldown machine) before it sends again.
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
    sendVerificationCode: fromPromise<void, SendBindCodeInput>(() => {
      throw new Error('sendVerificationCode not provided');
    }),
    bindEmail: fromPromise<void, BindEmailInput>(() => {
      throw new Error('bindEmail not provided');
    }),
    resendCooldown: resendCooldownMachine,
  },
  guards: {
    canSendCode: ({ context }, params: { event: SendCode }) => sendCodeVerdict(context, params.event).ok,
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
    startCooldown: assign({ codeSecondsLeft: resendCooldownSeconds }),
    showCooldown: assign({ codeSecondsLeft: (_, params: { secondsLeft: number }) => params.secondsLeft }),
    endCooldown: assign({ codeSecondsLeft: 0 }),
  },
}).createMachine({
  id: 'emailBind',
  context: ({ input }) => ({ turnstileEnabled: input.turnstileEnabled, email: '', code: '', codeSecondsLeft: 0 }),
  type: 'parallel',
  on: {
    'turnstile.change': { actions: { type: 'setTurnstile', params: ({ event }) => ({ enabled: event.enabled }) } },
  },
  states: {
    dialog: {
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
    },
    code: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'code.send': [
              { guard: { type: 'canSendCode', params: ({ event }) => ({ event }) }, target: 'sending' },
              {
                actions: {
                  type: 'notifyRejection',
                  params: ({ context, event }) => ({ verdict: sendCodeVerdict(context, event) }),
                },
              },
            ],
          },
        },
        sending: {
          invoke: {
            id: 'sendVerificationCode',
            src: 'sendVerificationCode',
            input: ({ context, event }) => {
              assertEvent(event, 'code.send');
              return { email: context.email.trim(), turnstile: event.turnstileToken };
            },
            onDone: { target: 'coolingDown', actions: 'notifyCodeSent' },
            onError: { target: 'coolingDown', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
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
              actions: { type: 'showCooldown', params: ({ event }) => ({ secondsLeft: event.snapshot.context.secondsLeft }) },
            },
            onDone: { target: 'idle' },
          },
        },
      },
    },
  },
});
