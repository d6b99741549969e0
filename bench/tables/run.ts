// Times the list pages in Debian's Chromium with 10,000 rows loaded and, as the baseline in the
// same run, 100 rows: showing the page until its first page is painted, sorting by a header,
// reversing, next page, jumping to the last page and back, page size 10 -> 100 and back, a key
// typed in the search box, a client-side filter and clearing it, selecting the page and
// unselecting it. Each is timed in the page from its event to the next paint, 20 repetitions
// after one warm-up. Figures only: nothing fails on them. `--no-build` reuses bench/out/tables;
// `--reps N` changes the repetitions; `--list channel|user` measures one list only.
// Each 10,000-row median is also compared with the figure recorded before the row work of
// issue 22 (`before`, below): "x before" is this run's median over that one (under 1: faster).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright';
import { build, type Plugin } from 'vite';
import type { BenchResult } from './harness';
import type { Sample } from './probe';
import { chromiumArgs } from '../../vitest.config';

const here = fileURLToPath(new URL('.', import.meta.url));
const outDir = resolve(here, '../out/tables');
const argv = process.argv.slice(2);
const repsAt = argv.indexOf('--reps');
const repetitions = repsAt >= 0 ? Number(argv[repsAt + 1]) : 20;
const warmup = 1;
const sizes = [10_000, 100] as const;
const listAt = argv.indexOf('--list');
const listNames = (['channel', 'user'] as const).filter((l) => listAt < 0 || argv[listAt + 1] === l);
const targetMs = 50;

/**
 * Medians (ms, 10,000 rows, page size 10 unless named) before the table rows were made cheap
 * (plain rows, one shared tooltip, no Chakra component per badge or button), recorded on
 * 2026-11-28 on the shared 2-core machine under heavy load from other jobs (load average 6 to 20
 * for the user list, about 20 for the channel list), 20 repetitions, the real ChannelListPage and
 * UserListPage. Very noisy: a ratio far from 1 means something, one near 1 does not.
 */
const before: Readonly<Record<(typeof listNames)[number], Readonly<Record<string, number>>>> = {
  channel: {
    'first page rendered (mount)': 695.1,
    'sort by a column': 427.9,
    'reverse the sort': 372.9,
    'next page': 243.1,
    'jump to the last page': 326.6,
    'back to the first page': 313.2,
    'page size 10 -> 100': 4564.5,
    'page size 100 -> 10': 748.2,
    'type one key in the search box': 502.3,
    'client-side filter (select)': 655.9,
    'clear that filter': 826.7,
    'select all on the page': 398.5,
    'unselect the page': 379.7,
  },
  user: {
    'first page rendered (mount)': 96.9,
    'sort by a column': 161.3,
    'reverse the sort': 178.4,
    'next page': 139.1,
    'jump to the last page': 129.1,
    'back to the first page': 138.2,
    'page size 10 -> 100': 3005.0,
    'page size 100 -> 10': 194.9,
    'type one key in the search box': 158.5,
    'client-side filter (select)': 171.6,
    'clear that filter': 460.6,
    'select all on the page': 345.8,
    'unselect the page': 323.9,
  },
};

const started = Date.now();
/** The list pages, by export name, that the harness mounts when they exist and build. */
const pageFiles: Readonly<Record<string, string>> = {
  ChannelListPage: resolve(here, '../../src/views/channel/ChannelListPage.tsx'),
  UserListPage: resolve(here, '../../src/views/user/UserListPage.tsx'),
};
const pagesModule = (names: readonly string[]): Plugin => ({
  name: 'bench-pages',
  resolveId: (id) => (id === 'virtual:bench-pages' ? '\0bench-pages' : null),
  load: (id) =>
    id === '\0bench-pages'
      ? names.map((n) => `import * as ${n} from ${JSON.stringify(pageFiles[n])};`).join('\n') + `\nexport const pages = { ${names.join(', ')} };\n`
      : null,
});
const buildHarness = (names: readonly string[]) =>
  build({
    root: here,
    base: './',
    configFile: false,
    logLevel: 'silent',
    plugins: [react(), pagesModule(names)],
    define: { 'import.meta.env.VITE_APP_VERSION': JSON.stringify('bench') },
    build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 5000 },
  }).then(
    () => true,
    (e: unknown) => {
      console.log(`harness build with [${names.join(', ')}] failed: ${String(e).split('\n')[0] ?? ''}`);
      return false;
    },
  );

if (!argv.includes('--no-build') || !existsSync(join(outDir, 'index.html'))) {
  // Pages still being written may not build yet: keep those that do; the others get the shared views.
  const present = Object.keys(pageFiles).filter((n) => existsSync(pageFiles[n]!));
  let chosen = present;
  if (!(await buildHarness(present))) {
    chosen = [];
    for (const n of present) if (await buildHarness([n])) chosen.push(n);
    if (!(await buildHarness(chosen))) throw new Error('the harness does not build');
  }
  console.log(`harness built in ${((Date.now() - started) / 1000).toFixed(1)} s with pages: [${chosen.join(', ')}]`);
}

const types: Readonly<Record<string, string>> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  const file = join(outDir, path === '/' ? 'index.html' : path);
  if (!file.startsWith(outDir) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
const results = new Map<string, BenchResult>();
try {
  for (const list of listNames) {
    for (const rows of sizes) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      if (argv.includes('--verbose')) page.on('console', (m) => console.log(`  [${list} ${rows}] ${m.text().slice(0, 200)}`));
      await page.goto(`${base}/?list=${list}&rows=${rows}`);
      const t = Date.now();
      try {
        const result = await page.evaluate(([r, w]) => window.benchRun(r, w), [repetitions, warmup] as const);
        results.set(`${list}:${rows}`, result);
        console.log(`${list} list, ${rows} rows: ${((Date.now() - t) / 1000).toFixed(1)} s (${result.info.note})`);
      } catch (e) {
        console.log(`${list} list, ${rows} rows: failed: ${String(e)} ${errors.join('; ')}`);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
};
const ms = (n: number) => (Number.isNaN(n) ? 'n/a' : n < 0 ? '-' : n.toFixed(1));
const stats = (got: BenchResult['samples'][string] | undefined) => {
  const samples: readonly Sample[] = got === undefined || !Array.isArray(got) ? [] : got;
  if (samples.length === 0) return { median: NaN, p95: NaN, commit: NaN };
  const commits = samples.map((s) => s.commit).filter((c) => c >= 0);
  return {
    median: quantile(samples.map((s) => s.paint), 0.5),
    p95: quantile(samples.map((s) => s.paint), 0.95),
    commit: commits.length === 0 ? -1 : quantile(commits, 0.5),
  };
};

const [big, small] = sizes;
const head = [
  'interaction'.padEnd(32),
  `${big} median`.padStart(13),
  `${big} p95`.padStart(10),
  'commit'.padStart(7),
  `${small} median`.padStart(11),
  `${small} p95`.padStart(8),
  'ratio med'.padStart(10),
  'ratio p95'.padStart(10),
  'before'.padStart(8),
  'x before'.padStart(9),
  `target <${targetMs}`.padStart(11),
].join(' ');
for (const list of listNames) {
  const large = results.get(`${list}:${big}`);
  const base = results.get(`${list}:${small}`);
  if (!large) continue;
  console.log(`\n${list} list: ${large.info.note}; ms from the event to the next paint, ${repetitions} repetitions`);
  console.log(head);
  for (const [name, got] of Object.entries(large.samples)) {
    if (!Array.isArray(got)) {
      console.log(`${name.padEnd(32)} failed: ${got.error}`);
      continue;
    }
    const l = stats(large.samples[name]);
    const s = stats(base?.samples[name]);
    const was = before[list][name];
    console.log(
      [
        name.padEnd(32),
        ms(l.median).padStart(13),
        ms(l.p95).padStart(10),
        ms(l.commit).padStart(7),
        ms(s.median).padStart(11),
        ms(s.p95).padStart(8),
        (l.median / s.median).toFixed(2).padStart(10),
        (l.p95 / s.p95).toFixed(2).padStart(10),
        ms(was ?? NaN).padStart(8),
        (was === undefined ? 'n/a' : (l.median / was).toFixed(2)).padStart(9),
        (l.median < targetMs ? (l.p95 < targetMs ? 'met' : 'median met') : 'over').padStart(11),
      ].join(' '),
    );
  }
}
console.log(
  `\n"commit": median ms until the last DOM change before that paint (script and React commit, no paint). ` +
    `Target: every interaction under ${targetMs} ms at the median (the "target" column judges the ${big}-row median, "met" when its p95 is under too). ` +
    `"before": the ${big}-row median recorded before the row work (2026-11-28), "x before": this run's median over it. Run took ${((Date.now() - started) / 1000).toFixed(0)} s.`,
);
