import type { Context, MiddlewareHandler } from 'hono';
import { getSignedCookie, setSignedCookie } from 'hono/cookie';
import { readOptions } from '../services/options';
import { fail } from './envelope';
import { ruleText } from './ruleText';
import type { AppEnv } from './env';
import { requestIp } from './clientIp';
import { isHttps, sessionMaxAgeSeconds } from './session';

/**
 * The Cloudflare Turnstile check of contract §1.7, in front of the routes marked "TS" in §2.0
 * (after the critical rate limiter, before the handler). Only when option
 * TurnstileCheckEnabled is `true`: the `?turnstile=` token is verified by POSTing the form
 * fields `secret`, `response`, `remoteip` to the siteverify URL (`config.turnstileVerifyUrl`).
 * A success is remembered for the browser, as one-api marks its session, so a multi-step flow
 * (e-mail code, then register) needs one check: here the mark is a signed cookie
 * `turnstile` holding its expiry, kept as long as a login session (one-api's session cookie
 * lifetime), since our session cookie only carries an id.
 */

type Ctx = Context<AppEnv>;

/** The messages of the check (contract Appendix A). */
export const turnstileMessages = {
  empty: 'Turnstile token 为空',
  failed: 'Turnstile 校验失败，请刷新重试！',
} as const;

/** The routes one-api guards with the Turnstile check (contract §2.0 "TS"), by method. */
export const turnstileRoutes: readonly (readonly [method: 'GET' | 'POST', path: string])[] = [
  ['POST', '/api/user/register'],
  ['GET', '/api/verification'],
  ['GET', '/api/reset_password'],
];

/** Name of the cookie remembering a passed check. */
export const turnstileCookieName = 'turnstile';

/** How long a passed check is remembered (seconds): one-api's session lifetime. */
export const turnstilePassSeconds = sessionMaxAgeSeconds;

/** How long the siteverify call may take (ms). */
const verifyTimeoutMs = 5000;

/** Current time in Unix seconds from the injected clock. */
const nowSeconds = (c: Ctx): number => Math.floor(c.get('deps').now() / 1000);

/** Whether the request carries a correctly signed, unexpired pass. */
async function hasPass(c: Ctx): Promise<boolean> {
  const value = await getSignedCookie(c, c.get('deps').config.sessionSecret, turnstileCookieName);
  return typeof value === 'string' && /^\d{1,15}$/.test(value) && Number(value) > nowSeconds(c);
}

/** Remembers a passed check in the browser. */
async function grantPass(c: Ctx): Promise<void> {
  const expires = nowSeconds(c) + turnstilePassSeconds;
  await setSignedCookie(c, turnstileCookieName, String(expires), c.get('deps').config.sessionSecret, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c),
    maxAge: turnstilePassSeconds,
  });
}

/** The text of a failed call, as Go prints a client error: `Post "<url>": <cause>`. */
function callError(url: string, error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return `Post "${url}": ${cause instanceof Error ? cause.message : String(cause)}`;
}

/**
 * Asks siteverify at `url` about `response`: null when Cloudflare says `success: true`, else
 * the message to answer (verification failure, or the raw text of a network or JSON error).
 */
export async function verifyTurnstile(url: string, form: { secret: string; response: string; remoteip: string }): Promise<string | null> {
  let reply: Response;
  try {
    reply = await fetch(url, { method: 'POST', body: new URLSearchParams(form), signal: AbortSignal.timeout(verifyTimeoutMs) });
  } catch (error) {
    return callError(url, error);
  }
  let result: unknown;
  try {
    result = JSON.parse(await reply.text());
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const success = typeof result === 'object' && result !== null && (result as { success?: unknown }).success === true;
  return success ? null : turnstileMessages.failed;
}

/**
 * What the (anonymous) caller hears when siteverify could not be asked or answered nonsense: a
 * generic message with the request id; the network or JSON error goes to the log. (one-api
 * answers that error's text, which names the verify URL and the network's answer.)
 */
function unreachable(c: Ctx, detail: string): string {
  const requestId = c.get('requestId');
  console.error(`[turnstile] ${requestId} ${c.req.method} ${c.req.path}: ${detail}`);
  return ruleText(c, 'rules.turnstile.unavailable', { requestId });
}

/** The check as a middleware: a pass-through unless TurnstileCheckEnabled is `true`. */
export const turnstileCheck: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { db, config } = c.get('deps');
  const options = await readOptions(db, ['TurnstileCheckEnabled', 'TurnstileSecretKey']);
  if (options.bool('TurnstileCheckEnabled') && !(await hasPass(c))) {
    const response = c.req.query('turnstile') ?? '';
    if (response === '') return fail(c, turnstileMessages.empty);
    const remoteip = requestIp(c, config);
    const refusal = await verifyTurnstile(config.turnstileVerifyUrl, { secret: options.str('TurnstileSecretKey'), response, remoteip });
    if (refusal !== null) return fail(c, refusal === turnstileMessages.failed ? refusal : unreachable(c, refusal));
    await grantPass(c);
  }
  await next();
};
