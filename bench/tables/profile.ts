// Profiles one list page of the table harness (built by `npm run bench:tables`, bench/out/tables)
// with Chromium's CPU profiler over a few page-size 10 -> 100 -> 10 round trips, and prints the
// functions with the most self time and the source files they belong to.
// `tsx bench/tables/profile.ts [channel|user] [rounds] [--mount] [--size N]`: `--mount` profiles
// the page shown and hidden again `rounds` times instead (each mount until its rows are drawn),
// `--size N` opens the list at page size N.
import type {} from './harness';
import { launchChromium, rowsDrawn, serveHarnesses } from './local';

const flags = process.argv.slice(2);
const positional = flags.filter((a, i) => !a.startsWith('--') && flags[i - 1] !== '--size' && flags[i - 1] !== '--inclusive');
const list = positional[0] ?? 'channel';
const rounds = Number(positional[1] ?? '10');
const mount = flags.includes('--mount');
const sizeAt = flags.indexOf('--size');
const size = sizeAt >= 0 ? `&size=${flags[sizeAt + 1]}` : '';
const server = await serveHarnesses();
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/?list=${list}&rows=10000${size}`);
  await page.waitForSelector('select[aria-label="每页条数"]');
  await page.waitForTimeout(500);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  const shown = () => page.waitForFunction(rowsDrawn);
  const mounts = async () => {
    for (let i = 0; i < rounds; i++) {
      await page.evaluate(() => window.benchShow(false));
      await page.waitForFunction(() => document.querySelector('table') === null);
      await page.waitForTimeout(50);
      await page.evaluate(() => window.benchShow(true));
      await shown();
      await page.waitForTimeout(50);
    }
  };
  const resizes = async () => {
    for (let i = 0; i < rounds; i++) {
      for (const size of ['100', '10']) {
        await page.selectOption('select[aria-label="每页条数"]', size);
        // a windowed page (more than 30 rows) draws only the rows near the viewport: its aria-rowcount counts them all
        await page.waitForFunction((n) => {
          const table = document.querySelector('table');
          if (table === null || table.closest('[aria-busy="true"]') !== null) return false;
          const drawn = table.querySelectorAll('tbody tr:not([aria-hidden])').length;
          const count = table.hasAttribute('aria-rowcount') ? Number(table.getAttribute('aria-rowcount')) - 1 : drawn;
          return count === n && drawn > 1;
        }, Number(size));
        await page.waitForTimeout(50);
      }
    }
  };
  // the main thread's time by kind (script, style, layout, paint) from a trace of the same round trips
  const roundTrips = mount ? mounts : resizes;
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await roundTrips();
  const raw = (await browser.stopTracing()).toString();
  if (process.env.TRACE_OUT) (await import('node:fs')).writeFileSync(process.env.TRACE_OUT, raw);
  const trace = JSON.parse(raw) as { traceEvents: { name: string; ph: string; dur?: number; tid: number }[] };
  const byName = new Map<string, number>();
  for (const e of trace.traceEvents) if (e.ph === 'X' && e.dur !== undefined) byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
  console.log(`${list}: trace of ${rounds} ${mount ? 'mounts' : 'round trips (10 -> 100 -> 10)'}, ms by event (nested events counted in their parents too):`);
  for (const name of ['RunTask', 'FunctionCall', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'ParseAuthorStyleSheet', 'ScheduleStyleRecalculation', 'RasterTask', 'Commit'])
    console.log(`${(byName.get(name) ?? 0).toFixed(1).padStart(9)} ms  ${name}`);
  await cdp.send('Profiler.start');
  await roundTrips();
  const { profile } = (await cdp.send('Profiler.stop')) as {
    profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }[]; samples: number[]; timeDeltas: number[] };
  };
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const n = byId.get(id)!;
    const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`${list}: ${rounds} ${mount ? 'mounts' : 'round trips'}, ${total.toFixed(0)} ms sampled`);
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${v.toFixed(1).padStart(8)} ms ${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
  // `--inclusive N`: the N named functions with the most time spent in them and their callees
  // (a React component's is its own render: its children render later, outside its frame)
  const inclusiveAt = flags.indexOf('--inclusive');
  if (inclusiveAt >= 0) {
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const keyOf = (n: (typeof profile.nodes)[number]) => `${n.callFrame.functionName} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    const inclusive = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const n = byId.get(at)!;
        if (n.callFrame.functionName === '') continue;
        const key = keyOf(n);
        if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
        seen.add(key);
      }
    });
    console.log(`\n${list}: inclusive time (the function and its callees)`);
    for (const [k, v] of [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(flags[inclusiveAt + 1] ?? '80')))
      console.log(`${v.toFixed(1).padStart(8)} ms ${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
  }
} finally {
  await browser.close();
  server.close();
}
