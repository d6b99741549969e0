import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { Client } from '../server/support/http';
import { setOptions, startGateway, type GatewayUnderTest } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/**
 * A common user's own account against the real gateway: redeeming a code root made on /topup
 * (the remaining quota changes), the empty-code message, the top-up link with its three query
 * parameters; then on /setting (personal tab) an access token and the invite link read back from
 * the clipboard, and deleting the account after typing the username.
 */
let gw: GatewayUnderTest;
let root: Client;

beforeAll(async () => {
  gw = await startGateway();
  root = await gw.root();
}, 180_000);

afterAll(async () => {
  await gw.close();
});

async function register(username: string, password: string): Promise<Client> {
  const user = new Client(gw.url);
  const reply = await user.post('/api/user/register', { username, password, password2: password, email: '', verification_code: '', aff_code: '' });
  expect(reply.body?.success, reply.text).toBe(true);
  expect((await user.login(username, password)).body?.success).toBe(true);
  return user;
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${gw.url}/login`);
  const form = page.getByRole('form', { name: /^(用户登录|Sign in)$/ });
  await form.getByLabel(/^(用户名或邮箱|Username or e-mail)/).fill(username);
  await form.getByLabel(/^(密码|Password)$/).fill(password);
  await form.getByRole('button', { name: /^(登录|Log in)$/ }).click();
  await page.waitForURL(`${gw.url}/token`);
}

async function newCode(quota: number): Promise<string> {
  const reply = await root.post('/api/redemption/', { name: 'e2e-topup', quota, count: 1 });
  expect(reply.body?.success, reply.text).toBe(true);
  return (reply.body?.data as string[])[0]!;
}

const bodyOverflow = (page: Page): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('top-up page', () => {
  it('a common user redeems a code root made and sees the remaining quota change; an empty code is refused', async () => {
    const user = await register('topper', 'topper-pass-1');
    const code = await newCode(250000);
    const context = await gw.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await signIn(page, 'topper', 'topper-pass-1');
    await page.goto(`${gw.url}/topup`);
    const remaining = page.getByTestId('remaining-quota');
    await expect.poll(() => remaining.textContent(), { timeout: 15_000 }).toBe('$0.00');
    expect(await bodyOverflow(page)).toBeLessThanOrEqual(0);

    await page.getByRole('button', { name: '兑换' }).click();
    await expect.poll(() => toasts.texts, { timeout: 10_000 }).toContain('请输入兑换码！');

    await page.getByLabel('兑换码').fill(code);
    await page.getByRole('button', { name: '兑换' }).click();
    await expect.poll(() => remaining.textContent(), { timeout: 15_000 }).toBe('$0.50');
    expect(toasts.texts).toContain('充值成功！本次增加额度：$0.50');
    expect(await page.getByLabel('兑换码').inputValue()).toBe('');
    const self = await user.get('/api/user/self');
    expect((self.body?.data as { quota: number }).quota).toBe(250000);

    // the same code again: the server's message
    await page.getByLabel('兑换码').fill(code);
    await page.getByRole('button', { name: '兑换' }).click();
    await expect.poll(() => toasts.texts, { timeout: 10_000 }).toContain('兑换失败，该兑换码已被使用');
    expectNoUnexpectedErrors(toasts, ['兑换失败，该兑换码已被使用']);
    await context.close();
  });

  it('"top up" says no link is set, then opens the configured link with username, user_id and transaction_id', async () => {
    const user = await register('payer', 'payer-pass-1');
    const self = await user.get('/api/user/self');
    const id = (self.body?.data as { id: number }).id;
    const context = await gw.newContext();
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await signIn(page, 'payer', 'payer-pass-1');
    await page.goto(`${gw.url}/topup`);
    await page.getByRole('button', { name: '充值' }).click();
    await expect.poll(() => toasts.texts, { timeout: 10_000 }).toContain('超级管理员未设置充值链接！');

    await setOptions(root, { TopUpLink: `${gw.url}/about` });
    await page.reload();
    const popup = context.waitForEvent('page');
    await page.getByRole('button', { name: '充值' }).click();
    const opened = await popup;
    await opened.waitForLoadState();
    const url = new URL(opened.url());
    expect(`${url.origin}${url.pathname}`).toBe(`${gw.url}/about`);
    expect(url.searchParams.get('username')).toBe('payer');
    expect(url.searchParams.get('user_id')).toBe(String(id));
    expect(url.searchParams.get('transaction_id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expectNoUnexpectedErrors(toasts, ['超级管理员未设置充值链接！']);
    await setOptions(root, { TopUpLink: '' });
    await context.close();
  });
});

/** The personal tab is the first tab of /setting. */
describe('personal settings', () => {
  let context: BrowserContext;
  afterAll(async () => {
    await context?.close();
  });

  it('generates an access token and copies the invite link (read back from the clipboard), then deletes the account', async () => {
    const user = await register('leaver', 'leaver-pass-1');
    context = await gw.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await signIn(page, 'leaver', 'leaver-pass-1');
    await page.goto(`${gw.url}/setting`);
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

    await page.getByRole('button', { name: '生成系统访问令牌' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('令牌已重置并已复制到剪贴板');
    const token = await clipboard();
    expect(token).toMatch(/^[0-9a-f]{32}$/);

    await page.getByRole('button', { name: '复制邀请链接' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('邀请链接已复制到剪切板');
    const aff = await user.get('/api/user/aff');
    expect(await clipboard()).toBe(`${gw.url}/register?aff=${aff.body?.data as string}`);

    await page.getByRole('button', { name: '删除个人账户' }).click();
    const confirmation = page.getByLabel('输入你的账户名 leaver 以确认删除');
    await confirmation.fill('someone');
    await page.getByRole('button', { name: '确认删除' }).click();
    await expect.poll(() => toasts.texts, { timeout: 10_000 }).toContain('请输入你的账户名以确认删除！');
    await confirmation.fill('leaver');
    await page.getByRole('button', { name: '确认删除' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('账户已删除！');
    await page.waitForURL(`${gw.url}/login`);
    expect((await new Client(gw.url).login('leaver', 'leaver-pass-1')).body?.success).toBe(false);
    expectNoUnexpectedErrors(toasts, ['请输入你的账户名以确认删除！']);
  });
});
