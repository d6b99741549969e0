// The time a full restyle of a loaded page takes in two builds of the console, served with the
// paint bench's stubbed /api (stub.ts), turn about: ROUNDS rounds, each loading the page in a new
// tab of each build in turn (two tabs left open measure unevenly) and timing 20 colour-mode switches on the root (each followed by reading a style of every
// element, which forces the restyle); prints the medians, the median of the per-round ratios and
// the fastest rounds. Wall-clock: under other load even a build against itself reads 0.8-1.1.
// RESTYLE_BY=variable: instead, 20 changes of an inherited custom property on the body (every
// element below restyles, the root's tokens stay).
// `tsx bench/paint/restyle.ts BASE_DIR OURS_DIR [/login] [rounds] [cpu rate]`
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { chromium, type Page } from 'playwright';
import { chromiumArgs } from '../../vitest.config';
import { admin, dataRow, median, serve } from './stub';

const [baseDir = 'bench/out/paint-base', oursDir = 'bench/out/paint/console', path = '/login', roundsArg = '15', rateArg = '1'] = process.argv.slice(2);
const servers = { base: await serve(resolve(baseDir)), ours: await serve(resolve(oursDir)) };
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
const probe = `((byVariable) => {
  const root = document.documentElement;
  const all = document.querySelectorAll('body *');
  const t0 = performance.now();
  for (let i = 0; i < 20; i++) {
    if (byVariable) document.body.style.setProperty('--restyle-probe', String(i));
    else {
      root.classList.toggle('dark');
      root.classList.toggle('light');
    }
    for (const e of all) void getComputedStyle(e).color;
  }
  return [performance.now() - t0, all.length];
})(${process.env.RESTYLE_BY === 'variable'})`;

async function open(which: 'base' | 'ours'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => localStorage.setItem('lang', 'en'));
  if (path !== '/login') await context.addInitScript((user: string) => localStorage.setItem('user', user), JSON.stringify(admin));
  const tab = await context.newPage();
  await tab.goto(`http://127.0.0.1:${(servers[which].address() as AddressInfo).port}${path}`);
  await tab.waitForSelector(path === '/login' ? 'input[placeholder]' : dataRow, { timeout: 60_000 });
  await (await context.newCDPSession(tab)).send('Emulation.setCPUThrottlingRate', { rate: Number(rateArg) });
  await tab.waitForTimeout(500);
  return tab;
}

try {
  const times = { base: [] as number[], ours: [] as number[] };
  const ratios: number[] = [];
  let elements = 0;
  for (let round = 0; round < Number(roundsArg); round++) {
    const order = round % 2 === 0 ? (['base', 'ours'] as const) : (['ours', 'base'] as const);
    const got: Partial<Record<'base' | 'ours', number>> = {};
    for (const which of order) {
      const tab = await open(which);
      const [ms, n] = await tab.evaluate<[number, number]>(probe);
      await tab.context().close();
      got[which] = ms;
      times[which].push(ms);
      elements = n;
    }
    ratios.push(got.ours! / got.base!);
  }
  console.log(`${path}, ${elements} elements, CPU ${rateArg}x, ${roundsArg} rounds of 20 ${process.env.RESTYLE_BY === 'variable' ? 'inherited-variable changes' : 'colour-mode switches'}: base ${median(times.base).toFixed(1)} ms, ours ${median(times.ours).toFixed(1)} ms, ours/base (median of the rounds' ratios) ${median(ratios).toFixed(3)}; fastest round base ${Math.min(...times.base).toFixed(1)}, ours ${Math.min(...times.ours).toFixed(1)} ms (ratio ${(Math.min(...times.ours) / Math.min(...times.base)).toFixed(3)}, the least disturbed by other load)`);
} finally {
  await browser.close();
  servers.base.close();
  servers.ours.close();
}
