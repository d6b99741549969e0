import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import { consoleRoutes } from '../../server/http/console';
import { createServerApp } from '../../server/http/server';
import { testConfig } from './support/server';

/** The response body as sent (gzip not undone). */
const rawGet = (url: string): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });

let dist: string;
let server: ServerType;
let base: string;
const shell = '<!doctype html><html><body><div id="root"></div>' + 'x'.repeat(2000) + '</body></html>';

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'console-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), shell);
  writeFileSync(join(dist, 'assets', 'index-AbC123.js'), `console.log(${JSON.stringify('y'.repeat(4000))});`);
  writeFileSync(join(dist, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const app = new Hono();
  app.get('/api/status', (c) => c.json({ success: true, message: '', data: {} }));
  app.route('/', consoleRoutes(dist));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      base = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});

afterAll(() => {
  server.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the console on the API port', () => {
  it('serves hashed assets for a year, gzipped', async () => {
    const res = await fetch(`${base}/assets/index-AbC123.js`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // fetch decodes on its own: read the bytes on the wire
    const raw = await rawGet(`${base}/assets/index-AbC123.js`);
    expect(raw.length).toBeLessThan(500);
    expect(gunzipSync(raw).toString()).toContain('yyyy');
  });

  it('answers console routes with index.html, revalidated', async () => {
    for (const path of ['/', '/login', '/token/edit/3', '/user/reset?email=a&token=b']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(await res.text(), path).toContain('<div id="root">');
    }
  });

  it('serves other files revalidated', async () => {
    const res = await fetch(`${base}/logo.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('leaves the API alone and does not answer missing assets or API paths with the shell', async () => {
    const api = await fetch(`${base}/api/status`);
    expect(await api.json()).toEqual({ success: true, message: '', data: {} });
    expect((await fetch(`${base}/api/nope`)).status).toBe(404);
    expect((await fetch(`${base}/v1/models`)).status).toBe(404);
    expect((await fetch(`${base}/assets/gone-123.js`)).status).toBe(404);
  });

  it('refuses path traversal', async () => {
    const res = await fetch(`${base}/..%2f..%2fetc/passwd`);
    expect(await res.text()).not.toContain('root:');
  });
});

describe('the global web limit on the whole server', () => {
  it('counts pages, not the hashed files a page loads', async () => {
    const config = testConfig({ kind: 'sqlite', path: ':memory:', busyTimeoutMs: 1000 }, { GLOBAL_WEB_RATE_LIMIT: '3' });
    // the console routes never touch the database
    const app = createServerApp({ db: undefined as never, dialect: 'sqlite', config }, dist);
    const env = { incoming: { socket: { remoteAddress: '10.0.0.7' } } };
    for (let i = 0; i < 20; i += 1) expect((await app.request('/assets/index-AbC123.js', undefined, env)).status).toBe(200);
    const pages = [];
    for (let i = 0; i < 4; i += 1) pages.push((await app.request('/login', undefined, env)).status);
    expect(pages).toEqual([200, 200, 200, 429]);
  });
});
