import { randomInt } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import { adminTopUpRoutes } from '../routes/adminTopUp';
import { channelRoutes, groupRoutes } from '../routes/channel';
import { logRoutes } from '../routes/log';
import { oauthRoutes } from '../routes/oauth';
import { pricingRoutes } from '../routes/pricing';
import { mailRoutes } from '../routes/mail';
import { optionRoutes } from '../routes/option';
import { redemptionRoutes, topUpRoutes } from '../routes/redemption';
import { statusRoutes } from '../routes/status';
import { tokenRoutes } from '../routes/token';
import { twoFactorRoutes } from '../routes/twoFactor';
import { userRoutes } from '../routes/user';
import { crossSiteGuard } from './csrf';
import { fail, invalidUrl } from './envelope';
import { ruleText } from './ruleText';
import { requestIdHeader, type ApiDeps, type AppEnv, type ResolvedDeps } from './env';
import { createRateLimiters, criticalRoutes, type RateLimitStore } from './rateLimit';
import { turnstileCheck, turnstileRoutes } from './turnstile';
import { limitBody } from './validate';

/**
 * The management API (contract §2): every route under /api, one-api's envelope and status
 * policy, `X-Oneapi-Request-Id` on every answer, gzip when asked, both trailing-slash forms
 * accepted, unknown /api paths → OpenAI-style 404. Route modules are mounted in `mountRoutes`;
 * add new ones there (they must come before the /api catch-all).
 */

export type { ApiDeps, AppEnv } from './env';

/** Two-digit zero padding. */
const pad2 = (n: number): string => String(n).padStart(2, '0');

/** one-api's request id: local `YYYYMMDDhhmmss`, nanoseconds within the second (unpadded), 8 random digits. */
export function newRequestId(epochMs: number = performance.timeOrigin + performance.now()): string {
  const d = new Date(epochMs);
  const stamp = `${d.getFullYear()}${pad2(d.getMonth() + 1)}${pad2(d.getDate())}${pad2(d.getHours())}${pad2(d.getMinutes())}${pad2(d.getSeconds())}`;
  const nanos = Math.floor((epochMs % 1000) * 1e6);
  return `${stamp}${nanos}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

/** Fills in the defaults of `deps` (clock = `Date.now`, start time = now). */
export function resolveDeps(deps: ApiDeps): ResolvedDeps {
  const now = deps.now ?? Date.now;
  return { ...deps, now, startTime: Math.floor(now() / 1000) };
}

/** Sets the request id (header and context) and the dependencies on every request; usable on any Hono app. */
export function provideDeps(deps: ResolvedDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const requestId = newRequestId();
    c.set('requestId', requestId);
    c.set('deps', deps);
    c.header(requestIdHeader, requestId);
    await next();
  };
}

/** Mounts every route module under /api. */
function mountRoutes(app: Hono<AppEnv>): void {
  app.route('/api', statusRoutes());
  app.route('/api', mailRoutes());
  // /api/user/topup (redeem a code) before the account routes' /api/user/:id
  app.route('/api/user', topUpRoutes());
  app.route('/api/user', twoFactorRoutes());
  app.route('/api/user', userRoutes());
  app.route('/api/token', tokenRoutes());
  app.route('/api/redemption', redemptionRoutes());
  app.route('/api/channel', channelRoutes());
  app.route('/api/group', groupRoutes());
  app.route('/api/log', logRoutes());
  app.route('/api/option', optionRoutes());
  app.route('/api/topup', adminTopUpRoutes());
  app.route('/api/oauth', oauthRoutes());
  app.route('/api/pricing', pricingRoutes());
}

/** Builds the /api application. */
export function createApi(deps: ApiDeps, rateLimitStore?: RateLimitStore): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  const resolved = resolveDeps(deps);
  const limits = createRateLimiters(deps.config, rateLimitStore, resolved.now);
  app.use('/api/*', provideDeps(resolved), compress(), limits.globalApi, limitBody());
  app.use('/api/*', crossSiteGuard());
  for (const [method, path] of criticalRoutes) app.on(method, path, limits.critical);
  for (const [method, path] of turnstileRoutes) app.on(method, path, turnstileCheck);
  mountRoutes(app);
  app.all('/api/*', (c) => invalidUrl(c));
  app.all('/api', (c) => invalidUrl(c));
  // An unexpected error (a driver's or SQL text, a bug) is logged with the request id; the caller
  // gets a generic message in its language with that id, never the error's own text.
  app.onError((error, c) => {
    const requestId = c.get('requestId') ?? '';
    console.error(`[api] ${requestId} ${c.req.method} ${c.req.path}:`, error);
    return fail(c, ruleText(c, 'rules.internal', { requestId }));
  });
  return app;
}
