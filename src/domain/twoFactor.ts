import * as t from 'io-ts';
import { User } from './user';

/** Two-factor sign-in (TOTP): the wire shapes of /api/user/2fa/* and the login's second step. */

/** `GET /api/user/2fa/status`. `required`: the user is an admin, TwoFactorRequiredForAdmins is on and 2FA is off. */
export const TwoFactorStatus = t.type({ enabled: t.boolean, recovery_codes_left: t.number, required: t.boolean });
export type TwoFactorStatus = t.TypeOf<typeof TwoFactorStatus>;

/** `POST /api/user/2fa/setup`: the new secret (base32) and its otpauth:// URI, shown once. */
export const TwoFactorSetup = t.type({ secret: t.string, uri: t.string });
export type TwoFactorSetup = t.TypeOf<typeof TwoFactorSetup>;

/** `POST /api/user/2fa/enable` and `/recovery-codes`: the one-time recovery codes, shown once. */
export const RecoveryCodes = t.type({ recovery_codes: t.array(t.string) });
export type RecoveryCodes = t.TypeOf<typeof RecoveryCodes>;

/** Body of enable, recovery-codes and the login's second step: a TOTP code or (login, disable) a recovery code. */
export const TwoFactorCodeBody = t.type({ code: t.string });
export type TwoFactorCodeBody = t.TypeOf<typeof TwoFactorCodeBody>;

/** Body of disable: a code (TOTP or recovery) or the current password. */
export const TwoFactorDisableBody = t.partial({ code: t.string, password: t.string });
export type TwoFactorDisableBody = t.TypeOf<typeof TwoFactorDisableBody>;

/** `POST /api/user/login` data when the password was right and a second factor is needed (no session yet). */
export const SecondFactorRequired = t.type({ require_2fa: t.literal(true) });
export type SecondFactorRequired = t.TypeOf<typeof SecondFactorRequired>;

/** The option that asks admins to enrol. */
export const twoFactorRequiredOption = 'TwoFactorRequiredForAdmins';

/** Whether a code entry is a 6-digit TOTP code (spaces ignored). */
export const isTotpCodeText = (input: string): boolean => /^\d{6}$/.test(input.replaceAll(' ', ''));

/** `POST /api/user/login` data: a second step is needed, or the user (flagged when an admin must enrol). */
export const LoginAnswer = t.union([SecondFactorRequired, t.intersection([User, t.partial({ require_2fa_setup: t.boolean })])]);
export type LoginAnswer = t.TypeOf<typeof LoginAnswer>;

/** Whether a login answer asks for the second step. */
export const needsSecondFactor = (answer: LoginAnswer): answer is SecondFactorRequired => 'require_2fa' in answer;

/**
 * What a third-party sign-in (OAuth callback, WeChat code) came to: the server waits for the
 * second factor (no session yet), or the user signed in (`enrolmentRequired`: an admin who must
 * turn on two-factor sign-in first).
 */
export type ExternalSignIn =
  | { readonly bound: false; readonly secondFactor: true }
  | { readonly bound: false; readonly secondFactor?: false; readonly user: User; readonly enrolmentRequired?: boolean };

/** The third-party sign-in outcome of a login answer (the enrolment flag moved out of the user). */
export function externalSignInOf(answer: LoginAnswer): ExternalSignIn {
  if (needsSecondFactor(answer)) return { bound: false, secondFactor: true };
  const { require_2fa_setup: flag, ...user } = answer;
  return flag === true ? { bound: false, user, enrolmentRequired: true } : { bound: false, user };
}
