import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright';
import type { Client } from '../server/support/http';
import { graveViolations } from './support/axe';
import { startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';

/*
 * The command palette on the real gateway in real Chromium: root opens it with Ctrl+K, types a
 * channel's name, the channel search answers, Enter opens the channel's edit page; a common user's
 * palette lists no admin page.
 */

let gw: GatewayUnderTest;
let root: Client;
let rootSession: SignedIn;
let commonSession: SignedIn;
let channelId: number;

beforeAll(async () => {
  gw = await startGateway();
  root = await gw.root();
  const created = await root.request('POST', '/api/channel/', {
    body: { type: 1, name: 'palette-upstream', key: 'sk-palette', models: 'gpt-3.5-turbo', group: 'default' },
  });
  expect(created.body?.success, created.text).toBe(true);
  const found = await root.request('GET', '/api/channel/search?keyword=palette-upstream');
  channelId = (found.body?.data as { id: number; name: string }[]).find((c) => c.name === 'palette-upstream')!.id;
  const user = await root.request('POST', '/api/user/', { body: { username: 'palette_user', password: 'palette-pass-1', display_name: 'Palette' } });
  expect(user.body?.success, user.text).toBe(true);
  rootSession = await gw.signedIn('root', '123456');
  commonSession = await gw.signedIn('palette_user', 'palette-pass-1');
}, 180_000);

afterAll(async () => {
  await gw?.close();
});

async function open(storageState: SignedIn, viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  const context = await gw.newContext({ storageState, viewport });
  context.setDefaultTimeout(60_000);
  context.setDefaultNavigationTimeout(120_000);
  return context;
}

describe('command palette', () => {
  it('Ctrl+K, a channel name, Enter: the channel edit page', async () => {
    const context = await open(rootSession);
    const page = await context.newPage();
    await page.goto(`${gw.url}/dashboard`);
    // the palette loads after the first paint: until then its button is a disabled placeholder
    const button = page.getByRole('button', { name: /^搜索或跳转/ });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: '命令面板' });
    const field = dialog.getByRole('combobox');
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await field.fill('palette-upstream');
    const option = dialog.getByRole('option', { name: /palette-upstream/ });
    await option.waitFor();
    await expect.poll(() => option.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${gw.url}/channel/edit/${channelId}`);
    await expect.poll(() => dialog.count()).toBe(0);
    await context.close();
  }, 180_000);

  it('a common user sees no admin page, and Escape closes', async () => {
    const context = await open(commonSession, { width: 375, height: 740 });
    const page = await context.newPage();
    await page.goto(`${gw.url}/token`);
    const button = page.getByRole('button', { name: /^搜索或跳转/ });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();
    const dialog = page.getByRole('dialog', { name: '命令面板' });
    await dialog.getByRole('option', { name: '令牌', exact: true }).waitFor();
    const names = await dialog.getByRole('option').allTextContents();
    expect(names).not.toContain('渠道');
    expect(names).not.toContain('用户');
    expect(names).not.toContain('兑换');
    expect(names).not.toContain('测试所有渠道');
    // full width once its opening animation (a slight scale-up) has ended
    await expect.poll(async () => (await dialog.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(374);
    // the open palette on a phone, light and dark: no serious or critical axe violation
    expect(await graveViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await graveViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => button.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  }, 180_000);
});
