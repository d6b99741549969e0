import { passwordMaxLength, passwordMinLength, usernameMaxLength } from './constants';
import { msg, type Message } from './message';

/**
 * The length rules of an account's fields (one-api's User model: username ≤ 12, password 8–20,
 * display name ≤ 20, e-mail ≤ 50; group ≤ 32 for its column), shared by the console's forms and
 * the server. Lengths count characters (code points), as one-api's validator does. A broken rule
 * is a `rules.*` message that names the field and the rule, in the person's language.
 */

export const accountLimits = {
  username: usernameMaxLength,
  passwordMin: passwordMinLength,
  passwordMax: passwordMaxLength,
  displayName: 20,
  email: 50,
  group: 32,
} as const;

/** Characters as people count them (code points, not UTF-16 units). */
export const charLength = (s: string): number => [...s].length;

/** The fields to check; a field left out (undefined) is not checked (e.g. an unchanged password). */
export interface AccountFields {
  readonly username?: string;
  readonly password?: string;
  readonly displayName?: string;
  readonly email?: string;
  readonly group?: string;
}

/** The first field, in form order, whose value breaks its length rule; null when every given field passes. */
export function accountFieldsProblem(f: AccountFields): Message | null {
  if (f.username !== undefined && charLength(f.username) > accountLimits.username) {
    return msg('rules.username.tooLong', { max: accountLimits.username });
  }
  if (f.password !== undefined) {
    const n = charLength(f.password);
    if (n < accountLimits.passwordMin || n > accountLimits.passwordMax) {
      return msg('rules.password.length', { min: accountLimits.passwordMin, max: accountLimits.passwordMax });
    }
  }
  if (f.displayName !== undefined && charLength(f.displayName) > accountLimits.displayName) {
    return msg('rules.displayName.tooLong', { max: accountLimits.displayName });
  }
  if (f.email !== undefined && charLength(f.email) > accountLimits.email) return msg('rules.email.tooLong', { max: accountLimits.email });
  if (f.group !== undefined && charLength(f.group) > accountLimits.group) return msg('rules.group.tooLong', { max: accountLimits.group });
  return null;
}

/** Each field's broken rule (a message naming the field), for inline display; fields that pass are absent. */
export type FieldErrors<F extends string> = Readonly<Partial<Record<F, Message>>>;

/** No field has a problem. */
export const hasFieldErrors = (errors: FieldErrors<string>): boolean => Object.keys(errors).length > 0;

/** The first field, in the given order, that has a problem (the one to focus), or null. */
export const firstErrorField = <F extends string>(errors: FieldErrors<F>, order: readonly F[]): F | null =>
  order.find((f) => errors[f] !== undefined) ?? null;

/** The length rule a single field breaks (the same rules as `accountFieldsProblem`), or null. */
export const accountFieldProblem = (field: keyof AccountFields, value: string | undefined): Message | null =>
  value === undefined ? null : accountFieldsProblem({ [field]: value });

/** The fields of the registration form. */
export type RegistrationField = 'username' | 'password' | 'password2' | 'email' | 'verification_code';
export const registrationFieldOrder: readonly RegistrationField[] = ['username', 'password', 'password2', 'email', 'verification_code'];

/**
 * The registration form's rules, per field: username required and ≤ 12 characters, password
 * required and 8–20, the repeat equal to it, and with e-mail verification on an e-mail (≤ 50)
 * and a code. Each message names its field.
 */
export function registrationFieldErrors(
  v: { readonly username: string; readonly password: string; readonly password2: string; readonly email: string; readonly verification_code: string },
  emailVerification: boolean,
): FieldErrors<RegistrationField> {
  const errors: Partial<Record<RegistrationField, Message>> = {};
  const username = v.username === '' ? msg('rules.username.required') : accountFieldProblem('username', v.username);
  if (username !== null) errors.username = username;
  const password = v.password === '' ? msg('rules.password.required') : accountFieldProblem('password', v.password);
  if (password !== null) errors.password = password;
  if (v.password2 !== v.password) errors.password2 = msg('validation.register.passwordMismatch');
  if (emailVerification) {
    const email = v.email.trim() === '' ? msg('rules.email.required') : accountFieldProblem('email', v.email.trim());
    if (email !== null) errors.email = email;
    if (v.verification_code.trim() === '') errors.verification_code = msg('rules.verificationCode.required');
  }
  return errors;
}
