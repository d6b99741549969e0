import { assign, emit, fromPromise, sendTo, setup } from 'xstate';
import { accountFieldProblem, hasFieldErrors, type FieldErrors } from '../../domain/accountRules';
import { describeApiError, isSessionExpiry, type ApiError } from '../../domain/apiError';
import { msg, navigate, notify, type Message, type NavigateEvent, type NotifyEvent } from '../../domain/message';
import type { SelfUpdatePayload, User } from '../../domain/user';
import { awaitSession, sessionRecoveryStates, type SessionRef } from '../sessionWatch';

/** The fields of the own-profile form (/user/edit). An empty password leaves it unchanged. */
export interface ProfileForm {
  readonly username: string;
  readonly display_name: string;
  readonly password: string;
}

export type ProfileField = keyof ProfileForm;

/** The fields in screen order (the first with a problem takes the focus). */
export const profileFieldOrder: readonly ProfileField[] = ['username', 'password', 'display_name'];

/** Each field's broken rule from the last submit. */
export type ProfileErrors = FieldErrors<ProfileField>;

/** The account's bindings, shown read-only (they are bound from personal settings, spec §6). */
export interface ProfileBindings {
  readonly github_id: string;
  readonly wechat_id: string;
  readonly email: string;
}

export type ProfileEditEvent =
  | { readonly type: 'field.change'; readonly field: ProfileField; readonly value: string }
  | { readonly type: 'profile.submit' }
  | { readonly type: 'profile.retry' }
  /** Leave without saving (to the personal settings). */
  | { readonly type: 'profile.cancel' }
  /** `awaitSession` after a 401 save: the same user signed in again (the save is sent once more). */
  | { readonly type: 'session.restored' }
  /** `awaitSession` after a 401 save: the session ended or someone else signed in (nothing is saved). */
  | { readonly type: 'session.lost' };

export interface ProfileEditInput {
  /** The app's session actor: a saved account replaces its user (the header shows the new name). */
  readonly session: SessionRef;
}

export interface ProfileEditContext {
  readonly session: SessionRef;
  readonly form: ProfileForm;
  readonly bindings: ProfileBindings;
  /** The rules the last submit broke, per field (each shown at its field until it changes). */
  readonly fieldErrors: ProfileErrors;
}

export type ProfileEditEmitted = NotifyEvent | NavigateEvent;

/** Where Cancel leads: the personal settings. */
export const profileCancelPath = '/setting';

/** `saveSelf`: PUT /api/user/self with the form (the password only when one was typed). */
export type SaveSelfInput = SelfUpdatePayload;

const emptyForm: ProfileForm = { username: '', display_name: '', password: '' };
const noBindings: ProfileBindings = { github_id: '', wechat_id: '', email: '' };

const bindingsOf = (user: User): ProfileBindings => ({
  github_id: user.github_id ?? '',
  wechat_id: user.wechat_id ?? '',
  email: user.email ?? '',
});

/** The form filled from the account; the password box starts empty. */
const formOf = (user: User): ProfileForm => ({ username: user.username, display_name: user.display_name, password: '' });

/**
 * The rules the form breaks, per field (username required and ≤ 12, display name ≤ 20, a typed
 * password 8–20), each a message naming the field; empty when it may be sent.
 */
export function profileErrors(form: ProfileForm): ProfileErrors {
  const found: [ProfileField, Message | null][] = [
    ['username', form.username.trim() === '' ? msg('rules.username.required') : accountFieldProblem('username', form.username)],
    ['password', form.password === '' ? null : accountFieldProblem('password', form.password)],
    ['display_name', accountFieldProblem('displayName', form.display_name)],
  ];
  return Object.fromEntries(found.filter(([, m]) => m !== null));
}

/** The first rule the form breaks, or null. */
export const profileProblem = (form: ProfileForm): Message | null => {
  const errors = profileErrors(form);
  const first = profileFieldOrder.find((f) => errors[f] !== undefined);
  return first === undefined ? null : errors[first]!;
};

/** The payload of a save: the password is sent only when the person typed one. */
export const savePayload = (form: ProfileForm): SelfUpdatePayload =>
  form.password === ''
    ? { username: form.username, display_name: form.display_name }
    : { username: form.username, display_name: form.display_name, password: form.password };

/**
 * The own-profile page (/user/edit): loads the account (`loadSelf`), edits username, display
 * name and password, saves (`saveSelf`), says '用户信息更新成功！', then reloads the account and
 * hands it to the session (`session.userUpdated`) so the header shows the new name. The password is never kept after a
 * save. A field breaking its rule (username required and ≤ 12, display name ≤ 20, a typed
 * password 8–20) is not sent: its message, naming the field, shows at the field (no toast) until
 * the field changes. The GitHub, WeChat and e-mail bindings are shown read-only. Cancel goes to
 * the personal settings. A failed load can be retried; a failed save keeps what was typed. A save
 * answered 401 waits (`awaitingSession`) for the session's sign-in dialog: the same user back
 * sends it once more (`resaving`); otherwise the page is left unsaved (`left`).
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
    awaitSession,
  },
  guards: {
    hasProblem: ({ context }) => hasFieldErrors(profileErrors(context.form)),
    isSessionExpiry: (_, params: { error: unknown }) => isSessionExpiry(params.error),
  },
  actions: {
    fill: assign((_, params: { user: User }) => ({ form: formOf(params.user), bindings: bindingsOf(params.user), fieldErrors: {} })),
    setField: assign(({ context }, params: { field: ProfileField; value: string }) => {
      const { [params.field]: _gone, ...rest } = context.fieldErrors;
      return { form: { ...context.form, [params.field]: params.value }, fieldErrors: rest };
    }),
    keepErrors: assign({ fieldErrors: ({ context }) => profileErrors(context.form) }),
    clearErrors: assign({ fieldErrors: {} }),
    leave: emit(() => navigate(profileCancelPath)),
    forgetPassword: assign({ form: ({ context }) => ({ ...context.form, password: '' }) }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeApiError(params.error as ApiError);
      return notify(d.level, d.message);
    }),
    notifySaved: emit(() => notify('success', msg('account.profile.saved'))),
    tellSession: sendTo(
      ({ context }) => context.session,
      (_, params: { user: User }) => ({ type: 'session.userUpdated' as const, user: params.user }),
    ),
  },
}).createMachine({
  id: 'profileEdit',
  context: ({ input }) => ({ session: input.session, form: emptyForm, bindings: noBindings, fieldErrors: {} }),
  initial: 'loading',
  on: { 'profile.cancel': { actions: 'leave' } },
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
          // each broken rule is said at its field; nothing is sent, no toast
          { guard: 'hasProblem', actions: 'keepErrors' },
          { target: 'saving', actions: 'clearErrors' },
        ],
      },
    },
    // saving; a save answered 401 waits for the sign-in dialog (awaitingSession), then resaving or left
    ...sessionRecoveryStates('isSessionExpiry', {
      id: 'saveSelf',
      src: 'saveSelf',
      input: ({ context }: { context: ProfileEditContext }) => savePayload(context.form),
      onDone: { target: 'refreshing', actions: ['forgetPassword', 'notifySaved'] },
      onError: { target: 'editing', actions: { type: 'notifyFailure', params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) } },
    }),
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
