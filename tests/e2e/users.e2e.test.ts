import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';
import { closeToasts, expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/** The user area in Chromium on the real gateway: /user/add, the /user list and its actions, /user/edit/:id. */

let gw: GatewayUnderTest;
/** Root, signed in through /login once (the default password leads to /user/edit). */
let root: SignedIn;

beforeAll(async () => {
  gw = await startGateway();
  root = await gw.signedIn('root', '123456', '/user/edit');
}, 180_000);

afterAll(async () => {
  await gw.close();
});

const phone = { width: 375, height: 812 };
const names = ['e2euser1', 'e2euser2', 'e2euser3', 'e2euser4', 'e2euser5'];

const userRow = (page: Page, username: string) =>
  page.getByRole('table', { name: '用户管理' }).getByRole('row').filter({ has: page.getByRole('button', { name: `删除 ${username}` }) });

const stored = (username: string) =>
  gw.database.db.selectFrom('users').select(['id', 'role', 'status', 'group', 'quota']).where('username', '=', username).executeTakeFirstOrThrow();

describe('the user area on the real gateway', () => {
  it('creates five users through /user/add, promotes, bans and bulk-enables on /user, and edits quota and group', async () => {
    const context = await gw.newContext({ storageState: root });
    const page = await context.newPage();
    const toasts = await watchToasts(page);

    await page.goto(`${gw.url}/user/add`);
    for (const [i, name] of names.entries()) {
      // after the first, the list's add button (under the toast, on a desktop window) leads back to the form
      if (i > 0) {
        await closeToasts(page);
        await page.getByRole('link', { name: '添加新的用户' }).click();
      }
      const form = page.getByRole('form', { name: '创建新用户账户' });
      await form.getByLabel(/^用户名/).fill(name);
      // an empty password sends nothing: the button stays disabled
      expect(await form.getByRole('button', { name: '提交' }).isDisabled()).toBe(true);
      await form.getByLabel('显示名称').fill(`Display ${name}`);
      await form.getByLabel(/^密码/).fill('e2e-pass-1');
      await form.getByRole('button', { name: '提交' }).click();
      await page.waitForURL(`${gw.url}/user`);
      await expect.poll(() => toasts.texts.filter((t) => t === '用户账户创建成功！').length, { timeout: 15_000 }).toBe(i + 1);
    }
    for (const name of names) expect(await stored(name)).toMatchObject({ role: 1, status: 1 });

    // the list shows them; root's manage buttons are disabled
    await userRow(page, 'e2euser5').waitFor();
    expect(await page.getByRole('button', { name: '禁用 root' }).isDisabled()).toBe(true);

    // promote one: the server's new role replaces the row's
    await page.getByRole('button', { name: '提升 e2euser1 为管理员' }).click();
    await userRow(page, 'e2euser1').getByText('管理员', { exact: true }).waitFor();
    expect((await stored('e2euser1')).role).toBe(10);

    // ban one: the server's new status replaces the row's, the button now enables
    await page.getByRole('button', { name: '禁用 e2euser2' }).click();
    await userRow(page, 'e2euser2').getByText('已封禁', { exact: true }).waitFor();
    await page.getByRole('button', { name: '启用 e2euser2' }).waitFor();
    expect((await stored('e2euser2')).status).toBe(2);

    // bulk enable over e2euser2, e2euser3 and root: root fails without a call, the others are enabled
    // by keyboard: focus the row's checkbox and press Space
    for (const [i, name] of [/e2euser2$/, /e2euser3$/, /#1 root$/].entries()) {
      await page.getByRole('checkbox', { name }).focus();
      await page.keyboard.press('Space');
      await page.getByRole('region', { name: `已选择 ${i + 1} 项` }).waitFor();
    }
    const bar = page.getByRole('region', { name: '已选择 3 项' });
    await closeToasts(page);
    await bar.getByRole('button', { name: '启用', exact: true }).click();
    const confirm = page.getByRole('alertdialog').filter({ hasText: '将对 3 项执行「启用」' });
    await confirm.getByRole('button', { name: '确定' }).click();
    const report = page.getByRole('alertdialog').filter({ hasText: '成功 2 项，失败 1 项' });
    await report.waitFor();
    expect(await report.textContent()).toContain('#1 root: root 是超级管理员，不能在用户列表中操作（未发送请求）');
    await report.getByRole('button', { name: '关闭' }).click();
    await userRow(page, 'e2euser2').getByText('已激活', { exact: true }).waitFor();
    expect((await stored('e2euser2')).status).toBe(1);

    // search and sort live in the address bar: a reload shows the same view
    await page.getByRole('searchbox').fill('  e2euser ');
    await page.getByRole('searchbox').press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('e2euser');
    await page.getByLabel('排序方式').selectOption('request_count');
    await expect.poll(() => new URL(page.url()).searchParams.get('order')).toBe('request_count');
    await page.getByRole('button', { name: '按 用户名 排序' }).click();
    await page.getByRole('button', { name: '按 用户名 排序' }).click();
    await expect.poll(() => new URL(page.url()).search).toContain('sort=username&dir=desc');
    const before = page.url();
    await page.reload();
    await userRow(page, 'e2euser5').waitFor();
    expect(page.url()).toBe(before);
    expect(await page.getByRole('searchbox').inputValue()).toBe('e2euser');
    expect(await page.getByLabel('排序方式').inputValue()).toBe('request_count');
    expect(await page.getByRole('columnheader', { name: /用户名/ }).getAttribute('aria-sort')).toBe('descending');
    const firstUser = page.getByRole('table', { name: '用户管理' }).getByRole('row').nth(1);
    expect(await firstUser.textContent()).toContain('e2euser5');
    expect(await page.getByRole('button', { name: '删除 root' }).count()).toBe(0);

    // edit e2euser3's quota and group through /user/edit/:id
    const id = (await stored('e2euser3')).id;
    await page.getByRole('link', { name: '编辑 e2euser3' }).click();
    await page.waitForURL(`${gw.url}/user/edit/${id}`);
    const form = page.getByRole('form', { name: '更新用户信息' });
    const quota = form.getByLabel('剩余额度');
    await expect.poll(() => form.getByLabel('用户名').inputValue(), { timeout: 15_000 }).toBe('e2euser3');
    await quota.fill('12x');
    await form.getByRole('button', { name: '提交' }).click();
    await form.getByText('剩余额度必须是整数').waitFor();
    await quota.fill('123456');
    await form.getByLabel('分组').selectOption('vip');
    await form.getByRole('button', { name: '提交' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('用户信息更新成功！');
    expect(await stored('e2euser3')).toMatchObject({ group: 'vip', quota: 123456 });
    await form.getByRole('button', { name: '取消' }).click();
    await page.waitForURL(`${gw.url}/setting`);

    expectNoUnexpectedErrors(toasts, ['剩余额度必须是整数']);
    await context.close();
  });

  it('at 375 px in English and dark mode: the users are cards, the page does not scroll sideways', async () => {
    const context = await gw.newContext({ viewport: phone, colorScheme: 'light', storageState: root });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/user`);
    await page.getByRole('heading', { name: '用户管理' }).waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await page.getByRole('list', { name: 'Users' }).getByText('Super admin').waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.classList.contains('dark')])).toEqual(['en', true]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    // each user is a card: no table, and the card fits the phone
    expect(await page.getByRole('table').count()).toBe(0);
    const card = await page.getByRole('list', { name: 'Users' }).getByRole('listitem').first().boundingBox();
    expect(card!.x + card!.width).toBeLessThanOrEqual(phone.width);

    await page.getByRole('link', { name: 'Add user' }).click();
    await page.waitForURL(`${gw.url}/user/add`);
    await page.getByRole('heading', { name: 'Create a user account' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });
});
