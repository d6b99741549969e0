import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { insertUser } from '../server/support/db';
import { startLoopbackSmtp, type LoopbackSmtp } from '../server/support/smtp';
import { setOptions, startGateway, type GatewayUnderTest } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/** Account walks in Chromium on the real gateway: register with an e-mailed code, reset by the mailed link, expired session. */

let gw: GatewayUnderTest;
let smtp: LoopbackSmtp;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  gw = await startGateway();
  // Root turns on e-mail verification and points the mailer at the loopback SMTP peer.
  const root = await gw.root();
  await setOptions(root, {
    EmailVerificationEnabled: 'true',
    SMTPServer: '127.0.0.1',
    SMTPPort: String(smtp.port),
    SMTPAccount: 'mailer@example.com',
    SMTPFrom: 'noreply@example.com',
    SMTPToken: 'smtp-pass',
    ServerAddress: gw.url,
  });
}, 180_000);

afterAll(async () => {
  await gw.close();
  await smtp.close();
});

/** Signs in through /login and waits for the account menu. */
async function logIn(page: Page, username: string, password: string, displayName = username): Promise<void> {
  await page.goto(`${gw.url}/login`);
  await page.getByLabel('用户名或邮箱').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
  await page.getByRole('button', { name: `账户菜单：${displayName}` }).waitFor();
}

describe('account walks on the real gateway', () => {
  it('registers with an e-mailed verification code, then logs in as the new user', async () => {
    const context = await gw.newContext();
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/register`);
    const form = page.getByRole('form', { name: '新用户注册' });
    await form.waitFor();
    await form.getByLabel('用户名').fill('mailuser');
    await form.getByLabel('密码', { exact: true }).fill('mail-pass-1');
    await form.getByLabel('确认密码').fill('mail-pass-1');
    await form.getByLabel('邮箱地址').fill('mailuser@example.com');
    await form.getByRole('button', { name: '获取验证码' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('验证码发送成功，请检查你的邮箱！');
    // the button counts down before another code may be sent
    await form.getByRole('button', { name: /^重新发送 \(\d+\)$/ }).waitFor();

    const mail = smtp.lastTo('mailuser@example.com');
    expect(mail?.subject).toBe('One API 邮箱验证邮件');
    const code = /<strong>([0-9a-f]{6})<\/strong>/.exec(mail?.body ?? '')?.[1];
    expect(code).toMatch(/^[0-9a-f]{6}$/);
    await form.getByLabel('验证码').fill(code ?? '');
    await form.getByRole('button', { name: '注册', exact: true }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('注册成功！');
    await page.waitForURL(`${gw.url}/login`);

    const row = await gw.database.db.selectFrom('users').select(['email', 'role', 'status']).where('username', '=', 'mailuser').executeTakeFirst();
    expect(row).toEqual({ email: 'mailuser@example.com', role: 1, status: 1 });

    await logIn(page, 'mailuser', 'mail-pass-1');
    await page.waitForURL(`${gw.url}/token`);
    expect(toasts.texts).toContain('登录成功！');
    expect(await page.evaluate(async () => (await fetch('/api/user/self')).status)).toBe(200);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('resets a password through the mailed link: /user/reset shows and copies the new one, which then logs in', async () => {
    await insertUser(gw.database.db, { username: 'forgetful', password: 'old-password-1', email: 'forgetful@example.com' });
    const context = await gw.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/login`);
    await page.getByRole('link', { name: '点击重置' }).click();
    await page.waitForURL(`${gw.url}/reset`);
    const form = page.getByRole('form', { name: '密码重置' });
    await form.getByLabel('邮箱地址').fill('forgetful@example.com');
    await form.getByRole('button', { name: '提交' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('重置邮件发送成功，请检查邮箱！');
    await form.getByRole('button', { name: /^重试 \(\d+\)$/ }).waitFor();

    const mail = smtp.lastTo('forgetful@example.com');
    const link = /href="([^"]+)"/.exec(mail?.body ?? '')?.[1]?.replaceAll('&amp;', '&');
    expect(link).toMatch(new RegExp(`^${gw.url}/user/reset\\?email=forgetful@example\\.com&token=[0-9a-f]{32}$`));
    await page.goto(link ?? '');
    const confirm = page.getByRole('form', { name: '密码重置确认' });
    const email = confirm.getByLabel('邮箱地址');
    await expect.poll(() => email.inputValue(), { timeout: 15_000 }).toBe('forgetful@example.com');
    expect(await email.getAttribute('readonly')).not.toBeNull();
    await confirm.getByRole('button', { name: '提交' }).click();
    await confirm.getByRole('button', { name: '密码重置完成' }).waitFor();
    const password = await confirm.getByLabel('新密码').inputValue();
    expect(password).toMatch(/^[0-9a-f]{12}$/);
    expect(await confirm.getByRole('button', { name: '密码重置完成' }).isDisabled()).toBe(true);
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('新密码已复制到剪贴板');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);

    await logIn(page, 'forgetful', password);
    await page.waitForURL(`${gw.url}/token`);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('an expired session: a save on /user/edit opens the sign-in dialog and is saved once after it; cancelled, it lands on /login?expired=true with the notice', async () => {
    await insertUser(gw.database.db, { username: 'sleeper', password: 'sleeper-pass-1' });
    const context = await gw.newContext();
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await logIn(page, 'sleeper', 'sleeper-pass-1');
    await page.goto(`${gw.url}/user/edit`);
    const form = page.getByRole('form', { name: '更新用户信息' });
    const displayName = form.getByLabel('显示名称');
    await expect.poll(() => displayName.inputValue(), { timeout: 15_000 }).toBe('sleeper');

    // the server forgets the session (as when it expires or another device logs out everywhere)
    const user = await gw.database.db.selectFrom('users').select('id').where('username', '=', 'sleeper').executeTakeFirstOrThrow();
    const deleted = await gw.database.db.deleteFrom('sessions').where('user_id', '=', user.id).executeTakeFirst();
    expect(Number(deleted.numDeletedRows)).toBe(1);

    // the save meets the 401: the sign-in dialog opens over the form; signing in again as the
    // same user sends the save once more, and the profile is saved exactly once
    await displayName.fill('Sleepy');
    await form.getByRole('button', { name: '提交' }).click();
    const dialog = page.getByRole('alertdialog', { name: '登录已过期' });
    await dialog.getByLabel('密码').fill('sleeper-pass-1');
    await dialog.getByRole('button', { name: '登录', exact: true }).click();
    await expect.poll(() => toasts.texts, { timeout: 30_000 }).toContain('用户信息更新成功！');
    await dialog.waitFor({ state: 'detached' });
    const saved = await gw.database.db.selectFrom('users').select('display_name').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(saved.display_name).toBe('Sleepy');

    // expired again; this time the dialog is cancelled: the login page with the notice, nothing saved
    // (still on the form: a save stays on /user/edit; a page load would meet the 401 with no save to keep)
    await gw.database.db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    expect(await displayName.inputValue()).toBe('Sleepy');
    await displayName.fill('Sleepier');
    await form.getByRole('button', { name: '提交' }).click();
    await dialog.getByRole('button', { name: '取消' }).click();
    await page.waitForURL(`${gw.url}/login?expired=true`);
    await page.getByText('未登录或登录已过期，请重新登录！').first().waitFor();
    // signed out in the console too: the header offers login again, the stored user is gone
    await page.getByRole('link', { name: '登录', exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    const row = await gw.database.db.selectFrom('users').select('display_name').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.display_name).toBe('Sleepy');
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });
});
