import { assign, emit, fromPromise, not, sendTo, setup } from 'xstate';
import { accountFieldsProblem } from '../../domain/accountRules';
import { describeApiError, type ApiError } from '../../domain/apiError';
import { msg, notify, type Message, type NotifyEvent } from '../../domain/message';
import type { SelfUpdatePayload, User } from '../../domain/user';
import type { SessionRef } from '../sessionWatch';

/** The fields of the own-profile form (/user/edit). An empty password leaves it unchanged. */
export interface ProfileForm {
  readonly username: string;
  readonly display_name: string;
  readonly password: string;
}

export type ProfileField = keyof ProfileForm;

export type ProfileEditEvent =
  | { readonly type: 'field.change'; readonly field: ProfileField; readonly value: string }
  | { readonly type: 'profile.submit' }
  | { readonly type: 'profile.retry' };

export interface ProfileEditInput {
  /** The app's session actor: a saved account replaces its user (the header shows the new name). */
  readonly session: SessionRef;
}

export interface ProfileEditContext {
  readonly session: SessionRef;
  readonly form: ProfileForm;
}

export type ProfileEditEmitted = NotifyEvent;

/** `saveSelf`: PUT /api/user/self with the form (the password only when one was typed). */
export type SaveSelfInput = SelfUpdatePayload;

const emptyForm: ProfileForm = { username: '', display_name: '', password: '' };

/** The form filled from the account; the password box starts empty. */
const formOf = (user: User): ProfileForm => ({ username: user.username, display_name: user.display_name, password: '' });

/**
 * The rule the form breaks (username ≤ 12, display name ≤ 20, a typed password 8–20), as a message
 * naming the field; null when it may be sent.
 */
export const profileProblem = (form: ProfileForm): Message | null =>
  accountFieldsProblem({
    username: form.username,
    displayName: form.display_name,
    password: form.password === '' ? undefined : form.password,
  });

/** The payload of a save: the password is sent only when the person typed one. */
export const savePayload = (form: ProfileForm): SelfUpdatePayload =>
  form.password === ''
    ? { username: form.username, display_name: form.display_name }
    : { username: form.username, display_name: form.display_name, password: form.password };

/**
 * The own-profile page (/user/edit): loads the account (`loadSelf`), edits username, display
 * name and password, saves (`saveSelf`), says '用户信息更新成功！', then reloads the account and
 * hands it to the session (`session.userUpdated`) so the header shows the new name. The password is never kept after a
 * save. An empty username is not sent (the server would refuse it); a field breaking its length
 * rule is not sent either, and the message names the field and the rule. A failed load can be
 * retried; a failed save keeps what was typed.
 */
export const profileEditMachine = setup({
  types: {
    context: {} as ProfileEditContext,
    input: {} as ProfileEditInput,
    events: {} as ProfileEditEvent,
    emitted: {} as ProfileEditEmitted,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    loadSelf: fromPromise<User>(() => {
      throw new Error('loadSelf not provided');
    }),
    saveSelf: fromPromise<void, SaveSelfInput>(() => {
      throw new Error('saveSelf not provided');
    }),
  },
  guards: {
    hasUsername: ({ context }) => context.form.username.trim() !== '',
    hasProblem: ({ context }) => profileProblem(context.form) !== null,
  },
  actions: {
    fill: assign({ form: (_, params: { user: User }) => formOf(params.user) }),
    setField: assign({
      form: ({ context }, params: { field: ProfileField; value: string }) => ({ ...context.form, [params.field]: params.value }),
    }),
    forgetPassword: assign({ form: ({ context }) => ({ ...context.form, password: '' }) }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeApiError(params.error as ApiError);
      return notify(d.level, d.message);
    }),
    notifySaved: emit(() => notify('success', msg('account.profile.saved'))),
    notifyProblem: emit(({ context }) => notify('error', profileProblem(context.form) ?? msg('rules.username.tooLong'))),
    tellSession: sendTo(
      ({ context }) => context.session,
      (_, params: { user: User }) => ({ type: 'session.userUpdated' as const, user: params.user }),
    ),
  },
}).createMachine({
  id: 'profileEdit',
  context: ({ input }) => ({ session: input.session, form: emptyForm }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'loadSelf',
        src: 'loadSelf',
        onDone: { target: 'editing', actions: { type: 'fill', params: ({ event }) => ({ user: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    loadFailed: {
      on: { 'profile.retry': 'loading' },
    },
    editing: {
      on: {
        'field.change': {
          actions: { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
        'profile.submit': [
          { guard: not('hasUsername') },
          { guard: 'hasProblem', actions: 'notifyProblem' },
          { target: 'saving' },
        ],
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveSelf',
        src: 'saveSelf',
        input: ({ context }) => savePayload(context.form),
        onDone: { target: 'refreshing', actions: ['forgetPassword', 'notifySaved'] },
        onError: { target: 'editing', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    refreshing: {
      tags: ['busy'],
      invoke: {
        id: 'loadSelf',
        src: 'loadSelf',
        onDone: {
          target: 'editing',
          actions: [
            { type: 'fill', params: ({ event }) => ({ user: event.output }) },
            { type: 'tellSession', params: ({ event }) => ({ user: event.output }) },
          ],
        },
        // the save went through; the form keeps what was saved
        onError: 'editing',
      },
    },
  },
});
