import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { setOptions, startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/**
 * The usage dashboard (/dashboard) on the real gateway: a common user opens it from the menu and
 * sees their own requests of the last 7 days, then of the last 30 days; root sees their own, all
 * users' and a searched user's; the page in English at 375 px in dark mode fits the phone.
 */

let gw: GatewayUnderTest;
const member = { username: 'e2edash', password: 'e2e-pass-1' };
const other = { username: 'e2eother', password: 'e2e-pass-2' };
const now = Math.floor(Date.now() / 1000);
const day = 86_400;
/** Polls wait for the page (a busy machine loads chunks slowly). */
const wait = { timeout: 30_000 };
let otherId = 0;
/** Root, signed in through /login once. */
let rootSignedIn: SignedIn;

/**
 * Consume logs (type 2) per user, `daysAgo` before now (the 7-day range starts at the local
 * midnight six days ago, the 30-day one 29 days ago):
 * - e2edash: 5 requests in the last 7 days (2 models), 4 more 20 days ago → 7 d: 5, 30 d: 9;
 * - e2eother: 1 today, 2 ten days ago → 7 d: 1, 30 d: 3;
 * - root: 1 five days ago → 7 d: 1. All users over 7 days: 7.
 * A top-up log (type 1) of e2edash today is not usage.
 */
const plan = (userIds: { readonly member: number; readonly other: number }) =>
  [
    { user_id: userIds.member, username: member.username, model_name: 'gpt-4o', daysAgo: 0, count: 2, type: 2 },
    { user_id: userIds.member, username: member.username, model_name: 'claude-3', daysAgo: 0, count: 1, type: 2 },
    { user_id: userIds.member, username: member.username, model_name: '', daysAgo: 0, count: 1, type: 1 },
    { user_id: userIds.member, username: member.username, model_name: 'gpt-4o', daysAgo: 3, count: 2, type: 2 },
    { user_id: userIds.member, username: member.username, model_name: 'claude-3', daysAgo: 20, count: 4, type: 2 },
    { user_id: userIds.other, username: other.username, model_name: 'gpt-4o', daysAgo: 0, count: 1, type: 2 },
    { user_id: userIds.other, username: other.username, model_name: 'claude-3', daysAgo: 10, count: 2, type: 2 },
    { user_id: 1, username: 'root', model_name: 'gpt-4o', daysAgo: 5, count: 1, type: 2 },
  ] as const;

const userId = async (username: string) =>
  (await gw.database.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

beforeAll(async () => {
  gw = await startGateway();
  const root = await gw.root();
  await setOptions(root, { DisplayInCurrencyEnabled: 'false' });
  for (const user of [member, other]) {
    const created = await root.request('POST', '/api/user/', { body: { ...user, display_name: user.username } });
    expect(created.body?.success, created.text).toBe(true);
  }
  otherId = await userId(other.username);
  let n = 0;
  for (const seed of plan({ member: await userId(member.username), other: otherId })) {
    for (let i = 0; i < seed.count; i++) {
      n += 1;
      await gw.database.db
        .insertInto('logs')
        .values({
          user_id: seed.user_id,
          username: seed.username,
          token_name: 'dash-key',
          model_name: seed.model_name,
          type: seed.type,
          created_at: now - seed.daysAgo * day - 120 - n,
          content: `模型倍率 ${n}`,
          quota: seed.type === 2 ? 10 * n : 0,
          prompt_tokens: seed.type === 2 ? 5 : 0,
          completion_tokens: seed.type === 2 ? 7 : 0,
          channel_id: 1,
          elapsed_time: 100,
          is_stream: false,
        })
        .execute();
    }
  }
  rootSignedIn = await gw.signedIn('root', '123456');
}, 180_000);

afterAll(async () => {
  await gw?.close();
});

async function open(options: Parameters<GatewayUnderTest['newContext']>[0] = {}): Promise<BrowserContext> {
  const context = await gw.newContext(options);
  context.setDefaultTimeout(60_000);
  context.setDefaultNavigationTimeout(120_000);
  return context;
}

async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${gw.url}/login`);
  await page.getByLabel('用户名或邮箱').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
  await page.getByRole('button', { name: /^账户菜单：/ }).waitFor();
}

/** The figure of a summary card (the card is a group named by its label). */
const card = (page: Page, name: string) =>
  page
    .getByRole('group', { name, exact: true })
    .locator('p')
    .nth(1)
    .textContent()
    .then((t) => (t ?? '').trim());

/** The range line under the title ('YYYY-MM-DD 至 YYYY-MM-DD[ · 当前查看：…]'). */
const rangeLine = (page: Page) => page.getByText(/^\d{4}-\d{2}-\d{2} (至|to) \d{4}-\d{2}-\d{2}/);

describe('the dashboard on the real gateway', () => {
  it('a common user opens it from the menu, sees their requests of 7 days, then of 30 days', async () => {
    const context = await open();
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await logIn(page, member.username, member.password);
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '数据看板' }).click();
    await page.waitForURL(`${gw.url}/dashboard`);
    await page.getByRole('heading', { name: '数据看板', level: 1 }).waitFor();

    // the default range: the last 7 days, own usage only (the top-up is not a request)
    await expect.poll(() => card(page, '请求次数'), wait).toBe('5');
    expect(await page.getByLabel('时间范围').inputValue()).toBe('7d');
    // a common user has no user picker nor search
    expect(await page.getByLabel('查看用户').count()).toBe(0);
    expect(await page.getByRole('search').count()).toBe(0);
    // the charts' tables open from their summaries; both models are in the per-model one
    for (const summary of await page.getByText('以表格查看', { exact: true }).all()) await summary.click();
    await page.getByRole('table', { name: '模型用量明细' }).getByRole('cell', { name: 'claude-3', exact: true }).waitFor();
    await page.getByRole('table', { name: '模型用量明细' }).getByRole('cell', { name: 'gpt-4o', exact: true }).waitFor();

    // the last 30 days: the older requests count too
    await page.getByLabel('时间范围').selectOption('30d');
    await expect.poll(() => card(page, '请求次数'), wait).toBe('9');
    await expect.poll(() => page.getByRole('table', { name: '每日用量明细' }).locator('tbody tr').count(), wait).toBe(30);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('root sees their own usage, all users and a searched user; in English at 375 px in dark mode it fits', async () => {
    const context = await open({ storageState: rootSignedIn });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    // where root's sign-in lands
    await page.goto(`${gw.url}/user/edit`);
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '数据看板' }).click();
    await page.getByRole('heading', { name: '数据看板', level: 1 }).waitFor();
    await expect.poll(() => card(page, '请求次数'), wait).toBe('1');

    // all users: the three users' requests of the last 7 days, no quota cards
    await page.getByLabel('查看用户').selectOption('all');
    await expect.poll(() => card(page, '请求次数'), wait).toBe('7');
    expect(await page.getByRole('group', { name: '剩余额度', exact: true }).count()).toBe(0);
    await expect.poll(async () => (await rangeLine(page).textContent()) ?? '', wait).toContain('当前查看：所有用户');

    // search the other user and pick them
    await page.getByLabel('搜索用户').fill(other.username);
    await page.getByRole('search').getByRole('button', { name: '搜索' }).click();
    const pick = page.getByRole('button', { name: `查看 ${other.username}（#${otherId}）` });
    await pick.click();
    await expect.poll(() => card(page, '请求次数'), wait).toBe('1');
    await expect.poll(() => page.getByLabel('查看用户').inputValue(), wait).toBe(`user:${otherId}`);
    expect(await pick.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('group', { name: '剩余额度', exact: true }).waitFor();
    await page.getByLabel('时间范围').selectOption('30d');
    await expect.poll(() => card(page, '请求次数'), wait).toBe('3');
    expectNoUnexpectedErrors(toasts);
    await context.close();

    // in English at 375 px in dark mode: the whole page fits the phone
    const phone = await open({ viewport: { width: 375, height: 740 }, storageState: rootSignedIn });
    await phone.addInitScript(() => {
      localStorage.setItem('lang', 'en');
      localStorage.setItem('color_mode', 'dark');
    });
    const small = await phone.newPage();
    await small.goto(`${gw.url}/dashboard`);
    await small.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await expect.poll(() => card(small, 'Requests'), wait).toBe('1');
    await small.getByLabel('User', { exact: true }).selectOption('all');
    await expect.poll(() => card(small, 'Requests'), wait).toBe('7');
    await small.getByRole('img', { name: /^Quota used: / }).first().waitFor();
    expect(await small.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await phone.close();
  });
});
