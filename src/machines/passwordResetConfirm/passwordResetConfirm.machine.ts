import { assign, emit, fromPromise, setup } from 'xstate';
import { describeApiError, type ApiError } from '../../domain/apiError';
import { msg, notify, type NotifyEvent } from '../../domain/message';

/** The reset link's query: /user/reset?email=&token=. */
export interface PasswordResetConfirmInput {
  readonly email: string;
  readonly token: string;
}

export type PasswordResetConfirmEvent = { readonly type: 'reset.confirm' };

export interface PasswordResetConfirmContext {
  readonly email: string;
  readonly token: string;
  /** The new password the server set (shown in a box once it arrived). */
  readonly password: string | null;
  /** Whether the new password reached the clipboard. */
  readonly copied: boolean;
}

/** `confirmPasswordReset`: POST /api/user/reset {email, token}, answers the new password. */
export type ConfirmPasswordResetInput = PasswordResetConfirmInput;

/** `copyText`: writes the text to the clipboard, rejects when it cannot. */
export interface CopyTextInput {
  readonly text: string;
}

export type PasswordResetConfirmEmitted = NotifyEvent;

/**
 * The /user/reset page: the button posts the link's e-mail and token
 * (`confirmPasswordReset`); the new password is then shown, copied to the clipboard
 * (`copyText`) with a toast, and the button reads 'password reset done'. When copying fails
 * the password stays on show and the person is asked to copy it by hand. A link without
 * e-mail or token cannot be confirmed. A failed confirmation can be tried again.
 */
export const passwordResetConfirmMachine = setup({
  types: {
    context: {} as PasswordResetConfirmContext,
    input: {} as PasswordResetConfirmInput,
    events: {} as PasswordResetConfirmEvent,
    emitted: {} as PasswordResetConfirmEmitted,
    tags: {} as 'busy',
  },
  actors: {
    confirmPasswordReset: fromPromise<string, ConfirmPasswordResetInput>(() => {
      throw new Error('confirmPasswordReset not provided');
    }),
    copyText: fromPromise<void, CopyTextInput>(() => {
      throw new Error('copyText not provided');
    }),
  },
  guards: {
    hasLink: ({ context }) => context.email !== '' && context.token !== '',
  },
  actions: {
    takePassword: assign({ password: (_, params: { password: string }) => params.password }),
    markCopied: assign({ copied: true }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeApiError(params.error as ApiError);
      return notify(d.level, d.message);
    }),
    notifyCopied: emit(() => notify('success', msg('account.resetConfirm.copied'))),
    notifyCopyFailed: emit(() => notify('warning', msg('account.resetConfirm.copyFailed'))),
  },
}).createMachine({
  id: 'passwordResetConfirm',
  context: ({ input }) => ({
    email: input.email.trim(),
    token: input.token.trim(),
    password: null,
    copied: false,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'reset.confirm': { guard: 'hasLink', target: 'resetting' } },
    },
    resetting: {
      tags: ['busy'],
      invoke: {
        id: 'confirmPasswordReset',
        src: 'confirmPasswordReset',
        input: ({ context }) => ({ email: context.email, token: context.token }),
        onDone: {
          target: 'copying',
          actions: { type: 'takePassword', params: ({ event }) => ({ password: event.output }) },
        },
        onError: {
          target: 'idle',
          actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    copying: {
      tags: ['busy'],
      invoke: {
        id: 'copyText',
        src: 'copyText',
        input: ({ context }) => ({ text: context.password ?? '' }),
        onDone: { target: 'done', actions: ['markCopied', 'notifyCopied'] },
        onError: { target: 'done', actions: 'notifyCopyFailed' },
      },
    },
    done: { type: 'final' },
  },
});
