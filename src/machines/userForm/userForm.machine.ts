import { accountFieldProblem, hasFieldErrors, type FieldErrors } from '../../domain/accountRules';
import { msg, type Message, type NavigateEvent, type NotifyEvent } from '../../domain/message';
import { fieldProblem, numberRules } from '../../domain/numberRules';
import type { User, UserCreatePayload, UserUpdatePayload } from '../../domain/user';
import { createFormMachine, isEditOf, notProvided, type SubmitVerdict } from '../form';

/** `/user/edit/:id` gives the id; `/user/add` gives null. */
export interface UserFormInput {
  readonly id: number | null;
}

/**
 * The fields of the user form. Create uses username, display name and password; edit adds
 * group and quota (typed text, sent as an integer) and shows the bindings read-only.
 */
export interface UserForm {
  readonly username: string;
  readonly display_name: string;
  /** Empty keeps the password (edit). */
  readonly password: string;
  readonly group: string;
  readonly quota: string;
  readonly github_id: string;
  readonly wechat_id: string;
  readonly email: string;
}

/** The fields a person can type into (the bindings are read-only). */
export type UserFormField = 'username' | 'display_name' | 'password' | 'group' | 'quota';

/** Each field's broken rule (a message naming the field). */
export type UserFormErrors = FieldErrors<UserFormField>;

/** The form's fields in screen order (the first with a problem takes the focus). */
export const userFormFieldOrder = (isEdit: boolean): readonly UserFormField[] =>
  isEdit ? ['username', 'password', 'display_name', 'group', 'quota'] : ['username', 'display_name', 'password'];

export interface UserFormContext {
  readonly id: number | null;
  readonly form: UserForm;
  /** Group names from `GET /api/group/` (empty when that call failed). */
  readonly groupOptions: readonly string[];
  /** The rules the last submit broke, per field (each shown at its field until that field changes). */
  readonly problem: UserFormErrors | null;
}

export type UserFormEvent =
  | { readonly type: 'field.change'; readonly field: UserFormField; readonly value: string }
  | { readonly type: 'form.submit' }
  | { readonly type: 'form.retry' }
  | { readonly type: 'form.cancel' };

export type UserFormEmitted = NotifyEvent | NavigateEvent;

/** `saveUser`: POST /api/user/ (create) or PUT /api/user/ (edit). */
export type SaveUserInput =
  | { readonly kind: 'create'; readonly payload: UserCreatePayload }
  | { readonly kind: 'update'; readonly payload: UserUpdatePayload };

/** Where a created user leads (the list), and where cancel leads (create: the list; edit: /setting, spec §2). */
export const userListPath = '/user';
export const userEditCancelPath = '/setting';

export const emptyUserForm: UserForm = {
  username: '',
  display_name: '',
  password: '',
  group: '',
  quota: '',
  github_id: '',
  wechat_id: '',
  email: '',
};

/** The form filled from a user; the password box starts empty, quota as its digits. */
export const userFormOf = (user: User): UserForm => ({
  username: user.username,
  display_name: user.display_name,
  password: '',
  group: user.group ?? '',
  quota: String(user.quota ?? 0),
  github_id: user.github_id ?? '',
  wechat_id: user.wechat_id ?? '',
  email: user.email ?? '',
});

/** The quota typed into the form as an integer, or null when it is not one (spec §5: parsed to an integer). */
export function parseQuota(text: string): number | null {
  const trimmed = text.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isSafeInteger(n) ? n : null;
}

/** Why the typed quota cannot be sent (not an integer: spec §5's wording; out of range: numberRules), or null. */
export const quotaProblemOf = (text: string): Message | null =>
  fieldProblem(numberRules.balance, text, 'number.field.quota', msg('users.form.quotaInvalid'));

/** Create: an empty username or password silently does nothing (spec §5). */
export const isCreateComplete = (form: UserForm): boolean => form.username !== '' && form.password !== '';

/** The create payload: username, display name (omitted when empty: the server uses the username), password. */
export const createPayloadOf = (form: UserForm): UserCreatePayload =>
  form.display_name === ''
    ? { username: form.username, password: form.password }
    : { username: form.username, display_name: form.display_name, password: form.password };

/**
 * The edit payload: id, username, display name, group and quota as an integer; the password
 * only when one was typed. The read-only bindings are never sent.
 */
export function updatePayloadOf(id: number, form: UserForm): UserUpdatePayload | null {
  const quota = parseQuota(form.quota);
  if (quota === null) return null;
  const base = { id, username: form.username, display_name: form.display_name, group: form.group, quota };
  return form.password === '' ? base : { ...base, password: form.password };
}

/**
 * The rules the form breaks, per field (username ≤ 12, display name ≤ 20, a typed password 8–20,
 * on edit group ≤ 32 and the quota an integer in range), each a message naming the field. Create's
 * empty fields are the silent rule's (spec §5), so only typed values are checked.
 */
export function userFormErrors(form: UserForm, isEdit: boolean): UserFormErrors {
  const found: [UserFormField, Message | null][] = [
    ['username', accountFieldProblem('username', form.username)],
    ['display_name', accountFieldProblem('displayName', form.display_name)],
    ['password', form.password === '' ? null : accountFieldProblem('password', form.password)],
    ['group', isEdit ? accountFieldProblem('group', form.group) : null],
    ['quota', isEdit ? quotaProblemOf(form.quota) : null],
  ];
  return Object.fromEntries(found.filter(([, m]) => m !== null));
}

/** The errors without a field's (it was typed into); null when none is left. */
function withoutField(errors: UserFormErrors | null, field: UserFormField): UserFormErrors | null {
  if (errors === null || errors[field] === undefined) return errors;
  const { [field]: _gone, ...rest } = errors;
  return hasFieldErrors(rest) ? rest : null;
}

const userFormActors = {
  loadUser: notProvided<User, { readonly id: number }>('loadUser'),
  loadGroups: notProvided<readonly string[]>('loadGroups'),
  saveUser: notProvided<void, SaveUserInput>('saveUser'),
};

/** The rules of a submit, in order (spec §5). */
function checkUserForm(context: UserFormContext): SubmitVerdict<UserFormErrors> {
  const isEdit = isEditOf(context);
  // create with an empty username or password: nothing is sent and nothing is said
  if (!isEdit && !isCreateComplete(context.form)) return { ok: false, notice: null };
  // the lengths the server enforces and the quota, each said at its field (no toast), nothing sent
  const errors = userFormErrors(context.form, isEdit);
  if (hasFieldErrors(errors)) return { ok: false, problem: errors, notice: null };
  return { ok: true };
}

/**
 * The user form of the admin pages, a form machine (src/machines/form): create (/user/add,
 * input id null) and edit another user (/user/edit/:id). Edit loads the user and the group names
 * side by side: the user's failure stops the page with a retry; the groups' only says so (the
 * current group stays choosable). Create sends nothing while username or password is empty (spec
 * §5); a field breaking its length rule is not sent and its message, naming it, shows at the field. Create then says
 * '用户账户创建成功！' and goes to /user. Edit checks that the quota is an integer (else the field
 * says so and nothing is sent; no toast), saves, says '用户信息更新成功！' and stays, the password box emptied.
 * A failed save keeps the form. Cancel goes to /setting from edit (spec §2), to /user from create.
 */
export const userFormMachine = createFormMachine<UserFormContext, UserFormEvent, UserFormInput, User, typeof userFormActors, UserFormEmitted, 'userForm'>({
  id: 'userForm',
  context: (input) => ({ id: input.id, form: emptyUserForm, groupOptions: [], problem: null }),
  emptyForm: emptyUserForm,
  record: { region: 'user', src: 'loadUser', fill: (_, user) => ({ form: userFormOf(user) }) },
  lists: [
    {
      region: 'groups',
      src: 'loadGroups',
      take: (_, groups) => ({ groupOptions: [...new Set(groups as readonly string[])] }),
      unavailable: 'users.form.groupsUnavailable',
    },
  ],
  // create opens the empty form at once
  loadOnCreate: false,
  setField: (context, event) => ({
    form: { ...context.form, [event.field]: event.value },
    problem: withoutField(context.problem, event.field),
  }),
  check: checkUserForm,
  save: {
    src: 'saveUser',
    input: (context): SaveUserInput =>
      context.id === null
        ? { kind: 'create', payload: createPayloadOf(context.form) }
        : // the submit's rules made sure the quota parses
          { kind: 'update', payload: updatePayloadOf(context.id, context.form) ?? { id: context.id } },
    done: (context) =>
      isEditOf(context)
        ? { assign: { form: { ...context.form, password: '' } }, notice: msg('account.profile.saved'), navigate: null, next: 'editing' }
        : { notice: msg('users.created'), navigate: userListPath, next: 'done' },
  },
  cancelTo: (context) => (isEditOf(context) ? userEditCancelPath : userListPath),
  doneState: 'created',
  actors: userFormActors,
});
