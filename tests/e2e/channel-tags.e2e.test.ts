import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright';
import type { Client } from '../server/support/http';
import { startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/*
 * Channel tags on the real gateway: two channels tagged "team-a" (and one without), then 25 newer
 * untagged ones, so that the tagged channels are on the list's third server page. The list
 * filtered by the tag shows both (the filter reads on past the first page), and the filter's
 * count, the pager's count and the edit-by-tag confirmation all say 2; "edit by tag" disables
 * both in one go; the untagged one is untouched.
 */

let gw: GatewayUnderTest;
let root: Client;
let rootSession: SignedIn;

beforeAll(async () => {
  gw = await startGateway();
  root = await gw.root();
  for (const [name, tags] of [
    ['tag-alpha', ['team-a']],
    ['tag-beta', ['team-a', 'prod']],
    ['tag-gamma', []],
  ] as const) {
    const reply = await root.request('POST', '/api/channel/', {
      body: { type: 1, name, key: `sk-${name}`, models: 'gpt-3.5-turbo', group: 'default', tags },
    });
    expect(reply.body?.success, reply.text).toBe(true);
  }
  // one channel per key line: 25 newer channels, none tagged
  const keys = Array.from({ length: 25 }, (_, i) => `sk-filler-${String(i)}`).join('\n');
  const fillers = await root.request('POST', '/api/channel/', { body: { type: 1, name: 'filler', key: keys, models: 'gpt-3.5-turbo', group: 'default' } });
  expect(fillers.body?.success, fillers.text).toBe(true);
  rootSession = await gw.signedIn('root', '123456');
}, 180_000);

afterAll(async () => {
  await gw?.close();
});

async function open(): Promise<BrowserContext> {
  const context = await gw.newContext({ storageState: rootSession });
  context.setDefaultTimeout(60_000);
  context.setDefaultNavigationTimeout(120_000);
  return context;
}

const statusOf = async (): Promise<Record<string, number>> => {
  const list = await root.request('GET', '/api/channel/search?keyword=tag-');
  const rows = list.body?.data as { name: string; status: number }[];
  return Object.fromEntries(rows.map((r) => [r.name, r.status]));
};

describe('channel tags', () => {
  it('filters the list by a tag, then disables every channel with it in one edit', async () => {
    const context = await open();
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/channel`);
    const table = page.getByRole('table', { name: '渠道' });
    // the first view: the newest channels only, the tagged ones are further on
    await table.getByText('filler').first().waitFor();
    expect(await table.getByText('tag-alpha').count()).toBe(0);

    // the filter lists each tag with its count, and keeps only the tagged rows, wherever they are
    const filter = page.getByRole('group', { name: '筛选' }).getByLabel('标签');
    expect(await filter.locator('option[value="team-a"]').textContent()).toBe('team-a（2）');
    await filter.selectOption('team-a');
    await table.getByText('tag-alpha').waitFor({ timeout: 15_000 });
    expect(await table.getByText('tag-beta').count()).toBe(1);
    expect(await table.getByText('filler').count()).toBe(0);
    expect(await table.getByText('tag-gamma').count()).toBe(0);
    expect(page.url()).toContain('team-a');
    // the pager counts the same two (every server page read: 28 channels loaded)
    await page.getByText('已加载 28 条，显示 2 条', { exact: true }).waitFor();
    expect(await filter.locator('option[value="team-a"]').textContent()).toBe('team-a（2）');

    // edit by tag: disable, confirm with the count, done
    await page.getByRole('button', { name: '按标签批量编辑' }).click();
    const dialog = page.getByRole('dialog', { name: '按标签批量编辑' });
    await dialog.getByRole('combobox', { name: '标签' }).selectOption('team-a');
    await dialog.getByText('启用/禁用', { exact: true }).click();
    await dialog.getByLabel('启用/禁用', { exact: true }).and(page.locator('select')).selectOption('2');
    await dialog.getByRole('button', { name: '下一步' }).click();
    await page.getByText('将修改带有标签「team-a」的 2 个渠道，确定吗？').waitFor();
    await page.getByRole('button', { name: '确认修改' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('已修改带有标签「team-a」的 2 个渠道');

    await expect.poll(statusOf, { timeout: 15_000 }).toEqual({ 'tag-alpha': 2, 'tag-beta': 2, 'tag-gamma': 1 });
    expectNoUnexpectedErrors(toasts);
    await context.close();
  }, 180_000);
});
