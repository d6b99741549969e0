// What the paint scripts (run.ts, trace.ts, profile.ts) serve and time: the pages and what "ready"
// means on each, the stubbed /api (the unit tests' fixtures, the same for the console and the
// bare page) and a loopback server of a built directory with that /api.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/**
 * A row of the table once the list has answered: not one of the skeleton rows the console draws
 * while its first page loads (the table's box says aria-busy="true" then). The bare page draws
 * only answered rows; counting a skeleton row timed our page before its list was even asked for.
 */
export const dataRow = ':not([aria-busy="true"]) > table > tbody > tr';
/** The pages timed: the path, what "ready" means, whether a signed-in admin is needed. */
export const pages = [
  { name: '/login', path: '/login', ready: 'input[placeholder]', signedIn: false },
  { name: '/channel', path: '/channel', ready: dataRow, signedIn: true },
  { name: '/log', path: '/log', ready: dataRow, signedIn: true },
] as const;

// ---- the stubbed /api: the unit tests' fixtures, the same for both pages ----
export const fixture = (name: string): string => readFileSync(join(root, 'tests/fixtures/api', name), 'utf8');
export const admin = (() => {
  const self = JSON.parse(fixture('user-self.json')) as { data: Record<string, unknown> };
  return { ...self.data, role: 100, username: 'root', id: 1 };
})();
const statusOfThisBuild = (() => {
  const status = JSON.parse(fixture('status.json')) as { data: Record<string, unknown> };
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return JSON.stringify({ ...status, data: { ...status.data, version: `v${version}` } });
})();
const apiAnswers: readonly (readonly [RegExp, () => string])[] = [
  // The status of the server that serves this build (the same version): a fixture of another
  // version made every run show the "new version" notice and load what it needs before the page.
  [/^\/api\/status\b/, () => statusOfThisBuild],
  [/^\/api\/user\/self\b/, () => JSON.stringify({ success: true, message: '', data: admin })],
  // what the console asks beside the list, answered as a server would (an answer it cannot read
  // showed an error toast, which loaded the toaster before the rows)
  [/^\/api\/user\/2fa\/status\b/, () => fixture('two-factor-status.json')],
  [/^\/api\/channel\/tags\b/, () => fixture('channel-tags.json')],
  [/^\/api\/channel\/test_run\/?$/, () => fixture('channel-test-run-none.json')],
  [/^\/api\/channel\/?(\?|$)/, () => fixture('channel-list.json')],
  [/^\/api\/log\/stat\b/, () => fixture('log-stat.json')],
  [/^\/api\/log\/?(\?|$)/, () => fixture('log-list.json')],
  [/^\/api\/group\b/, () => fixture('groups.json')],
  [/^\/api\/notice\b/, () => fixture('notice.json')],
];
export const apiAnswer = (url: string): string => apiAnswers.find(([pattern]) => pattern.test(url))?.[1]() ?? fixture('ok.json');

const types: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/** Serves `dir` (any unknown path gets index.html, as the console's router wants) and the stubbed /api. */
export function serve(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/api/')) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(apiAnswer(url));
      return;
    }
    const path = normalize(decodeURIComponent(url.split('?')[0] ?? '/')).replace(/^(\.\.[/\\])+/, '');
    let file = join(dir, path);
    if (!file.startsWith(dir) || !existsSync(file) || statSync(file).isDirectory()) file = join(dir, 'index.html');
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}


/** When (ms from navigation start, on the page's clock) `selector` first showed a box on `tab`, polled every frame. */
export async function readyAt(tab: Page, selector: string): Promise<number> {
  const handle = await tab.waitForFunction(
    (wanted: string) => {
      const el = document.querySelector(wanted);
      if (el === null) return false;
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 ? performance.now() : false;
    },
    selector,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await handle.jsonValue()) as number;
}

/** The median of `xs`. */
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
