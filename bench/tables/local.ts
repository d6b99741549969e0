// What the table bench's scripts (run.ts, profile.ts, cpu.ts) share: the built harnesses served on
// loopback, Debian's Chromium with the test flags, and when a list page's rows are drawn.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright';
import { chromiumArgs } from '../../vitest.config';

const here = fileURLToPath(new URL('.', import.meta.url));
/** This tree's harness build. */
export const outDir = resolve(here, '../out/tables');
/** The baseline's harness build (`--baseline <ref>`), served under `/baseline/`. */
export const baseOut = resolve(here, '../out/tables-baseline');

const types: Readonly<Record<string, string>> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** Serves `outDir` at `/` and `baseOut` at `/baseline/` on a loopback port. */
export async function serveHarnesses(): Promise<{ readonly url: string; readonly close: () => void }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const root = url.pathname.startsWith('/baseline/') ? baseOut : outDir;
    const path = normalize(decodeURIComponent(url.pathname.replace(/^\/baseline\//, '/'))).replace(/^(\.\.[/\\])+/, '');
    const file = join(root, path === '/' ? 'index.html' : path);
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** Chromium (CHROMIUM_PATH, else /usr/bin/chromium) with the flags the browser tests use. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });

/** In the page: the list shows answered rows (more than one drawn, with cells, the table not busy). */
export const rowsDrawn = (): boolean => {
  const rows = document.querySelectorAll('table tbody tr:not([aria-hidden])');
  return rows.length > 1 && (rows[0] as HTMLTableRowElement).cells.length > 1 && !document.querySelector('table')?.closest('[aria-busy="true"]');
};
