import { assign, emit, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import { msg, notify, type NotifyEvent } from '../../domain/message';
import { validateSelfDelete } from '../../domain/validation';

export interface SelfDeleteInput {
  /** The signed-in user's username: what must be typed to confirm. */
  readonly username: string;
}

export type SelfDeleteEvent =
  | { readonly type: 'delete.open' }
  | { readonly type: 'delete.cancel' }
  | { readonly type: 'confirmation.change'; readonly value: string }
  | { readonly type: 'delete.confirm' };

export interface SelfDeleteContext {
  readonly username: string;
  /** self_account_deletion_confirmation as typed. */
  readonly confirmation: string;
}

/** Emitted once the account is gone: the shell logs out (and lands on /login). */
export interface AccountDeleted {
  readonly type: 'account.deleted';
}

export type SelfDeleteEmitted = NotifyEvent | AccountDeleted;

/**
 * "Delete own account" (spec §5 Self-delete): a dialog where the username must be typed
 * exactly, else '请输入你的账户名以确认删除！'; then `deleteSelf` (DELETE /api/user/self), '账户已删除！'
 * and `account.deleted`. A refusal (root cannot delete itself) keeps the dialog open.
 */
export const selfDeleteMachine = setup({
  types: {
    context: {} as SelfDeleteContext,
    input: {} as SelfDeleteInput,
    events: {} as SelfDeleteEvent,
    emitted: {} as SelfDeleteEmitted,
    tags: {} as 'busy',
  },
  actors: {
    deleteSelf: fromPromise<void>(() => {
      throw new Error('deleteSelf not provided');
    }),
  },
  guards: {
    isConfirmed: ({ context }) => validateSelfDelete(context.confirmation, context.username).ok,
  },
  actions: {
    setConfirmation: assign({ confirmation: (_, params: { value: string }) => params.value }),
    clearConfirmation: assign({ confirmation: '' }),
    notifyMismatch: emit(() => notify('error', msg('validation.selfDelete.mismatch'))),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
    notifyDeleted: emit(() => notify('success', msg('personal.delete.done'))),
    emitDeleted: emit((): AccountDeleted => ({ type: 'account.deleted' })),
  },
}).createMachine({
  id: 'selfDelete',
  context: ({ input }) => ({ username: input.username, confirmation: '' }),
  initial: 'closed',
  states: {
    closed: {
      on: { 'delete.open': { target: 'open', actions: 'clearConfirmation' } },
    },
    open: {
      on: {
        'confirmation.change': { actions: { type: 'setConfirmation', params: ({ event }) => ({ value: event.value }) } },
        'delete.cancel': { target: 'closed', actions: 'clearConfirmation' },
        'delete.confirm': [{ guard: 'isConfirmed', target: 'deleting' }, { actions: 'notifyMismatch' }],
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'deleteSelf',
        src: 'deleteSelf',
        input: undefined,
        onDone: { target: 'deleted', actions: ['notifyDeleted', 'emitDeleted'] },
        onError: { target: 'open', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    /** Done: the shell is logging out. */
    deleted: {},
  },
});
