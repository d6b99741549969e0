import type { Context } from 'hono';
import { newAccessToken } from '../db/bootstrap';
import type { AppEnv } from '../http/env';
import { cookieSessionId, endSession, endUserSessions, startSession } from '../http/session';

/**
 * What a password change does to the account's other credentials. A changed or reset password is
 * how a user takes an account back from whoever learnt the old one, so every credential that the
 * old password could have produced ends: every login session and the access token (a session
 * thief can mint one with `GET /api/user/token`, and it outlives the sessions). Only the
 * credential that made the change survives when the user changed their own password: the session
 * it came with, or the access token it used (then every session ends and the token stays).
 *
 * Call it after the new password is committed: a login that checked the old password and
 * commits its session later is caught by `sessionStillValid` (the login re-reads the hash), and
 * one that committed earlier is deleted here.
 */

type Ctx = Context<AppEnv>;

/** Ends the sessions and the access token of `userId` after its password changed, keeping the caller's own credential. */
export async function revokeOtherCredentials(c: Ctx, userId: number): Promise<void> {
  const { db } = c.get('deps');
  const own = c.get('user')?.id === userId;
  const via = own ? c.get('authVia') : undefined;
  const keepSession = via === 'session' ? await cookieSessionId(c) : null;
  if (via !== 'token') await db.updateTable('users').set({ access_token: newAccessToken() }).where('id', '=', userId).execute();
  await endUserSessions(db, userId, keepSession);
}

/**
 * After a login committed its session for `userId` having checked the password hash `checkedHash`:
 * whether that hash is still the user's. When it is not (the password changed meanwhile), the
 * session is ended and the login must fail.
 */
export async function sessionStillValid(c: Ctx, userId: number, checkedHash: string, sessionId: string): Promise<boolean> {
  const { db } = c.get('deps');
  const row = await db.selectFrom('users').select('password').where('id', '=', userId).executeTakeFirst();
  if (row !== undefined && row.password === checkedHash) return true;
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  return false;
}

/**
 * Starts the login session of a user whose password hash `checkedHash` was just checked. Null when
 * signed in; otherwise which login message to answer: the password changed meanwhile (the session
 * is ended again), or the session could not be stored.
 */
export async function startCheckedSession(c: Ctx, userId: number, checkedHash: string): Promise<'loginFailed' | 'sessionSaveFailed' | null> {
  try {
    const sessionId = await startSession(c, userId);
    if (await sessionStillValid(c, userId, checkedHash, sessionId)) return null;
    await endSession(c);
    return 'loginFailed';
  } catch {
    return 'sessionSaveFailed';
  }
}
