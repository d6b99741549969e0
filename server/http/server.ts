import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { except } from 'hono/combine';
import { relayRoutes } from '../relay/routes';
import { createApi, provideDeps, resolveDeps, type ApiDeps } from './api';
import { consoleRoutes } from './console';
import { frameGuard } from './csrf';
import { createRateLimiters, createRateLimitStore, type RateLimitStore } from './rateLimit';

/**
 * The whole gateway on one port: /api, the /v1 relay (and the billing endpoints under
 * /dashboard/billing), then the built console when
 * `distDir` holds one (an API-only server otherwise). API and console share one rate-limit
 * store (memory, or Redis with REDIS_CONN_STRING); the console's pages count against the global web
 * limit, its hashed /assets/ files do not.
 */
export function createServerApp(deps: ApiDeps, distDir: string | null, store: RateLimitStore = createRateLimitStore(deps.config)): Hono {
  const resolved = resolveDeps(deps);
  // Not strict, like the /api app it mounts: `/api/token/` and `/api/token` are one route.
  const app = new Hono({ strict: false });
  app.route('/', createApi(resolved, store));
  // The relay gets the same deps, request id and `X-Oneapi-Request-Id` as /api (only on its own paths).
  for (const path of ['/v1', '/v1/*', '/dashboard/billing/*']) app.use(path, provideDeps(resolved));
  app.route('/', relayRoutes());
  if (distDir !== null && existsSync(join(distDir, 'index.html'))) {
    const web = new Hono();
    const limitWeb = createRateLimiters(deps.config, store, deps.now).globalWeb;
    // Hashed, immutable build files do not count: a first visit loads dozens of chunks, and
    // counting them (as one-api counts every file) locks real browsers out after a few pages.
    web.use('*', except('/assets/*', limitWeb));
    web.use('*', frameGuard());
    web.route('/', consoleRoutes(distDir));
    app.route('/', web);
  }
  return app;
}
