import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { serveStatic } from '@hono/node-server/serve-static';

/** Hashed build output (`assets/<name>-<hash>.<ext>`) never changes under its name. */
const immutable = 'public, max-age=31536000, immutable';
/** index.html and unhashed files are revalidated so a new build shows at once. */
const revalidate = 'no-cache';

/** Paths that belong to the API or the relay: never answered with the console. */
const isServerPath = (path: string): boolean =>
  path === '/api' || path.startsWith('/api/') || path === '/v1' || path.startsWith('/v1/');

/**
 * The built console (Vite's `dist/`) on the same port as the API: files with cache headers
 * (hashed assets for a year, the rest revalidated), gzip, and index.html for every other GET
 * so the console's own routes (/login, /token, ...) load on a direct visit or a reload.
 */
export function consoleRoutes(distDir: string): Hono {
  const app = new Hono();
  const root = relative(process.cwd(), distDir) || '.';
  const index = join(distDir, 'index.html');
  app.use('*', compress());
  app.use(
    '*',
    serveStatic({
      root,
      onFound: (path, c) => {
        c.header('Cache-Control', path.includes('/assets/') ? immutable : revalidate);
      },
    }),
  );
  app.on(['GET', 'HEAD'], '*', async (c, next) => {
    if (isServerPath(c.req.path) || !existsSync(index)) return next();
    // A missing hashed asset is a 404, not the app shell (an old tab after a deploy).
    if (c.req.path.startsWith('/assets/')) return c.notFound();
    c.header('Cache-Control', revalidate);
    return serveStatic({ root, path: 'index.html' })(c, next);
  });
  return app;
}
