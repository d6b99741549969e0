import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { createApi, type ApiDeps } from './api';
import { consoleRoutes } from './console';
import { createRateLimiters, createRateLimitStore } from './rateLimit';

/**
 * The whole gateway on one port: /api (and later the /v1 relay), then the built console when
 * `distDir` holds one (an API-only server otherwise). API and console share one rate-limit
 * store (memory, or Redis with REDIS_CONN_STRING); the console counts against the global web limit.
 */
export function createServerApp(deps: ApiDeps, distDir: string | null): Hono {
  const store = createRateLimitStore(deps.config);
  const app = new Hono();
  app.route('/', createApi(deps, store));
  if (distDir !== null && existsSync(join(distDir, 'index.html'))) {
    const web = new Hono();
    web.use('*', createRateLimiters(deps.config, store, deps.now).globalWeb);
    web.route('/', consoleRoutes(distDir));
    app.route('/', web);
  }
  return app;
}
