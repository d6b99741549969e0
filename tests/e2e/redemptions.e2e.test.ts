import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { Client } from '../server/support/http';
import { downloadedText, startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/**
 * Redemption codes against the real gateway: root creates a batch through the form (the file
 * download is checked), a normal user redeems one code through the API, root sees it used and
 * disables two others in bulk; zh and en, 375 px and desktop, light and dark.
 */
let gw: GatewayUnderTest;
let codes: string[] = [];
/** Root, signed in through /login once (the default password leads to /user/edit). */
let root: SignedIn;

beforeAll(async () => {
  gw = await startGateway();
  root = await gw.signedIn('root', '123456', '/user/edit');
}, 180_000);

afterAll(async () => {
  await gw.close();
});

/** The page body does not scroll sideways (only the table's own box may). */
async function bodyOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

describe('redemption codes', () => {
  it('root creates 10 codes through the form: the file <name>.txt holds the 10 codes shown', async () => {
    const context = await gw.newContext({ acceptDownloads: true, storageState: root });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/redemption/add`);
    const form = page.getByRole('form', { name: '创建新的兑换码' });
    await form.getByRole('button', { name: '提交' }).click();
    // the name is required: the spec's message, nothing sent
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('请填写兑换码名称！');
    expect(await form.getByLabel('额度').inputValue()).toBe('100000');
    expect(await form.getByLabel('生成数量').inputValue()).toBe('1');
    await form.getByLabel(/名称/).fill('e2e-batch');
    await form.getByLabel('生成数量').fill('10');
    const download = page.waitForEvent('download');
    await form.getByRole('button', { name: '提交' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('e2e-batch.txt');
    const text = await downloadedText(file);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    for (const line of lines) expect(line).toMatch(/^[0-9a-f]{32}$/);
    const shown = await page.getByTestId('redemption-key').allTextContents();
    expect(shown).toEqual(lines);
    await page.getByText('已生成 10 个兑换码').waitFor();
    await expect.poll(() => toasts.texts).toContain('兑换码创建成功！');
    expectNoUnexpectedErrors(toasts, ['请填写兑换码名称！']);
    codes = lines;
    await context.close();
  });

  it('a normal user redeems one code (API); root sees it used, its toggle disabled; bulk-disables two with the count', async () => {
    expect(codes).toHaveLength(10);
    const user = new Client(gw.url);
    const registered = await user.post('/api/user/register', {
      username: 'redeemer',
      password: 'redeemer-pass-1',
      password2: 'redeemer-pass-1',
      email: '',
      verification_code: '',
      aff_code: '',
    });
    expect(registered.body?.success, registered.text).toBe(true);
    expect((await user.login('redeemer', 'redeemer-pass-1')).body?.success).toBe(true);
    const redeemed = await user.post('/api/user/topup', { key: codes[0] });
    expect(redeemed.body?.success, redeemed.text).toBe(true);
    expect(redeemed.body?.data).toBe(100000);

    const context = await gw.newContext({ storageState: root });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/redemption`);
    const table = page.getByRole('table', { name: '兑换码' });
    // search by the used code's id: find its id through the search by name first
    await page.getByRole('searchbox', { name: '搜索兑换码的 ID 和名称 ...' }).fill('e2e-batch');
    await page.getByRole('searchbox', { name: '搜索兑换码的 ID 和名称 ...' }).press('Enter');
    await page.waitForURL(/q=e2e-batch/);
    await table.getByText('已使用').waitFor();
    const usedRow = table.getByRole('row').filter({ hasText: '已使用' });
    await expect.poll(() => usedRow.count()).toBe(1);
    const usedToggle = usedRow.getByRole('button', { name: /^启用兑换码 #\d+$/ });
    expect(await usedToggle.isDisabled()).toBe(true);
    expect(await usedRow.getByText('尚未兑换').count()).toBe(0);
    expect(await table.getByText('尚未兑换').count()).toBe(9);

    // bulk disable two unused codes: the confirmation says 2
    const unused = table.getByRole('row').filter({ hasText: '未使用' });
    // the checkbox's visible control is its label
    await unused.nth(0).locator('label').first().click();
    await unused.nth(1).locator('label').first().click();
    const bar = page.getByRole('region', { name: '已选择 2 项' });
    await bar.getByRole('button', { name: '批量禁用' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('将对 2 项执行「批量禁用」，确定继续吗？').waitFor();
    await confirm.getByRole('button', { name: '确定' }).click();
    const report = page.getByRole('alertdialog').filter({ hasText: '批量操作结果' });
    await report.getByText('成功 2 项，失败 0 项').waitFor();
    await report.getByRole('button', { name: '关闭' }).click();
    await expect.poll(() => table.getByText('已禁用').count()).toBe(2);

    // the server agrees
    const admin = await gw.root();
    const list = await admin.request('GET', '/api/redemption/search?keyword=e2e-batch');
    const statuses = (list.body?.data as { status: number }[]).map((r) => r.status).sort();
    expect(statuses).toEqual([1, 1, 1, 1, 1, 1, 1, 2, 2, 3]);
    expect(await bodyOverflow(page)).toBeLessThanOrEqual(0);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('English at 375 px in dark mode: the list reads in English and the page does not scroll sideways', async () => {
    const context = await gw.newContext({ viewport: { width: 375, height: 812 }, storageState: root });
    await context.addInitScript(() => {
      localStorage.setItem('lang', 'en');
      localStorage.setItem('color_mode', 'dark');
    });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/redemption`);
    await page.getByRole('heading', { name: 'Redemption codes' }).waitFor();
    // on a phone each code is a card
    const table = page.getByRole('list', { name: 'Redemption codes' });
    await table.getByText('Used', { exact: true }).waitFor();
    expect(await table.getByText('Not yet redeemed').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await bodyOverflow(page)).toBeLessThanOrEqual(0);
    // the form too
    await page.getByRole('link', { name: 'Add redemption codes' }).click();
    await page.getByRole('heading', { name: 'Create redemption codes' }).waitFor();
    expect(await bodyOverflow(page)).toBeLessThanOrEqual(0);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('edit changes name and quota and goes back to the list (desktop, zh)', async () => {
    const context = await gw.newContext({ storageState: root });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    const admin = await gw.root();
    const list = await admin.request('GET', '/api/redemption/search?keyword=e2e-batch');
    const first = (list.body?.data as { id: number }[])[0]!;
    await page.goto(`${gw.url}/redemption/edit/${first.id}`);
    const form = page.getByRole('form', { name: '更新兑换码信息' });
    await expect.poll(() => form.getByLabel(/名称/).inputValue(), { timeout: 15_000 }).toBe('e2e-batch');
    expect(await form.getByLabel('生成数量').count()).toBe(0);
    await form.getByLabel(/名称/).fill('renamed');
    await form.getByLabel('额度').fill('5000');
    await form.getByRole('button', { name: '提交' }).click();
    await page.waitForURL(`${gw.url}/redemption`);
    await page.getByRole('table', { name: '兑换码' }).getByText('renamed').waitFor();
    const saved = await admin.request('GET', `/api/redemption/${first.id}`);
    expect(saved.body?.data).toMatchObject({ name: 'renamed', quota: 5000 });
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });
});
