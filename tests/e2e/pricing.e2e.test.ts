import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOptions, startGateway, type GatewayUnderTest } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/**
 * The models-and-prices page (/pricing) on the real gateway: root sets a ModelRatio, a
 * CompletionRatio and a GroupRatio through the API and puts a common user in group vip; the user
 * opens /pricing and sees the vip prices per 1M tokens in US dollars, the model of a group they
 * are not in left out.
 */

let gw: GatewayUnderTest;
const member = { username: 'e2eprice', password: 'e2e-pass-1' };

beforeAll(async () => {
  gw = await startGateway();
  const root = await gw.root();
  await setOptions(root, {
    DisplayInCurrencyEnabled: 'true',
    QuotaPerUnit: '500000',
    ModelRatio: JSON.stringify({ 'e2e-model': 1.5, 'e2e-other': 4 }),
    CompletionRatio: JSON.stringify({ 'e2e-model': 2 }),
    GroupRatio: JSON.stringify({ default: 1, vip: 0.5 }),
  });
  const created = await root.request('POST', '/api/user/', { body: { ...member, display_name: member.username } });
  expect(created.body?.success, created.text).toBe(true);
  const { id } = await gw.database.db.selectFrom('users').select('id').where('username', '=', member.username).executeTakeFirstOrThrow();
  const moved = await root.request('PUT', '/api/user/', { body: { id, group: 'vip' } });
  expect(moved.body?.success, moved.text).toBe(true);
  for (const [name, models, group] of [
    ['price-vip', 'e2e-model', 'default,vip'],
    ['price-default', 'e2e-other', 'default'],
  ] as const) {
    const reply = await root.request('POST', '/api/channel/', {
      body: { type: 8, name, key: `sk-${name}`, base_url: 'http://127.0.0.1:9', models, group },
    });
    expect(reply.body?.success, reply.text).toBe(true);
  }
}, 180_000);

afterAll(async () => {
  await gw?.close();
});

describe('the pricing page on the real gateway', () => {
  it('a common user in group vip opens /pricing and sees the vip prices', async () => {
    const signed = await gw.signedIn(member.username, member.password);
    const context = await gw.newContext({ storageState: signed });
    context.setDefaultTimeout(60_000);
    context.setDefaultNavigationTimeout(120_000);
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/pricing`);
    await page.getByRole('heading', { name: '模型价格' }).waitFor();
    await page.getByText('当前分组：vip（倍率 0.5）').waitFor();
    const row = page.getByRole('row', { name: /e2e-model/ });
    await row.waitFor();
    // 1.5 × 0.5 = 0.75 per token: 750000 quota per 1M tokens = $1.5; output × 2 = $3
    const cells = (await row.getByRole('cell').allTextContents()).map((t) => t.trim());
    expect(cells).toEqual(['e2e-model', '$1.5', '$3', '可用']);
    expect(await page.getByRole('row', { name: /e2e-other/ }).count()).toBe(0);
    await page.getByLabel('搜索模型').fill('nothing-like-it');
    await page.getByText('没有匹配的模型').waitFor();
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });
});
