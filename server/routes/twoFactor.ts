import { Hono, type Context } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import * as E from 'fp-ts/Either';
import { roleAdmin, userStatusActivated } from '../../src/domain/constants';
import { TwoFactorCodeBody, TwoFactorDisableBody, twoFactorRequiredOption } from '../../src/domain/twoFactor';
import { twoFactor as en } from '../../src/i18n/en/twoFactor';
import { twoFactor as zh } from '../../src/i18n/zh/twoFactor';
import type { UserRow } from '../db/schema';
import { currentUser, userAuth } from '../http/auth';
import { fail, localize, messages, ok } from '../http/envelope';
import type { AppEnv } from '../http/env';
import { requestLang } from '../http/ruleText';
import { isHttps } from '../http/session';
import { decodeBody } from '../http/validate';
import { startCheckedSession } from '../services/credentials';
import { readOptions } from '../services/options';
import { verifyPassword } from '../services/password';
import { loginUserJson } from '../services/users';
import {
  acceptRecoveryCode,
  acceptTotp,
  challengeLifetimeSeconds,
  challengeMaxAttempts,
  hasTwoFactor,
  isTotpCode,
  newChallengeId,
  newTotpSecret,
  recoveryCodesLeft,
  removeTwoFactor,
  replaceRecoveryCodes,
  totpOf,
  totpRow,
} from '../services/twoFactor';
import { sealSecret, totpKeyOf } from '../services/totpSecretBox';

/**
 * Two-factor sign-in routes under /api/user (our addition; one-api has none): status, setup,
 * enable, disable and new recovery codes for the signed-in user, and the login's second step.
 * A password login of a user with 2FA on answers `{require_2fa: true}` without a session and sets
 * the signed, HttpOnly cookie `login_2fa` naming a server-side challenge; `POST /login/2fa`
 * completes it with a TOTP or recovery code within `challengeLifetimeSeconds`, at most
 * `challengeMaxAttempts` wrong codes.
 */

type Ctx = Context<AppEnv>;
type Key = keyof typeof zh;

export const challengeCookieName = 'login_2fa';
const challengeIdPattern = /^[0-9a-f]{64}$/;

const db = (c: Ctx) => c.get('deps').db;
/** The key sealing TOTP secrets at rest (from SESSION_SECRET; null when it is unset). */
const totpKey = (c: Ctx) => totpKeyOf(c.get('deps').config);
const nowMs = (c: Ctx): number => c.get('deps').now();
const nowSeconds = (c: Ctx): number => Math.floor(nowMs(c) / 1000);
/** A two-factor message in the caller's language. */
const say = (c: Ctx, key: Key): string => (requestLang(c) === 'zh' ? zh : en)[key];

/** The issuer shown in authenticator apps: the system name. */
async function issuer(c: Ctx): Promise<string> {
  const name = (await readOptions(db(c), ['SystemName'])).str('SystemName');
  return name === '' ? 'One API' : name;
}

/** Whether an admin must enrol (option on, admin, 2FA off). */
export async function mustEnrol(c: Ctx, user: UserRow, enabled: boolean): Promise<boolean> {
  if (enabled || (user.role ?? 0) < roleAdmin) return false;
  return (await readOptions(db(c), [twoFactorRequiredOption])).bool(twoFactorRequiredOption);
}

/** Checks a TOTP code, or else a recovery code, for `userId`. */
async function acceptAnyCode(c: Ctx, userId: number, code: string): Promise<boolean> {
  if (isTotpCode(code)) return acceptTotp(db(c), totpKey(c), userId, code, nowMs(c));
  return acceptRecoveryCode(db(c), userId, code, nowSeconds(c));
}

const cookieOptions = (c: Ctx, maxAge: number) =>
  ({ path: '/api/user/login', httpOnly: true, sameSite: 'Lax', secure: isHttps(c), maxAge }) as const;

/**
 * After the password of `user` was checked: when 2FA is on, records a challenge, sets its cookie
 * and answers `{require_2fa: true}` (no session); otherwise null (the login goes on as before).
 */
export async function secondStepIfNeeded(c: Ctx, user: UserRow): Promise<Response | null> {
  if (!(await hasTwoFactor(db(c), user.id))) return null;
  const id = newChallengeId();
  const now = nowSeconds(c);
  await db(c).deleteFrom('oa_login_challenges').where('expires_at', '<=', now).execute();
  await db(c)
    .insertInto('oa_login_challenges')
    .values({ id, user_id: user.id, password_hash: user.password, created_at: now, expires_at: now + challengeLifetimeSeconds, attempts: 0 })
    .execute();
  await setSignedCookie(c, challengeCookieName, id, c.get('deps').config.sessionSecret, cookieOptions(c, challengeLifetimeSeconds));
  return ok(c, { require_2fa: true });
}

/** The login answer's data: one-api's fields, plus `require_2fa_setup` when an admin must enrol. */
export async function loginData(c: Ctx, user: UserRow): Promise<object> {
  const data = loginUserJson(user);
  return (await mustEnrol(c, user, false)) ? { ...data, require_2fa_setup: true } : data;
}

/** `POST /api/user/login/2fa {code}`: completes a login waiting for its second factor. */
async function loginSecondStep(c: Ctx): Promise<Response> {
  const cookie = await getSignedCookie(c, c.get('deps').config.sessionSecret, challengeCookieName);
  const id = typeof cookie === 'string' && challengeIdPattern.test(cookie) ? cookie : null;
  const restart = (key: Key) => {
    deleteCookie(c, challengeCookieName, cookieOptions(c, 0));
    return fail(c, say(c, key));
  };
  if (id === null) return restart('twoFactor.error.challengeMissing');
  const challenge = await db(c)
    .selectFrom('oa_login_challenges')
    .selectAll()
    .where('id', '=', id)
    .where('expires_at', '>', nowSeconds(c))
    .executeTakeFirst();
  if (challenge === undefined) return restart('twoFactor.error.challengeMissing');
  const body = await decodeBody(c, TwoFactorCodeBody);
  if (E.isLeft(body)) return fail(c, localize(c, 'invalid_parameter'));
  const code = body.right.code.trim();
  if (code === '') return fail(c, say(c, 'twoFactor.error.codeRequired'));
  // One attempt is counted before the check, conditionally, so parallel guesses cannot exceed the limit.
  const counted = await db(c)
    .updateTable('oa_login_challenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', challengeMaxAttempts)
    .executeTakeFirst();
  if (counted.numUpdatedRows === 0n) {
    await db(c).deleteFrom('oa_login_challenges').where('id', '=', id).execute();
    return restart('twoFactor.error.tooManyAttempts');
  }
  const user = await db(c).selectFrom('users').selectAll().where('id', '=', challenge.user_id).executeTakeFirst();
  if (user === undefined || user.status !== userStatusActivated || user.password !== challenge.password_hash) {
    await db(c).deleteFrom('oa_login_challenges').where('id', '=', id).execute();
    deleteCookie(c, challengeCookieName, cookieOptions(c, 0));
    return fail(c, messages.loginFailed);
  }
  if (!(await acceptAnyCode(c, user.id, code))) {
    if (challenge.attempts + 1 >= challengeMaxAttempts) {
      await db(c).deleteFrom('oa_login_challenges').where('id', '=', id).execute();
      return restart('twoFactor.error.tooManyAttempts');
    }
    return fail(c, say(c, isTotpCode(code) ? 'twoFactor.error.codeInvalid' : 'twoFactor.error.recoveryInvalid'));
  }
  const removed = await db(c).deleteFrom('oa_login_challenges').where('id', '=', id).executeTakeFirst();
  deleteCookie(c, challengeCookieName, cookieOptions(c, 0));
  if (removed.numDeletedRows === 0n) return fail(c, say(c, 'twoFactor.error.challengeMissing'));
  const problem = await startCheckedSession(c, user.id, user.password);
  if (problem !== null) return fail(c, messages[problem]);
  return ok(c, loginUserJson(user));
}

/** `GET /api/user/2fa/status`. */
async function status(c: Ctx): Promise<Response> {
  const user = currentUser(c);
  const enabled = await hasTwoFactor(db(c), user.id);
  return ok(c, {
    enabled,
    recovery_codes_left: enabled ? await recoveryCodesLeft(db(c), user.id) : 0,
    required: await mustEnrol(c, user, enabled),
  });
}

/** `POST /api/user/2fa/setup`: a new secret (not yet enabled); replaces an unconfirmed one. */
async function setup(c: Ctx): Promise<Response> {
  const user = currentUser(c);
  const row = await totpRow(db(c), user.id);
  if (row?.enabled_at != null) return fail(c, say(c, 'twoFactor.error.alreadyEnabled'));
  const secret = newTotpSecret();
  const stored = sealSecret(totpKey(c), user.id, secret);
  const now = nowSeconds(c);
  await db(c)
    .insertInto('oa_user_totp')
    .values({ user_id: user.id, secret: stored, enabled_at: null, created_at: now, last_step: 0 })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret: stored, enabled_at: null, created_at: now, last_step: 0 }))
    .execute();
  const uri = totpOf(secret, await issuer(c), user.username ?? String(user.id)).toString();
  return ok(c, { secret, uri });
}

/** Decodes `{code}` and refuses an empty one; the code or a response. */
async function codeOf(c: Ctx): Promise<string | Response> {
  const body = await decodeBody(c, TwoFactorCodeBody);
  if (E.isLeft(body)) return fail(c, localize(c, 'invalid_parameter'));
  const code = body.right.code.trim();
  return code === '' ? fail(c, say(c, 'twoFactor.error.codeRequired')) : code;
}

/** `POST /api/user/2fa/enable {code}`: confirms the setup; answers the recovery codes once. */
async function enable(c: Ctx): Promise<Response> {
  const user = currentUser(c);
  const code = await codeOf(c);
  if (typeof code !== 'string') return code;
  const row = await totpRow(db(c), user.id);
  if (row === undefined) return fail(c, say(c, 'twoFactor.error.notSetUp'));
  if (row.enabled_at !== null) return fail(c, say(c, 'twoFactor.error.alreadyEnabled'));
  if (!(await acceptTotp(db(c), totpKey(c), user.id, code, nowMs(c)))) return fail(c, say(c, 'twoFactor.error.codeInvalid'));
  const updated = await db(c)
    .updateTable('oa_user_totp')
    .set({ enabled_at: nowSeconds(c) })
    .where('user_id', '=', user.id)
    .where('enabled_at', 'is', null)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) return fail(c, say(c, 'twoFactor.error.alreadyEnabled'));
  return ok(c, { recovery_codes: await replaceRecoveryCodes(db(c), user.id, nowSeconds(c)) });
}

/** `POST /api/user/2fa/disable {code | password}`: a TOTP code, a recovery code or the current password. */
async function disable(c: Ctx): Promise<Response> {
  const user = currentUser(c);
  const body = await decodeBody(c, TwoFactorDisableBody);
  if (E.isLeft(body)) return fail(c, localize(c, 'invalid_parameter'));
  if (!(await hasTwoFactor(db(c), user.id))) return fail(c, say(c, 'twoFactor.error.notEnabled'));
  const code = body.right.code?.trim() ?? '';
  const password = body.right.password ?? '';
  if (code !== '') {
    if (!(await acceptAnyCode(c, user.id, code))) {
      return fail(c, say(c, isTotpCode(code) ? 'twoFactor.error.codeInvalid' : 'twoFactor.error.recoveryInvalid'));
    }
  } else if (password !== '') {
    if (!(await verifyPassword(password, user.password))) return fail(c, say(c, 'twoFactor.error.passwordInvalid'));
  } else {
    return fail(c, say(c, 'twoFactor.error.proofRequired'));
  }
  await removeTwoFactor(db(c), user.id);
  return ok(c);
}

/** `POST /api/user/2fa/recovery-codes {code}`: new recovery codes (the old ones stop working). */
async function regenerate(c: Ctx): Promise<Response> {
  const user = currentUser(c);
  const code = await codeOf(c);
  if (typeof code !== 'string') return code;
  if (!(await hasTwoFactor(db(c), user.id))) return fail(c, say(c, 'twoFactor.error.notEnabled'));
  if (!(await acceptTotp(db(c), totpKey(c), user.id, code, nowMs(c)))) return fail(c, say(c, 'twoFactor.error.codeInvalid'));
  return ok(c, { recovery_codes: await replaceRecoveryCodes(db(c), user.id, nowSeconds(c)) });
}

/** The routes, mounted under /api/user before the account routes. */
export function twoFactorRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/login/2fa', loginSecondStep);
  app.get('/2fa/status', userAuth, status);
  app.post('/2fa/setup', userAuth, setup);
  app.post('/2fa/enable', userAuth, enable);
  app.post('/2fa/disable', userAuth, disable);
  app.post('/2fa/recovery-codes', userAuth, regenerate);
  return app;
}
