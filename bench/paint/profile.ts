// CPU profile of one cold load (until ready) of a build of the console, with run.ts's stubbed /api:
// the functions with the most self time and the files they come from (an unminified build,
// `vite build --minify false`, gives readable names). `tsx bench/paint/profile.ts DIR /channel [rate]`
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { chromiumArgs } from '../../vitest.config';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const [dirArg = 'bench/out/paint-prof', path = '/channel', rateArg = '4'] = process.argv.slice(2);
const dir = resolve(dirArg);
const fixture = (name: string): string => readFileSync(join(root, 'tests/fixtures/api', name), 'utf8');
const admin = { ...(JSON.parse(fixture('user-self.json')) as { data: Record<string, unknown> }).data, role: 100, username: 'root', id: 1 };
const status = (() => {
  const s = JSON.parse(fixture('status.json')) as { data: Record<string, unknown> };
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return JSON.stringify({ ...s, data: { ...s.data, version: `v${version}` } });
})();
const answers: readonly (readonly [RegExp, () => string])[] = [
  [/^\/api\/status\b/, () => status],
  [/^\/api\/channel\/?(\?|$)/, () => fixture('channel-list.json')],
  [/^\/api\/log\/stat\b/, () => fixture('log-stat.json')],
  [/^\/api\/log\/?(\?|$)/, () => fixture('log-list.json')],
  [/^\/api\/group\b/, () => fixture('groups.json')],
  [/^\/api\/notice\b/, () => fixture('notice.json')],
];
const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url.startsWith('/api/')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(answers.find(([p]) => p.test(url))?.[1]() ?? fixture('ok.json'));
    return;
  }
  let file = join(dir, normalize(decodeURIComponent(url.split('?')[0] ?? '/')));
  if (!existsSync(file) || statSync(file).isDirectory()) file = join(dir, 'index.html');
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
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
  const ready = path === '/login' ? 'input[placeholder]' : ':not([aria-busy="true"]) > table > tbody > tr';
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
