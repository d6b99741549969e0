// Counts that hold under load, for the mount and the page size 10 -> 100 step of the table harness:
// the elements styled (trace `UpdateLayoutTree` element counts, deterministic) and the main
// thread's CPU time (trace `tdur`: less noisy than wall time, still not exact), this tree's build
// (bench/out/tables) against the baseline's (bench/out/tables-baseline, `npm run bench:tables --
// --baseline <ref> --build-only`), turn about. `tsx bench/tables/cpu.ts [reps] [rounds] [channel,user]`
import type { Page } from 'playwright';
import type {} from './harness';
import { launchChromium, rowsDrawn, serveHarnesses } from './local';

const reps = Number(process.argv[2] ?? '6');
const rounds = Number(process.argv[3] ?? '3');
const lists = (process.argv[4] ?? 'channel,user').split(',');
const server = await serveHarnesses();
const browser = await launchChromium();
interface Ev {
  readonly name: string;
  readonly ph: string;
  readonly ts: number;
  readonly tdur?: number;
  readonly tid: number;
  readonly pid: number;
  readonly cat?: string;
  readonly args?: { readonly name?: string; readonly elementCount?: number };
}
const results: Record<string, number[]> = {};
const add = (k: string, v: number) => ((results[k] ??= []).push(v));
async function measure(page: Page, label: string, act: () => Promise<void>, n: number, pre?: () => Promise<void>) {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'blink.user_timing', 'disabled-by-default-devtools.timeline'] });
  for (let i = 0; i < n; i++) {
    if (pre) await pre();
    await page.evaluate(`performance.mark('s${i}')`);
    await act();
    await page.waitForTimeout(150);
    await page.evaluate(`performance.mark('e${i}')`);
    await page.waitForTimeout(30);
  }
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: Ev[] };
  const ev = trace.traceEvents;
  const marks = new Map(ev.filter((e) => e.cat?.includes('user_timing') && /^[se]\d+$/.test(e.name)).map((e) => [e.name, e]));
  const main = ev.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === marks.get('s0')?.pid);
  for (let i = 0; i < n; i++) {
    const s = marks.get(`s${i}`)!, e = marks.get(`e${i}`)!;
    let cpu = 0, style = 0, layout = 0, els = 0;
    for (const x of ev) {
      if (x.tid !== main?.tid || x.pid !== main.pid || x.ph !== 'X' || x.ts < s.ts || x.ts > e.ts) continue;
      if (x.name === 'RunTask') cpu += (x.tdur ?? 0) / 1000;
      if (x.name === 'UpdateLayoutTree') { style += (x.tdur ?? 0) / 1000; els += x.args?.elementCount ?? 0; }
      if (x.name === 'Layout') layout += (x.tdur ?? 0) / 1000;
    }
    add(`${label} cpu`, cpu); add(`${label} style`, style); add(`${label} layout`, layout); add(`${label} styled els`, els);
  }
}
try {
  for (let r = 0; r < rounds; r++)
    for (const list of lists)
      for (const side of ['tree', 'base']) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        await page.goto(`${server.url}/${side === 'base' ? 'baseline/' : ''}?list=${list}&rows=10000&size=100`);
        await page.waitForFunction(rowsDrawn);
        await page.waitForTimeout(300);
        // warm-up
        for (let i = 0; i < 2; i++) { await page.evaluate('window.benchShow(false)'); await page.waitForTimeout(50); await page.evaluate('window.benchShow(true)'); await page.waitForFunction(rowsDrawn); }
        await measure(page, `${list} ${side} mount`, async () => {
          await page.evaluate('window.benchShow(true)'); await page.waitForFunction(rowsDrawn);
        }, reps, async () => {
          await page.evaluate('window.benchShow(false)'); await page.waitForFunction(`document.querySelector('table') === null`);
          await page.waitForTimeout(100);
        });
        const sel = 'select[aria-label="每页条数"]';
        for (let i = 0; i < reps; i++) {
          await page.selectOption(sel, '10'); await page.waitForFunction(`document.querySelectorAll('table tbody tr').length === 10`); await page.waitForTimeout(100);
          await measure(page, `${list} ${side} 10->100`, async () => { await page.selectOption(sel, '100'); await page.waitForFunction(rowsDrawn); }, 1);
        }
        await page.close();
      }
} finally {
  await browser.close();
  server.close();
}
const med = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor((s.length - 1) / 2)] ?? NaN; };
const keys = [...new Set(Object.keys(results).map((k) => k.replace(/ (tree|base) /, ' @ ')))];
console.log('metric'.padEnd(36), 'tree'.padStart(8), 'base'.padStart(8), 'ratio'.padStart(6), '(medians, ms of main-thread CPU; n)');
for (const k of keys) {
  const t = results[k.replace(' @ ', ' tree ')] ?? [], b = results[k.replace(' @ ', ' base ')] ?? [];
  if (t.length === 0) continue;
  console.log(k.padEnd(36), med(t).toFixed(1).padStart(8), med(b).toFixed(1).padStart(8), (med(t) / med(b)).toFixed(2).padStart(6), t.length);
}
