/**
 * The providers' authorisation pages for browser walks, beside the token/user fakes of
 * tests/server/support/oauthProvider.ts: a loopback server that "approves" at once and redirects
 * back with a fresh code registered in those fakes. `route(context)` sends the console's real
 * provider URLs (github.com, open.feishu.cn) there, so no request leaves the machine.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { BrowserContext } from 'playwright';
import type { FakeProviders, GitHubAccount, LarkAccount } from '../../server/support/oauthProvider';

export interface FakeAuthorize {
  readonly url: string;
  /** The account the next GitHub approval signs in as. */
  nextGitHub: GitHubAccount | null;
  /** The account the next Lark approval signs in as. */
  nextLark: LarkAccount | null;
  /** The authorisation requests received (path and query). */
  readonly seen: { readonly path: string; readonly query: Record<string, string> }[];
  /** Routes the console's provider URLs in `context` to this server. */
  route(context: BrowserContext): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the authorisation pages. GitHub redirects to `<gateway>/oauth/github` (the callback an
 * OAuth app registers); Lark redirects to the request's `redirect_uri`.
 */
export async function startFakeAuthorize(providers: FakeProviders, gateway: string): Promise<FakeAuthorize> {
  let counter = 0;
  const app = new Hono();
  const self: FakeAuthorize = {
    url: '',
    nextGitHub: null,
    nextLark: null,
    seen: [],
    route: async () => {},
    stop: async () => {},
  };
  app.use('*', async (c, next) => {
    self.seen.push({ path: c.req.path, query: c.req.query() });
    await next();
  });
  app.get('/login/oauth/authorize', (c) => {
    const account = self.nextGitHub;
    if (c.req.query('client_id') !== providers.gitHubClient.id || account === null) return c.text('unknown application', 404);
    counter += 1;
    const code = `gh-code-${counter}`;
    providers.gitHubCodes.set(code, account);
    const state = encodeURIComponent(c.req.query('state') ?? '');
    return c.redirect(`${gateway}/oauth/github?code=${code}&state=${state}`, 302);
  });
  app.get('/open-apis/authen/v1/index', (c) => {
    const account = self.nextLark;
    const redirect = c.req.query('redirect_uri') ?? '';
    if (c.req.query('app_id') !== providers.larkClient.id || account === null || redirect === '') return c.text('unknown application', 404);
    counter += 1;
    const code = `lark-code-${counter}`;
    providers.larkCodes.set(code, account);
    const state = encodeURIComponent(c.req.query('state') ?? '');
    return c.redirect(`${redirect}?code=${code}&state=${state}`, 302);
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(self, {
    url: base,
    route: async (context: BrowserContext) => {
      const forward = async (route: Parameters<Parameters<BrowserContext['route']>[1]>[0]) => {
        const from = new URL(route.request().url());
        await route.fulfill({ status: 302, headers: { location: `${base}${from.pathname}${from.search}` } });
      };
      await context.route('https://github.com/login/oauth/authorize**', forward);
      await context.route('https://open.feishu.cn/open-apis/authen/v1/index**', forward);
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
