import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseMenuItem, startGateway, type GatewayUnderTest } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

let gw: GatewayUnderTest;

beforeAll(async () => {
  gw = await startGateway();
}, 180_000);

afterAll(async () => {
  await gw.close();
});

describe('the console on the real gateway', () => {
  it('serves the console and the status on one port', async () => {
    const page = await (await gw.newContext()).newPage();
    const toasts = await watchToasts(page);
    const status = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/status');
    await page.goto(`${gw.url}/`);
    await page.getByRole('navigation', { name: '主导航' }).waitFor();
    await page.getByText('One API').first().waitFor();
    // the status has come and been read, and nothing else is loading: no toast by then
    expect((await status).status()).toBe(200);
    await page.waitForLoadState('networkidle');
    expect(toasts.texts).toEqual([]);
    await page.context().close();
  });

  it('root logs in with the default password: warned, sent to /user/edit, no decode errors; logout ends the server session', async () => {
    const context = await gw.newContext();
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/login`);
    await page.getByLabel('用户名或邮箱').fill('root');
    await page.getByLabel('密码').fill('123456');
    await page.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
    await page.waitForURL(`${gw.url}/user/edit`);
    await page.getByRole('button', { name: '账户菜单：Root User' }).waitFor();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toEqual(expect.arrayContaining(['登录成功！', '请立刻修改默认密码！']));
    expectNoUnexpectedErrors(toasts);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    // the session works for the API
    const self = await page.evaluate(async () => (await fetch('/api/user/self')).status);
    expect(self).toBe(200);

    // the toasts show under the header: the account menu is reachable while they do
    expect(await page.getByText('请立刻修改默认密码！').first().isVisible()).toBe(true);
    // a toast under the resting pointer waits (hovering pauses it); the next action moves the
    // pointer off it (letToastsRunOut) and it runs on, so it cannot stay over what it covers
    const warning = page.locator('[data-scope="toast"][data-part="root"]').filter({ hasText: '请立刻修改默认密码！' });
    await warning.hover();
    await expect.poll(() => warning.getAttribute('data-paused')).toBe('');
    // an action that does not move the mouse itself
    await page.getByRole('button', { name: '账户菜单：Root User' }).scrollIntoViewIfNeeded();
    await expect.poll(() => warning.getAttribute('data-paused')).toBeNull();
    await page.getByRole('button', { name: '账户菜单：Root User' }).click();
    await chooseMenuItem(page, '注销');
    await page.waitForURL(`${gw.url}/login`);
    await page.getByRole('link', { name: '注册', exact: true }).waitFor();
    const after = await page.evaluate(async () => (await fetch('/api/user/self')).status);
    expect(after).toBe(401);
    await context.close();
  });

  it('root changes the default password on /user/edit: the new name shows, the old password stops working', async () => {
    const context = await gw.newContext();
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/login`);
    await page.getByLabel('用户名或邮箱').fill('root');
    await page.getByLabel('密码').fill('123456');
    await page.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
    await page.waitForURL(`${gw.url}/user/edit`);
    const form = page.getByRole('form', { name: '更新用户信息' });
    await expect.poll(() => form.getByLabel('用户名').inputValue(), { timeout: 15_000 }).toBe('root');
    await form.getByLabel('密码').fill('a-new-root-password');
    await form.getByLabel('显示名称').fill('Chief');
    await form.getByRole('button', { name: '提交' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('用户信息更新成功！');
    // the header follows the saved account; the password box is emptied
    await page.getByRole('button', { name: '账户菜单：Chief' }).waitFor();
    expect(await form.getByLabel('密码').inputValue()).toBe('');
    expectNoUnexpectedErrors(toasts);

    const login = async (password: string) =>
      page.evaluate(
        async (p) =>
          ((await (await fetch('/api/user/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'root', password: p }) })).json()) as { success: boolean }).success,
        password,
      );
    expect(await login('123456')).toBe(false);
    expect(await login('a-new-root-password')).toBe(true);
    // (the later walks of this file do not need root's password)
    await context.close();
  });

  it('a wrong password shows the server message and stays signed out', async () => {
    const page = await (await gw.newContext()).newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/login`);
    await page.getByLabel('用户名或邮箱').fill('root');
    await page.getByLabel('密码').fill('wrong-password');
    await page.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
    await expect.poll(() => toasts.texts.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(toasts.texts[0]).toBe('用户名或密码错误，或用户已被封禁');
    expectNoUnexpectedErrors(toasts, ['用户名或密码错误，或用户已被封禁']);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.context().close();
  });
});
