import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { startGateway, type GatewayUnderTest } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/** The shell on a phone-sized window (375×812) against the real gateway: drawer by keyboard, language, colour mode. */

let gw: GatewayUnderTest;

beforeAll(async () => {
  gw = await startGateway();
}, 180_000);

afterAll(async () => {
  await gw.close();
});

const phone = { width: 375, height: 812 };

/** Presses Tab until the focused element matches `selector` (at most `max` presses). */
async function tabTo(page: Page, selector: string, max = 25): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) === true, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

const focusedInDialog = (page: Page): Promise<boolean> =>
  page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null && document.activeElement !== null);

describe('the shell at 375 px', () => {
  it('opens the menu from the header button by keyboard, keeps focus inside, navigates, and closes with Escape', async () => {
    const context = await gw.newContext({ viewport: phone });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/`);
    const trigger = page.getByRole('button', { name: '打开菜单' });
    await trigger.waitFor();
    await expect.poll(() => trigger.isEnabled(), { timeout: 15_000 }).toBe(true);
    // the desktop menu is hidden, the page does not scroll sideways
    expect(await page.getByRole('navigation', { name: '主导航' }).isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);

    await tabTo(page, 'button[aria-label="打开菜单"]');
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: '菜单' });
    await drawer.waitFor();
    await expect.poll(() => focusedInDialog(page), { timeout: 5_000 }).toBe(true);
    // once slid in, the drawer lies within the window
    await expect
      .poll(async () => {
        const box = await drawer.boundingBox();
        return box !== null && box.x >= 0 && box.x + box.width <= phone.width;
      }, { timeout: 5_000 })
      .toBe(true);
    // focus stays in the drawer while tabbing through it
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      expect(await focusedInDialog(page)).toBe(true);
    }
    await tabTo(page, '[role="dialog"] a[href="/about"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${gw.url}/about`);
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByRole('link', { name: '关于', exact: true }).count()).toBe(0);

    // reopen, Escape closes and gives the focus back to the header button
    await trigger.focus();
    await page.keyboard.press('Enter');
    await drawer.waitFor();
    await expect.poll(() => page.getByRole('dialog', { name: '菜单' }).getByRole('link', { name: '关于' }).getAttribute('aria-current')).toBe('page');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('打开菜单');
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('switches zh → en: the texts change and stay English after a reload', async () => {
    const context = await gw.newContext({ viewport: phone });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/login`);
    await page.getByRole('heading', { name: '用户登录' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('heading', { name: '用户登录' }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'About' }).waitFor();
    await page.keyboard.press('Escape');

    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('button', { name: '中文' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('lang')])).toEqual(['en', 'en']);
    // and back
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('heading', { name: '用户登录' }).waitFor();
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('toggles dark mode, which paints the page dark and survives a reload', async () => {
    const context = await gw.newContext({ viewport: phone, colorScheme: 'light' });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/`);
    const toDark = page.getByRole('button', { name: '切换到深色模式' });
    await toDark.waitFor();
    /** The page background's luminance (0 black … 255 white). */
    const background = () =>
      page.evaluate(() => {
        const [r = 0, g = 0, b = 0] = (getComputedStyle(document.documentElement).backgroundColor.match(/[\d.]+/g) ?? []).map(Number);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      });
    expect(await background()).toBeGreaterThan(200);
    await toDark.click();
    await page.getByRole('button', { name: '切换到浅色模式' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await expect.poll(background, { timeout: 5_000 }).toBeLessThan(60);

    await page.reload();
    await page.getByRole('button', { name: '切换到浅色模式' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.classList.contains('dark'), localStorage.getItem('color_mode')])).toEqual([
      true,
      'dark',
    ]);
    expect(await background()).toBeLessThan(60);
    await page.getByRole('button', { name: '切换到浅色模式' }).click();
    await page.getByRole('button', { name: '切换到深色模式' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });
});

describe('the lists at 375×800 (signed in as root)', () => {
  const narrow = { width: 375, height: 800 };

  /** The page does not scroll sideways and every button of every card lies inside the window. */
  async function expectCardsInside(page: Page, listName: string): Promise<void> {
    const list = page.getByRole('list', { name: listName });
    await list.getByRole('listitem').first().waitFor({ timeout: 30_000 });
    expect(await page.getByRole('table').count()).toBe(0);
    const overflow = await page.evaluate(() => {
      const doc = document.scrollingElement ?? document.documentElement;
      return doc.scrollWidth - doc.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    const buttons = list.getByRole('listitem').getByRole('button');
    const count = await buttons.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i += 1) {
      const box = await buttons.nth(i).boundingBox();
      expect(box, `button ${i}`).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(narrow.width);
    }
  }

  it('tokens and channels are cards with their buttons on screen, nothing scrolls sideways', async () => {
    const root = await gw.root();
    const token = await root.request('POST', '/api/token/', { body: { name: 'phone-token', remain_quota: 500000, expired_time: -1, unlimited_quota: false } });
    expect(token.body?.success, token.text).toBe(true);
    const channel = await root.request('POST', '/api/channel/', {
      body: { type: 8, name: 'phone-channel', key: 'sk-phone', base_url: 'http://127.0.0.1:9', models: 'gpt-3.5-turbo', group: 'default' },
    });
    expect(channel.body?.success, channel.text).toBe(true);
    const signedIn = await gw.signedIn('root', '123456');
    const context = await gw.newContext({ viewport: narrow, storageState: signedIn });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    const toasts = await watchToasts(page);

    await page.goto(`${gw.url}/token`);
    await expectCardsInside(page, '令牌');
    await page.getByRole('heading', { level: 2, name: 'phone-token' }).waitFor();

    await page.goto(`${gw.url}/channel`);
    await expectCardsInside(page, '渠道');
    await page.getByRole('button', { name: '测试渠道 phone-channel' }).waitFor();
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });
});
