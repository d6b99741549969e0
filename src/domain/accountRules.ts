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
