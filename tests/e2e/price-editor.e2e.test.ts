import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import type { Client } from '../server/support/http';
import { startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/** The price editor of the operation settings in Chromium on the real gateway. */

let gw: GatewayUnderTest;
/** Root, signed in for the browser. */
let root: SignedIn;
/** Root's API client. */
let api: Client;

const modelRatio = { 'gpt-4o': 2.5, 'gpt-4o-mini': 0.075, 'openrouter/auto': -500000 };

beforeAll(async () => {
  gw = await startGateway();
  root = await gw.signedIn('root', '123456');
  api = await gw.root();
  for (const [key, value] of [
    ['ModelRatio', JSON.stringify(modelRatio)],
    ['CompletionRatio', '{"gpt-4o":4}'],
    ['DisplayInCurrencyEnabled', 'true'],
    ['QuotaPerUnit', '500000'],
  ] as const) {
    const reply = await api.request('PUT', '/api/option/', { body: { key, value } });
    expect(reply.body?.success, reply.text).toBe(true);
  }
}, 180_000);

afterAll(async () => {
  await gw.close();
});

/** The options as the API lists them. */
async function optionsViaApi(): Promise<Record<string, string>> {
  const reply = await api.request('GET', '/api/option/');
  return Object.fromEntries((reply.body?.data as { key: string; value: string }[]).map((o) => [o.key, o.value]));
}

function watchOptionPuts(page: Page): string[] {
  const keys: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && new URL(r.url()).pathname === '/api/option/') keys.push((r.postDataJSON() as { key: string }).key);
  });
  return keys;
}

async function openEditor(page: Page) {
  await page.goto(`${gw.url}/setting?tab=operation`);
  const region = page.getByRole('region', { name: '倍率设置', exact: true });
  await region.getByLabel('gpt-4o 输入价格', { exact: true }).waitFor({ timeout: 120_000 });
  return region;
}

describe('the price editor on the real gateway', () => {
  it("root edits a model's input price in the table, saves, reloads and the API has the new ModelRatio", async () => {
    const context = await gw.newContext({ storageState: root, viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    const puts = watchOptionPuts(page);
    let region = await openEditor(page);
    const input = region.getByLabel('gpt-4o 输入价格', { exact: true });
    expect(await input.inputValue()).toBe('5');
    expect(await region.getByLabel('gpt-4o 输出价格', { exact: true }).inputValue()).toBe('20');
    await input.fill('6');
    expect(await region.getByLabel('gpt-4o 输出价格', { exact: true }).inputValue()).toBe('24');
    await region.getByRole('button', { name: '保存倍率设置' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('操作成功完成！');
    expect(puts).toEqual(['ModelRatio']);
    // the page fits the phone: the table scrolls inside its own box
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await page.reload();
    region = await openEditor(page);
    expect(await region.getByLabel('gpt-4o 输入价格', { exact: true }).inputValue()).toBe('6');
    const stored = await optionsViaApi();
    expect(JSON.parse(stored.ModelRatio!)).toEqual({ ...modelRatio, 'gpt-4o': 3 });
    expect(JSON.parse(stored.CompletionRatio!)).toEqual({ 'gpt-4o': 4 });
    expectNoUnexpectedErrors(toasts);
    await context.close();
  }, 240_000);

  it('a negative price marks its cell and nothing is saved', async () => {
    const context = await gw.newContext({ storageState: root });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    const puts = watchOptionPuts(page);
    const before = await optionsViaApi();
    const region = await openEditor(page);
    const input = region.getByLabel('gpt-4o-mini 输入价格', { exact: true });
    await input.fill('-2');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await region.getByText('gpt-4o-mini 的输入价格不能为负数').waitFor();
    await region.getByRole('button', { name: '保存倍率设置' }).click();
    await expect.poll(() => toasts.texts).toContain('gpt-4o-mini 的输入价格不能为负数');
    expect(puts).toEqual([]);
    expect(await optionsViaApi()).toEqual(before);
    await context.close();
  }, 240_000);

  it('an unsaved price edit survives a visit to other settings tabs, then saves', async () => {
    const context = await gw.newContext({ storageState: root });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    const puts = watchOptionPuts(page);
    const region = await openEditor(page);
    const lists: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'GET' && new URL(r.url()).pathname === '/api/option/') lists.push(r.url());
    });
    const input = region.getByLabel('gpt-4o-mini 输入价格', { exact: true });
    await input.fill('0.2');
    await page.getByRole('tab', { name: '系统设置' }).click();
    await page.waitForURL(`${gw.url}/setting?tab=system`);
    await page.getByRole('tab', { name: '其他设置' }).click();
    await page.waitForURL(`${gw.url}/setting?tab=other`);
    await page.getByRole('tab', { name: '运营设置' }).click();
    expect(await region.getByLabel('gpt-4o-mini 输入价格', { exact: true }).inputValue()).toBe('0.2');
    await region.getByText('有未保存的更改').waitFor();
    // the editor was kept, not reloaded
    expect(lists).toEqual([]);
    await region.getByRole('button', { name: '保存倍率设置' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('操作成功完成！');
    expect(puts).toEqual(['ModelRatio']);
    expect(JSON.parse((await optionsViaApi()).ModelRatio!)['gpt-4o-mini']).toBe(0.1);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  }, 240_000);
});
