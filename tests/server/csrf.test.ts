import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { createApi } from '../../server/http/api';
import { crossSiteAllowlist, judgeRequest, type RequestFacts } from '../../server/http/csrf';
import { dumpDatabase, insertUser, setOption } from './support/db';
import { Client, type Reply } from './support/http';
import { startLoopbackSmtp, type LoopbackSmtp } from './support/smtp';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Cross-site requests on /api (server/http/csrf.ts) over real HTTP on both databases: every
 * route refuses a browser request from another site or a sibling origin when it carries the
 * session cookie (GET routes included), nothing changes in the database, the same requests from
 * the gateway's own origin and from scripts still work, cookie-authenticated bodies must be
 * declared JSON, access-token callers are unaffected, and TRUSTED_ORIGINS opens /api (with CORS)
 * to a console served elsewhere. The browser-side proof is tests/e2e/csrf.e2e.test.ts.
 */

const foreignZh = /^请求已拒绝：该请求来自其他网站/;
const foreignEn = /^Request refused: it came from another site/;
const notJsonZh = /^请求已拒绝：请求体必须是 JSON/;

/** Headers a browser sends on a request another site's page triggers (a POST/fetch carries Origin; a navigation does not). */
const crossSite = { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example', 'accept-language': 'zh-CN,zh;q=0.9' };
const crossSiteNavigation = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'accept-language': 'zh-CN' };
const sameSite = { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:1', 'accept-language': 'zh-CN' };
/** A browser that sends no Sec-Fetch-* (plain HTTP to a non-loopback host): only Origin. */
const originOnly = { origin: 'http://evil.example', 'accept-language': 'zh-CN' };
const nullOrigin = { origin: 'null', 'accept-language': 'zh-CN' };
/** A navigation or `<img>` over plain HTTP, where browsers send no Sec-Fetch-*: only the Referer tells (or nothing, when the page hides it). */
const plainHttpNavigation = { referer: 'http://evil.example/page', 'accept-language': 'zh-CN' };
const plainHttpNoReferer = { referer: '', 'accept-language': 'zh-CN' };
const attacks = { crossSite, crossSiteNavigation, sameSite, originOnly, nullOrigin } as const;

/** A route path with every parameter filled in. */
const concrete = (path: string): string => path.replace(/\/:[^/]+/g, '/1');

/** 2025-06-15T15:06:40Z: a fixed clock, so sessions' last_seen_at does not move between dumps. */
const startMs = 1_750_000_000_000;

const facts = (overrides: Partial<RequestFacts>): RequestFacts => ({
  method: 'GET',
  path: '/api/user/self',
  secFetchSite: undefined,
  origin: undefined,
  referer: undefined,
  ownHosts: ['gateway.example:3000'],
  hasSessionCookie: true,
  hasAuthorization: false,
  contentType: undefined,
  hasBody: false,
  ...overrides,
});

describe('cross-site decision (judgeRequest)', () => {
  const none = new Set<string>();
  it('allows same-origin, typed addresses and requests without browser headers', () => {
    expect(judgeRequest(facts({ secFetchSite: 'same-origin', origin: 'http://elsewhere:5173' }), none).kind).toBe('allow');
    expect(judgeRequest(facts({ secFetchSite: 'none' }), none).kind).toBe('allow');
    expect(judgeRequest(facts({}), none).kind).toBe('allow');
    expect(judgeRequest(facts({ origin: 'http://gateway.example:3000' }), none).kind).toBe('allow');
    // TLS ended by a proxy: the browser's scheme differs from the gateway's, the host is the same
    expect(judgeRequest(facts({ origin: 'https://gateway.example', ownHosts: ['gateway.example'] }), none).kind).toBe('allow');
    expect(judgeRequest(facts({ origin: 'https://gateway.example', ownHosts: ['gateway.example:443'] }), none).kind).toBe('allow');
  });
  it('refuses other sites and sibling origins, on GET too, with or without a cookie', () => {
    for (const hasSessionCookie of [true, false]) {
      expect(judgeRequest(facts({ secFetchSite: 'cross-site', hasSessionCookie }), none)).toEqual({ kind: 'foreign', from: 'cross-site' });
      expect(judgeRequest(facts({ secFetchSite: 'same-site', origin: 'http://gateway.example:5173', hasSessionCookie }), none).kind).toBe('foreign');
      expect(judgeRequest(facts({ origin: 'http://gateway.example:5173', hasSessionCookie }), none).kind).toBe('foreign');
      expect(judgeRequest(facts({ origin: 'null', method: 'POST', hasSessionCookie }), none).kind).toBe('foreign');
      expect(judgeRequest(facts({ origin: 'http://evil.example', method: 'DELETE', hasSessionCookie }), none).kind).toBe('foreign');
      expect(judgeRequest(facts({ secFetchSite: 'garbage', hasSessionCookie }), none).kind).toBe('foreign');
    }
  });
  it('lets trusted origins, the OAuth callbacks, preflights and access-token scripts through', () => {
    const trusted = new Set(['http://gateway.example:5173']);
    expect(judgeRequest(facts({ secFetchSite: 'same-site', origin: 'http://GATEWAY.example:5173/' }), trusted).kind).toBe('allow');
    for (const path of crossSiteAllowlist) {
      expect(judgeRequest(facts({ secFetchSite: 'cross-site', path }), none).kind).toBe('allow');
      expect(judgeRequest(facts({ secFetchSite: 'cross-site', path: `${path}/` }), none).kind).toBe('allow');
      expect(judgeRequest(facts({ secFetchSite: 'cross-site', path, method: 'POST' }), none).kind).toBe('foreign');
    }
    expect(judgeRequest(facts({ secFetchSite: 'cross-site', path: '/api/oauth/wechat' }), none).kind).toBe('foreign');
    expect(judgeRequest(facts({ secFetchSite: 'cross-site', method: 'OPTIONS' }), none).kind).toBe('allow');
    expect(judgeRequest(facts({ secFetchSite: 'cross-site', hasSessionCookie: false, hasAuthorization: true }), none).kind).toBe('allow');
    // the cookie wins over the header in the guards, so a cookie makes it a cookie request
    expect(judgeRequest(facts({ secFetchSite: 'cross-site', hasAuthorization: true }), none).kind).toBe('foreign');
  });
  it('over plain HTTP (no Sec-Fetch-Site), the GET routes that change state need an own Origin or Referer', () => {
    const changing = ['/api/oauth/email/bind', '/api/user/token', '/api/user/token/', '/api/user/logout', '/api/oauth/wechat', '/api/oauth/wechat/bind', '/api/oauth/state', '/api/channel/test', '/api/channel/test/5', '/api/channel/update_balance/5', '/api/verification', '/api/reset_password'];
    for (const path of changing) {
      expect(judgeRequest(facts({ path }), none).kind, path).toBe('foreign');
      expect(judgeRequest(facts({ path, method: 'HEAD', hasSessionCookie: false }), none).kind, path).toBe('foreign');
      expect(judgeRequest(facts({ path, referer: 'http://evil.example/x' }), none)).toEqual({ kind: 'foreign', from: 'http://evil.example' });
      expect(judgeRequest(facts({ path, referer: 'http://gateway.example:3000/setting' }), none).kind, path).toBe('allow');
      expect(judgeRequest(facts({ path, referer: 'http://console.example/', ownHosts: ['gateway.example'] }), new Set(['http://console.example'])).kind).toBe('allow');
      expect(judgeRequest(facts({ path, secFetchSite: 'same-origin' }), none).kind, path).toBe('allow');
      expect(judgeRequest(facts({ path, hasSessionCookie: false, hasAuthorization: true }), none).kind, path).toBe('allow');
    }
    for (const path of ['/api/user/self', '/api/channel/', '/api/log/self', '/api/status', '/api/user/tokens']) {
      expect(judgeRequest(facts({ path }), none).kind, path).toBe('allow');
    }
  });
  it('requires a JSON content type on cookie-authenticated bodies only', () => {
    const post = { method: 'POST', hasBody: true, secFetchSite: 'same-origin' } as const;
    expect(judgeRequest(facts({ ...post, contentType: 'text/plain' }), none)).toEqual({ kind: 'not_json', contentType: 'text/plain' });
    expect(judgeRequest(facts({ ...post, contentType: undefined }), none).kind).toBe('not_json');
    expect(judgeRequest(facts({ ...post, contentType: 'application/x-www-form-urlencoded' }), none).kind).toBe('not_json');
    expect(judgeRequest(facts({ ...post, contentType: 'application/jsonp' }), none).kind).toBe('not_json');
    expect(judgeRequest(facts({ ...post, contentType: 'Application/JSON; charset=UTF-8' }), none).kind).toBe('allow');
    expect(judgeRequest(facts({ ...post, method: 'PUT', contentType: 'application/json' }), none).kind).toBe('allow');
    expect(judgeRequest(facts({ ...post, hasBody: false }), none).kind).toBe('allow');
    expect(judgeRequest(facts({ ...post, hasSessionCookie: false, contentType: 'text/plain' }), none).kind).toBe('allow');
    expect(judgeRequest(facts({ ...post, hasSessionCookie: false, hasAuthorization: true, contentType: 'text/plain' }), none).kind).toBe('allow');
  });
});

describe('TRUSTED_ORIGINS', () => {
  it('reads a comma list of origins, normalised', () => {
    expect(loadConfig({}).trustedOrigins).toEqual([]);
    expect(loadConfig({ TRUSTED_ORIGINS: ' https://Console.Example.com:443/ , http://localhost:5173,' }).trustedOrigins).toEqual([
      'https://console.example.com',
      'http://localhost:5173',
    ]);
  });
  it('refuses what is not an origin, naming the entry', () => {
    for (const bad of ['*', 'null', 'console.example.com', 'https://x.example/app', 'ftp://x.example', 'https://u:p@x.example', 'https://x.example?a=1']) {
      expect(() => loadConfig({ TRUSTED_ORIGINS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUSTED_ORIGINS: bad })).toThrow(`"${bad}"`);
    }
  });
});

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`cross-site requests on /api — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => startMs });
    const db = () => suite.api.handle.db;
    let root: Client;
    let smtp: LoopbackSmtp;
    let userId: number;

    beforeAll(async () => {
      root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      userId = await insertUser(db(), { username: 'csrf-user', password: 'password-1' });
      smtp = await startLoopbackSmtp();
      await setOption(db(), 'SMTPServer', '127.0.0.1');
      await setOption(db(), 'SMTPPort', String(smtp.port));
      await setOption(db(), 'SMTPFrom', 'noreply@example.com');
      const channel = await root.post('/api/channel/', { type: 1, name: 'c1', key: 'sk-x', base_url: 'http://127.0.0.1:1', models: 'gpt-4o', group: 'default' });
      expect(channel.body.success).toBe(true);
    });
    afterAll(async () => {
      await smtp.close();
    });

    const rootRow = () => db().selectFrom('users').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    const userRow = () => db().selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();

    function expectRefused(reply: Reply, message: RegExp = foreignZh): void {
      expect(reply.status, reply.text).toBe(403);
      expect(reply.body.success).toBe(false);
      expect(reply.body.message).toMatch(message);
      expect(reply.setCookies).toEqual([]);
    }

    it('every route refuses a cookie-carrying request from another site or a sibling origin, and nothing changes', async () => {
      const routes = createApi({ db: db(), dialect: suite.api.handle.dialect, config: suite.api.config })
        .routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/') && !crossSiteAllowlist.has(r.path))
        .map((r) => `${r.method} ${concrete(r.path)}`);
      const unique = [...new Set(routes)];
      expect(unique.length).toBeGreaterThan(50);
      const before = await dumpDatabase(db());
      for (const entry of unique) {
        const [method, path] = entry.split(' ') as [string, string];
        for (const [name, headers] of Object.entries(attacks)) {
          const body = method === 'GET' ? undefined : '{"username":"csrf-user","action":"promote","quota":1}';
          const reply = await root.request(method, path, { headers: { ...headers, 'content-type': 'text/plain' }, rawBody: body });
          expect(reply.status, `${entry} ${name}: ${reply.text}`).toBe(403);
          expect(reply.body.message, `${entry} ${name}`).toMatch(foreignZh);
        }
      }
      // HEAD runs the GET handler (a no-cors fetch can send it)
      for (const path of ['/api/user/token', '/api/user/logout']) {
        expect((await root.request('HEAD', path, { headers: sameSite })).status).toBe(403);
      }
      expect(await dumpDatabase(db())).toBe(before);
      expect((await root.get('/api/user/self')).body.success).toBe(true);
    });

    it('the reported attack: a navigation from another site to /api/oauth/email/bind does not bind the e-mail', async () => {
      const attacker = suite.client();
      const code = await (async () => {
        const sent = await attacker.get('/api/verification?email=attacker%40evil.example&turnstile=');
        expect(sent.body.success).toBe(true);
        return /<strong>([0-9a-f]{6})<\/strong>/.exec(smtp.lastTo('attacker@evil.example')?.body ?? '')![1]!;
      })();
      const path = `/api/oauth/email/bind?email=attacker%40evil.example&code=${code}`;
      for (const headers of [crossSiteNavigation, sameSite, originOnly, plainHttpNavigation, plainHttpNoReferer]) expectRefused(await root.get(path, { headers }));
      expect((await rootRow()).email).toBe('');
      // the same link opened from the console's own pages binds (and the code was not used up)
      const own = await root.get(path, { headers: { 'sec-fetch-site': 'same-origin' } });
      expect(own.body).toEqual({ success: true, message: '' });
      expect((await rootRow()).email).toBe('attacker@evil.example');
      await db().updateTable('users').set({ email: '' }).where('id', '=', 1).execute();
    });

    it('access token, logout and OAuth state cannot be triggered from another site', async () => {
      const { access_token: token } = await rootRow();
      expectRefused(await root.get('/api/user/token', { headers: crossSiteNavigation }));
      expectRefused(await root.get('/api/user/logout', { headers: sameSite }));
      expectRefused(await root.get('/api/oauth/state', { headers: crossSiteNavigation }));
      expectRefused(await root.get('/api/user/token', { headers: plainHttpNavigation }));
      expectRefused(await root.get('/api/user/logout', { headers: plainHttpNoReferer }));
      expect((await rootRow()).access_token).toBe(token);
      expect((await root.get('/api/user/self')).body.success).toBe(true);
    });

    it('text/plain form posts and no-cors fetches from a sibling origin do not promote, grant quota or create channels', async () => {
      const channels = await db().selectFrom('channels').select('id').execute();
      const form = { ...sameSite, 'content-type': 'text/plain' };
      expectRefused(await root.request('POST', '/api/user/manage', { headers: form, rawBody: '{"username":"csrf-user","action":"promote"}' }));
      const user = await userRow();
      expectRefused(await root.request('PUT', '/api/user/', { headers: form, rawBody: JSON.stringify({ ...user, quota: 1e9 }) }));
      expectRefused(await root.request('POST', '/api/channel/', { headers: form, rawBody: '{"type":1,"name":"evil","key":"k","models":"m","group":"default"}' }));
      expectRefused(await root.request('POST', '/api/topup', { headers: form, rawBody: `{"user_id":${userId},"quota":1000}` }));
      expect(await userRow()).toEqual(user);
      expect(await db().selectFrom('channels').select('id').execute()).toEqual(channels);
    });

    it('a same-origin body must be declared JSON when the session cookie authenticates it', async () => {
      const user = await userRow();
      const own = { 'sec-fetch-site': 'same-origin', 'accept-language': 'zh-CN' };
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const reply = await root.request('POST', '/api/user/manage', { headers: { ...own, 'content-type': type }, rawBody: '{"username":"csrf-user","action":"promote"}' });
        expect(reply.status).toBe(415);
        expect(reply.body.success).toBe(false);
        expect(reply.body.message).toMatch(notJsonZh);
      }
      expect(await userRow()).toEqual(user);
      const ok = await root.request('POST', '/api/user/manage', {
        headers: { ...own, 'content-type': 'application/json; charset=utf-8' },
        rawBody: '{"username":"csrf-user","action":"promote"}',
      });
      expect(ok.body.success).toBe(true);
      expect((await userRow()).role).toBe(10);
      await db().updateTable('users').set({ role: 1 }).where('id', '=', userId).execute();
    });

    it("the console's own origin, typed addresses and scripts without browser headers still work", async () => {
      const own = new URL(suite.api.url).origin;
      expect((await root.get('/api/user/self', { headers: { 'sec-fetch-site': 'same-origin' } })).body.success).toBe(true);
      expect((await root.get('/api/user/self', { headers: { 'sec-fetch-site': 'none' } })).body.success).toBe(true);
      const put = await root.request('PUT', '/api/user/self', { headers: { 'sec-fetch-site': 'same-origin', origin: own }, body: { display_name: 'Root A' } });
      expect(put.body.success).toBe(true);
      const plain = await root.request('PUT', '/api/user/self', { headers: { origin: own }, body: { display_name: 'Root B' } });
      expect(plain.body.success).toBe(true);
      expect((await rootRow()).display_name).toBe('Root B');
      const script = suite.client();
      expect((await script.login('csrf-user', 'password-1')).body.success).toBe(true);
      expect((await script.get('/api/user/logout')).body.success).toBe(true);
    });

    it('access-token requests are unaffected, whatever their origin or content type', async () => {
      const { access_token: token } = await rootRow();
      const scripted = new Client(suite.api.url);
      const headers = { authorization: token!, ...crossSite, 'content-type': 'text/plain' };
      expect((await scripted.get('/api/user/self', { headers })).body.success).toBe(true);
      const reply = await scripted.request('PUT', '/api/user/self', { headers, rawBody: '{"display_name":"By token"}' });
      expect(reply.body.success).toBe(true);
      expect((await rootRow()).display_name).toBe('By token');
    });

    it('a foreign page cannot sign a visitor in (login CSRF) or register in their name', async () => {
      const visitor = suite.client();
      const login = await visitor.request('POST', '/api/user/login', {
        headers: { ...crossSite, 'content-type': 'text/plain' },
        rawBody: '{"username":"csrf-user","password":"password-1"}',
      });
      expectRefused(login);
      expectRefused(await visitor.get('/api/oauth/wechat?code=attacker-code', { headers: crossSiteNavigation }));
      const users = await db().selectFrom('users').select('id').execute();
      expectRefused(await visitor.request('POST', '/api/user/register', { headers: sameSite, body: { username: 'evilreg', password: 'password-1' } }));
      expect(await db().selectFrom('users').select('id').execute()).toEqual(users);
    });

    it('answers in English when the browser asks for another language', async () => {
      const reply = await root.get('/api/user/token', { headers: { ...crossSiteNavigation, 'accept-language': 'en-US,en;q=0.9' } });
      expectRefused(reply, foreignEn);
      const origin = await root.request('POST', '/api/user/manage', { headers: { ...crossSite, 'accept-language': 'en' }, body: {} });
      expect(origin.body.message).toContain('(http://evil.example)');
      expect(origin.body.message).toContain('TRUSTED_ORIGINS');
    });

    it('the OAuth callbacks answer foreign navigations and still check their state', async () => {
      const reply = await root.get('/api/oauth/github?code=c&state=guessed', { headers: crossSiteNavigation });
      expect(reply.status).toBe(403);
      expect(reply.body.message).not.toMatch(foreignZh);
    });

    it('the host a trusted proxy forwarded, and the ServerAddress option, count as the own origin', async () => {
      const headers = { origin: 'https://gateway.example', 'x-forwarded-host': 'gateway.example' };
      expect((await root.request('PUT', '/api/user/self', { headers, body: { display_name: 'Proxied' } })).body.success).toBe(true);
      expectRefused(await root.request('PUT', '/api/user/self', { headers: { origin: 'https://public.example' }, body: { display_name: 'No' } }));
      await setOption(db(), 'ServerAddress', 'https://public.example/');
      try {
        const reply = await root.request('PUT', '/api/user/self', { headers: { origin: 'https://public.example' }, body: { display_name: 'Declared' } });
        expect(reply.body.success).toBe(true);
      } finally {
        await setOption(db(), 'ServerAddress', '');
      }
      expect((await rootRow()).display_name).toBe('Declared');
    });
  });

  describe.skipIf(target.skipReason !== null)(`TRUSTED_ORIGINS and proxies — ${target.label}`, () => {
    const console = 'http://127.0.0.1:5173';
    const suite = setupSuite(target, { now: () => startMs, env: { TRUSTED_ORIGINS: `${console}, https://console.example` }, config: { trustedProxies: ['10.0.0.0/8'] } });
    let root: Client;
    beforeAll(async () => {
      root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
    });

    it('a trusted origin acts with the session cookie and reads the answers (CORS with credentials)', async () => {
      const headers = { 'sec-fetch-site': 'same-site', origin: console };
      const reply = await root.request('PUT', '/api/user/self', { headers, body: { display_name: 'From console' } });
      expect(reply.body.success).toBe(true);
      expect(reply.headers.get('access-control-allow-origin')).toBe(console);
      expect(reply.headers.get('access-control-allow-credentials')).toBe('true');
      expect(reply.headers.get('vary')).toContain('Origin');
      const preflight = await new Client(suite.api.url).request('OPTIONS', '/api/user/self', {
        headers: { origin: console, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(console);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
      expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
    });

    it('other origins get no CORS and are refused; a forwarded host from an untrusted peer is not believed', async () => {
      const other = await root.request('PUT', '/api/user/self', { headers: { origin: 'http://127.0.0.1:5174' }, body: { display_name: 'x' } });
      expect(other.status).toBe(403);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await new Client(suite.api.url).request('OPTIONS', '/api/user/self', {
        headers: { origin: 'http://127.0.0.1:5174', 'access-control-request-method': 'PUT' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      // loopback is not a trusted proxy in this suite: its X-Forwarded-Host does not make evil.example "own"
      const forged = await root.request('PUT', '/api/user/self', {
        headers: { origin: 'http://evil.example', 'x-forwarded-host': 'evil.example' },
        body: { display_name: 'forged' },
      });
      expect(forged.status).toBe(403);
    });
  });
}
