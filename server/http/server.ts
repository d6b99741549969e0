import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { except } from 'hono/combine';
import { createApi, type ApiDeps } from './api';
import { consoleRoutes } from './console';
import { createRateLimiters, createRateLimitStore } from './rateLimit';

/**
 * The whole gateway on one port: /api (and later the /v1 relay), then the built console when
 * `distDir` holds one (an API-only server otherwise). API and console share one rate-limit
 * store (memory, or Redis with REDIS_CONN_STRING); the console's pages count against the global web
 * limit, its hashed /assets/ files do not.
 */
export function createServerApp(deps: ApiDeps, distDir: string | null): Hono {
  const store = createRateLimitStore(deps.config);
  // Not strict, like the /api app it mounts: `/api/token/` and `/api/token` are one route.
  const app = new Hono({ strict: false });
  app.route('/', createApi(deps, store));
  if (distDir !== null && existsSync(join(distDir, 'index.html'))) {
    const web = new Hono();
    const limitWeb = createRateLimiters(deps.config, store, deps.now).globalWeb;
    // Hashed, immutable build files do not count: a first visit loads dozens of chunks, and
    // counting them (as one-api counts every file) locks real browsers out after a few pages.
    web.use('*', except('/assets/*', limitWeb));
    web.route('/', consoleRoutes(distDir));
    app.route('/', web);
  }
  return app;
}
