// Times the list pages in Debian's Chromium with 10,000 rows loaded and, as the baseline in the
// same run, 100 rows: showing the page until its first page is painted, sorting by a header,
// reversing, next page, jumping to the last page and back, page size 10 -> 100 and back, a key
// typed in the search box, a client-side filter and clearing it, selecting the page and
// unselecting it. Each is timed in the page from its event to the next paint ("first") and to
// the first paint with every row of the page drawn ("all": the table no longer marked aria-busy,
// a full page's row count, and for a windowed table, one that draws only the rows near the
// viewport, no spacer row in the viewport: every row the viewport must show is drawn; "DOM rows"
// says how many body rows were in the DOM then), 20 repetitions after one warm-up, at page size 10 and 100 (the list
// opened at that size: `?size=`). Figures only: nothing fails on them. `--no-build` reuses
// bench/out/tables; `--reps N` changes the repetitions; `--list channel|user` measures one list
// only; `--page-sizes 10,100` the page sizes; `--no-small` skips the 100-row runs; `--no-minify`
// builds readable code (for `tsx bench/tables/profile.ts`, which profiles that build); `--build-only`.
// `--only mount,size` measures only the interactions whose name has one of these words (the
// cycles that hold one, whole). `--baseline <git ref>` builds a second harness on that commit's src/ (this bench's probe, the old
// pages) and measures it in the same run, turn about with this tree's: "x base" is this tree's
// all-rows median over the baseline's (under 1: faster), a ratio that holds under load when the
// absolute figures do not.
// Each 10,000-row median is also compared with the figure recorded before the row work of
// issue 22 (`before`, below): "x before" is this run's median over that one (under 1: faster).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import type { BenchResult } from './harness';
import type { Sample } from './probe';
import { baseOut, launchChromium, outDir, serveHarnesses } from './local';

const here = fileURLToPath(new URL('.', import.meta.url));
const argv = process.argv.slice(2);
const repsAt = argv.indexOf('--reps');
const repetitions = repsAt >= 0 ? Number(argv[repsAt + 1]) : 20;
const warmup = 1;
const sizes = [10_000, 100] as const;
const [big] = sizes;
const listAt = argv.indexOf('--list');
const listNames = (['channel', 'user'] as const).filter((l) => listAt < 0 || argv[listAt + 1] === l);
const targetMs = 50;
const pageSizesAt = argv.indexOf('--page-sizes');
const pageSizes = (pageSizesAt >= 0 ? argv[pageSizesAt + 1]! : '10,100').split(',').map(Number);
const baselineAt = argv.indexOf('--baseline');
const baselineRef = baselineAt >= 0 ? argv[baselineAt + 1] : undefined;
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? `&only=${encodeURIComponent(argv[onlyAt + 1] ?? '')}` : '';

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
const pageFilesOf = (root: string): Readonly<Record<string, string>> => ({
  ChannelListPage: resolve(root, 'src/views/channel/ChannelListPage.tsx'),
  UserListPage: resolve(root, 'src/views/user/UserListPage.tsx'),
});
const pagesModule = (names: readonly string[], pageFiles: Readonly<Record<string, string>>): Plugin => ({
  name: 'bench-pages',
  resolveId: (id) => (id === 'virtual:bench-pages' ? '\0bench-pages' : null),
  load: (id) =>
    id === '\0bench-pages'
      ? names.map((n) => `import * as ${n} from ${JSON.stringify(pageFiles[n])};`).join('\n') + `\nexport const pages = { ${names.join(', ')} };\n`
      : null,
});
const buildHarness = (names: readonly string[], harnessDir: string, pageFiles: Readonly<Record<string, string>>, out: string) =>
  build({
    root: harnessDir,
    base: './',
    configFile: false,
    logLevel: 'silent',
    plugins: [react(), pagesModule(names, pageFiles)],
    define: { 'import.meta.env.VITE_APP_VERSION': JSON.stringify('bench') },
    // `--no-minify`: readable function names for bench/tables/profile.ts
    build: { outDir: out, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 5000, minify: !argv.includes('--no-minify') },
  }).then(
    () => true,
    (e: unknown) => {
      console.log(`harness build with [${names.join(', ')}] failed: ${String(e).split('\n')[0] ?? ''}`);
      return false;
    },
  );

/** Builds the harness of `root` (its src/, the harness in `harnessDir`) into `out`. */
async function buildAll(label: string, root: string, harnessDir: string, out: string): Promise<void> {
  const pageFiles = pageFilesOf(root);
  // Pages still being written may not build yet: keep those that do; the others get the shared views.
  const present = Object.keys(pageFiles).filter((n) => existsSync(pageFiles[n]!));
  let chosen = present;
  if (!(await buildHarness(present, harnessDir, pageFiles, out))) {
    chosen = [];
    for (const n of present) if (await buildHarness([n], harnessDir, pageFiles, out)) chosen.push(n);
    if (!(await buildHarness(chosen, harnessDir, pageFiles, out))) throw new Error(`the ${label} harness does not build`);
  }
  console.log(`${label} harness built in ${((Date.now() - started) / 1000).toFixed(1)} s with pages: [${chosen.join(', ')}]`);
}

const repoRoot = resolve(here, '../..');
if (!argv.includes('--no-build') || !existsSync(join(outDir, 'index.html'))) await buildAll('this tree', repoRoot, here, outDir);
if (baselineRef !== undefined) {
  // the baseline's sources under bench/out (node_modules still found above), this tree's harness beside them
  const tree = resolve(here, '../out/tables-baseline-tree');
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${JSON.stringify(baselineRef)} src | tar -x -C ${JSON.stringify(tree)}`], { cwd: repoRoot, stdio: 'inherit' });
  cpSync(here, join(tree, 'bench/tables'), { recursive: true });
  await buildAll(`baseline (${baselineRef})`, tree, join(tree, 'bench/tables'), baseOut);
}
if (argv.includes('--build-only')) process.exit(0);

const server = await serveHarnesses();
const base = server.url;

interface Run {
  readonly key: string;
  readonly label: string;
  readonly path: string;
  readonly list: (typeof listNames)[number];
  readonly rows: number;
  readonly size: number;
}
const runs: Run[] = [];
for (const list of listNames)
  for (const size of pageSizes)
    for (const rows of sizes) {
      if (rows !== big && argv.includes('--no-small')) continue;
      runs.push({ key: `${list}:${size}:${rows}`, label: `${list} list, page size ${size}, ${rows} rows`, path: '/', list, rows, size });
      // the baseline in the same turn, 10,000 rows only
      if (baselineRef !== undefined && rows === big)
        runs.push({ key: `base:${list}:${size}:${rows}`, label: `baseline ${list} list, page size ${size}, ${rows} rows`, path: '/baseline/', list, rows, size });
    }

// `--rounds N` splits the repetitions into N rounds of every run (this tree's and the baseline's
// turn about in each), so that a change of the machine's load falls on both sides alike
const roundsAt = argv.indexOf('--rounds');
const rounds = Math.max(1, roundsAt >= 0 ? Number(argv[roundsAt + 1]) : baselineRef === undefined ? 1 : 4);
const perRound = Math.max(1, Math.ceil(repetitions / rounds));
const browser = await launchChromium();
const results = new Map<string, BenchResult>();
const merge = (key: string, got: BenchResult) => {
  const had = results.get(key);
  if (!had) return void results.set(key, got);
  for (const [name, samples] of Object.entries(got.samples)) {
    const old = had.samples[name];
    had.samples[name] = Array.isArray(old) && Array.isArray(samples) ? [...old, ...samples] : Array.isArray(old) ? old : samples;
  }
};
try {
  for (let round = 0; round < rounds; round++) {
    for (const run of runs) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      if (argv.includes('--verbose')) page.on('console', (m) => console.log(`  [${run.label}] ${m.text().slice(0, 200)}`));
      await page.goto(`${base}${run.path}?list=${run.list}&rows=${run.rows}&size=${run.size}${only}`);
      const t = Date.now();
      try {
        const result = await page.evaluate(([r, w]) => window.benchRun(r, w), [perRound, warmup] as const);
        merge(run.key, result);
        console.log(`${run.label}${rounds > 1 ? ` (round ${round + 1}/${rounds})` : ''}: ${((Date.now() - t) / 1000).toFixed(1)} s (${result.info.note})`);
      } catch (e) {
        console.log(`${run.label}: failed: ${String(e)} ${errors.join('; ')}`);
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
  if (samples.length === 0) return { first: NaN, median: NaN, p95: NaN, commit: NaN, rows: NaN };
  const commits = samples.map((s) => s.commit).filter((c) => c >= 0);
  return {
    first: quantile(samples.map((s) => s.paint), 0.5),
    median: quantile(samples.map((s) => s.all), 0.5),
    p95: quantile(samples.map((s) => s.all), 0.95),
    commit: commits.length === 0 ? -1 : quantile(commits, 0.5),
    // samples from a build before the count was kept have none
    rows: quantile(samples.map((s) => s.rows ?? NaN), 0.5),
  };
};

const small = sizes[1];
const head = [
  'interaction'.padEnd(32),
  'first med'.padStart(10),
  'all med'.padStart(8),
  'all p95'.padStart(8),
  'commit'.padStart(7),
  'DOM rows'.padStart(8),
  `${small} rows`.padStart(9),
  'ratio'.padStart(6),
  'base all'.padStart(9),
  'x base'.padStart(7),
  'before'.padStart(7),
  'x before'.padStart(9),
  `target <${targetMs}`.padStart(11),
].join(' ');
for (const list of listNames) {
  for (const size of pageSizes) {
    const large = results.get(`${list}:${size}:${big}`);
    const little = results.get(`${list}:${size}:${small}`);
    const old = results.get(`base:${list}:${size}:${big}`);
    if (!large) continue;
    console.log(
      `\n${list} list at page size ${size}, ${big} rows: ${large.info.note}; ms from the event to the first paint showing it ("first") and to the paint with every row drawn ("all"), ${perRound * rounds} repetitions in ${rounds} round(s)`,
    );
    console.log(head);
    for (const [name, got] of Object.entries(large.samples)) {
      if (!Array.isArray(got)) {
        console.log(`${name.padEnd(32)} failed: ${got.error}`);
        continue;
      }
      const l = stats(got);
      const s = stats(little?.samples[name]);
      const b = stats(old?.samples[name]);
      const was = size === 10 ? before[list][name] : undefined;
      console.log(
        [
          name.padEnd(32),
          ms(l.first).padStart(10),
          ms(l.median).padStart(8),
          ms(l.p95).padStart(8),
          ms(l.commit).padStart(7),
          (Number.isNaN(l.rows) ? 'n/a' : String(l.rows)).padStart(8),
          ms(s.median).padStart(9),
          (l.median / s.median).toFixed(2).padStart(6),
          ms(b.median).padStart(9),
          (l.median / b.median).toFixed(2).padStart(7),
          ms(was ?? NaN).padStart(7),
          (was === undefined ? 'n/a' : (l.median / was).toFixed(2)).padStart(9),
          (l.median < targetMs ? (l.p95 < targetMs ? 'met' : 'median met') : 'over').padStart(11),
        ].join(' '),
      );
    }
  }
}
console.log(
  `\n"first": median ms to the first paint showing the change; "all": to the first paint with every row of the page drawn (median, p95), ` +
    `"every row" being every row the viewport must show (a windowed table draws only the rows near the viewport: its aria-rowcount is the page's and no spacer row is in the viewport); ` +
    `"DOM rows": median body rows in the DOM at that paint (spacer rows not counted); ` +
    `"commit": median ms until the last DOM change before that paint (script and React commit, no paint); "${small} rows": the all-rows median with ${small} rows loaded, "ratio" ${big} over it. ` +
    `"base all": the all-rows median of the baseline (--baseline, the same run, turn about), "x base": this tree's over it. ` +
    `Target: every interaction's all-rows median under ${targetMs} ms at ${big} rows ("met" when its p95 is under too). ` +
    `"before": the ${big}-row first-paint median at page size 10 recorded before the row work (2026-11-28), "x before": this run's all-rows median over it. Run took ${((Date.now() - started) / 1000).toFixed(0)} s.`,
);
