// Where a cold load's time goes, for figures that hold better than wall time on a shared machine:
// two builds of the console (`--base DIR` and `--ours DIR`, e.g. bench/out/paint/console from
// run.ts and a build of main), served with the paint bench's stubbed /api (stub.ts), sampled turn about in a cold
// Chromium per sample at one CPU throttling rate. Per page it prints medians of: ready (as run.ts),
// first contentful paint, when each /api request started (ms from navigation start), and the main
// thread's busy time until ready from a trace (all tasks, and script compile / evaluation, style,
// layout, paint). `tsx bench/paint/trace.ts --base DIR --ours DIR [--rate 4] [--runs 5] [--page /channel]`
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { chromium } from 'playwright';
import { chromiumArgs } from '../../vitest.config';
import { admin, median, pages, readyAt, serve } from './stub';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const at = argv.indexOf(name);
  return at >= 0 ? (argv[at + 1] ?? fallback) : fallback;
};
const dirs = { base: resolve(flag('--base', 'bench/out/paint-base')), ours: resolve(flag('--ours', 'bench/out/paint/console')) };
const rate = Number(flag('--rate', '4'));
const runs = Number(flag('--runs', '5'));
const onlyPage = flag('--page', '');

const timed = pages.filter((p) => onlyPage === '' || p.name === onlyPage);

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly ts: number;
  readonly dur?: number;
  /** Thread (CPU) time: what the task cost, without the time the thread waited for a core. */
  readonly tdur?: number;
  readonly tid: number;
  readonly pid: number;
  readonly cat: string;
  readonly args?: { readonly name?: string; readonly data?: { readonly frame?: string } };
}

type Sample = Record<string, number>;

async function sample(base: string, page: (typeof timed)[number]): Promise<Sample> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    if (page.signedIn) await context.addInitScript((user: string) => localStorage.setItem('user', user), JSON.stringify(admin));
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await browser.startTracing(tab, {
      categories: ['toplevel', 'disabled-by-default-devtools.timeline', 'devtools.timeline', 'blink.user_timing', 'loading', '__metadata'],
    });
    await tab.goto(`${base}${page.name}`, { waitUntil: 'commit' });
    const ready = await readyAt(tab, page.ready);
    const timing = await tab.evaluate(() => ({
      origin: performance.timeOrigin,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,
      api: performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/api/'))
        .map((e) => [new URL(e.name).pathname, e.startTime, (e as PerformanceResourceTiming).responseEnd] as const),
    }));
    const raw = (await browser.stopTracing()).toString();
    const events = (JSON.parse(raw) as { traceEvents: TraceEvent[] }).traceEvents;
    // the renderer's main thread: the thread named CrRendererMain in the process that ran the page's script
    const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
    const busy = (e: TraceEvent) => mains.some((m) => m.pid === e.pid && m.tid === e.tid);
    const nav = events.find((e) => e.name === 'navigationStart' && busy(e) && (e.args?.data as { isLoadingMainFrame?: boolean } | undefined)?.isLoadingMainFrame);
    const t0 = nav?.ts ?? Math.min(...events.filter((e) => e.name === 'RunTask' && busy(e)).map((e) => e.ts));
    const end = t0 + ready * 1000;
    const within = events.filter((e) => e.ph === 'X' && e.dur !== undefined && busy(e) && e.ts >= t0 && e.ts < end);
    // CPU time (tdur) where the trace has it, else wall time
    const cost = (e: TraceEvent) => e.tdur ?? e.dur ?? 0;
    const sum = (names: readonly string[]) => within.filter((e) => names.includes(e.name)).reduce((s, e) => s + cost(e), 0) / 1000;
    // the main thread's CPU time between two moments (ms from navigation start), by the tasks that started then
    const cpuBetween = (from: number, to: number) =>
      within.filter((e) => e.name === 'RunTask' && e.ts >= t0 + from * 1000 && e.ts < t0 + to * 1000).reduce((s, e) => s + cost(e), 0) / 1000;
    const apiStart = (re: RegExp) => timing.api.find(([path]) => re.test(path))?.[1] ?? Number.NaN;
    const apiEnd = (re: RegExp) => timing.api.find(([path]) => re.test(path))?.[2] ?? Number.NaN;
    const listStart = apiStart(/^\/api\/(channel|log)\/$/);
    const checked = page.signedIn ? apiEnd(/2fa\/status/) : timing.fcp;
    if (argv.includes('--dump')) {
      // one sample's timeline: the files and requests (start-end), and the main thread's tasks over 5 ms of CPU
      const files = await tab.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => [e.name.replace(location.origin, ''), e.startTime, (e as PerformanceResourceTiming).responseEnd] as const),
      );
      const lines: [number, string][] = files.map(([name, start, done]) => [start, `${start.toFixed(0).padStart(6)}-${done.toFixed(0).padEnd(6)} ${name}`]);
      for (const e of within) if (e.name === 'RunTask' && cost(e) > 5000) lines.push([(e.ts - t0) / 1000, `${((e.ts - t0) / 1000).toFixed(0).padStart(6)} task ${(cost(e) / 1000).toFixed(0)} ms CPU (${((e.dur ?? 0) / 1000).toFixed(0)} wall)`]);
      lines.push([timing.fcp, `${timing.fcp.toFixed(0).padStart(6)} first contentful paint`], [ready, `${ready.toFixed(0).padStart(6)} ready`]);
      console.log(`${base}${page.name}\n${lines.sort((a, b) => a[0] - b[0]).map(([, l]) => l).join('\n')}`);
    }
    const out: Sample = {
      ready,
      fcp: timing.fcp,
      'cpu all': cpuBetween(0, ready),
      'cpu ..fcp': cpuBetween(0, timing.fcp),
      'cpu fcp..2fa answer': page.signedIn ? cpuBetween(timing.fcp, checked) : 0,
      'cpu 2fa..list req': page.signedIn ? cpuBetween(checked, listStart) : 0,
      'cpu list req..ready': page.signedIn ? cpuBetween(listStart, ready) : cpuBetween(timing.fcp, ready),
      'script compile': sum(['v8.compile', 'V8.CompileCode', 'v8.compileModule', 'CompileScript', 'CompileCode']),
      'script run': sum(['FunctionCall', 'EvaluateScript', 'v8.evaluateModule', 'RunMicrotasks', 'TimerFire', 'FireAnimationFrame', 'EventDispatch']),
      'style': sum(['UpdateLayoutTree', 'ParseAuthorStyleSheet']),
      layout: sum(['Layout']),
      paint: sum(['Paint', 'PrePaint', 'Layerize', 'UpdateLayer', 'Commit']),
      tasks: within.filter((e) => e.name === 'RunTask').length,
    };
    for (const [path, start, done] of timing.api) {
      const key = `req ${path}`;
      if (!(key in out)) {
        out[key] = start;
        out[`${key} end`] = done;
      }
    }
    return out;
  } finally {
    await browser.close();
  }
}

const servers = { base: await serve(dirs.base), ours: await serve(dirs.ours) };
const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
try {
  console.log(`CPU ${rate}x, medians of ${runs} cold samples each (turn about); ms from navigation start / ms of main thread until ready`);
  for (const page of timed) {
    const got = { base: [] as Sample[], ours: [] as Sample[] };
    for (let i = 0; i < runs; i += 1) {
      got.base.push(await sample(urlOf(servers.base), page));
      got.ours.push(await sample(urlOf(servers.ours), page));
    }
    const keys = [...new Set([...got.base, ...got.ours].flatMap((s) => Object.keys(s)))];
    console.log(`\n${page.name}${' '.repeat(22 - page.name.length)}${'base'.padStart(9)}${'ours'.padStart(9)}${'ours/base'.padStart(11)}`);
    for (const key of keys) {
      const b = median(got.base.map((s) => s[key] ?? Number.NaN));
      const o = median(got.ours.map((s) => s[key] ?? Number.NaN));
      console.log(`  ${key.padEnd(20)}${b.toFixed(0).padStart(9)}${o.toFixed(0).padStart(9)}${(o / b).toFixed(2).padStart(11)}`);
    }
  }
} finally {
  servers.base.close();
  servers.ours.close();
}
