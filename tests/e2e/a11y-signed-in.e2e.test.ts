import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { graveViolations, untilStill, watchRequests, type PageRequests } from './support/axe';
import { startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts, type SeenToasts } from './support/toasts';

/**
 * axe (WCAG 2 A/AA rules) on the signed-in screens: the user screens and every settings tab, plus
 * the admin lists and forms (a channel's edit and clone forms too), as root on the real gateway. Light on a desktop window, dark on a 375 px phone.
 */

let gw: GatewayUnderTest;
let signedIn: SignedIn;

beforeAll(async () => {
  gw = await startGateway();
  const root = await gw.root();
  // Something in every list: a token, a code and a log row (the redemption writes a top-up log).
  await root.request('POST', '/api/token/', { body: { name: 'axe', remain_quota: 500000, expired_time: -1, unlimited_quota: false } });
  const codes = await root.request('POST', '/api/redemption/', { body: { name: 'axe', quota: 1000, count: 1 } });
  const key = (codes.body?.data as string[] | undefined)?.[0] ?? '';
  await root.request('POST', '/api/user/topup', { body: { key } });
  // a channel for the edit and clone forms (the gateway's database is fresh: it is channel 1)
  const channel = await root.request('POST', '/api/channel/', {
    body: { type: 1, name: 'axe-upstream', key: 'sk-axe', models: 'gpt-3.5-turbo', group: 'default' },
  });
  expect(channel.body?.success, channel.text).toBe(true);
  // root signs in through /login once; both windows start with that session
  signedIn = await gw.signedIn('root', '123456');
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
  '/pricing',
  '/setting?tab=personal',
  '/setting?tab=operation',
  '/setting?tab=system',
  '/setting?tab=other',
  '/channel',
  '/channel/add',
  '/channel/edit/1',
  '/channel/clone/1',
  '/user',
  '/user/add',
  '/user/edit',
  '/redemption',
  '/redemption/add',
];

const modes = [
  { name: 'light desktop', viewport: { width: 1280, height: 800 }, colorScheme: 'light', dark: false },
  { name: 'dark 375 px', viewport: { width: 375, height: 812 }, colorScheme: 'dark', dark: true },
] as const;

for (const mode of modes) {
  describe(`axe signed in, ${mode.name}`, () => {
    let context: BrowserContext;
    let page: Page;
    let toasts: SeenToasts;
    let requests: PageRequests;

    beforeAll(async () => {
      context = await gw.newContext({ viewport: mode.viewport, colorScheme: mode.colorScheme, storageState: signedIn });
      page = await context.newPage();
      toasts = await watchToasts(page);
      requests = watchRequests(page);
    }, 120_000);

    afterAll(async () => {
      await context.close();
    });

    for (const path of paths) {
      it(`${path}: no serious or critical violation`, async () => {
        await page.goto(`${gw.url}${path}`);
        await page.locator('main h1, main h2, main h3').first().waitFor({ timeout: 60_000 });
        // still signed in as root
        await page.getByRole('button', { name: /^账户菜单：/ }).waitFor();
        // the data has come and entrance transitions have ended before colours are measured
        await untilStill(page, requests);
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(mode.dark);
        expect(await graveViolations(page)).toEqual([]);
        expectNoUnexpectedErrors(toasts);
      }, 120_000);
    }
  });
}
