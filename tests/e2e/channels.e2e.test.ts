import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { startUpstream, type FakeUpstream } from '../server/support/upstream';
import type { Client } from '../server/support/http';
import { startGateway, type GatewayUnderTest } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/*
 * The channel list (/channel) on the real gateway with a fake upstream: a channel created with the
 * form, a single test (toast with model and seconds), "test all" with live progress and per-row
 * marks, inline priority saved, disable + "delete disabled", bulk disable with the count, the
 * page in English at 375 px in dark mode, then a channel cloned from the list (a new channel,
 * the original untouched) and its proxy base URL edited and cleared.
 */

let gw: GatewayUnderTest;
let upstream: FakeUpstream;
let root: Client;
let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;

beforeAll(async () => {
  gw = await startGateway();
  upstream = await startUpstream();
  upstream.slowMs = 50;
  upstream.mode('key-bad', 'unauthorized');
  root = await gw.root();
  const context = await open();
  await signIn(await context.newPage());
  signedIn = await context.storageState();
  await context.close();
}, 180_000);

afterAll(async () => {
  await upstream?.close();
  await gw?.close();
});

/** Creates a channel through the API (type 8 on the fake upstream); returns its id. */
async function createChannel(name: string, key: string, extra: Record<string, unknown> = {}): Promise<number> {
  const reply = await root.request('POST', '/api/channel/', {
    body: { type: 8, name, key, base_url: upstream.url, models: 'gpt-3.5-turbo,gpt-4o', group: 'default', ...extra },
  });
  expect(reply.body?.success, reply.text).toBe(true);
  const list = await root.request('GET', `/api/channel/search?keyword=${encodeURIComponent(name)}`);
  const found = (list.body?.data as { id: number; name: string }[]).find((c) => c.name === name);
  return found!.id;
}

/** A browser context with generous timeouts (the machine running the suite may be busy). */
async function open(options: Parameters<GatewayUnderTest['newContext']>[0] = {}): Promise<BrowserContext> {
  const context = await gw.newContext(options);
  context.setDefaultTimeout(60_000);
  context.setDefaultNavigationTimeout(120_000);
  return context;
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${gw.url}/login`);
  await page.getByLabel('用户名或邮箱').fill('root');
  await page.getByLabel('密码').fill('123456');
  await page.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
  await page.waitForURL(`${gw.url}/user/edit`);
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

describe('the channel list on the real gateway', () => {
  it('creates a channel with the form, tests it, tests all with live progress, saves a priority', async () => {
    const context = await open({ storageState: signedIn });
    const page = await context.newPage();
    const toasts = await watchToasts(page);

    // a second and a third channel exist already (API); the first one is made with the form
    await createChannel('e2e-bad', 'key-bad');
    await createChannel('e2e-third', 'key-third');

    await page.goto(`${gw.url}/channel`);
    await page.getByRole('table', { name: '渠道' }).waitFor();
    await page.getByRole('link', { name: '添加新的渠道' }).click();
    await page.waitForURL(`${gw.url}/channel/add`);
    const form = page.getByRole('form');
    await form.locator('select[name="type"]').selectOption('8');
    await form.getByLabel(/^名称/).fill('e2e-upstream');
    await form.getByLabel('Base URL').fill(upstream.url);
    await form.getByLabel(/^密钥/).fill('key-ok');
    const clear = form.getByRole('button', { name: '清除所有模型' });
    if (await clear.isEnabled()) await clear.click();
    await form.getByLabel('自定义模型名称').fill('gpt-4o,gpt-3.5-turbo');
    await form.getByRole('button', { name: '填入', exact: true }).click();
    await form.getByRole('button', { name: '提交' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('渠道创建成功！');
    await page.waitForURL(`${gw.url}/channel`);

    // the list: the three channels
    const table = page.getByRole('table', { name: '渠道' });
    await row(page, 'e2e-upstream').waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    await expect.poll(() => row(page, 'e2e-upstream').getByText('未测试').count()).toBe(1);

    // one test: the toast says the model and the seconds; the row's response time follows
    await page.getByRole('button', { name: '测试渠道 e2e-upstream' }).click();
    await expect
      .poll(() => toasts.texts.find((t) => t.startsWith('渠道 e2e-upstream 测试成功')), { timeout: 15_000 })
      .toMatch(/^渠道 e2e-upstream 测试成功，模型 gpt-3\.5-turbo，耗时 \d+\.\d\d 秒。$/);
    await expect.poll(() => row(page, 'e2e-upstream').getByText(/\d+\.\d\d 秒/).count(), { timeout: 10_000 }).toBe(1);

    // test all: live progress to 100 %, a pass and a fail mark appear without a reload
    upstream.slowMs = 400;
    await page.getByRole('button', { name: '测试所有渠道' }).click();
    const progress = page.getByRole('progressbar').first();
    await progress.waitFor({ timeout: 15_000 });
    await expect.poll(() => progress.getAttribute('aria-valuenow'), { timeout: 30_000 }).toBe('100');
    await expect.poll(() => row(page, 'e2e-upstream').getByRole('img', { name: /^本次测试通过/ }).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => row(page, 'e2e-bad').getByRole('img', { name: /^本次测试失败/ }).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => row(page, 'e2e-third').getByRole('img', { name: /^本次测试通过/ }).count()).toBe(1);
    // a failed result of the run is a red "失败" (its error as the title), never a green time
    const badBadge = row(page, 'e2e-bad').getByText('失败', { exact: true });
    await expect.poll(() => badBadge.count(), { timeout: 10_000 }).toBe(1);
    expect(await badBadge.getAttribute('title')).toMatch(/401/);
    expect(await row(page, 'e2e-bad').getByText(/^\d+\.\d\d 秒$/).count()).toBe(0);
    // a single failed test: the row says so and the toast names the channel
    await page.getByRole('button', { name: '测试渠道 e2e-bad' }).click();
    await expect.poll(() => toasts.texts.some((t) => t.startsWith('渠道 e2e-bad 测试失败：')), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => row(page, 'e2e-bad').getByText('失败', { exact: true }).count()).toBe(1);

    // inline priority: Enter saves; a reload shows the stored value
    const priority = page.getByLabel('渠道 e2e-upstream 的优先级');
    await priority.fill('7');
    await priority.press('Enter');
    await expect.poll(() => toasts.texts.filter((t) => t === '操作成功完成！').length, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.reload();
    await expect.poll(() => page.getByLabel('渠道 e2e-upstream 的优先级').inputValue(), { timeout: 15_000 }).toBe('7');
    // after the reload the failed single test still reads as failed (0 ms with a test time); the passed ones keep their time
    await expect.poll(() => row(page, 'e2e-bad').getByText('失败', { exact: true }).count(), { timeout: 15_000 }).toBe(1);
    expect(await row(page, 'e2e-upstream').getByText(/^\d+\.\d\d 秒$/).count()).toBe(1);

    expectNoUnexpectedErrors(toasts, toasts.errors.filter((t) => t.includes('401')));
    await context.close();
  });

  it('disables a channel and deletes the disabled ones; bulk-disables two with the count in the confirmation', async () => {
    const context = await open({ storageState: signedIn });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await createChannel('e2e-off', 'key-off');
    await createChannel('e2e-bulk-1', 'key-b1');
    await createChannel('e2e-bulk-2', 'key-b2');
    await page.goto(`${gw.url}/channel`);
    await row(page, 'e2e-off').waitFor();

    // disable one, then delete every disabled channel
    await page.getByRole('button', { name: '禁用渠道 e2e-off' }).click();
    await expect.poll(() => row(page, 'e2e-off').getByText('已禁用').count(), { timeout: 10_000 }).toBe(1);
    const disabled = ((await root.request('GET', '/api/channel/?p=0')).body?.data as { status: number }[]).filter(
      (c) => c.status !== 1,
    ).length;
    await page.getByRole('button', { name: '删除禁用渠道' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect.poll(() => confirm.textContent()).toContain('将删除所有已禁用的渠道');
    await confirm.getByRole('button', { name: '确定' }).click();
    await expect
      .poll(() => toasts.texts, { timeout: 15_000 })
      .toContain(`已删除所有禁用渠道，共计 ${disabled} 个`);
    await expect.poll(() => row(page, 'e2e-off').count(), { timeout: 10_000 }).toBe(0);
    await confirm.waitFor({ state: 'hidden' });

    // bulk: select two, disable them; the confirmation names the count. The checkbox's visible
    // control is its label (a forced click on the hidden input may land on whatever lies there).
    for (const name of ['e2e-bulk-1', 'e2e-bulk-2']) {
      const box = page.getByRole('checkbox', { name: `选择 ${name}` });
      await page.locator('label').filter({ has: box }).click();
      await expect.poll(() => box.isChecked()).toBe(true);
    }
    const bar = page.getByRole('region', { name: '已选择 2 项' });
    await bar.getByRole('button', { name: '禁用', exact: true }).click();
    const bulkConfirm = page.getByRole('alertdialog');
    await expect.poll(() => bulkConfirm.textContent()).toContain('将对 2 项执行「禁用」');
    await bulkConfirm.getByRole('button', { name: '确定' }).click();
    const report = page.getByRole('alertdialog').filter({ hasText: '批量操作结果' });
    await expect.poll(() => report.textContent(), { timeout: 15_000 }).toContain('成功 2 项，失败 0 项');
    await report.getByRole('button', { name: '关闭', exact: true }).first().click();
    await expect.poll(() => row(page, 'e2e-bulk-1').getByText('已禁用').count()).toBe(1);
    await expect.poll(() => row(page, 'e2e-bulk-2').getByText('已禁用').count()).toBe(1);
    const stored = (await root.request('GET', '/api/channel/search?keyword=e2e-bulk')).body?.data as { status: number }[];
    expect(stored.map((c) => c.status)).toEqual([2, 2]);

    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('in English at 375 px in dark mode: the page fits, the channels are cards; detail mode is remembered', async () => {
    const context = await open({ storageState: signedIn, viewport: { width: 375, height: 740 } });
    await context.addInitScript(() => {
      localStorage.setItem('lang', 'en');
      localStorage.setItem('color_mode', 'dark');
    });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/channel`);
    await page.getByRole('heading', { name: 'Channels' }).waitFor();
    await page.getByRole('button', { name: 'Test all channels' }).waitFor();
    const cards = page.getByRole('list', { name: 'Channels' });
    await cards.getByRole('heading', { name: 'e2e-bulk-1' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // detail mode: balance, weight and test model columns; remembered after a reload
    await page.getByText('Detail mode').click();
    await cards.getByText('Balance', { exact: true }).first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('show_detail'))).toBe('true');
    await page.reload();
    await cards.getByText('Test model', { exact: true }).first().waitFor();
    await expect.poll(() => page.getByLabel('Test model of channel e2e-bulk-1').inputValue()).toBe('gpt-3.5-turbo');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    // the notice can be dismissed
    await page.getByRole('button', { name: 'Dismiss notice' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Dismiss notice' }).count()).toBe(0);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });
  it('clones a channel from the list into a new one (the original untouched); the proxy base URL loads, saves and clears', async () => {
    const sourceId = await createChannel('e2e-source', 'key-source', {
      type: 1,
      base_url: 'https://proxy.example.com',
      weight: 5,
      models: 'gpt-4o',
      group: 'default',
    });
    const context = await open({ storageState: signedIn });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/channel`);
    await row(page, 'e2e-source').waitFor();
    await page.getByRole('link', { name: '复制渠道 e2e-source' }).click();
    await page.waitForURL(`${gw.url}/channel/clone/${sourceId}`);
    const form = page.getByRole('form', { name: '复制渠道' });
    await expect.poll(() => form.getByLabel(/^名称/).inputValue(), { timeout: 15_000 }).toBe('e2e-source (副本)');
    expect(await form.locator('select[name="type"]').inputValue()).toBe('1');
    expect(await form.getByLabel('代理').inputValue()).toBe('https://proxy.example.com');
    expect(await form.getByLabel('代理').getAttribute('placeholder')).toBe('可选，填写代理地址，例如 https://api.example.com');
    expect(await form.getByLabel('权重').inputValue()).toBe('5');
    expect(await form.getByLabel(/^密钥/).inputValue()).toBe('');

    // the key is not copied: the submit is refused at the key field (focused, invalid), without a toast
    await form.getByRole('button', { name: '提交' }).click();
    await form.getByText('请填写渠道名称和渠道密钥！').waitFor();
    await expect.poll(() => form.getByLabel(/^密钥/).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await form.getByLabel(/^密钥/).getAttribute('aria-invalid')).toBe('true');
    expect(toasts.texts).not.toContain('请填写渠道名称和渠道密钥！');
    await form.getByLabel(/^密钥/).fill('key-copy');
    await form.getByLabel('权重').fill('3');
    await form.getByRole('button', { name: '提交' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('渠道创建成功！');
    await page.waitForURL(`${gw.url}/channel`);

    // both exist: the original as it was, the copy with the copied fields
    type Stored = { id: number; name: string; type: number; base_url: string | null; weight: number | null; models: string; group: string };
    const search = await root.request('GET', `/api/channel/search?keyword=${encodeURIComponent('e2e-source')}`);
    const found = search.body?.data as Stored[];
    const original = found.find((c) => c.name === 'e2e-source')!;
    const copy = found.find((c) => c.name === 'e2e-source (副本)')!;
    expect(original).toMatchObject({ id: sourceId, type: 1, base_url: 'https://proxy.example.com', weight: 5, models: 'gpt-4o' });
    expect(copy).toBeDefined();
    expect(copy.id).not.toBe(sourceId);
    expect(copy).toMatchObject({ type: 1, base_url: 'https://proxy.example.com', weight: 3, models: 'gpt-4o', group: 'default' });

    // edit the copy: a bad proxy URL is refused at its field; clearing it saves an empty base URL
    await page.goto(`${gw.url}/channel/edit/${copy.id}`);
    const edit = page.getByRole('form', { name: '更新渠道信息' });
    await expect.poll(() => edit.getByLabel('代理').inputValue(), { timeout: 15_000 }).toBe('https://proxy.example.com');
    await edit.getByLabel('代理').fill('proxy.example.com');
    await edit.getByRole('button', { name: '提交' }).click();
    await edit.getByText('Base URL 必须是以 http:// 或 https:// 开头的网址！').waitFor();
    await edit.getByLabel('代理').fill('');
    await edit.getByRole('button', { name: '提交' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('渠道更新成功！');
    await page.waitForURL(`${gw.url}/channel`);
    const after = await root.request('GET', `/api/channel/${copy.id}`);
    expect(after.body?.data).toMatchObject({ base_url: '', weight: 3 });
    const untouched = await root.request('GET', `/api/channel/${sourceId}`);
    expect(untouched.body?.data).toMatchObject({ name: 'e2e-source', base_url: 'https://proxy.example.com', weight: 5 });

    expectNoUnexpectedErrors(toasts);
    await context.close();
  });
});
