import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../server/support/http';
import { chooseMenuItem, startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';
import { watchToasts } from './support/toasts';

/**
 * A session that never loses work, on the real gateway: the server forgets the session while a
 * token is being created (the cookie is deleted), the submit opens the sign-in dialog over the
 * form, the same user signs in again and the token is created exactly once; Cancel is the old
 * expiry (/login?expired=true); and signing out or in in one tab shows in the other at once.
 */
let gw: GatewayUnderTest;

const username = 'reauthowner';
const password = 'reauthowner-pass-1';
let owner: SignedIn;

beforeAll(async () => {
  gw = await startGateway();
  const registered = await new Client(gw.url).post('/api/user/register', {
    username,
    password,
    password2: password,
    email: '',
    verification_code: '',
    aff_code: '',
  });
  expect(registered.body?.success, registered.text).toBe(true);
  owner = await gw.signedIn(username, password, '/token');
}, 180_000);

afterAll(async () => {
  await gw.close();
});

const tokensNamed = (name: string) => gw.database.db.selectFrom('tokens').select(['id']).where('name', '=', name).execute();

describe('the sign-in dialog over an expired session', () => {
  it('a 401 while creating a token opens the dialog; the same user signs in and the token is created exactly once', async () => {
    const context = await gw.newContext({ storageState: owner });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/token/add`);
    const form = page.getByRole('form', { name: '创建新的令牌' });
    await form.getByLabel(/^名称/).fill('e2e-reauth');
    // the server forgets the session
    await context.clearCookies();
    await form.getByRole('button', { name: '提交' }).click();
    const dialog = page.getByRole('alertdialog', { name: '登录已过期' });
    await dialog.waitFor();
    // the focus is in the password box; the user name is shown read-only; the form is still there
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('password');
    expect(await dialog.getByLabel('用户名').inputValue()).toBe(username);
    expect(await dialog.getByLabel('用户名').getAttribute('readonly')).not.toBeNull();
    expect(new URL(page.url()).pathname).toBe('/token/add');
    expect(await tokensNamed('e2e-reauth')).toHaveLength(0);
    // a wrong password is said inline and the dialog stays
    await dialog.getByLabel('密码').fill('not-the-password');
    await dialog.getByRole('button', { name: '登录', exact: true }).click();
    await dialog.getByText('用户名或密码错误，或用户已被封禁').waitFor();
    await dialog.getByLabel('密码').fill(password);
    await dialog.getByRole('button', { name: '登录', exact: true }).click();
    await expect.poll(() => toasts.texts, { timeout: 30_000 }).toContain('令牌创建成功，请在列表页面点击复制获取令牌！');
    await page.waitForURL(`${gw.url}/token`);
    await dialog.waitFor({ state: 'detached' });
    expect(await tokensNamed('e2e-reauth')).toHaveLength(1);
    await context.close();
  });

  it('Cancel leaves for /login?expired=true and nothing is saved', async () => {
    const context = await gw.newContext({ storageState: owner });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    await page.goto(`${gw.url}/token/add`);
    const form = page.getByRole('form', { name: '创建新的令牌' });
    await form.getByLabel(/^名称/).fill('e2e-reauth-cancel');
    await context.clearCookies();
    await form.getByRole('button', { name: '提交' }).click();
    const dialog = page.getByRole('alertdialog', { name: '登录已过期' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '取消' }).click();
    await page.waitForURL(`${gw.url}/login?expired=true`);
    expect(await tokensNamed('e2e-reauth-cancel')).toHaveLength(0);
    await context.close();
  });

  it('signing out and in in one tab shows in the other tab at once', async () => {
    const context = await gw.newContext({ storageState: owner });
    context.setDefaultTimeout(60_000);
    const first = await context.newPage();
    const second = await context.newPage();
    await first.goto(`${gw.url}/token`);
    await second.goto(`${gw.url}/token`);
    const menu = (page: typeof first) => page.getByRole('button', { name: /^账户菜单：/ });
    await menu(first).waitFor();
    await menu(second).waitFor();
    // sign out in the first tab: the second leaves for the login page
    await menu(first).click();
    await chooseMenuItem(first, '注销');
    await first.waitForURL(`${gw.url}/login`);
    await second.getByRole('form', { name: '用户登录' }).waitFor();
    await menu(second).waitFor({ state: 'detached' });
    // sign in in the first tab: the second is signed in too
    await first.getByLabel('用户名或邮箱').fill(username);
    await first.getByLabel('密码').fill(password);
    await first.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
    await menu(first).waitFor();
    await menu(second).waitFor();
    const self = await second.evaluate(async () => (await fetch('/api/user/self')).status);
    expect(self).toBe(200);
    await context.close();
  });
});
