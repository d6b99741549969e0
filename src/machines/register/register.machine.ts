import { assertEvent, assign, emit, enqueueActions, fromPromise, setup, type ActorRefFrom, type AnyActorRef } from 'xstate';
import { hasFieldErrors, registrationFieldErrors, type FieldErrors, type RegistrationField } from '../../domain/accountRules';
import { describeApiError, type ApiError } from '../../domain/apiError';
import { msg, navigate, notify, type NavigateEvent, type NotifyEvent } from '../../domain/message';
import type { RegisterPayload } from '../../domain/user';
import { checkTurnstile, validateEmailForCode, type Verdict } from '../../domain/validation';
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
import type { sessionMachine } from '../session/session.machine';
import { followSession, type SessionChanged } from '../sessionWatch';

/** The registration form as typed (e-mail and code are '' when e-mail verification is off). */
export interface RegistrationValues {
  readonly username: string;
  readonly password: string;
  readonly password2: string;
  readonly email: string;
  readonly verification_code: string;
}

/** The app's session actor (src/machines/session): its status carries the server's flags. */
export type SessionRef = ActorRefFrom<typeof sessionMachine> | AnyActorRef;

export interface RegisterInput {
  /** The session: the flags below come from its status, now and whenever it reloads. */
  readonly session: SessionRef;
  /** The inviter's code from `?aff=` ('' when the link has none). */
  readonly affCode: string;
}

/** The server's flags the form depends on, from the session's status (both off while it has none). */
export interface RegisterFlags {
  /** status.email_verification: the e-mail and code fields (and the send-code button) are shown. */
  readonly emailVerification: boolean;
  /** status.turnstile_check: a bot-check token is needed before anything is sent. */
  readonly turnstileEnabled: boolean;
}

export type RegisterEvent =
  /** The session's facts changed (also reported once at start): the flags are read from them. */
  | SessionChanged
  /** A field was typed into: its inline message (from the last submit) goes away. */
  | { readonly type: 'field.edit'; readonly field: RegistrationField }
  /** The form was submitted; `turnstileToken` is '' while the bot check has no result. */
  | { readonly type: 'register.submit'; readonly values: RegistrationValues; readonly turnstileToken: string }
  /** "Send code" was pressed with the e-mail field's current value. */
  | { readonly type: 'code.send'; readonly email: string; readonly turnstileToken: string }
  /** The code sender's answer (relayed from the sendCooldown child). */
  | SendCooldownEmitted;

export interface RegisterContext {
  readonly emailVerification: boolean;
  readonly turnstileEnabled: boolean;
  /** The inviter code sent as `aff_code`: the link's, else the one remembered from an earlier link. */
  readonly affCode: string;
  /** The code sender (sendCooldown child) as last seen: sending, or seconds until it sends again. */
  readonly sender: SenderStatus;
  /** The rules the last submit broke, per field (shown at each field, the first one focused). */
  readonly fieldErrors: FieldErrors<RegistrationField>;
}

/** `registerUser`: POST /api/user/register?turnstile=. */
export interface RegisterUserInput {
  readonly payload: RegisterPayload;
  readonly turnstile: string;
}

/** `sendVerificationCode` (the sendCooldown child's send actor): GET /api/verification?email=&turnstile=. */
export type SendVerificationCodeInput = SendRequest;

/** `rememberAffCode`: stores a non-empty code (localStorage 'aff') and answers the code to use. */
export interface RememberAffCodeInput {
  readonly affCode: string;
}

export type RegisterEmitted = NotifyEvent | NavigateEvent;

/** The machine's input, as the start event carries it (the session is an actor, not context). */
const startInput = (event: unknown): RegisterInput => (event as { readonly input: RegisterInput }).input;

/** Where a registered person goes next (spec §2). */
export const afterRegistration = '/login';

type Submit = Extract<RegisterEvent, { type: 'register.submit' }>;
type SendCode = Extract<RegisterEvent, { type: 'code.send' }>;

/** The fields' rules (each required, username ≤ 12, password 8–20, the repeat equal, e-mail and code when verification is on). */
export const registrationErrorsOf = (context: RegisterContext, event: Submit): FieldErrors<RegistrationField> =>
  registrationFieldErrors(event.values, context.emailVerification);

/** After the fields pass: the bot check. */
export function registrationVerdict(context: RegisterContext, event: Submit): Verdict {
  if (hasFieldErrors(registrationErrorsOf(context, event))) return { ok: false, message: null };
  return checkTurnstile({ enabled: context.turnstileEnabled, token: event.turnstileToken, english: false });
}

/** Sending a code: only with e-mail verification on, a non-empty e-mail, then the bot check (the sender being ready is the guard's). */
export function codeVerdict(context: RegisterContext, event: SendCode): Verdict {
  if (!context.emailVerification) return { ok: false, message: null };
  const email = validateEmailForCode(event.email);
  if (!email.ok) return email;
  return checkTurnstile({ enabled: context.turnstileEnabled, token: event.turnstileToken, english: false });
}

const payloadOf = (context: RegisterContext, values: RegistrationValues): RegisterPayload => ({
  username: values.username,
  password: values.password,
  password2: values.password2,
  email: context.emailVerification ? values.email.trim() : '',
  verification_code: context.emailVerification ? values.verification_code.trim() : '',
  aff_code: context.affCode,
});

/**
 * The /register workflow:
 * - the form: the submit checks each field (username required and ≤ 12 characters, password
 *   8–20, the repeat equal, e-mail and code when verification is on); broken rules are kept per
 *   field (`fieldErrors`, shown inline, nothing sent, no toast) until that field is typed into;
 *   then the Turnstile wait message; then it calls
 *   `registerUser`, and on success says '注册成功！' and goes to /login.
 * - the code (only used with e-mail verification): "send code" does nothing with an empty
 *   e-mail or while the sender is busy; otherwise the `sendVerificationCode` child (sendCooldown)
 *   sends it and counts down 30 s after the attempt. Its facts come back through `relayChildren`:
 *   '验证码发送成功，请检查你的邮箱！' on success, the server's message on failure; its phase and
 *   count are mirrored in `sender`.
 * On start, `rememberAffCode` stores the link's inviter code, or recalls one stored earlier. The
 * server's flags (e-mail verification, bot check) come from the session's status through
 * `followSession`, at start and whenever the status reloads (`session.changed`).
 */
export const registerMachine = setup({
  types: {
    context: {} as RegisterContext,
    input: {} as RegisterInput,
    events: {} as RegisterEvent,
    emitted: {} as RegisterEmitted,
    tags: {} as 'busy',
  },
  actors: {
    registerUser: fromPromise<void, RegisterUserInput>(() => {
      throw new Error('registerUser not provided');
    }),
    /** The code sender; its send actor comes with it (`sendCooldownWith`). */
    sendVerificationCode: sendCooldownMachine,
    rememberAffCode: fromPromise<string, RememberAffCodeInput>(() => {
      throw new Error('rememberAffCode not provided');
    }),
    followSession,
    relayChildren,
  },
  guards: {
    canRegister: ({ context }, params: { event: Submit }) => registrationVerdict(context, params.event).ok,
    hasFieldErrors: ({ context }, params: { event: Submit }) => hasFieldErrors(registrationErrorsOf(context, params.event)),
    isSenderReady: ({ context }) => context.sender.phase === 'ready',
    canSendCode: ({ context }, params: { event: SendCode }) => context.sender.phase === 'ready' && codeVerdict(context, params.event).ok,
  },
  actions: {
    /** Shows why a request was not sent (nothing when the rule is silent). */
    notifyRejection: enqueueActions(({ enqueue }, params: { verdict: Verdict }) => {
      if (!params.verdict.ok && params.verdict.message !== null) enqueue.emit(notify('info', params.verdict.message));
    }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeApiError(params.error as ApiError);
      return notify(d.level, d.message);
    }),
    notifyRegistered: emit(() => notify('success', msg('account.register.success'))),
    goToLogin: emit(() => navigate(afterRegistration)),
    notifyCodeSent: emit(() => notify('success', msg('account.register.codeSent'))),
    setFlags: assign((_, params: RegisterFlags) => ({
      emailVerification: params.emailVerification,
      turnstileEnabled: params.turnstileEnabled,
    })),
    setFieldErrors: assign({ fieldErrors: (_, params: { errors: FieldErrors<RegistrationField> }) => params.errors }),
    clearFieldError: assign({
      fieldErrors: ({ context }, params: { field: RegistrationField }) => {
        if (context.fieldErrors[params.field] === undefined) return context.fieldErrors;
        const { [params.field]: _gone, ...rest } = context.fieldErrors;
        return rest;
      },
    }),
    takeAffCode: assign({ affCode: (_, params: { affCode: string }) => params.affCode }),
    sendCode: enqueueActions(({ enqueue }, params: { event: SendCode }) => {
      enqueue.sendTo('sendVerificationCode', {
        type: 'send.request',
        request: { email: params.event.email.trim(), turnstile: params.event.turnstileToken },
      });
      enqueue.assign({ sender: { phase: 'sending', secondsLeft: 0 } });
    }),
    mirrorSender: assign({ sender: (_, params: { snapshot: SendCooldownSnapshot }) => senderStatusOf(params.snapshot) }),
  },
}).createMachine({
  id: 'register',
  context: ({ input }) => ({
    emailVerification: false,
    turnstileEnabled: false,
    affCode: input.affCode.trim(),
    sender: senderReady,
    fieldErrors: {},
  }),
  invoke: [
    {
      id: 'rememberAffCode',
      src: 'rememberAffCode',
      input: ({ context }) => ({ affCode: context.affCode }),
      onDone: { actions: { type: 'takeAffCode', params: ({ event }) => ({ affCode: event.output.trim() }) } },
      // Storage refused: the link's own code (if any) is still used.
      onError: {},
    },
    { id: 'followSession', src: 'followSession', input: ({ event }) => ({ session: startInput(event).session }) },
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
    'session.changed': {
      actions: {
        type: 'setFlags',
        params: ({ event }) => ({ emailVerification: event.facts.emailVerification, turnstileEnabled: event.facts.turnstileEnabled }),
      },
    },
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
          params: ({ context, event }) => ({ verdict: codeVerdict(context, event) }),
        },
      },
    ],
    'send.succeeded': { actions: 'notifyCodeSent' },
    'send.failed': { actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
  },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.edit': { actions: { type: 'clearFieldError', params: ({ event }) => ({ field: event.field }) } },
        'register.submit': [
          // a broken field rule: nothing is sent; each field says what is wrong (no toast)
          {
            guard: { type: 'hasFieldErrors', params: ({ event }) => ({ event }) },
            actions: { type: 'setFieldErrors', params: ({ context, event }) => ({ errors: registrationErrorsOf(context, event) }) },
          },
          {
            guard: { type: 'canRegister', params: ({ event }) => ({ event }) },
            target: 'submitting',
            actions: { type: 'setFieldErrors', params: { errors: {} } },
          },
          {
            actions: {
              type: 'notifyRejection',
              params: ({ context, event }) => ({ verdict: registrationVerdict(context, event) }),
            },
          },
        ],
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'registerUser',
        src: 'registerUser',
        input: ({ context, event }) => {
          assertEvent(event, 'register.submit');
          return { payload: payloadOf(context, event.values), turnstile: event.turnstileToken };
        },
        onDone: { target: 'registered', actions: ['notifyRegistered', 'goToLogin'] },
        onError: {
          target: 'editing',
          actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    /** Done: the shell is on its way to /login. */
    registered: {},
  },
});
