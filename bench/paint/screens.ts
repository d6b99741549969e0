// Compares two builds of the console pixel for pixel, served with the paint bench's stubbed /api
// (stub.ts): /login signed out and /channel as the admin, English, light and dark (stored
// preferences), 1280x800, toasts hidden, and also
// the number of custom properties on an element of each page (getComputedStyle), and the time a
// forced restyle of the whole document takes (median of 16, each after switching the colour mode
// on the root, 16 times, back where it began). Prints the differing pixels of each pair; keeps differing screenshots in bench/out/screens.
// `tsx bench/paint/screens.ts BASE_DIR OURS_DIR`
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { chromium, type Page } from 'playwright';
import { PNG } from 'pngjs';
import { differingPixels } from '../pixels';
import { chromiumArgs } from '../../vitest.config';
import { admin, dataRow, serve } from './stub';

const [baseDir = 'bench/out/paint-base', oursDir = 'bench/out/paint/console'] = process.argv.slice(2);
const servers = { base: await serve(resolve(baseDir)), ours: await serve(resolve(oursDir)) };
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
const keep = resolve('bench/out/screens');
let differing = 0;

async function open(which: 'base' | 'ours', path: string, dark: boolean): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript((mode: string) => {
    localStorage.setItem('lang', 'en');
    localStorage.setItem('color_mode', mode);
  }, dark ? 'dark' : 'light');
  if (path !== '/login') await context.addInitScript((user: string) => localStorage.setItem('user', user), JSON.stringify(admin));
  const tab = await context.newPage();
  await tab.goto(`http://127.0.0.1:${(servers[which].address() as AddressInfo).port}${path}`);
  await tab.waitForSelector(path === '/login' ? 'input[placeholder]' : dataRow, { timeout: 60_000 });
  // a toast (the stub answers some lists with shapes the page refuses) comes and goes with timing
  await tab.addStyleTag({ content: '[data-scope="toast"] { visibility: hidden !important; }' });
  await tab.mouse.move(0, 0);
  await tab.waitForTimeout(500);
  return tab;
}

/** Custom properties computed on the page's first input or button, and the median time of a full restyle. */
const restyle = (tab: Page): Promise<[number, number]> =>
  tab.evaluate(() => {
    const el = document.querySelector('input, button')!;
    const style = getComputedStyle(el);
    let custom = 0;
    for (let i = 0; i < style.length; i++) if (style[i]!.startsWith('--')) custom++;
    const root = document.documentElement;
    const times: number[] = [];
    for (let i = 0; i < 16; i++) {
      const t0 = performance.now();
      root.classList.toggle('dark');
      root.classList.toggle('light');
      void getComputedStyle(document.body).color;
      for (const e of document.querySelectorAll('body *')) void getComputedStyle(e).color;
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return [custom, (times[7]! + times[8]!) / 2] as [number, number];
  });

try {
  for (const path of ['/login', '/channel'])
    for (const dark of [false, true]) {
      const a = await open('base', path, dark);
      const b = await open('ours', path, dark);
      const [pa, pb] = [PNG.sync.read(await a.screenshot({ animations: 'disabled', caret: 'hide' })), PNG.sync.read(await b.screenshot({ animations: 'disabled', caret: 'hide' }))];
      const diff = differingPixels(pa, pb);
      const [ca, ta] = await restyle(a);
      const [cb, tb] = await restyle(b);
      const name = `${path.slice(1)}-${dark ? 'dark' : 'light'}`;
      console.log(`${name.padEnd(14)} ${diff < 0 ? 'sizes differ' : `${diff} pixels differ`}; custom properties on an input/button ${ca} -> ${cb}; full restyle ${ta.toFixed(2)} -> ${tb.toFixed(2)} ms`);
      if (diff !== 0) {
        differing++;
        mkdirSync(keep, { recursive: true });
        writeFileSync(`${keep}/${name}-base.png`, PNG.sync.write(pa));
        writeFileSync(`${keep}/${name}-ours.png`, PNG.sync.write(pb));
      }
      await a.context().close();
      await b.context().close();
    }
} finally {
  await browser.close();
  servers.base.close();
  servers.ours.close();
}
if (differing > 0) process.exitCode = 1;
