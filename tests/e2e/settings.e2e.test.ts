import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { logInThroughForm, startGateway, type GatewayUnderTest, type SignedIn } from './support/gateway';
import { expectNoUnexpectedErrors, watchToasts } from './support/toasts';

/** The settings page (/setting) in Chromium on the real gateway: tabs, sections, switches, confirmations. */

let gw: GatewayUnderTest;
/** Root, signed in through /login once. */
let root: SignedIn;

beforeAll(async () => {
  gw = await startGateway();
  root = await gw.signedIn('root', '123456');
}, 180_000);

afterAll(async () => {
  await gw.close();
});

const phone = { width: 375, height: 812 };

/** Every PUT /api/option/ the page sends, as [key, value]. */
function watchOptionPuts(page: Page): [string, string][] {
  const puts: [string, string][] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && new URL(r.url()).pathname === '/api/option/') {
      const body = r.postDataJSON() as { key: string; value: string };
      puts.push([body.key, body.value]);
    }
  });
  return puts;
}

const stored = async (keys: readonly string[]) => {
  const rows = await gw.database.db.selectFrom('options').select(['key', 'value']).where('key', 'in', [...keys]).execute();
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
};

const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** The input, text area or select labelled `label` (a price table may share the label). */
const field = (page: Page, sectionName: string, label: string) =>
  section(page, sectionName).getByLabel(label, { exact: true }).and(page.locator('input, textarea, select'));

/** Types into a section's field and presses its save button; waits for the success toast. */
async function saveField(page: Page, toasts: { texts: string[] }, sectionName: string, label: string, value: string) {
  const s = section(page, sectionName);
  await field(page, sectionName, label).fill(value);
  const before = toasts.texts.filter((t) => t === '操作成功完成！').length;
  // a title opening with a Latin word is spaced from 保存 ("保存 SMTP 邮件")
  await s.getByRole('button', { name: /^[A-Za-z0-9]/.test(sectionName) ? `保存 ${sectionName}` : `保存${sectionName}` }).click();
  await expect.poll(() => toasts.texts.filter((t) => t === '操作成功完成！').length, { timeout: 15_000 }).toBe(before + 1);
}

describe('the settings page on the real gateway', () => {
  it('root changes one value in every section, each saved alone, and sees them kept after a reload', async () => {
    const context = await gw.newContext({ storageState: root });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    const puts = watchOptionPuts(page);

    await page.goto(`${gw.url}/setting`);
    const tabs = page.getByRole('tablist', { name: '设置分类' });
    await tabs.getByRole('tab', { name: '运营设置' }).click({ timeout: 120_000 });
    await page.waitForURL(`${gw.url}/setting?tab=operation`);

    // operation: general, monitor, quota, ratio
    await saveField(page, toasts, '通用设置', '失败重试次数', '2');
    await saveField(page, toasts, '监控设置', '额度提醒阈值', '2000');
    await saveField(page, toasts, '额度设置', '新用户初始额度', '100');
    // the ratio section is a price editor: its group table turns into the GroupRatio JSON
    await section(page, '倍率设置').getByRole('button', { name: '编辑 JSON' }).nth(1).click();
    await saveField(page, toasts, '倍率设置', '分组倍率', '{"default":1,"vip":2}');
    // a switch saves at once
    await section(page, '通用设置').getByText('近似估算 token 数以减少计算量').click();
    await expect.poll(() => puts.at(-1)).toEqual(['ApproximateTokenEnabled', 'true']);

    // invalid ModelRatio JSON: the message, nothing sent
    const sent = puts.length;
    await section(page, '倍率设置').getByRole('button', { name: '编辑 JSON' }).click();
    await field(page, '倍率设置', '模型倍率').fill('{"gpt-4":');
    await section(page, '倍率设置').getByRole('button', { name: '保存倍率设置' }).click();
    await expect.poll(() => toasts.texts).toContain('模型倍率不是合法的 JSON 字符串');
    await section(page, '倍率设置').getByText('模型倍率不是合法的 JSON 字符串').waitFor();
    expect(puts.length).toBe(sent);

    // system: the broken ratio lives in the price editor, which the tab change discards
    await tabs.getByRole('tab', { name: '系统设置' }).click();
    await page.waitForURL(`${gw.url}/setting?tab=system`);
    await section(page, '登录注册').getByText('密码注册需验证邮箱').click();
    await expect.poll(() => puts.at(-1)).toEqual(['EmailVerificationEnabled', 'true']);
    const whitelist = section(page, '邮箱域名白名单');
    await whitelist.getByLabel('添加允许的邮箱域名').fill(' example.com ');
    await whitelist.getByLabel('添加允许的邮箱域名').press('Enter');
    await whitelist.getByText('example.com', { exact: true }).waitFor();
    await whitelist.getByRole('button', { name: '移除 qq.com' }).click();
    await whitelist.getByRole('button', { name: '保存邮箱域名白名单' }).click();
    await expect.poll(() => puts.at(-1)?.[0]).toBe('EmailDomainWhitelist');
    await saveField(page, toasts, 'SMTP 邮件', 'SMTP 服务器地址', 'smtp.example.com');
    await saveField(page, toasts, 'GitHub OAuth', 'GitHub Client ID', 'gh-client');
    await saveField(page, toasts, '飞书授权登录', '飞书 App ID', 'lark-app');
    await saveField(page, toasts, '微信服务器', 'WeChat Server 地址', 'https://wechat.example.com');
    await saveField(page, toasts, '消息推送', '消息推送地址', 'https://push.example.com');
    await saveField(page, toasts, 'Turnstile 人机校验', 'Turnstile Site Key', 'site-key');
    await saveField(page, toasts, '服务器地址', '服务器地址', 'https://gw.example.com/');

    // other: notice, system name, theme, logo, home page, about, footer
    await tabs.getByRole('tab', { name: '其他设置' }).click();
    await page.waitForURL(`${gw.url}/setting?tab=other`);
    await saveField(page, toasts, '公告', '公告', 'Maintenance on Sunday');
    await saveField(page, toasts, '系统名称', '系统名称', 'E2E Gateway');
    await field(page, '主题', '主题').selectOption('berry');
    await section(page, '主题').getByRole('button', { name: '保存主题' }).click();
    await expect.poll(() => puts.at(-1)).toEqual(['Theme', 'berry']);
    await saveField(page, toasts, 'Logo', 'Logo 图片地址', 'https://example.com/logo.png');
    await saveField(page, toasts, '首页内容', '首页内容', '# Welcome');
    await saveField(page, toasts, '关于', '关于', 'About this gateway');
    await saveField(page, toasts, '页脚', '页脚', '<p>E2E footer</p>');
    // the status follows: the header shows the new system name
    await page.getByRole('banner').getByText('E2E Gateway').first().waitFor();

    const expected: Record<string, string> = {
      RetryTimes: '2',
      QuotaRemindThreshold: '2000',
      QuotaForNewUser: '100',
      GroupRatio: '{"default":1,"vip":2}',
      ApproximateTokenEnabled: 'true',
      EmailVerificationEnabled: 'true',
      EmailDomainWhitelist: 'gmail.com,163.com,126.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com,example.com',
      SMTPServer: 'smtp.example.com',
      GitHubClientId: 'gh-client',
      LarkClientId: 'lark-app',
      WeChatServerAddress: 'https://wechat.example.com',
      MessagePusherAddress: 'https://push.example.com',
      TurnstileSiteKey: 'site-key',
      ServerAddress: 'https://gw.example.com',
      Notice: 'Maintenance on Sunday',
      SystemName: 'E2E Gateway',
      Theme: 'berry',
      Logo: 'https://example.com/logo.png',
      HomePageContent: '# Welcome',
      About: 'About this gateway',
      Footer: '<p>E2E footer</p>',
    };
    // only the changed keys were sent, each once, in page order (the server address normalised)
    expect(puts).toEqual(Object.entries(expected));
    expect(await stored(Object.keys(expected))).toEqual(expected);

    // after a reload every value is back from the server
    await page.reload();
    await field(page, '页脚', '页脚').waitFor();
    expect(await field(page, '系统名称', '系统名称').inputValue()).toBe('E2E Gateway');
    await tabs.getByRole('tab', { name: '运营设置' }).click({ timeout: 120_000 });
    expect(await field(page, '通用设置', '失败重试次数').inputValue()).toBe('2');
    // the group table shows what was saved; its JSON comes back pretty-printed (two spaces)
    expect(await section(page, '倍率设置').getByLabel('vip 倍率', { exact: true }).inputValue()).toBe('2');
    await section(page, '倍率设置').getByRole('button', { name: '编辑 JSON' }).nth(1).click();
    expect(await field(page, '倍率设置', '分组倍率').inputValue()).toBe('{\n  "default": 1,\n  "vip": 2\n}');
    await tabs.getByRole('tab', { name: '系统设置' }).click();
    expect(await field(page, '服务器地址', '服务器地址').inputValue()).toBe('https://gw.example.com');
    await section(page, '邮箱域名白名单').getByText('example.com', { exact: true }).waitFor();

    // leaving with unsaved changes: cancel stays and keeps the typed text
    await field(page, 'SMTP 邮件', 'SMTP 账户').fill('mailer');
    await tabs.getByRole('tab', { name: '其他设置' }).click();
    await page.getByRole('alertdialog', { name: '放弃未保存的更改？' }).getByText('取消', { exact: true }).click();
    expect(await field(page, 'SMTP 邮件', 'SMTP 账户').inputValue()).toBe('mailer');
    expect(page.url()).toBe(`${gw.url}/setting?tab=system`);

    expectNoUnexpectedErrors(toasts, ['模型倍率不是合法的 JSON 字符串']);
    await context.close();
  }, 400_000);

  it('turning PasswordLoginEnabled off asks first: cancel keeps it on, accept saves false and /login hides the password form', async () => {
    const context = await gw.newContext({ storageState: root });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    const puts = watchOptionPuts(page);
    await page.goto(`${gw.url}/setting?tab=system`);
    const login = section(page, '登录注册');
    const label = login.getByText('允许密码登录');
    await label.waitFor();

    await label.click();
    const dialog = page.getByRole('alertdialog', { name: '关闭密码登录？' });
    await dialog.getByText('取消', { exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(puts).toEqual([]);
    expect(await stored(['PasswordLoginEnabled'])).toEqual({ PasswordLoginEnabled: 'true' });

    await label.click();
    await dialog.getByRole('button', { name: '确认关闭' }).click();
    await expect.poll(() => puts).toEqual([['PasswordLoginEnabled', 'false']]);
    await expect.poll(() => stored(['PasswordLoginEnabled'])).toEqual({ PasswordLoginEnabled: 'false' });

    // a visitor's /login no longer offers the password form
    const visitor = await gw.newContext();
    const other = await visitor.newPage();
    await other.goto(`${gw.url}/login`);
    await other.getByRole('heading').first().waitFor();
    await expect.poll(() => other.getByLabel('用户名或邮箱').count()).toBe(0);
    await visitor.close();

    // turning it on again needs no confirmation
    await label.click();
    await expect.poll(() => puts.at(-1)).toEqual(['PasswordLoginEnabled', 'true']);
    await expect.poll(() => stored(['PasswordLoginEnabled'])).toEqual({ PasswordLoginEnabled: 'true' });
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('a common user sees only the personal tab, even when asking for another', async () => {
    const root = await gw.root();
    const created = await root.request('POST', '/api/user/', { body: { username: 'setcommon', password: 'common-pass-1', display_name: 'Common' } });
    expect(created.body?.success).toBe(true);
    const context = await gw.newContext();
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await logInThroughForm(page, gw.url, 'setcommon', 'common-pass-1');
    await page.goto(`${gw.url}/setting?tab=system`);
    const tabs = page.getByRole('tablist', { name: '设置分类' });
    await tabs.getByRole('tab', { name: '个人设置' }).waitFor();
    expect(await tabs.getByRole('tab').count()).toBe(1);
    expect(await page.getByRole('tab', { name: '系统设置' }).count()).toBe(0);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('at 375 px in English and dark mode: the system tab fits the phone', async () => {
    const context = await gw.newContext({ viewport: phone, colorScheme: 'light', storageState: root });
    const page = await context.newPage();
    const toasts = await watchToasts(page);
    await page.goto(`${gw.url}/setting?tab=system`);
    await page.getByRole('heading', { name: '设置', exact: true }).waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    await page.getByRole('region', { name: 'SMTP e-mail' }).getByLabel('SMTP server', { exact: true }).waitFor();
    expect(await page.getByRole('tab', { name: 'System' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.classList.contains('dark')])).toEqual(['en', true]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    await page.getByRole('tab', { name: 'Operation' }).click({ timeout: 90_000 });
    await page.getByRole('region', { name: 'Ratios' }).waitFor({ timeout: 90_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  }, 240_000);
});
