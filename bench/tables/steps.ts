// Traces one interaction (user or channel list, page size 100) a few times and prints, per
// repetition, the main thread's top-level tasks from the event to the all-rows paint.
import type {} from './harness';
import { launchChromium, serveHarnesses } from './local';

const [list = 'user', what = 'next'] = process.argv.slice(2);
const server = await serveHarnesses();
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}${process.env.BASE ? "/baseline/" : "/"}?list=${list}&rows=10000&size=100`);
  await page.waitForSelector('select[aria-label="每页条数"]');
  await page.waitForTimeout(800);
  // clicks as the bench does (element.click(), no scrolling into view)
  const act = (i: number) =>
    what === 'mount' ? page.evaluate(() => window.benchShow(true)) : page.evaluate(`(() => {
      const w = ${JSON.stringify(what)}, k = ${i};
      if (w === 'next') document.querySelector(k % 2 === 0 ? 'button[aria-label="下一页"]' : 'button[aria-label="上一页"]').click();
      else if (w === 'sort') document.querySelectorAll('th button')[k % 2 === 0 ? 1 : 0].click();
      else {
        const s = w === 'size' ? document.querySelector('select[aria-label="每页条数"]')
          : [...document.querySelectorAll('select')].find((x) => !/每页条数|排序/.test(x.getAttribute('aria-label') ?? '') && x.options.length > 2);
        s.value = w === 'size' ? (k % 2 === 0 ? '10' : '100') : k % 2 === 0 ? s.options[s.options.length - 1].value : '';
        s.dispatchEvent(new Event('change', { bubbles: true }));
      }
    })()`);
  if (process.env.PROFILE) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
    await cdp.send('Profiler.start');
    for (let i = 0; i < 8; i++) {
      if (what === 'mount') {
        await page.evaluate(() => window.benchShow(false));
        await page.waitForTimeout(300);
      }
      await act(i);
      await page.waitForTimeout(300);
    }
    const { profile } = (await cdp.send('Profiler.stop')) as {
      profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[]; samples: number[]; timeDeltas: number[] };
    };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const inclusive = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const n = byId.get(at)!;
        const key = `${n.callFrame.functionName || '(anon)'} :${n.callFrame.lineNumber}`;
        if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
        seen.add(key);
      }
    });
    for (const [k, v] of [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE))) console.log(`${(v / 8).toFixed(1).padStart(7)} ms/act  ${k}`);
    process.exit(0);
  }
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
  for (let i = 0; i < 8; i++) {
    if (what === 'mount') {
      await page.evaluate(() => window.benchShow(false));
      await page.waitForTimeout(300);
    }
    await page.evaluate(() => performance.mark('act'));
    await act(i);
    await page.waitForTimeout(400);
  }
  const raw = (await browser.stopTracing()).toString();
  const trace = JSON.parse(raw) as { traceEvents: { name: string; ph: string; ts: number; dur?: number; tid: number; pid: number; args?: { data?: { type?: string; functionName?: string } } }[] };
  const marks = trace.traceEvents.filter((e) => e.name === 'act').map((e) => e.ts);
  const main = trace.traceEvents.find((e) => e.name === 'act')!;
  const evs = trace.traceEvents.filter((e) => e.tid === main.tid && e.pid === main.pid && e.ph === 'X' && e.dur !== undefined);
  const tasks = evs.filter((e) => e.name === 'RunTask' && e.dur! > 300);
  marks.forEach((m, k) => {
    const end = marks[k + 1] ?? Infinity;
    const line: string[] = [];
    for (const t of tasks.filter((t) => t.ts >= m - 1 && t.ts < end && t.ts < m + 300_000)) {
      const inner = evs.filter((e) => e.ts >= t.ts && e.ts + e.dur! <= t.ts + t.dur! && e !== t);
      const sum = (n: string) => inner.filter((e) => e.name === n).reduce((a, e) => a + e.dur!, 0) / 1000;
      const fc = inner.find((e) => e.name === 'EventDispatch' || e.name === 'FunctionCall' || e.name === 'FireAnimationFrame' || e.name === 'TimerFire');
      line.push(`@${((t.ts - m) / 1000).toFixed(0)} ${(t.dur! / 1000).toFixed(1)}ms[${fc?.name ?? '?'}${fc?.args?.data?.type ? ':' + fc.args.data.type : ''} js=${(sum('FunctionCall') + sum('EventDispatch') + sum('FireAnimationFrame') + sum('TimerFire')).toFixed(1)} st=${sum('UpdateLayoutTree').toFixed(1)} lay=${sum('Layout').toFixed(1)} pp=${sum('PrePaint').toFixed(1)} pa=${sum('Paint').toFixed(1)}]`);
    }
    const busy = tasks.filter((t) => t.ts >= m - 1 && t.ts < end && t.ts < m + 300_000).reduce((a, t) => a + t.dur!, 0) / 1000;
    console.log(`${what} #${k}: busy ${busy.toFixed(1)} ms` + (process.env.VERBOSE ? ` ${line.join(' ')}` : ''));
  });
} finally {
  await browser.close();
  server.close();
}
