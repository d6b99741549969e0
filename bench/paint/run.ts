// First paint, ours against a bare page. Builds the console, writes a bare page (plain HTML and a
// little inline JS, no framework) that draws the same login input and the same channel and log
// rows from the same stubbed /api, serves both, and times each in a cold Chromium (a new browser
// per sample) at 1x and 4x CPU throttling: "ready" is the login input visible, or the table's
// first answered row visible (not a loading skeleton row), in ms from navigation start. Prints medians of 3 per page, ours / bare as a
// multiple, and the targets (<= 6x at 1x CPU, <= 4x at 4x CPU). Figures only: nothing fails on
// them. `--no-build` reuses bench/out/paint/console; `--runs N` changes the samples; `--requests`
// also prints, per page of ours, what was requested before it was ready (deterministic counts: the
// files and their bytes, and when each /api request and each file not preloaded started).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { build } from 'vite';
import { chromiumArgs } from '../../vitest.config';
import { admin, median, pages, readyAt, serve } from './stub';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = resolve(here, '../..');
const outDir = resolve(here, '../out/paint');
const consoleDir = join(outDir, 'console');
const bareDir = join(outDir, 'bare');
const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 3;
const rates = [1, 4] as const;
const targets: Readonly<Record<(typeof rates)[number], number>> = { 1: 6, 4: 4 };

// ---- the bare page: the same input and rows, no framework ----
const barePage = `<!doctype html>
<html lang="zh-CN"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1.0"><title>One API</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:16px}table{border-collapse:collapse}td,th{padding:4px 8px;border-bottom:1px solid #ddd;text-align:left}</style>
</head><body><div id="root"></div><script>
(function () {
  var root = document.getElementById('root');
  var path = location.pathname;
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; }); }
  function table(heads, rows) {
    root.innerHTML = '<table><thead><tr>' + heads.map(function (h) { return '<th>' + esc(h) + '</th>'; }).join('') + '</tr></thead><tbody>' +
      rows.map(function (r) { return '<tr>' + r.map(function (c) { return '<td>' + esc(c) + '</td>'; }).join('') + '</tr>'; }).join('') + '</tbody></table>';
  }
  function list(url, heads, row) {
    fetch(url).then(function (r) { return r.json(); }).then(function (body) { table(heads, (body.data || []).map(row)); });
  }
  if (path === '/channel') list('/api/channel/?p=0', ['ID', '名称', '类型', '状态', '响应时间'], function (c) { return [c.id, c.name, c.type, c.status, c.response_time]; });
  else if (path === '/log') list('/api/log/?p=0', ['时间', '用户', '令牌', '模型', '额度'], function (l) { return [new Date(l.created_at * 1000).toLocaleString(), l.username, l.token_name, l.model_name, l.quota]; });
  else root.innerHTML = '<form aria-label="登录"><h1>登录</h1><input name="username" placeholder="用户名或邮箱地址"><input name="password" type="password" placeholder="密码"><button>登录</button></form>';
})();
</script></body></html>
`;

/** A resource the page requested before it was ready: path, start and end (ms from navigation start), bytes, initiator. */
type Requested = readonly [path: string, start: number, end: number, bytes: number, initiator: string];

/** One cold sample: a new browser, the CPU throttled, ms from navigation start to `ready` visible (and what was requested until then). */
async function sample(base: string, page: (typeof pages)[number], rate: number, requests?: Requested[]): Promise<number> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    if (page.signedIn) {
      await context.addInitScript((user: string) => {
        localStorage.setItem('user', user);
      }, JSON.stringify(admin));
    }
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await tab.goto(`${base}${page.path}`, { waitUntil: 'commit' });
    const ready = await readyAt(tab, page.ready);
    if (requests !== undefined) {
      // 'preloaded': an entry script or a modulepreload link (the first-paint script's, or one Vite's import() helper added); else the browser's initiator
      const seen = await tab.evaluate(() => {
        const preloaded = new Set([...document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[rel=modulepreload], script[src]')].map((e) => ('href' in e ? e.href : e.src)));
        return performance.getEntriesByType('resource').map((e) => {
          const r = e as PerformanceResourceTiming;
          return [r.name.replace(location.origin, ''), r.startTime, r.responseEnd, r.encodedBodySize, preloaded.has(r.name) ? 'preloaded' : r.initiatorType] as const;
        });
      });
      requests.push(...seen.filter(([, start]) => start <= ready));
    }
    return ready;
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  mkdirSync(bareDir, { recursive: true });
  writeFileSync(join(bareDir, 'index.html'), barePage);
  if (!argv.includes('--no-build') || !existsSync(join(consoleDir, 'index.html'))) {
    await build({ root, logLevel: 'warn', build: { outDir: consoleDir, emptyOutDir: true } });
  }
  const [ours, bare] = await Promise.all([serve(consoleDir), serve(bareDir)]);
  const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  try {
    console.log(`ready = login input / first table row visible; cold Chromium per sample, median of ${runs}`);
    console.log(`${'page'.padEnd(10)} ${'CPU'.padStart(4)} ${'bare ms'.padStart(9)} ${'ours ms'.padStart(9)} ${'multiple'.padStart(9)} ${'target'.padStart(8)}`);
    for (const rate of rates) {
      for (const page of pages) {
        const times = { bare: [] as number[], ours: [] as number[] };
        // alternate, so a slow moment of the shared machine hits both
        for (let i = 0; i < runs; i += 1) {
          times.bare.push(await sample(urlOf(bare), page, rate));
          times.ours.push(await sample(urlOf(ours), page, rate));
        }
        const b = median(times.bare);
        const o = median(times.ours);
        const multiple = o / b;
        const target = targets[rate];
        console.log(
          `${page.name.padEnd(10)} ${`${rate}x`.padStart(4)} ${b.toFixed(0).padStart(9)} ${o.toFixed(0).padStart(9)} ${`${multiple.toFixed(1)}x`.padStart(9)} ${`<= ${target}x`.padStart(8)}${multiple <= target ? '' : '  (over)'}`,
        );
      }
    }
    if (argv.includes('--requests')) {
      console.log('\nrequested before ready (ours, 1x CPU, one cold sample): files, KB as sent; /api requests and files without a modulepreload link (from the first-paint script or from Vite) or an entry script, by start');
      for (const page of pages) {
        const requests: Requested[] = [];
        const ready = await sample(urlOf(ours), page, 1, requests);
        const files = requests.filter(([path]) => !path.startsWith('/api/'));
        const late = requests.filter(([, , , , initiator]) => initiator !== 'preloaded');
        const kb = files.reduce((sum, [, , , bytes]) => sum + bytes, 0) / 1024;
        console.log(`${page.name.padEnd(10)} ready ${ready.toFixed(0)} ms, ${files.length} files ${kb.toFixed(1)} KB`);
        for (const [path, start, end, , initiator] of late) console.log(`  ${start.toFixed(0).padStart(6)}-${end.toFixed(0).padEnd(6)} ${initiator.padEnd(6)} ${path}`);
      }
    }
  } finally {
    ours.close();
    bare.close();
  }
}

await main();
