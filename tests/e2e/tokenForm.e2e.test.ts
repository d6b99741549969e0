import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../server/support/http';
import { startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/**
 * The token form against the real gateway, as a common user: a channel (made by root through the
 * API) offers models; the user creates a token limited to one of them that expires in one day, an
 * invalid IP restriction is refused without a request, the token shows in /token and is stored
 * with its models and expiry; then its name is edited. English at 375 px in dark mode.
 */
let gw: GatewayUnderTest;

const username = 'formowner';
const password = 'formowner-pass-1';
const phone = { width: 375, height: 812 };
/** The owner, signed in through /login once (a normal login lands on the token list). */
let owner: SignedIn;

beforeAll(async () => {
  gw = await startGateway();
  const root = await gw.root();
  const channel = await root.request('POST', '/api/channel/', {
    body: { type: 8, name: 'form-upstream', key: 'sk-upstream', base_url: 'http://127.0.0.1:9', models: 'gpt-4o,gpt-4o-mini', group: 'default' },
  });
  expect(channel.body?.success, channel.text).toBe(true);
  const user = new Client(gw.url);
  const registered = await user.post('/api/user/register', {
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

const storedTokens = () =>
  gw.database.db
    .selectFrom('tokens')
    .select(['id', 'name', 'models', 'subnet', 'expired_time', 'remain_quota', 'unlimited_quota'])
    .where('name', 'like', 'e2e-%')
    .execute();

describe('the token form on the real gateway', () => {
  it('creates a token limited to one model expiring in a day, refuses a bad IP restriction, and edits the name', async () => {
    const context = await gw.newContext({ storageState: owner });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    const toasts = await watchToasts(page);

    await page.goto(`${gw.url}/token/add`);
    const form = page.getByRole('form', { name: '创建新的令牌' });
    await form.getByLabel(/^名称/).fill('e2e-form');
    expect(await form.getByLabel('额度', { exact: true }).inputValue()).toBe('500000');
    // the available models come from the channel; choose one by keyboard
    await form.getByLabel('搜索模型').fill('mini');
    const mini = form.getByRole('checkbox', { name: 'gpt-4o-mini', exact: true });
    await mini.focus();
    await page.keyboard.press('Space');
    await form.getByText('已选择 1 个模型').waitFor();
    await form.getByLabel('搜索模型').fill('');

    // an invalid IP restriction names the bad entry and sends nothing
    await form.getByLabel('IP 限制').fill('10.0.0.0/8, not-a-network');
    await form.getByRole('button', { name: '提交' }).click();
    await form.getByText('无效的网段：not-a-network').waitFor();
    // said once, at the field, which takes the focus (no toast repeats it)
    const subnet = form.getByLabel('IP 限制');
    await expect.poll(() => subnet.evaluate((el) => el === document.activeElement && el.getAttribute('aria-invalid'))).toBe('true');
    expect(await storedTokens()).toEqual([]);
    await form.getByLabel('IP 限制').fill('');

    const before = Math.floor(Date.now() / 1000);
    await form.getByRole('button', { name: '一天后过期' }).click();
    expect(await form.getByLabel('过期时间', { exact: true }).inputValue()).not.toBe('');
    await form.getByRole('button', { name: '提交' }).click();
    await page.waitForURL(`${gw.url}/token`);
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('令牌创建成功，请在列表页面点击复制获取令牌！');
    await page.getByRole('table', { name: '令牌' }).getByText('e2e-form', { exact: true }).waitFor();
    const [created] = await storedTokens();
    expect(created).toMatchObject({ name: 'e2e-form', models: 'gpt-4o-mini', remain_quota: 500000 });
    expect(Math.abs(Number(created!.expired_time) - (before + 86400))).toBeLessThanOrEqual(60);

    // edit: the stored values come back; a new name is saved, the rest kept
    await page.goto(`${gw.url}/token/edit/${created!.id}`);
    const edit = page.getByRole('form', { name: '更新令牌信息' });
    await expect.poll(() => edit.getByLabel('名称', { exact: true }).inputValue(), { timeout: 15_000 }).toBe('e2e-form');
    expect(await edit.getByRole('checkbox', { name: 'gpt-4o-mini', exact: true }).isChecked()).toBe(true);
    await edit.getByLabel('名称', { exact: true }).fill('e2e-renamed');
    await edit.getByRole('button', { name: '提交' }).click();
    await page.waitForURL(`${gw.url}/token`);
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('令牌更新成功！');
    const [renamed] = await storedTokens();
    expect(renamed).toMatchObject({ id: created!.id, name: 'e2e-renamed', models: 'gpt-4o-mini', expired_time: created!.expired_time });

    expectNoUnexpectedErrors(toasts);
    expect(toasts.texts).not.toContain('无效的网段：not-a-network');
    await context.close();
  });

  it('at 375 px in English and dark mode the form fits the phone', async () => {
    const context = await gw.newContext({ viewport: phone, colorScheme: 'light', storageState: owner });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/token/add`);
    await page.getByRole('heading', { name: '创建新的令牌' }).waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await page.getByRole('heading', { name: 'Create a new token' }).waitFor();
    await page.getByRole('checkbox', { name: 'gpt-4o', exact: true }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.classList.contains('dark')])).toEqual(['en', true]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`${gw.url}/token`);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });
});
