import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

/**
 * Loopback stand-ins for the third parties of contract §2.3.8–§2.3.9, each a small Hono HTTP
 * server on 127.0.0.1 speaking the exchanges one-api performs:
 *
 * * GitHub: `POST /login/oauth/access_token` (JSON `{client_id, client_secret, code}`) →
 *   `{access_token}` or `{error}`; `GET /user` (Bearer) → `{login, name, email}` or 401
 *   `{message:"Bad credentials"}`; `GET /user/emails` (Bearer) → the account's e-mails.
 * * Lark: `POST /open-apis/authen/v2/oauth/token` (JSON with `grant_type` and `redirect_uri`) →
 *   `{code:0, access_token}`; `GET /suite/passport/oauth/userinfo` (Bearer) → `{name, open_id}`.
 * * WeChat server: `GET /api/wechat/user?code=` with `Authorization: <token>` →
 *   `{success, message, data:<wechat id>}`.
 *
 * Tests register accounts per authorization code and read the requests the server made.
 */

export interface GitHubAccount {
  readonly login: string | null;
  readonly name: string | null;
  readonly email: string | null;
}

export interface LarkAccount {
  readonly open_id: string;
  readonly name: string;
}

/** One request a fake received. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly query: Record<string, string>;
  readonly body: unknown;
}

export interface FakeProviders {
  /** Environment for the API under test (GitHub and Lark base URLs). */
  readonly env: Record<string, string>;
  /** Base URL of the WeChat server (the WeChatServerAddress option). */
  readonly weChatAddress: string;
  /** The token the WeChat server accepts (the WeChatServerToken option). */
  readonly weChatToken: string;
  /** GitHub OAuth app credentials the fake accepts. */
  readonly gitHubClient: { readonly id: string; readonly secret: string };
  readonly larkClient: { readonly id: string; readonly secret: string };
  /** Authorization code → account. */
  readonly gitHubCodes: Map<string, GitHubAccount>;
  readonly larkCodes: Map<string, LarkAccount>;
  /** WeChat code → wechat id ('' answers `success:true` with empty data). */
  readonly weChatCodes: Map<string, string>;
  /** Every request received, in order. */
  readonly seen: SeenRequest[];
  stop(): Promise<void>;
}

/** A URL on 127.0.0.1 where nothing listens (a port just released). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Starts the three fakes on one loopback server (distinct path spaces). */
export async function startFakeProviders(): Promise<FakeProviders> {
  const gitHubClient = { id: 'gh-client-id', secret: 'gh-client-secret' };
  const larkClient = { id: 'lark-app-id', secret: 'lark-app-secret' };
  const weChatToken = 'wechat-server-token';
  const gitHubCodes = new Map<string, GitHubAccount>();
  const larkCodes = new Map<string, LarkAccount>();
  const weChatCodes = new Map<string, string>();
  const seen: SeenRequest[] = [];
  /** Access token → GitHub account / Lark account. */
  const gitHubTokens = new Map<string, GitHubAccount>();
  const larkTokens = new Map<string, LarkAccount>();
  let counter = 0;

  const app = new Hono();
  app.use('*', async (c, next) => {
    const raw = c.req.method === 'POST' ? await c.req.text() : '';
    let body: unknown = raw;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      // keep the raw text
    }
    seen.push({ method: c.req.method, path: c.req.path, headers: c.req.header(), query: c.req.query(), body });
    await next();
  });
  const bearer = (header: string | undefined): string => (header ?? '').replace(/^Bearer /, '');

  // GitHub
  app.post('/login/oauth/access_token', (c) => {
    const body = seen[seen.length - 1]?.body as { client_id?: string; client_secret?: string; code?: string } | undefined;
    const account = gitHubCodes.get(body?.code ?? '');
    if (body?.client_id !== gitHubClient.id || body.client_secret !== gitHubClient.secret || account === undefined) {
      return c.json({ error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
    }
    counter += 1;
    const token = `gho_${counter}`;
    gitHubTokens.set(token, account);
    return c.json({ access_token: token, token_type: 'bearer', scope: 'user:email' });
  });
  app.get('/user', (c) => {
    const account = gitHubTokens.get(bearer(c.req.header('Authorization')));
    if (account === undefined) return c.json({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' }, 401);
    return c.json({ login: account.login, id: 1000 + counter, name: account.name, email: account.email });
  });
  app.get('/user/emails', (c) => {
    const account = gitHubTokens.get(bearer(c.req.header('Authorization')));
    if (account === undefined) return c.json({ message: 'Bad credentials' }, 401);
    return c.json(account.email === null ? [] : [{ email: account.email, primary: true, verified: true, visibility: 'public' }]);
  });

  // Lark
  app.post('/open-apis/authen/v2/oauth/token', (c) => {
    const body = seen[seen.length - 1]?.body as Record<string, string> | undefined;
    const account = larkCodes.get(body?.code ?? '');
    if (
      body?.client_id !== larkClient.id ||
      body.client_secret !== larkClient.secret ||
      body.grant_type !== 'authorization_code' ||
      account === undefined
    ) {
      return c.json({ code: 20003, error: 'invalid_grant', error_description: 'The authorization code is invalid' }, 400);
    }
    counter += 1;
    const token = `u-${counter}`;
    larkTokens.set(token, account);
    return c.json({ code: 0, access_token: token, expires_in: 7200, token_type: 'Bearer', scope: '' });
  });
  app.get('/suite/passport/oauth/userinfo', (c) => {
    const account = larkTokens.get(bearer(c.req.header('Authorization')));
    if (account === undefined) return c.json({ code: 20005, msg: 'invalid access token' }, 401);
    return c.json({ sub: account.open_id, name: account.name, open_id: account.open_id, union_id: `on_${account.open_id}`, tenant_key: 't1' });
  });

  // WeChat server
  app.get('/api/wechat/user', (c) => {
    if (c.req.header('Authorization') !== weChatToken) return c.json({ success: false, message: '无权进行此操作，token 无效' });
    const id = weChatCodes.get(c.req.query('code') ?? '');
    if (id === undefined) return c.json({ success: false, message: '上游：验证码无效' });
    return c.json({ success: true, message: '', data: id });
  });

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    env: { GITHUB_OAUTH_BASE_URL: base, GITHUB_API_BASE_URL: base, LARK_BASE_URL: base, LARK_PASSPORT_BASE_URL: base },
    weChatAddress: base,
    weChatToken,
    gitHubClient,
    larkClient,
    gitHubCodes,
    larkCodes,
    weChatCodes,
    seen,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
