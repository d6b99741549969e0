import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { downloadedText, setOptions, startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/**
 * The log page (/log) on the real gateway: root filters every user's logs by model and by
 * username, loads the total consumed quota, exports the filtered result as CSV (the file's rows
 * equal the table's, plus the totals row); a common user sees only their own logs without the
 * admin filters; the page in English at 375 px in dark mode.
 */

let gw: GatewayUnderTest;
const member = { username: 'e2elogger', password: 'e2e-pass-1' };
/** The common user, signed in through /login once. */
let memberSignedIn: SignedIn;
const now = Math.floor(Date.now() / 1000);
/** Polls wait for the page (a busy machine loads chunks slowly). */
const wait = { timeout: 30_000 };

interface Seed {
  readonly user_id: number;
  readonly username: string;
  readonly token_name: string;
  readonly model_name: string;
  readonly quota: number;
  readonly type: number;
}

beforeAll(async () => {
  gw = await startGateway();
  const root = await gw.root();
  // quotas as plain numbers, so the table, the stat and the file can be compared
  await setOptions(root, { DisplayInCurrencyEnabled: 'false' });
  const created = await root.request('POST', '/api/user/', { body: { ...member, display_name: 'Logger' } });
  expect(created.body?.success, created.text).toBe(true);
  const found = await gw.database.db.selectFrom('users').select('id').where('username', '=', member.username).executeTakeFirstOrThrow();
  const seeds: Seed[] = [
    { user_id: 1, username: 'root', token_name: 'root-key', model_name: 'gpt-4o', quota: 100, type: 2 },
    { user_id: 1, username: 'root', token_name: 'root-key', model_name: 'claude-3', quota: 50, type: 2 },
    { user_id: found.id, username: member.username, token_name: 'mine', model_name: 'gpt-4o', quota: 11, type: 2 },
    { user_id: 1, username: 'root', token_name: 'root-key', model_name: 'gpt-4o', quota: 200, type: 2 },
    { user_id: found.id, username: member.username, token_name: 'mine', model_name: 'claude-3', quota: 33, type: 2 },
    { user_id: found.id, username: member.username, token_name: 'mine', model_name: 'gpt-4o', quota: 22, type: 2 },
    { user_id: 1, username: 'root', token_name: 'root-key', model_name: 'gpt-4o', quota: 300, type: 2 },
  ];
  for (const [i, seed] of seeds.entries()) {
    await gw.database.db
      .insertInto('logs')
      .values({
        ...seed,
        created_at: now - 3600 + i * 60,
        content: `模型倍率 ${i + 1}`,
        prompt_tokens: 10 + i,
        completion_tokens: 20 + i,
        channel_id: 1,
        elapsed_time: 800 * (i + 1),
        is_stream: i % 2 === 0,
      })
      .execute();
  }
  memberSignedIn = await gw.signedIn(member.username, member.password);
}, 180_000);

afterAll(async () => {
  await gw?.close();
});

async function open(options: Parameters<GatewayUnderTest['newContext']>[0] = {}): Promise<BrowserContext> {
  const context = await gw.newContext({ acceptDownloads: true, ...options });
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

const bodyRows = (page: Page, name = '使用明细') => page.getByRole('table', { name }).locator('tbody tr');

/** The text of the given cells of every body row. */
async function cells(page: Page, columns: readonly number[]): Promise<string[][]> {
  return bodyRows(page).evaluateAll(
    (rows, cols) => rows.map((r) => cols.map((c) => (r.querySelectorAll('td')[c]?.textContent ?? '').trim())),
    columns,
  );
}

/** A downloaded CSV: BOM stripped, CRLF lines, simple cells (the seeds hold no commas or quotes). */
function readCsv(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  return text
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

describe('the log page on the real gateway', () => {
  it('root filters by model and username, loads the consumed quota and exports the filtered rows', async () => {
    const context = await open();
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await logIn(page, 'root', '123456');
    await page.goto(`${gw.url}/log`);
    await page.getByRole('heading', { name: '使用明细' }).waitFor();
    await expect.poll(() => bodyRows(page).count(), wait).toBeGreaterThanOrEqual(7);

    // by model: every user's gpt-4o rows, newest first (admin columns: time, channel, user, token, type, model, …, quota)
    await page.getByLabel('模型名称').fill('gpt-4o');
    await page.getByRole('button', { name: '查询' }).click();
    await page.waitForURL(/p\.model_name=gpt-4o/);
    await expect.poll(() => cells(page, [2, 3, 5, 8]), wait).toEqual([
      ['root', 'root-key', 'gpt-4o', '300'],
      ['e2elogger', 'mine', 'gpt-4o', '22'],
      ['root', 'root-key', 'gpt-4o', '200'],
      ['e2elogger', 'mine', 'gpt-4o', '11'],
      ['root', 'root-key', 'gpt-4o', '100'],
    ]);

    // and by username
    await page.getByLabel('用户名称').fill(member.username);
    await page.getByRole('button', { name: '查询' }).click();
    await page.waitForURL(/p\.username=e2elogger/);
    await expect.poll(() => cells(page, [2, 3, 5, 8]), wait).toEqual([
      ['e2elogger', 'mine', 'gpt-4o', '22'],
      ['e2elogger', 'mine', 'gpt-4o', '11'],
    ]);

    // the title's consumed quota, on click, for the same filters
    await page.getByRole('button', { name: '总消耗额度：点击查看' }).click();
    await page.getByRole('button', { name: '总消耗额度：33（点击刷新）' }).waitFor();

    // the export: the file's rows equal the table's, then the totals
    const table = await cells(page, [3, 5, 8]);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出 CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^logs-\d{8}-\d{6}\.csv$/);
    const csv = readCsv(await downloadedText(download));
    const header = csv[0]!;
    expect(header).toEqual([
      'id', 'created_at', 'time', 'type', 'username', 'token_name', 'model_name', 'prompt_tokens', 'completion_tokens', 'quota', 'channel', 'elapsed_time', 'is_stream', 'content',
    ]);
    const col = (name: string) => header.indexOf(name);
    const rows = csv.slice(1, -1);
    expect(rows.map((r) => [r[col('token_name')], r[col('model_name')], r[col('quota')]])).toEqual(table);
    const totals = csv.at(-1)!;
    expect(totals[0]).toBe('total');
    expect(totals[col('quota')]).toBe('33');
    await expect.poll(() => toasts.texts.some((t) => t.includes('.csv')), wait).toBe(true);

    // the filters live in the address: a reload shows the same list
    await page.reload();
    await expect.poll(() => cells(page, [2, 5]), wait).toEqual([
      ['e2elogger', 'gpt-4o'],
      ['e2elogger', 'gpt-4o'],
    ]);
    await expect.poll(() => page.getByLabel('用户名称').inputValue(), wait).toBe(member.username);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('a common user sees only their own logs, without the admin filters, and exports them', async () => {
    const context = await open({ storageState: memberSignedIn });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/log`);
    await page.getByRole('heading', { name: '使用明细' }).waitFor();
    // self columns: time, token, type, model, prompt, completion, quota
    await expect.poll(async () => (await cells(page, [1, 3, 6])).filter((r) => r[0] === 'mine'), wait).toEqual([
      ['mine', 'gpt-4o', '22'],
      ['mine', 'claude-3', '33'],
      ['mine', 'gpt-4o', '11'],
    ]);
    expect((await cells(page, [1])).flat()).not.toContain('root-key');
    expect(await page.getByLabel('用户名称').count()).toBe(0);
    expect(await page.getByLabel('渠道 ID').count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: '用户' }).count()).toBe(0);

    await page.getByLabel('模型名称').fill('claude-3');
    await page.getByRole('button', { name: '查询' }).click();
    await expect.poll(() => cells(page, [1, 3, 6]), wait).toEqual([['mine', 'claude-3', '33']]);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出 CSV' }).click()]);
    const csv = readCsv(await downloadedText(download));
    expect(csv[0]![0]).toBe('created_at');
    expect(csv[0]).not.toContain('id');
    expect(csv[0]).not.toContain('channel');
    expect(csv.length).toBe(3);
    expect(csv[2]![0]).toBe('total');
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('in English at 375 px in dark mode: the page fits', async () => {
    const context = await open({ viewport: { width: 375, height: 740 }, storageState: memberSignedIn });
    await context.addInitScript(() => {
      localStorage.setItem('lang', 'en');
      localStorage.setItem('color_mode', 'dark');
    });
    const page = await context.newPage();
    await page.goto(`${gw.url}/log`);
    await page.getByRole('heading', { name: 'Usage logs' }).waitFor();
    await page.getByRole('button', { name: 'Total consumed quota: click to view' }).waitFor();
    // on a phone each entry is a card
    await expect.poll(() => page.getByRole('list', { name: 'Usage logs' }).getByRole('listitem').count(), wait).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await context.close();
  });
});
