import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { startGateway, type GatewayUnderTest } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts, type SeenToasts } from './support/toasts';

/**
 * axe (WCAG 2 A/AA rules) on the signed-in screens: the user screens and every settings tab, plus
 * the admin lists, as root on the real gateway. Light on a desktop window, dark on a 375 px phone.
 */

let gw: GatewayUnderTest;

beforeAll(async () => {
  gw = await startGateway();
  const root = await gw.root();
  // Something in every list: a token, a code and a log row (the redemption writes a top-up log).
  await root.request('POST', '/api/token/', { body: { name: 'axe', remain_quota: 500000, expired_time: -1, unlimited_quota: false } });
  const codes = await root.request('POST', '/api/redemption/', { body: { name: 'axe', quota: 1000, count: 1 } });
  const key = (codes.body?.data as string[] | undefined)?.[0] ?? '';
  await root.request('POST', '/api/user/topup', { body: { key } });
}, 180_000);

afterAll(async () => {
  await gw.close();
});

const paths = [
  '/token',
  '/token/add',
  '/topup',
  '/log',
  '/dashboard',
  '/setting?tab=personal',
  '/setting?tab=operation',
  '/setting?tab=system',
  '/setting?tab=other',
  '/channel',
  '/user',
  '/redemption',
];

const modes = [
  { name: 'light desktop', viewport: { width: 1280, height: 800 }, colorScheme: 'light', dark: false },
  { name: 'dark 375 px', viewport: { width: 375, height: 812 }, colorScheme: 'dark', dark: true },
] as const;

/** The serious and critical WCAG 2 A/AA violations on the page as it is now, one line each. */
async function graveViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(result.passes.length).toBeGreaterThan(0);
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const mode of modes) {
  describe(`axe signed in, ${mode.name}`, () => {
    let context: BrowserContext;
    let page: Page;
    let toasts: SeenToasts;

    beforeAll(async () => {
      context = await gw.newContext({ viewport: mode.viewport, colorScheme: mode.colorScheme });
      page = await context.newPage();
      toasts = await watchToasts(page);
      await page.goto(`${gw.url}/login`);
      await page.getByLabel('用户名或邮箱').fill('root');
      await page.getByLabel('密码').fill('123456');
      await page.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
      await page.getByRole('button', { name: /^账户菜单：/ }).waitFor({ timeout: 60_000 });
    }, 120_000);

    afterAll(async () => {
      await context.close();
    });

    for (const path of paths) {
      it(`${path}: no serious or critical violation`, async () => {
        await page.goto(`${gw.url}${path}`);
        await page.locator('main h1, main h2, main h3').first().waitFor({ timeout: 60_000 });
        await page.waitForLoadState('networkidle');
        // let entrance transitions finish before colours are measured
        await page.waitForTimeout(400);
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(mode.dark);
        expect(await graveViolations(page)).toEqual([]);
        // The default-password warning after root's login is expected; nothing else may fail.
        expectNoUnexpectedErrors(toasts);
      }, 120_000);
    }
  });
}
