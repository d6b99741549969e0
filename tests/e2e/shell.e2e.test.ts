import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { consoleDist, setOptions, startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';
import { graveViolations } from './support/axe';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/** The shell's route guard, visitor menu, tab title and one-line English menu on the real gateway. */

let gw: GatewayUnderTest;
let root: SignedIn;
let member: SignedIn;
const common = { username: 'shellmember', password: 'shell-pass-1' };

beforeAll(async () => {
  gw = await startGateway();
  const client = await gw.root();
  await setOptions(client, { SystemName: 'My Gateway', ChatLink: 'https://chat.example.com' });
  const created = await client.request('POST', '/api/user/', { body: { ...common, display_name: 'Member' } });
  expect(created.body?.success, created.text).toBe(true);
  root = await gw.signedIn('root', '123456', '/user/edit');
  member = await gw.signedIn(common.username, common.password);
}, 180_000);

afterAll(async () => {
  await gw.close();
});

const mainNav = (page: Page) => page.getByRole('navigation', { name: '主导航' });

describe('admin routes by role', () => {
  it('shows a common user the 403 page on every admin route, with no failed call and a link home', async () => {
    const context = await gw.newContext({ storageState: member });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    for (const path of ['/channel', '/channel/add', '/channel/edit/1', '/user', '/user/add', '/user/edit/1', '/redemption', '/redemption/add']) {
      await page.goto(`${gw.url}${path}`);
      await page.getByRole('heading', { level: 1, name: '无权访问此页面' }).waitFor();
      expect(page.url(), path).toBe(`${gw.url}${path}`);
      expect(await page.getByRole('form').count(), path).toBe(0);
      expect(await page.getByText('列表加载失败').count(), path).toBe(0);
      // the tab names the 403 page, not the admin page it refused
      await expect.poll(() => page.title(), { timeout: 5_000 }).toMatch(/^无权访问此页面 - /);
    }
    // the own profile under /user stays open, and 用户 is not in the menu
    await page.goto(`${gw.url}/user/edit`);
    await page.getByLabel('显示名称').waitFor();
    expect(await mainNav(page).getByRole('link', { name: '用户' }).count()).toBe(0);
    expect(await mainNav(page).getByRole('link', { name: '设置' }).getAttribute('aria-current')).toBe('page');

    await page.goto(`${gw.url}/channel`);
    await page.getByRole('heading', { level: 1, name: '无权访问此页面' }).waitFor();
    expect(await graveViolations(page)).toEqual([]);
    await page.getByRole('link', { name: '返回首页' }).click();
    await page.waitForURL(`${gw.url}/`);
    expect(toasts.texts).not.toContain('无权进行此操作');
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('draws the 403 page without serious axe violations in dark mode on a phone', async () => {
    const context = await gw.newContext({ storageState: member, viewport: { width: 375, height: 812 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`${gw.url}/redemption/edit/1`);
    await page.getByRole('heading', { level: 1, name: '无权访问此页面' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await graveViolations(page)).toEqual([]);
    await context.close();
  });

  it('lets root into the same routes (no 403), and sends a visitor to /login', async () => {
    const context = await gw.newContext({ storageState: root });
    const page = await context.newPage();
    await page.goto(`${gw.url}/channel`);
    await page.getByRole('heading', { name: '渠道' }).first().waitFor();
    await page.goto(`${gw.url}/user/add`);
    await page.getByRole('form', { name: '创建新用户账户' }).waitFor();
    expect(await page.getByText('无权访问此页面').count()).toBe(0);
    await context.close();

    const visitor = await gw.newContext();
    const anon = await visitor.newPage();
    await anon.goto(`${gw.url}/channel`);
    await anon.waitForURL(`${gw.url}/login`);
    await visitor.close();
  });
});

describe('the header', () => {
  it('offers a visitor only home, chat and about, with sign in and register', async () => {
    const context = await gw.newContext();
    const page = await context.newPage();
    await page.goto(`${gw.url}/about`);
    await expect.poll(() => mainNav(page).getByRole('link').allTextContents(), { timeout: 15_000 }).toEqual(['首页', '聊天', '关于']);
    await page.getByRole('link', { name: '登录' }).waitFor();
    await page.getByRole('link', { name: '注册' }).waitFor();
    await context.close();
  });

  it('names the tab after the page and the configured system name', async () => {
    const context = await gw.newContext({ storageState: member });
    const page = await context.newPage();
    await page.goto(`${gw.url}/token`);
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe('令牌 - My Gateway');
    await mainNav(page).getByRole('link', { name: '首页' }).click();
    await expect.poll(() => page.title()).toBe('My Gateway');
    await context.close();
  });

  const english = async (context: BrowserContext, width: number): Promise<Page> => {
    const page = await context.newPage();
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${gw.url}/about`);
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    return page;
  };

  for (const width of [1366, 1024]) {
    it(`keeps the English menu with chat on one line at ${width} px, the rest under More (keyboard)`, async () => {
      const context = await gw.newContext({ storageState: root });
      const page = await english(context, width);
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      await nav.getByRole('link', { name: 'Top up' }).or(nav.getByRole('button', { name: 'More' })).first().waitFor();
      await expect
        .poll(async () => {
          const boxes = await nav.getByRole('link').evaluateAll((links) => links.map((a) => a.getBoundingClientRect()));
          return new Set(boxes.map((b) => Math.round(b.top))).size === 1 && boxes.every((b) => b.height < 48);
        }, { timeout: 10_000 })
        .toBe(true);
      expect(await nav.evaluate((n) => n.scrollWidth <= n.clientWidth + 1)).toBe(true);
      const shown = await nav.getByRole('link').count();
      // admin + chat: 12 entries
      if (shown < 12) {
        const more = nav.getByRole('button', { name: 'More' });
        await expect.poll(() => more.isEnabled(), { timeout: 10_000 }).toBe(true);
        await more.focus();
        await page.keyboard.press('Enter');
        const items = page.getByRole('menuitem');
        await items.first().waitFor();
        // every entry exactly once, in the bar or under More (read together: the bar refits when its
        // width is first measured, which may land between two reads)
        await expect.poll(async () => (await nav.getByRole('link').count()) + (await items.count())).toBe(12);
        expect(await graveViolations(page)).toEqual([]);
        await page.keyboard.press('Escape');
        await expect.poll(() => items.count()).toBe(0);
      }
      if (width === 1024) expect(shown).toBeLessThan(12);
      await context.close();
    });
  }
});

describe('language catalogues', () => {
  it('loads only the shell and login areas of the active language first, loads them in English on switching (and remembers it), and switches back', async () => {
    // each area of each language is its own chunk (src/i18n/<lang>/areas/<area>.ts), named in the build's manifest
    const manifest = JSON.parse(readFileSync(join(consoleDist(), '.vite/manifest.json'), 'utf8')) as Record<string, { readonly file: string }>;
    const areaOfFile = new Map<string, string>(
      Object.entries(manifest).flatMap(([source, { file }]) => {
        const area = /^src\/i18n\/(zh|en)\/areas\/(\w+)\.ts$/.exec(source);
        return area ? [[`/${file}`, `${area[1]}.${area[2]}`] as const] : [];
      }),
    );
    const context = await gw.newContext();
    const page = await context.newPage();
    const catalogues: string[] = [];
    page.on('request', (r) => {
      const area = areaOfFile.get(new URL(r.url()).pathname);
      if (area) catalogues.push(area);
    });
    const loaded = () => [...catalogues].sort();
    await page.goto(`${gw.url}/login`);
    await page.getByPlaceholder('用户名或邮箱地址').waitFor();
    expect(loaded()).toEqual(['zh.login', 'zh.shell']);

    await page.getByRole('button', { name: 'English' }).click();
    await page.getByPlaceholder('Username or e-mail address').waitFor();
    expect(await page.getByRole('form', { name: 'Sign in' }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(loaded()).toEqual(['en.login', 'en.shell', 'zh.login', 'zh.shell']);

    // a reload starts in English and loads only the English areas
    catalogues.length = 0;
    await page.reload();
    await page.getByPlaceholder('Username or e-mail address').waitFor();
    expect(loaded()).toEqual(['en.login', 'en.shell']);

    // another page's area loads with it
    await page.getByRole('link', { name: 'Register' }).click();
    await page.getByRole('form', { name: 'Create an account' }).waitFor();
    expect(loaded()).toEqual(['en.account', 'en.login', 'en.shell']);

    // back to Chinese: every area loaded so far, on demand again (a fresh page has only English)
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('form', { name: '新用户注册' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(loaded()).toEqual(['en.account', 'en.login', 'en.shell', 'zh.account', 'zh.login', 'zh.shell']);
    await context.close();
  });
});
