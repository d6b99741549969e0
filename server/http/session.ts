import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { Kysely } from 'kysely';
import type { Database, SessionRow } from '../db/schema';
import { fromTrustedProxy } from './clientIp';
import type { AppEnv } from './env';

/**
 * Server-side login sessions. The browser holds only a random session id in the cookie
 * `session` (HMAC-signed with SESSION_SECRET, HttpOnly, SameSite=Lax, Secure over HTTPS);
 * the `sessions` table holds the rest, so sessions survive restarts and a logout really ends
 * the session. The user row itself is re-read by the guards on every request.
 */

export const sessionCookieName = 'session';
/** Session lifetime, as one-api's cookie Max-Age (30 days). */
export const sessionMaxAgeSeconds = 2_592_000;
/** `last_seen_at` is written at most this often (seconds). */
const touchIntervalSeconds = 60;
const sessionIdPattern = /^[0-9a-f]{64}$/;

type Ctx = Context<AppEnv>;

/** A new random session id: 32 bytes, hex. */
export const newSessionId = (): string => randomBytes(32).toString('hex');

/** Current time in Unix seconds from the injected clock. */
const nowSeconds = (c: Ctx): number => Math.floor(c.get('deps').now() / 1000);

/**
 * Whether the request came over HTTPS: directly, or per `X-Forwarded-Proto` when the peer is a
 * trusted proxy (`TRUSTED_PROXIES`); any other client's header is ignored.
 */
export function isHttps(c: Context<AppEnv>): boolean {
  const forwarded = fromTrustedProxy(c, c.get('deps').config)
    ? c.req.header('X-Forwarded-Proto')?.split(',')[0]?.trim().toLowerCase()
    : undefined;
  if (forwarded !== undefined && forwarded !== '') return forwarded === 'https';
  return new URL(c.req.url).protocol === 'https:';
}

/** The cookie attributes for this request. */
const cookieOptions = (c: Context<AppEnv>, maxAge: number): CookieOptions => ({
  path: '/',
  httpOnly: true,
  sameSite: 'Lax',
  secure: isHttps(c),
  maxAge,
});

/** The session id carried by a correctly signed cookie, or null. */
export async function cookieSessionId(c: Ctx): Promise<string | null> {
  const value = await getSignedCookie(c, c.get('deps').config.sessionSecret, sessionCookieName);
  return typeof value === 'string' && sessionIdPattern.test(value) ? value : null;
}

/** The live session of this request (valid signature, row present, not expired), or null. */
export async function readSession(c: Ctx): Promise<SessionRow | null> {
  const id = await cookieSessionId(c);
  if (id === null) return null;
  const { db } = c.get('deps');
  const now = nowSeconds(c);
  const row = await db.selectFrom('sessions').selectAll().where('id', '=', id).where('expires_at', '>', now).executeTakeFirst();
  if (row === undefined) return null;
  if (now - row.last_seen_at >= touchIntervalSeconds) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
  }
  return row;
}

/** Starts a session for `userId` (ending any session the request already had) and sets the cookie. */
export async function startSession(c: Ctx, userId: number): Promise<string> {
  const { db, config } = c.get('deps');
  const now = nowSeconds(c);
  const previous = await cookieSessionId(c);
  const id = newSessionId();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sessions').where('expires_at', '<=', now).execute();
    if (previous !== null) await trx.deleteFrom('sessions').where('id', '=', previous).execute();
    await trx
      .insertInto('sessions')
      .values({ id, user_id: userId, created_at: now, expires_at: now + sessionMaxAgeSeconds, last_seen_at: now })
      .execute();
  });
  await setSignedCookie(c, sessionCookieName, id, config.sessionSecret, cookieOptions(c, sessionMaxAgeSeconds));
  return id;
}

/** Ends the request's session, if any, and clears the cookie. */
export async function endSession(c: Ctx): Promise<void> {
  const id = await cookieSessionId(c);
  if (id !== null) await c.get('deps').db.deleteFrom('sessions').where('id', '=', id).execute();
  deleteCookie(c, sessionCookieName, cookieOptions(c, 0));
}

/**
 * Ends every session of `userId` (e.g. when an admin disables or deletes the user), except the
 * session `keepId` when given (the one that changed the user's own password).
 */
export async function endUserSessions(db: Kysely<Database>, userId: number, keepId: string | null = null): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId !== null) query = query.where('id', '!=', keepId);
  await query.execute();
}
