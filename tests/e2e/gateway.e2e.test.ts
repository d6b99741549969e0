import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { startGateway, type GatewayUnderTest } from './support/gateway';

let gw: GatewayUnderTest;

beforeAll(async () => {
  gw = await startGateway();
}, 180_000);

afterAll(async () => {
  await gw.close();
});

/** Every toast text the page shows, collected as they appear. */
async function watchToasts(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('__toast', (text: string) => seen.push(text));
  await page.addInitScript(() => {
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-scope="toast"][data-part="description"]')) {
        if (el instanceof HTMLElement && el.dataset.seen !== '1') {
          el.dataset.seen = '1';
          void (window as unknown as { __toast: (t: string) => Promise<void> }).__toast(el.textContent ?? '');
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return seen;
}

describe('the console on the real gateway', () => {
  it('serves the console and the status on one port', async () => {
    const page = await (await gw.browser.newContext()).newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/`);
    await page.getByRole('navigation', { name: '主导航' }).waitFor();
    await page.getByText('One API').first().waitFor();
    await page.waitForTimeout(500);
    expect(toasts).toEqual([]);
    await page.context().close();
  });

  it('root logs in with the default password: warned, sent to /user/edit, no decode errors; logout ends the server session', async () => {
    const context = await gw.browser.newContext();
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/login`);
    await page.getByLabel('用户名或邮箱').fill('root');
    await page.getByLabel('密码').fill('123456');
    await page.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
    await page.waitForURL(`${gw.url}/user/edit`);
    await page.getByRole('button', { name: '账户菜单：Root User' }).waitFor();
    await expect.poll(() => toasts).toEqual(expect.arrayContaining(['登录成功！', '请立刻修改默认密码！']));
    expect(toasts.filter((t) => t.includes('格式不正确') || t.startsWith('错误'))).toEqual([]);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    // the session works for the API
    const self = await page.evaluate(async () => (await fetch('/api/user/self')).status);
    expect(self).toBe(200);

    await page.getByRole('button', { name: '账户菜单：Root User' }).click();
    await page.getByRole('menuitem', { name: '注销' }).click();
    await page.waitForURL(`${gw.url}/login`);
    await page.getByRole('link', { name: '注册' }).waitFor();
    const after = await page.evaluate(async () => (await fetch('/api/user/self')).status);
    expect(after).toBe(401);
    await context.close();
  });

  it('a wrong password shows the server message and stays signed out', async () => {
    const page = await (await gw.browser.newContext()).newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/login`);
    await page.getByLabel('用户名或邮箱').fill('root');
    await page.getByLabel('密码').fill('wrong-password');
    await page.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
    await expect.poll(() => toasts.length).toBeGreaterThan(0);
    expect(toasts[0]).toBe('用户名或密码错误，或用户已被封禁');
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.context().close();
  });
});
