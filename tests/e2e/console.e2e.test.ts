import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { startConsole, type ConsoleUnderTest } from './support/console';

/** A loopback port nothing listens on: the gateway is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

let app: ConsoleUnderTest;

beforeAll(async () => {
  app = await startConsole(`http://127.0.0.1:${await closedPort()}`);
}, 120_000);

afterAll(async () => {
  await app.close();
});

async function open(path: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await app.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${app.url}${path}`);
  return page;
}

describe('the console without a server', () => {
  it('shows the shell and says the server cannot be reached, not a blank page', async () => {
    const page = await open('/');
    await page.getByRole('navigation', { name: '主导航' }).waitFor();
    // the shell shows before the status call has failed: wait for what it says then
    await page.getByText('无法正常连接至服务器！').first().waitFor();
    await page.getByRole('link', { name: '登录' }).waitFor();
    await page.context().close();
  });

  it('/login is usable: both fields are needed, then a failed call is reported', async () => {
    const page = await open('/login');
    const form = page.getByRole('form', { name: '用户登录' });
    await form.waitFor();
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/user/login')) requests.push(r.url());
    });
    await form.getByRole('button', { name: '登录' }).click();
    await page.getByLabel('用户名或邮箱').fill('alice');
    await form.getByRole('button', { name: '登录' }).click();
    expect(requests).toEqual([]);
    await page.getByLabel('密码').fill('secret123');
    await form.getByRole('button', { name: '登录' }).click();
    await page.getByText(/^错误：/).first().waitFor();
    expect(requests).toHaveLength(1);
    // still signed out, still on /login
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.context().close();
  });

  it('/login?expired=true says the session ran out', async () => {
    const page = await open('/login?expired=true');
    await page.getByText('未登录或登录已过期，请重新登录！').first().waitFor();
    await page.context().close();
  });

  it('/register, /reset and /user/reset load on demand', async () => {
    const page = await open('/register?aff=Ab3x');
    await page.getByRole('heading', { name: '新用户注册' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('aff'))).toBe('Ab3x');
    await page.goto(`${app.url}/reset`);
    await page.getByRole('heading', { name: '密码重置' }).waitFor();
    await page.goto(`${app.url}/user/reset?email=a%40b.c&token=t`);
    await page.getByRole('heading', { name: '密码重置确认' }).waitFor();
    await page.context().close();
  });

  it('an unknown address shows the not-found page', async () => {
    const page = await open('/no/such/page');
    await page.getByText('页面不存在').first().waitFor();
    await page.context().close();
  });

  it('switches to English and dark mode, and remembers both', async () => {
    const page = await open('/login');
    // the console says the server cannot be reached; the toast shows under the header, whose
    // buttons stay reachable
    await page.getByText('无法正常连接至服务器！').first().waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).first().waitFor();
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.reload();
    await page.getByRole('button', { name: 'Switch to light mode' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.context().close();
  });

  it('collapses the menu at 360 px without horizontal scrolling', async () => {
    const page = await open('/', { width: 360, height: 740 });
    const open_ = page.getByRole('button', { name: '打开菜单' });
    await open_.waitFor();
    expect(await page.getByRole('navigation', { name: '主导航' }).first().isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await open_.click();
    const drawer = page.getByRole('dialog', { name: '菜单' });
    await drawer.waitFor();
    await drawer.getByRole('link', { name: '关于' }).click();
    await page.waitForURL(`${app.url}/about`);
    await page.context().close();
  });

  it('keeps tabs in step: a sign-out in one tab signs the other out', async () => {
    const context = await app.newContext();
    const user = JSON.stringify({ id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1 });
    await context.addInitScript((u) => {
      if (sessionStorage.getItem('seeded') === null) {
        localStorage.setItem('user', u);
        sessionStorage.setItem('seeded', '1');
      }
    }, user);
    const a = await context.newPage();
    await a.goto(`${app.url}/`);
    const b = await context.newPage();
    await b.goto(`${app.url}/`);
    await b.getByRole('button', { name: '账户菜单：Alice' }).waitFor();
    await a.evaluate(() => localStorage.removeItem('user'));
    await b.getByRole('link', { name: '登录' }).waitFor();
    await context.close();
  });
});
