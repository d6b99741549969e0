// Compares the list pages of two table-harness builds pixel for pixel: this tree's
// (bench/out/tables) and the baseline's (bench/out/tables-baseline, `npm run bench:tables --
// --baseline <ref> --build-only`), channel and user lists, light and dark, 1366 px wide (a table
// of 100 rows: the screen at the top of the page, one scrolled halfway and one at the bottom, as a
// windowed table draws only the rows near the viewport) and 375 px (cards, 20 rows, the whole page). Prints the differing pixels of each pair and keeps
// the screenshots of a pair that differs in bench/out/screens (every pair with KEEP_ALL=1).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright';
import { PNG } from 'pngjs';
import { differingPixels } from '../pixels';
import { launchChromium, serveHarnesses } from './local';

const keep = resolve(fileURLToPath(new URL('.', import.meta.url)), '../out/screens');
const server = await serveHarnesses();
const browser = await launchChromium();
/** Where each build is served: this tree's at the root, the baseline's under /baseline/. */
const prefix = { now: '/', base: '/baseline/' } as const;

async function shot(page: Page, which: 'now' | 'base', list: string, width: number, dark: boolean, at: number): Promise<Buffer> {
  const size = width < 768 ? 20 : 100;
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${server.url}${prefix[which]}?list=${list}&rows=${size}&size=${size}`);
  if (dark) await page.evaluate(() => {
    document.documentElement.classList.add('dark');
    document.documentElement.style.colorScheme = 'dark';
  });
  await page.waitForFunction(
    ([n, cards]) =>
      (cards
        ? document.querySelectorAll('ul[role="list"] > li').length
        : document.querySelector('table[aria-rowcount]') !== null
          ? Number(document.querySelector('table[aria-rowcount]')!.getAttribute('aria-rowcount')) - 1
          : document.querySelectorAll('table tbody tr').length) === n &&
      document.querySelector('[aria-busy="true"]') === null,
    [size, width < 768] as const,
  );
  await page.mouse.move(0, 0);
  if (width >= 768) await page.evaluate((f) => scrollTo(0, f * (document.documentElement.scrollHeight - innerHeight)), at);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForTimeout(300);
  return page.screenshot({ fullPage: width < 768, animations: 'disabled', caret: 'hide' });
}

let differing = 0;
try {
  const page = await browser.newPage();
  for (const list of ['channel', 'user'])
    for (const width of [1366, 375])
      for (const dark of [false, true])
        for (const at of width < 768 ? [0] : [0, 0.5, 1]) {
        const a = PNG.sync.read(await shot(page, 'base', list, width, dark, at));
        const bBuf = await shot(page, 'now', list, width, dark, at);
        const b = PNG.sync.read(bBuf);
        const diff = differingPixels(a, b);
        const name = `${list}-${width}-${dark ? 'dark' : 'light'}${width < 768 ? '' : `-at${at}`}`;
        console.log(`${name.padEnd(20)} ${a.width}x${a.height} vs ${b.width}x${b.height}: ${diff < 0 ? 'sizes differ' : `${diff} pixels differ`}`);
        if (diff !== 0) differing++;
        if (diff !== 0 || process.env.KEEP_ALL === '1') {
          mkdirSync(keep, { recursive: true });
          writeFileSync(join(keep, `${name}-base.png`), PNG.sync.write(a));
          writeFileSync(join(keep, `${name}-now.png`), bBuf);
        }
      }
} finally {
  await browser.close();
  server.close();
}
console.log(differing === 0 ? 'all screenshots identical' : `${differing} pairs differ (kept in ${keep})`);
