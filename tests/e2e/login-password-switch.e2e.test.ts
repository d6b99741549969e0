import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOption } from '../server/support/db';
import { startGateway, type GatewayUnderTest } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/** The password-login switch (option PasswordLoginEnabled, status `password_login`) on /login. */

let gw: GatewayUnderTest;

beforeAll(async () => {
  gw = await startGateway();
}, 180_000);

afterAll(async () => {
  await gw.close();
});

describe('the password login switch on the real gateway', () => {
  it("hides the password form when PasswordLoginEnabled is 'false' and shows it when 'true'", async () => {
    const { db } = gw.database;
    await setOption(db, 'PasswordLoginEnabled', 'false');
    await setOption(db, 'GitHubOAuthEnabled', 'true');
    await setOption(db, 'GitHubClientId', 'e2e-client');

    const off = await gw.newContext();
    const page = await off.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/login`);
    await page.getByText('管理员已关闭密码登录，请使用下方的其他登录方式。').waitFor();
    expect(await page.locator('input[type="password"]').count()).toBe(0);
    expect(await page.getByLabel('用户名或邮箱').count()).toBe(0);
    expect(await page.getByRole('button', { name: '登录', exact: true }).count()).toBe(0);
    // the alternate logins stay
    await page.getByRole('button', { name: '使用 GitHub 登录' }).waitFor();
    // and the server refuses a password login anyway
    const reply = await page.request.post(`${gw.url}/api/user/login`, { data: { username: 'root', password: '123456' } });
    expect(((await reply.json()) as { success: boolean }).success).toBe(false);
    expectNoUnexpectedErrors(toasts);
    await off.close();

    await setOption(db, 'PasswordLoginEnabled', 'true');
    const on = await gw.newContext();
    const again = await on.newPage();
    await again.goto(`${gw.url}/login`);
    await again.getByLabel('密码').waitFor();
    expect(await again.locator('input[type="password"]').count()).toBe(1);
    expect(await again.getByText('管理员已关闭密码登录，请使用下方的其他登录方式。').count()).toBe(0);
    await again.getByLabel('用户名或邮箱').fill('root');
    await again.getByLabel('密码').fill('123456');
    await again.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
    await again.getByRole('button', { name: /^账户菜单：/ }).waitFor();
    await on.close();
  });

  it('password login off and no other method enabled: no form, no empty "below", a message to contact the administrator', async () => {
    const { db } = gw.database;
    await setOption(db, 'PasswordLoginEnabled', 'false');
    await setOption(db, 'GitHubOAuthEnabled', 'false');
    await setOption(db, 'WeChatAuthEnabled', 'false');
    await setOption(db, 'LarkClientId', '');
    const visitor = await gw.newContext();
    const page = await visitor.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/login`);
    await page.getByText('管理员已关闭密码登录，且未启用其他登录方式，请联系管理员。').waitFor();
    expect(await page.getByText('管理员已关闭密码登录，请使用下方的其他登录方式。').count()).toBe(0);
    expect(await page.getByText('其他登录方式', { exact: true }).count()).toBe(0);
    expect(await page.locator('input[type="password"]').count()).toBe(0);
    expectNoUnexpectedErrors(toasts);
    await visitor.close();
    await setOption(db, 'PasswordLoginEnabled', 'true');
  });
});
