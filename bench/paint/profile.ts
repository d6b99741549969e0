// CPU profile of one cold load (until ready) of a build of the console, with the paint bench's stubbed /api (stub.ts):
// the functions with the most self time and the files they come from (an unminified build,
// `vite build --minify false`, gives readable names). `tsx bench/paint/profile.ts DIR /channel [rate]`
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { chromium } from 'playwright';
import { chromiumArgs } from '../../vitest.config';
import { admin, dataRow, serve } from './stub';

const [dirArg = 'bench/out/paint-prof', path = '/channel', rateArg = '4'] = process.argv.slice(2);
const server = await serve(resolve(dirArg));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (path !== '/login') await context.addInitScript((user: string) => localStorage.setItem('user', user), JSON.stringify(admin));
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(rateArg) });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, { waitUntil: 'commit' });
  const ready = path === '/login' ? 'input[placeholder]' : dataRow;
  await tab.waitForSelector(ready, { timeout: 60_000 });
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
    profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } ; children?: number[]}[]; samples: number[]; timeDeltas: number[] };
  };
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const n of profile.nodes) {
    const t = self.get(n.id) ?? 0;
    const file = n.callFrame.url.replace(/^.*\//, '') || n.callFrame.functionName;
    const key = `${n.callFrame.functionName || '(anon)'} ${file}:${n.callFrame.lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + t);
    byFile.set(file, (byFile.get(file) ?? 0) + t);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`${path} at ${rateArg}x: ${total.toFixed(0)} ms sampled`);
  for (const [k, v] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${v.toFixed(0).padStart(7)}  ${k}`);
  console.log('--');
  for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(`${v.toFixed(0).padStart(7)}  ${k}`);
  if (process.env.PROFILE_OUT) (await import('node:fs')).writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
} finally {
  await browser.close();
  server.close();
}
