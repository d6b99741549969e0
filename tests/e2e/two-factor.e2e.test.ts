import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { insertUser, setOption } from '../server/support/db';
import { chooseMenuItem, startGateway, type GatewayUnderTest } from './support/gateway';
import { graveViolations } from './support/axe';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/**
 * Two-factor sign-in in Chromium on the real gateway: enrol on the personal settings tab (the
 * secret shown once, confirmed with a code computed here with the same library), keep the
 * recovery codes, sign out, then sign in with the password and a fresh code. An admin who must
 * enrol (TwoFactorRequiredForAdmins) is held at the enrolment after the login and after a reload.
 */

let gw: GatewayUnderTest;

beforeAll(async () => {
  gw = await startGateway();
  await insertUser(gw.database.db, { username: 'totpuser', password: 'totp-pass-1' });
  await insertUser(gw.database.db, { username: 'enroladmin', password: 'enrol-pass-1', role: 10 });
}, 180_000);

afterAll(async () => {
  await gw.close();
});

/** The code an authenticator shows for `secret` now, or for the next 30-second step. */
const codeOf = (secret: string, next = false): string =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + (next ? 30_000 : 0),
  });

describe('two-factor sign-in', () => {
  it('enrols in the console, signs out, and signs in again with a TOTP code', async () => {
    const context = await gw.newContext();
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/login`);
    const login = page.getByRole('form', { name: '用户登录' });
    await login.getByLabel('用户名或邮箱').fill('totpuser');
    await login.getByLabel('密码').fill('totp-pass-1');
    await login.getByRole('button', { name: '登录' }).click();
    await page.waitForURL(`${gw.url}/token`);

    await page.goto(`${gw.url}/setting`);
    const section = page.getByRole('region', { name: '两步验证' });
    await section.getByRole('button', { name: '开启两步验证' }).click();
    const secret = (await section.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expect.poll(() => section.getByRole('link').getAttribute('href')).toContain(`secret=${secret}`);
    // the enrolment step (QR code, secret, code field) passes axe
    expect(await graveViolations(page)).toEqual([]);
    // an empty code is named, not sent
    await section.getByRole('button', { name: '确认开启' }).click();
    await section.getByText('请输入验证码（6 位数字）或恢复码').waitFor();
    await section.getByLabel('验证码').fill(codeOf(secret));
    await section.getByRole('button', { name: '确认开启' }).click();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('两步验证已开启');
    const codes = await section.getByRole('list', { name: '恢复码' }).getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    expect(await graveViolations(page)).toEqual([]);
    await section.getByRole('button', { name: '我已保存恢复码' }).click();
    await section.getByText(/已开启：登录时需要输入验证器中的验证码。剩余恢复码 10 个。/).waitFor();

    // sign out
    await page.getByRole('button', { name: /^账户菜单：/ }).click();
    await chooseMenuItem(page, '注销');
    await page.waitForURL(`${gw.url}/login`);

    // the password alone is not enough: the second step asks for the code
    await login.getByLabel('用户名或邮箱').fill('totpuser');
    await login.getByLabel('密码').fill('totp-pass-1');
    await login.getByRole('button', { name: '登录' }).click();
    const second = page.getByRole('form', { name: '两步验证' });
    await second.waitFor();
    await second.getByLabel('验证码').fill('000000' === codeOf(secret, true) ? '111111' : '000000');
    await second.getByRole('button', { name: '验证' }).click();
    await second.getByText('验证码错误或已使用，请输入验证器当前显示的 6 位数字').waitFor();
    // the second step, with its refusal shown, passes axe
    expect(await graveViolations(page)).toEqual([]);
    // the enrolment used the current step: the next one is fresh (accepted within ±1 step)
    await second.getByLabel('验证码').fill(codeOf(secret, true));
    await second.getByRole('button', { name: '验证' }).click();
    await page.waitForURL(`${gw.url}/token`);
    await page.getByRole('button', { name: /^账户菜单：/ }).waitFor();
    await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('登录成功！');
    expectNoUnexpectedErrors(toasts, []);
    await context.close();
  });

  it('holds an admin who must enrol at the enrolment, after a reload too', async () => {
    await setOption(gw.database.db, 'TwoFactorRequiredForAdmins', 'true');
    try {
      const context = await gw.newContext();
      const page = await context.newPage();
      const toasts = await watchToasts(page);
      await page.goto(`${gw.url}/login`);
      const login = page.getByRole('form', { name: '用户登录' });
      await login.getByLabel('用户名或邮箱').fill('enroladmin');
      await login.getByLabel('密码').fill('enrol-pass-1');
      await login.getByRole('button', { name: '登录' }).click();
      await page.waitForURL(`${gw.url}/setting`);
      const banner = page.getByRole('status').filter({ hasText: '请先开启两步验证' });
      await banner.waitFor();

      // a reload on an admin page: the stored user alone no longer says so, the status does
      await page.goto(`${gw.url}/channel`);
      await page.waitForURL(`${gw.url}/setting`);
      await banner.waitFor();
      await page.getByRole('region', { name: '两步验证' }).getByRole('button', { name: '开启两步验证' }).waitFor();
      await page.reload();
      await banner.waitFor();
      expect(new URL(page.url()).pathname).toBe('/setting');
      await expect.poll(() => toasts.texts).toContain('管理员已要求管理员账户开启两步验证，请现在绑定。');
      // no admin page was drawn, so no admin call was refused
      expectNoUnexpectedErrors(toasts, []);
      await context.close();
    } finally {
      await sql`delete from options where ${sql.ref('key')} = 'TwoFactorRequiredForAdmins'`.execute(gw.database.db);
    }
  });
});
