import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { Client } from '../server/support/http';
import { chooseMenuItem, startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/**
 * The token list against the real gateway, as a common user: tokens created through the API are
 * listed; the copy button puts `sk-<key>` on the clipboard and the NextChat format its link; a
 * token is disabled and enabled again, another deleted after the confirmation (the server
 * agrees); English at 375 px in dark mode without sideways scrolling.
 */
let gw: GatewayUnderTest;
let user: Client;
let serverAddress = '';
/** The owner, signed in through /login once (a normal login lands on the token list). */
let owner: SignedIn;

interface WireToken {
  readonly id: number;
  readonly name: string;
  readonly key: string;
  readonly status: number;
}

const username = 'tokenowner';
const password = 'tokenowner-pass-1';

beforeAll(async () => {
  gw = await startGateway();
  user = new Client(gw.url);
  const registered = await user.post('/api/user/register', {
    username,
    password,
    password2: password,
    email: '',
    verification_code: '',
    aff_code: '',
  });
  expect(registered.body?.success, registered.text).toBe(true);
  expect((await user.login(username, password)).body?.success).toBe(true);
  for (const body of [
    { name: 'e2e-chat', remain_quota: 500000, expired_time: -1, unlimited_quota: false, models: '', subnet: '' },
    { name: 'e2e-batch', remain_quota: 0, expired_time: -1, unlimited_quota: true, models: 'gpt-4o-mini', subnet: '' },
  ]) {
    const created = await user.post('/api/token/', body);
    expect(created.body?.success, created.text).toBe(true);
  }
  const status = await user.request('GET', '/api/status');
  serverAddress = (status.body?.data as { server_address: string }).server_address;
  owner = await gw.signedIn(username, password, '/token');
}, 180_000);

afterAll(async () => {
  await gw.close();
});

async function tokensOnServer(): Promise<WireToken[]> {
  const list = await user.request('GET', '/api/token/?p=0');
  expect(list.body?.success, list.text).toBe(true);
  return list.body?.data as WireToken[];
}

/** The page body does not scroll sideways (only the table's own box may). */
async function bodyOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

const clipboardText = (page: Page): Promise<string> => page.evaluate(() => navigator.clipboard.readText());

describe('tokens', () => {
  it('lists the API-created tokens; copies sk-<key> and the NextChat link; disables, enables and deletes', async () => {
    const chat = 'e2e-chat';
    const batch = 'e2e-batch';
    const before = await tokensOnServer();
    const chatToken = before.find((t) => t.name === chat)!;
    const batchToken = before.find((t) => t.name === batch)!;
    const label = (t: WireToken) => `${t.name}（#${t.id}）`;

    const context = await gw.newContext({ permissions: ['clipboard-read', 'clipboard-write'], storageState: owner });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/token`);
    const table = page.getByRole('table', { name: '令牌' });
    await table.getByText(chat, { exact: true }).waitFor();
    await table.getByText(batch, { exact: true }).waitFor();
    // unlimited quota and 'never expires'
    await table.getByRole('row').filter({ hasText: batch }).getByText('无限制').waitFor();
    expect(await table.getByText('永不过期').count()).toBeGreaterThanOrEqual(2);

    // copy: exactly sk-<key> on the clipboard; the key is shown nowhere
    await page.getByRole('button', { name: `复制令牌 ${label(chatToken)}` }).click();
    await expect.poll(() => toasts.texts).toContain('已复制到剪贴板！');
    expect(await clipboardText(page)).toBe(`sk-${chatToken.key}`);
    for (const text of toasts.texts) expect(text).not.toContain(chatToken.key);
    expect(page.url()).not.toContain(chatToken.key);

    // the NextChat format: the public instance (no ChatLink) with the key and the server address
    await page.getByRole('button', { name: `令牌 ${label(batchToken)} 的复制格式` }).click();
    await chooseMenuItem(page, '复制 NextChat 链接');
    await expect
      .poll(() => clipboardText(page))
      .toBe(`https://app.nextchat.dev/#/?settings={"key":"sk-${batchToken.key}","url":"${serverAddress}"}`);
    // the chat button opens the same link in a new tab
    const chatLink = page.getByRole('link', { name: `聊天：在 NextChat 中使用令牌 ${label(batchToken)}` });
    expect(await chatLink.getAttribute('target')).toBe('_blank');
    expect(await chatLink.getAttribute('href')).toBe(`https://app.nextchat.dev/#/?settings={"key":"sk-${batchToken.key}","url":"${serverAddress}"}`);

    // disable, then enable again: the server's answer replaces the row
    await page.getByRole('button', { name: `禁用令牌 ${label(chatToken)}` }).click();
    await page.getByRole('button', { name: `启用令牌 ${label(chatToken)}` }).waitFor();
    await table.getByRole('row').filter({ hasText: chat }).getByText('已禁用').waitFor();
    expect((await tokensOnServer()).find((t) => t.id === chatToken.id)?.status).toBe(2);
    await page.getByRole('button', { name: `启用令牌 ${label(chatToken)}` }).click();
    await page.getByRole('button', { name: `禁用令牌 ${label(chatToken)}` }).waitFor();
    expect((await tokensOnServer()).find((t) => t.id === chatToken.id)?.status).toBe(1);

    // delete asks first; cancel keeps it, confirm removes it
    await page.getByRole('button', { name: `删除令牌 ${label(batchToken)}` }).click();
    let dialog = page.getByRole('alertdialog');
    await dialog.getByText(`确定要删除令牌「${batch}」吗？此操作无法撤销。`).waitFor();
    await dialog.getByText('取消', { exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: `删除令牌 ${label(batchToken)}` }).click();
    dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: '删除' }).click();
    await table.getByText(batch, { exact: true }).waitFor({ state: 'detached' });
    expect((await tokensOnServer()).map((t) => t.name)).not.toContain(batch);

    // search by name, and the server order dropdown
    await page.getByRole('searchbox', { name: '搜索令牌的名称 ...' }).fill('e2e-c');
    await page.getByRole('searchbox', { name: '搜索令牌的名称 ...' }).press('Enter');
    await page.waitForURL(/q=e2e-c/);
    await table.getByText(chat, { exact: true }).waitFor();
    await page.getByRole('button', { name: /^(清除搜索|Clear search)$/ }).click();
    await page.getByLabel('排序方式').selectOption('used_quota');
    await page.waitForURL(/order=used_quota/);
    await table.getByText(chat, { exact: true }).waitFor();
    expect(await bodyOverflow(page)).toBeLessThanOrEqual(0);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('English at 375 px in dark mode: the list reads in English and the page does not scroll sideways', async () => {
    const context = await gw.newContext({ viewport: { width: 375, height: 812 }, storageState: owner });
    await context.addInitScript(() => {
      localStorage.setItem('lang', 'en');
      localStorage.setItem('color_mode', 'dark');
    });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/token`);
    await page.getByRole('heading', { name: 'Tokens' }).waitFor();
    // on a phone each token is a card
    const table = page.getByRole('list', { name: 'Tokens' });
    await table.getByText('e2e-chat', { exact: true }).waitFor();
    await table.getByText('Never expires').first().waitFor();
    expect(await page.getByRole('link', { name: 'Add a new token' }).getAttribute('href')).toBe('/token/add');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await bodyOverflow(page)).toBeLessThanOrEqual(0);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });
});
