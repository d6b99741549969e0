import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { insertUser } from '../server/support/db';
import { startFakeProviders, type FakeProviders } from '../server/support/oauthProvider';
import { setOptions, startGateway, type GatewayUnderTest } from './support/gateway';
import { startFakeAuthorize, type FakeAuthorize } from './support/oauthAuthorize';
import { expectNoUnexpectedErrors, watchToasts, type SeenToasts } from './support/toasts';

/** GitHub and Lark login and bind in Chromium: real gateway, fake providers on loopback. */

let gw: GatewayUnderTest;
let providers: FakeProviders;
let authorize: FakeAuthorize;

beforeAll(async () => {
  providers = await startFakeProviders();
  gw = await startGateway({ env: providers.env });
  authorize = await startFakeAuthorize(providers, gw.url);
  const root = await gw.root();
  await setOptions(root, {
    GitHubClientId: providers.gitHubClient.id,
    GitHubClientSecret: providers.gitHubClient.secret,
    GitHubOAuthEnabled: 'true',
    LarkClientId: providers.larkClient.id,
    LarkClientSecret: providers.larkClient.secret,
    ServerAddress: gw.url,
  });
}, 180_000);

afterAll(async () => {
  await gw.close();
  await authorize.stop();
  await providers.stop();
});

/**
 * How long a callback may take to finish: a cold console load, the callback page's chunk, the
 * server's two provider calls and, after a failed exchange, the retries (2 s, then 4 s). Under a
 * full CI run (two cores shared with the story browser and the server suites) that took over 15 s;
 * with the page's CPU slowed 6x it took 3 to 12 s and always finished.
 */
const callbackTimeout = 60_000;

/** What a callback page shows and what it said, for a failure message. */
async function whereIs(page: Page, toasts: SeenToasts): Promise<string> {
  const main = await page
    .locator('main')
    .innerText({ timeout: 1_000 })
    .catch(() => '(no main)');
  return `at ${page.url()}, page says ${JSON.stringify(main.slice(0, 300))}, toasts ${JSON.stringify(toasts.texts)}`;
}

/** Waits until `page` is at `url`, failing with what the page shows and the toasts seen. */
async function arrives(page: Page, url: string, toasts: SeenToasts): Promise<void> {
  try {
    await page.waitForURL(url, { timeout: callbackTimeout });
  } catch (error) {
    throw new Error(`never reached ${url}: ${await whereIs(page, toasts)}`, { cause: error });
  }
}

/** A context whose provider URLs lead to the fake authorisation pages. */
async function providerContext(): Promise<BrowserContext> {
  const context = await gw.newContext();
  await authorize.route(context);
  return context;
}

/** Clicks an OAuth button on /login and answers the window it opens. */
async function launch(context: BrowserContext, page: Page, label: string): Promise<Page> {
  await page.goto(`${gw.url}/login`);
  const button = page.getByRole('button', { name: label });
  await button.waitFor();
  const opened = context.waitForEvent('page');
  await button.click();
  return opened;
}

async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${gw.url}/login`);
  await page.getByLabel('用户名或邮箱').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('form', { name: '用户登录' }).getByRole('button', { name: '登录' }).click();
  await page.getByRole('button', { name: `账户菜单：${username}` }).waitFor();
}

/** The state the page's session holds for a callback (as the console's buttons fetch it). */
const fetchState = (page: Page): Promise<string> =>
  page.evaluate(async () => ((await (await fetch('/api/oauth/state')).json()) as { data: string }).data);

describe('OAuth in the browser', () => {
  it('GitHub: the login button opens the provider, the callback signs a new user in (both windows)', async () => {
    const context = await providerContext();
    const toasts = await watchToasts(context);
    const page = await context.newPage();
    authorize.nextGitHub = { login: 'octo-walker', name: 'Octo Walker', email: 'octo@example.com' };
    const popup = await launch(context, page, '使用 GitHub 登录');
    await arrives(popup, `${gw.url}/`, toasts);
    await popup.getByRole('button', { name: '账户菜单：Octo Walker' }).waitFor();
    // the login page that opened the window follows the stored user
    await page.getByRole('button', { name: '账户菜单：Octo Walker' }).waitFor();
    expect(toasts.texts).toContain('登录成功！');

    const asked = authorize.seen.find((r) => r.path === '/login/oauth/authorize');
    expect(asked?.query).toMatchObject({ client_id: providers.gitHubClient.id, scope: 'user:email' });
    expect(asked?.query.state).toMatch(/^[0-9a-zA-Z]{12}$/);
    const row = await gw.database.db
      .selectFrom('users')
      .select(['username', 'display_name', 'email', 'github_id'])
      .where('github_id', '=', 'octo-walker')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ username: expect.stringMatching(/^github_\d+$/), display_name: 'Octo Walker', email: 'octo@example.com', github_id: 'octo-walker' });
    expect(await popup.evaluate(async () => (await fetch('/api/user/self')).status)).toBe(200);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  it('Lark: the login button opens the provider with the callback URL, the callback signs a new user in', async () => {
    const context = await providerContext();
    const toasts = await watchToasts(context);
    const page = await context.newPage();
    authorize.nextLark = { open_id: 'ou_walker', name: 'Lark Walker' };
    const popup = await launch(context, page, '使用飞书登录');
    await arrives(popup, `${gw.url}/`, toasts);
    await popup.getByRole('button', { name: '账户菜单：Lark Walker' }).waitFor();
    expect(toasts.texts).toContain('登录成功！');

    const asked = authorize.seen.find((r) => r.path === '/open-apis/authen/v1/index');
    expect(asked?.query).toMatchObject({ app_id: providers.larkClient.id, redirect_uri: `${gw.url}/oauth/lark` });
    const row = await gw.database.db.selectFrom('users').select(['username', 'lark_id']).where('lark_id', '=', 'ou_walker').executeTakeFirstOrThrow();
    expect(row.username).toMatch(/^lark_\d+$/);
    expectNoUnexpectedErrors(toasts);
    await context.close();
  });

  for (const provider of ['github', 'lark'] as const) {
    it(`${provider}: a signed-in user binds the account; the callback page says so and the row holds the id`, async () => {
      const username = `bind_${provider}`;
      await insertUser(gw.database.db, { username, password: 'bind-pass-1' });
      const context = await providerContext();
      const toasts = await watchToasts(context);
      const page = await context.newPage();
      await logIn(page, username, 'bind-pass-1');
      const state = await fetchState(page);
      const q = encodeURIComponent;
      if (provider === 'github') {
        authorize.nextGitHub = { login: 'bound-octo', name: 'Bound', email: null };
        await page.goto(`${authorize.url}/login/oauth/authorize?client_id=${q(providers.gitHubClient.id)}&state=${q(state)}&scope=user:email`);
      } else {
        authorize.nextLark = { open_id: 'ou_bound', name: 'Bound' };
        const back = q(`${gw.url}/oauth/lark`);
        await page.goto(`${authorize.url}/open-apis/authen/v1/index?redirect_uri=${back}&app_id=${q(providers.larkClient.id)}&state=${q(state)}`);
      }
      await arrives(page, `${gw.url}/setting`, toasts);
      // the toast is emitted with the navigation; it renders a moment later
      await expect.poll(() => toasts.texts, { timeout: 15_000 }).toContain('绑定成功！');
      // still the same user, still signed in
      await page.getByRole('button', { name: `账户菜单：${username}` }).waitFor();
      const row = await gw.database.db.selectFrom('users').select(['github_id', 'lark_id']).where('username', '=', username).executeTakeFirstOrThrow();
      expect(row).toEqual(provider === 'github' ? { github_id: 'bound-octo', lark_id: '' } : { github_id: '', lark_id: 'ou_bound' });
      const users = await gw.database.db.selectFrom('users').select('id').execute();
      expect(users.some((u) => u.id === 0)).toBe(false);
      expectNoUnexpectedErrors(toasts);
      await context.close();
    });
  }
});
