import type { Context, MiddlewareHandler } from 'hono';
import { roleAdmin, roleCommon, roleRoot, userStatusActivated } from '../../src/domain/constants';
import type { UserRow } from '../db/schema';
import { twoFactorRequiredOption } from '../../src/domain/twoFactor';
import { twoFactor as en } from '../../src/i18n/en/twoFactor';
import { twoFactor as zh } from '../../src/i18n/zh/twoFactor';
import { readOptions } from '../services/options';
import { hasTwoFactor } from '../services/twoFactor';
import { findUserByAccessToken, findUserById } from '../services/users';
import { fail, messages } from './envelope';
import type { AppEnv } from './env';
import { requestLang } from './ruleText';
import { endSession, readSession } from './session';

/**
 * The /api guards of contract §1.4: a session cookie or an `Authorization` access token, then
 * status and role checks. Unlike one-api (whose cookie carries role and status from login
 * time), the user row is read on every request, so disabling, deleting or demoting a user
 * takes effect on the next request. The messages and status codes are one-api's:
 * only "no session and no header" is HTTP 401, everything else is 200 + `success:false`.
 */

type Ctx = Context<AppEnv>;

/** How the caller was identified, or why not. */
type Identity =
  | { readonly kind: 'user'; readonly user: UserRow; readonly via: 'session' | 'token' }
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'invalid_token' };

/** The access token of an `Authorization` header: the first `Bearer ` is removed, as one-api does. */
export const accessTokenOf = (header: string): string => header.replace('Bearer ', '');

/** The session's user; a session whose user row is gone is ended and ignored. */
async function sessionUser(c: Ctx): Promise<UserRow | null> {
  const session = await readSession(c);
  if (session === null || session.user_id === 0) return null; // user_id 0: anonymous OAuth-state session
  const user = await findUserById(c.get('deps').db, session.user_id);
  if (user !== undefined) return user;
  await endSession(c);
  return null;
}

/** Identifies the caller: the session first (the header is then ignored), else the access token. */
async function identify(c: Ctx): Promise<Identity> {
  const fromSession = await sessionUser(c);
  if (fromSession !== null) return { kind: 'user', user: fromSession, via: 'session' };
  const header = c.req.header('Authorization') ?? '';
  if (header === '') return { kind: 'anonymous' };
  const user = await findUserByAccessToken(c.get('deps').db, accessTokenOf(header));
  return user === undefined ? { kind: 'invalid_token' } : { kind: 'user', user, via: 'token' };
}

/**
 * TwoFactorRequiredForAdmins, enforced: while the option is on, an admin or root without two-factor
 * sign-in is refused (HTTP 403, a message naming the enrolment) by every guard that asks for the
 * admin or root role, however they authenticated (session or access token, so the token is no way
 * around it). The user-level routes stay open to them: their own account (`/api/user/self`,
 * logout), the two-factor enrolment (`/api/user/2fa/*`), the status and the rest of what any
 * signed-in user may do, which is how they enrol. The rule sits in the role guard because that is
 * the single place every admin route passes, so no admin route can be forgotten. Null when allowed.
 */
async function enrolmentMissing(c: Ctx, user: UserRow, minRole: number): Promise<Response | null> {
  if (minRole < roleAdmin) return null;
  const { db } = c.get('deps');
  if (!(await readOptions(db, [twoFactorRequiredOption])).bool(twoFactorRequiredOption)) return null;
  if (await hasTwoFactor(db, user.id)) return null;
  return fail(c, (requestLang(c) === 'zh' ? zh : en)['twoFactor.error.enrolmentRequired'], 403);
}

/** A guard admitting enabled users whose role is at least `minRole`. */
export function requireRole(minRole: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const identity = await identify(c);
    if (identity.kind === 'anonymous') return fail(c, messages.notLoggedIn, 401);
    if (identity.kind === 'invalid_token') return fail(c, messages.invalidAccessToken);
    const { user, via } = identity;
    if (user.status !== userStatusActivated) {
      await endSession(c);
      return fail(c, messages.banned);
    }
    if (user.role < minRole) return fail(c, messages.forbidden);
    const refused = await enrolmentMissing(c, user, minRole);
    if (refused !== null) return refused;
    c.set('user', user);
    c.set('authVia', via);
    await next();
  };
}

/** Guard `User`: any enabled user (role ≥ 1). */
export const userAuth = requireRole(roleCommon);
/** Guard `Admin`: role ≥ 10. */
export const adminAuth = requireRole(roleAdmin);
/** Guard `Root`: role ≥ 100. */
export const rootAuth = requireRole(roleRoot);

/** The user a guard admitted (only valid behind userAuth/adminAuth/rootAuth). */
export const currentUser = (c: Ctx): UserRow => c.get('user');
