import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { startGateway, type GatewayUnderTest } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/** Operation settings → clear history logs, in Chromium on the real gateway and its database. */

let gw: GatewayUnderTest;

beforeAll(async () => {
  gw = await startGateway();
}, 180_000);

afterAll(async () => {
  await gw.close();
});

async function logInAsRoot(page: Page): Promise<void> {
  await page.goto(`${gw.url}/login`);
  await page.getByLabel('用户名或邮箱').fill('root');
  await page.getByLabel('密码').fill('123456');
  await page.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
  await page.getByRole('button', { name: /^账户菜单：/ }).waitFor();
}

const countLogs = async (): Promise<number> =>
  Number((await gw.database.db.selectFrom('logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('clearing history logs on the real gateway', () => {
  it('root clears the logs older than a picked time; the toast counts exactly the deleted rows', async () => {
    const { db } = gw.database;
    const now = Math.floor(Date.now() / 1000);
    // 7 logs from 2020, 3 from now on; the target (1 Jan 2024, local time) lies between them
    const old = Array.from({ length: 7 }, (_, i) => ({ user_id: 1, created_at: 1_577_000_000 + i * 86_400, type: 2, content: `old ${i}`, username: 'root' }));
    const recent = Array.from({ length: 3 }, (_, i) => ({ user_id: 1, created_at: now - i, type: 2, content: `new ${i}`, username: 'root' }));
    await db.insertInto('logs').values([...old, ...recent]).execute();
    const before = await countLogs();
    const target = Math.floor(new Date(2024, 0, 1, 0, 0).getTime() / 1000);
    const older = Number(
      (await db.selectFrom('logs').select((eb) => eb.fn.countAll().as('n')).where('created_at', '<', target).executeTakeFirstOrThrow()).n,
    );
    expect(older).toBeGreaterThanOrEqual(7);

    const context = await gw.newContext();
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await logInAsRoot(page);
    await page.goto(`${gw.url}/setting?tab=operation`);

    const field = page.getByLabel('日志清理时间');
    // the default target is 30 days before now
    const shown = await field.inputValue();
    const days = (Date.now() / 1000 - new Date(shown).getTime() / 1000) / 86_400;
    expect(days).toBeGreaterThanOrEqual(30);
    expect(days).toBeLessThan(30.1);

    // cancelling the confirmation deletes nothing
    await field.fill('2024-01-01T00:00');
    await page.getByRole('button', { name: '清除历史日志' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('2024-01-01 00:00:00 之前的全部日志将被删除，此操作不可撤销。').waitFor();
    await dialog.getByRole('button', { name: '取消' }).first().click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await countLogs()).toBe(before);

    // confirmed: the rows before the target are gone, the toast counts them
    await page.getByRole('button', { name: '清除历史日志' }).click();
    await dialog.getByRole('button', { name: '确认清除' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain(`${older} 条日志已清理！`);
    const after = await countLogs();
    expect(before - after).toBe(older);
    expect(Number((await db.selectFrom('logs').select((eb) => eb.fn.countAll().as('n')).where('created_at', '<', target).executeTakeFirstOrThrow()).n)).toBe(0);
    await page.getByText(`上次清理了 ${older} 条日志`).waitFor();

    // again: nothing left before the target
    await page.getByRole('button', { name: '清除历史日志' }).click();
    await dialog.getByRole('button', { name: '确认清除' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('0 条日志已清理！');
    expect(await countLogs()).toBe(after);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });
});
