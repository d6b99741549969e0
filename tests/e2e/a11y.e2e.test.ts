import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { graveViolations, untilStill, watchRequests, type PageRequests } from './support/axe';
import { startGateway, type GatewayUnderTest } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts, type SeenToasts } from './support/toasts';

/** axe (WCAG 2 A/AA rules) on the public screens served by the real gateway: light, dark and a 375 px phone. */

let gw: GatewayUnderTest;

beforeAll(async () => {
  gw = await startGateway();
}, 180_000);

afterAll(async () => {
  await gw.close();
});

const paths = ['/', '/login', '/register', '/reset', '/user/reset?email=someone%40example.com&token=0123456789abcdef0123456789abcdef', '/about'];

const modes = [
  { name: 'light', viewport: { width: 1280, height: 800 }, colorScheme: 'light', dark: false },
  { name: 'dark', viewport: { width: 1280, height: 800 }, colorScheme: 'dark', dark: true },
  { name: '375 px', viewport: { width: 375, height: 812 }, colorScheme: 'light', dark: false },
] as const;

for (const mode of modes) {
  describe(`axe, ${mode.name}`, () => {
    let context: BrowserContext;
    let page: Page;
    let toasts: SeenToasts;
    let requests: PageRequests;

    beforeAll(async () => {
      context = await gw.newContext({ viewport: mode.viewport, colorScheme: mode.colorScheme });
      page = await context.newPage();
      toasts = await watchToasts(page);
      requests = watchRequests(page);
    });

    afterAll(async () => {
      expectNoUnexpectedErrors(toasts);
      await context.close();
    });

    for (const path of paths) {
      it(`${path}: no serious or critical violation`, async () => {
        await page.goto(`${gw.url}${path}`);
        await page.locator('main h1, main h2, main h3').first().waitFor();
        // the data has come and entrance transitions have ended before colours are measured
        await untilStill(page, requests);
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(mode.dark);
        expect(await graveViolations(page)).toEqual([]);
        expectNoUnexpectedErrors(toasts);
      });
    }

    if (mode.viewport.width <= 600) {
      it('/ with the menu drawer open: no serious or critical violation', async () => {
        await page.goto(`${gw.url}/`);
        const trigger = page.getByRole('button', { name: '打开菜单' });
        await expect.poll(() => trigger.isEnabled(), { timeout: 15_000 }).toBe(true);
        await trigger.click();
        await page.getByRole('dialog', { name: '菜单' }).waitFor();
        await untilStill(page, requests);
        expect(await graveViolations(page)).toEqual([]);
      });
    }
  });
}
