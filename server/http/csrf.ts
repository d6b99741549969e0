import { isIP } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Config } from '../config';
import { readOptions } from '../services/options';
import { proxyTrust, socketAddress, type ProxyTrust } from './clientIp';
import { trimTrailingSlashes } from './bodyGuard';
import { fail, requestLanguage } from './envelope';
import { normaliseOrigin } from './origin';
import type { AppEnv } from './env';
import { sessionCookieName } from './session';

export { normaliseOrigin } from './origin';

/**
 * Cross-site request refusal for /api (not in one-api, whose session cookie let any page that the
 * signed-in person visits act as them: bind its own e-mail, regenerate the access token, promote
 * users). A request is *foreign* when the browser says so:
 *
 * - `Sec-Fetch-Site` present (every current browser sends it to HTTPS and loopback origins) and
 *   neither `same-origin` nor `none` (an address typed or bookmarked); the browser computes it, a
 *   page cannot forge it, so `same-origin` is believed even when a proxy rewrote `Host`;
 * - otherwise `Origin` present and `null`, or naming a host other than the one the request was sent
 *   to (`Host`, or `X-Forwarded-Host` from a `TRUSTED_PROXIES` peer; the scheme is not compared, as
 *   TLS is often ended by the proxy);
 * - an `Origin` listed in `TRUSTED_ORIGINS`, or equal to the `ServerAddress` option's origin, is
 *   never foreign.
 *
 * Foreign requests are refused on every /api route (HTTP 403, one-api's envelope, the message in
 * the caller's language) with two exceptions: requests that carry no session cookie and an
 * `Authorization` header (access-token scripts: a page cannot make the browser add that header
 * without a CORS preflight, which /api only grants to trusted origins), and the routes of
 * `crossSiteAllowlist`. Anonymous foreign requests are refused too: they are how a page would sign
 * a visitor in as the attacker (login CSRF through `POST /api/user/login` or the state-less
 * `GET /api/oauth/wechat`) or mail codes from the visitor's address.
 *
 * Browsers send `Sec-Fetch-Site` only to HTTPS and loopback addresses; over plain HTTP (a gateway
 * reached at `http://<server address>`) a cross-site top-level navigation or `<img>` carries
 * neither header, and the Lax cookie goes with the navigation. So the GET routes that change
 * state (`stateChangingGets`) also need a positive sign when `Sec-Fetch-Site` is absent: an
 * `Origin` or `Referer` of the gateway's own (or a trusted) origin, which the console's own
 * requests carry. Keep that list in step with the routes.
 *
 * A same-origin (or trusted) request that carries the session cookie and a body on a method that
 * may change state must declare it as JSON (`Content-Type: application/json`, any parameters):
 * the handlers parse their bodies as JSON whatever the declared type, and `text/plain` is what a
 * plain HTML form or a `no-cors` fetch can send without asking. Otherwise HTTP 415.
 *
 * 403 is the contract's status for the one cross-site check one-api has (the OAuth `state`), and
 * no client or proxy can take it for a request that was carried out; 415 names the fault at the
 * HTTP level, as the relay does for the same fault. Both bodies are the usual envelope.
 *
 * `TRUSTED_ORIGINS` also get CORS on /api (their exact origin, with credentials, preflights
 * answered), so a console built with `VITE_SERVER_ADDRESS` and served from such an origin works.
 * Its origin must be same-site with the gateway (another port or a sibling subdomain): the session
 * cookie is `SameSite=Lax`, so a browser never sends it to the gateway from another site.
 */

type Ctx = Context<AppEnv>;

/**
 * GET routes that answer foreign requests: the OAuth provider callbacks. A provider may send the
 * browser straight to them (a cross-site top-level navigation), and they do nothing unless the
 * `state` query parameter equals the one stored in the caller's own session, which no other
 * site can read.
 */
export const crossSiteAllowlist: ReadonlySet<string> = new Set(['/api/oauth/github', '/api/oauth/lark', '/api/oauth/oidc']);

/**
 * GET routes that change state (or sign someone in, or send mail): over plain HTTP, without
 * `Sec-Fetch-Site`, they need an own `Origin` or `Referer`. Patterns of the paths without the
 * trailing slash.
 */
export const stateChangingGets: readonly RegExp[] = [
  /^\/api\/oauth\/email\/bind$/,
  /^\/api\/oauth\/wechat(\/bind)?$/,
  /^\/api\/oauth\/state$/,
  /^\/api\/user\/(token|logout)$/,
  /^\/api\/channel\/(test|update_balance)(\/[^/]+)?$/,
  /^\/api\/(verification|reset_password)$/,
];

/** Methods without a request body here (the content-type rule does not apply to them; the origin rule does). */
const readMethods: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/** What the decision needs from a request (headers as sent; absent = undefined). */
export interface RequestFacts {
  readonly method: string;
  readonly path: string;
  readonly secFetchSite: string | undefined;
  readonly origin: string | undefined;
  readonly referer: string | undefined;
  /** The hosts this request was addressed to: `Host`, and `X-Forwarded-Host` when a trusted proxy sent it. */
  readonly ownHosts: readonly string[];
  readonly hasSessionCookie: boolean;
  readonly hasAuthorization: boolean;
  readonly contentType: string | undefined;
  readonly hasBody: boolean;
}

export type Verdict =
  | { readonly kind: 'allow' }
  /** `from`: the Origin, else the Sec-Fetch-Site value. */
  | { readonly kind: 'foreign'; readonly from: string }
  | { readonly kind: 'not_json'; readonly contentType: string };

/** Whether `origin` (normalised) names `host` (a Host header value), the origin's default port implied. */
function namesHost(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return new URL(`${url.protocol}//${host.trim()}`).host === url.host;
  } catch {
    return false;
  }
}

/** Whether the request is foreign (see the module comment). */
function isForeign(facts: RequestFacts, trusted: ReadonlySet<string>): boolean {
  const origin = facts.origin === undefined ? undefined : normaliseOrigin(facts.origin);
  if (origin !== undefined && origin !== null && trusted.has(origin)) return false;
  const site = facts.secFetchSite?.trim().toLowerCase();
  if (site !== undefined && site !== '') return site !== 'same-origin' && site !== 'none';
  if (origin === undefined) return false; // not a browser, or one that sends neither header
  if (origin === null) return true; // `Origin: null` (sandboxed frames, data: URLs, cross-site redirects) or garbage
  return !facts.ownHosts.some((host) => namesHost(origin, host));
}

/** The origin of a Referer value, or null. */
export function refererOrigin(referer: string): string | null {
  try {
    const url = new URL(referer);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** Whether the browser said, or an Origin / Referer shows, that the request comes from an own or trusted page. */
function provesOwnPage(facts: RequestFacts, trusted: ReadonlySet<string>): boolean {
  const site = facts.secFetchSite?.trim().toLowerCase();
  if (site === 'same-origin' || site === 'none') return true;
  const candidates = [facts.origin === undefined ? null : normaliseOrigin(facts.origin), facts.referer === undefined ? null : refererOrigin(facts.referer)];
  return candidates.some((origin) => origin !== null && (trusted.has(origin) || facts.ownHosts.some((host) => namesHost(origin, host))));
}

/** The media type of a Content-Type value, lower-cased, without parameters. */
const mediaType = (contentType: string): string => contentType.split(';')[0]!.trim().toLowerCase();

/** The decision for one request; `trusted` holds normalised origins. */
export function judgeRequest(facts: RequestFacts, trusted: ReadonlySet<string>): Verdict {
  const method = facts.method.toUpperCase();
  if (method === 'OPTIONS') return { kind: 'allow' }; // preflights change nothing; trusted ones are answered by the guard
  const path = facts.path.length > 1 ? trimTrailingSlashes(facts.path) : facts.path;
  if (readMethods.has(method) && crossSiteAllowlist.has(path)) return { kind: 'allow' };
  if (!facts.hasSessionCookie && facts.hasAuthorization) return { kind: 'allow' };
  if (isForeign(facts, trusted)) return { kind: 'foreign', from: facts.origin ?? facts.secFetchSite ?? '' };
  if (readMethods.has(method) && stateChangingGets.some((pattern) => pattern.test(path)) && !provesOwnPage(facts, trusted)) {
    return { kind: 'foreign', from: facts.referer === undefined ? '' : (refererOrigin(facts.referer) ?? '') };
  }
  if (facts.hasSessionCookie && !readMethods.has(method) && facts.hasBody) {
    const type = facts.contentType ?? '';
    if (mediaType(type) !== 'application/json') return { kind: 'not_json', contentType: type };
  }
  return { kind: 'allow' };
}

// ---------------------------------------------------------------------------------------------
// Messages

/** English when the caller prefers another language than Chinese (see `requestLanguage`). */
const inEnglish = (c: Context): boolean => requestLanguage(c) === 'en';

/** At most 100 printable characters of a header value, for a message. */
const shown = (value: string): string => value.replace(/[^\x20-\x7e]/g, '?').slice(0, 100);

/** The refusal text of a foreign request. */
export function foreignMessage(c: Context, from: string): string {
  const origin = from === '' || /^(cross-site|same-site)$/i.test(from) ? '' : shown(from);
  if (inEnglish(c)) {
    const where = origin === '' ? 'another site' : `another site (${origin})`;
    return `Request refused: it came from ${where}, not from this site's console. Open the console on this site and try again; if the console is served from that origin, the administrator can add it to TRUSTED_ORIGINS.`;
  }
  const where = origin === '' ? '其他网站' : `其他网站（${origin}）`;
  return `请求已拒绝：该请求来自${where}，而非本站的控制台。请在本站的控制台中重试；若控制台部署在该地址，请管理员将其加入 TRUSTED_ORIGINS。`;
}

/** The refusal text of a cookie-authenticated body that is not declared as JSON. */
export function notJsonMessage(c: Context, contentType: string): string {
  const type = contentType === '' ? '' : shown(mediaType(contentType));
  if (inEnglish(c)) {
    return `Request refused: the body must be JSON, sent with Content-Type: application/json (got ${type === '' ? 'no content type' : type}).`;
  }
  return `请求已拒绝：请求体必须是 JSON，并带有 Content-Type: application/json（收到的是 ${type === '' ? '无内容类型' : type}）。`;
}

// ---------------------------------------------------------------------------------------------
// Middleware

/** The trust test and the trusted-origin set of each configuration, built once. */
const prepared = new WeakMap<Config, { readonly proxies: ProxyTrust; readonly origins: ReadonlySet<string> }>();

function preparedFor(config: Config) {
  let entry = prepared.get(config);
  if (entry === undefined) {
    entry = { proxies: proxyTrust(config.trustedProxies), origins: new Set(config.trustedOrigins) };
    prepared.set(config, entry);
  }
  return entry;
}

/** The socket peer, IPv4-mapped IPv6 written as IPv4. */
const peerAddress = (c: Context): string => {
  const remote = socketAddress(c);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(remote);
  return mapped?.[1] ?? remote;
};

/** The facts of the request in `c`. */
function factsOf(c: Ctx, proxies: ProxyTrust): RequestFacts {
  const header = (name: string): string | undefined => c.req.header(name);
  const ownHosts: string[] = [];
  const host = header('Host');
  if (host !== undefined && host !== '') ownHosts.push(host);
  const forwarded = header('X-Forwarded-Host')?.split(',')[0]?.trim();
  const peer = peerAddress(c);
  if (forwarded !== undefined && forwarded !== '' && isIP(peer) !== 0 && proxies(peer)) ownHosts.push(forwarded);
  const length = header('Content-Length');
  return {
    method: c.req.method,
    path: c.req.path,
    secFetchSite: header('Sec-Fetch-Site'),
    origin: header('Origin'),
    referer: header('Referer') === '' ? undefined : header('Referer'),
    ownHosts,
    hasSessionCookie: getCookie(c, sessionCookieName) !== undefined,
    hasAuthorization: (header('Authorization') ?? '') !== '',
    contentType: header('Content-Type'),
    hasBody: (length !== undefined && length.trim() !== '0') || header('Transfer-Encoding') !== undefined,
  };
}

/** The `ServerAddress` option's origin, or null when unset or not an origin. */
async function serverAddressOrigin(c: Ctx): Promise<string | null> {
  const options = await readOptions(c.get('deps').db, ['ServerAddress']);
  const address = options.str('ServerAddress').trim();
  if (address === '') return null;
  try {
    return normaliseOrigin(new URL(address).origin);
  } catch {
    return null;
  }
}

/** CORS headers for a `TRUSTED_ORIGINS` caller (its own origin, with credentials). */
function allowOrigin(headers: Headers, origin: string): void {
  headers.set('Access-Control-Allow-Origin', origin);
  headers.set('Access-Control-Allow-Credentials', 'true');
  headers.set('Access-Control-Expose-Headers', 'Content-Disposition, X-Oneapi-Request-Id');
  headers.append('Vary', 'Origin');
}

/** The /api cross-site guard (see the module comment); mount it on `/api/*` before the routes. */
export function crossSiteGuard(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { config } = c.get('deps');
    const { proxies, origins } = preparedFor(config);
    const rawOrigin = c.req.header('Origin');
    const trustedCaller = rawOrigin === undefined ? null : normaliseOrigin(rawOrigin);
    const corsOrigin = trustedCaller !== null && origins.has(trustedCaller) ? trustedCaller : null;

    if (c.req.method === 'OPTIONS' && corsOrigin !== null && c.req.header('Access-Control-Request-Method') !== undefined) {
      const answer = c.body(null, 204);
      allowOrigin(answer.headers, corsOrigin);
      answer.headers.set('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE');
      answer.headers.set('Access-Control-Allow-Headers', c.req.header('Access-Control-Request-Headers') ?? 'Content-Type');
      answer.headers.set('Access-Control-Max-Age', '600');
      return answer;
    }

    const facts = factsOf(c, proxies);
    let verdict = judgeRequest(facts, origins);
    const caller = trustedCaller ?? (facts.referer === undefined ? null : refererOrigin(facts.referer));
    if (verdict.kind === 'foreign' && caller !== null) {
      const own = await serverAddressOrigin(c);
      if (own !== null && own === caller) verdict = judgeRequest(facts, new Set([...origins, own]));
    }
    if (verdict.kind === 'foreign') return fail(c, foreignMessage(c, verdict.from), 403);
    if (verdict.kind === 'not_json') {
      const refusal = fail(c, notJsonMessage(c, verdict.contentType), 415);
      if (corsOrigin !== null) allowOrigin(refusal.headers, corsOrigin);
      return refusal;
    }
    await next();
    if (corsOrigin !== null) allowOrigin(c.res.headers, corsOrigin);
  };
}

/**
 * The console's pages may be framed by the gateway's own origin only (`X-Frame-Options`, and CSP
 * `frame-ancestors` for current browsers): a sibling origin gets the Lax session cookie inside a
 * frame, and could otherwise overlay the signed-in console to trick clicks (clickjacking).
 */
export function frameGuard(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.res.headers.set('X-Frame-Options', 'SAMEORIGIN');
    c.res.headers.set('Content-Security-Policy', "frame-ancestors 'self'");
  };
}
