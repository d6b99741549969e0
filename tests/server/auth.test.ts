import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provideDeps, resolveDeps, type AppEnv } from '../../server/http/api';
import { adminAuth, rootAuth, userAuth } from '../../server/http/auth';
import { ok } from '../../server/http/envelope';
import { sessionMaxAgeSeconds } from '../../server/http/session';
import { insertUser, setOption } from './support/db';
import { Client, parseSetCookie } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

const notLoggedIn = '无权进行此操作，未登录且未提供 access token';
const invalidToken = '无权进行此操作，access token 无效';
const banned = '用户已被封禁';
const forbidden = '无权进行此操作，权限不足';
const loginFailed = '用户名或密码错误，或用户已被封禁';

/** The login `data`: only five fields filled. */
const loginData = (id: number, username: string, displayName: string, role: number) => ({
  id, username, password: '', display_name: displayName, role, status: 1, email: '', github_id: '',
  wechat_id: '', lark_id: '', oidc_id: '', verification_code: '', access_token: '', quota: 0,
  used_quota: 0, request_count: 0, group: '', aff_code: '', inviter_id: 0,
});

let clockMs = 1_750_000_000_000;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`login, logout, self and guards — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => clockMs });
    const db = () => suite.api.handle.db;
    /** A second server exposing admin/root-guarded probes over the same database. */
    let probe: { url: string; close: () => Promise<void> };

    beforeAll(async () => {
      const app = new Hono<AppEnv>();
      app.use('*', provideDeps(resolveDeps({ ...suite.api.handle, config: suite.api.config, now: () => clockMs })));
      app.get('/user', userAuth, (c) => ok(c, c.get('user').username));
      app.get('/admin', adminAuth, (c) => ok(c, c.get('user').username));
      app.get('/root', rootAuth, (c) => ok(c, c.get('authVia')));
      const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
        const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
      });
      probe = {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    });
    afterAll(() => probe.close());

    /** Calls a probe route with a client's cookies and extra headers. */
    const probeGet = (client: Client, path: string, headers: Record<string, string> = {}) =>
      new Client(probe.url).get(path, { headers: { cookie: client.cookieHeader(), ...headers } });

    it('logs root in with root/123456, returning the five login fields and an HttpOnly Lax cookie', async () => {
      const browser = suite.client();
      const reply = await browser.login('root', '123456');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ success: true, message: '', data: loginData(1, 'root', 'Root User', 100) });
      expect(reply.setCookies).toHaveLength(1);
      const cookie = parseSetCookie(reply.setCookies[0]!);
      expect(cookie.name).toBe('session');
      expect(cookie.attributes.has('httponly')).toBe(true);
      expect(cookie.attributes.get('samesite')).toBe('Lax');
      expect(cookie.attributes.get('path')).toBe('/');
      expect(cookie.attributes.get('max-age')).toBe(String(sessionMaxAgeSeconds));
      expect(cookie.attributes.has('secure')).toBe(false);
      const sessionId = decodeURIComponent(cookie.value).split('.')[0]!;
      const row = await db().selectFrom('sessions').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ user_id: 1, created_at: clockMs / 1000, expires_at: clockMs / 1000 + sessionMaxAgeSeconds });
    });

    it('marks the cookie Secure when the request came over HTTPS (X-Forwarded-Proto)', async () => {
      const reply = await suite.client().login('root', '123456', { 'X-Forwarded-Proto': 'https' });
      expect(parseSetCookie(reply.setCookies[0]!).attributes.has('secure')).toBe(true);
      const logout = await suite.client().get('/api/user/logout', { headers: { 'X-Forwarded-Proto': 'https,http' } });
      expect(parseSetCookie(logout.setCookies[0]!).attributes.has('secure')).toBe(true);
    });

    it('refuses a wrong password, an unknown user and a disabled user with the same message and no cookie', async () => {
      await insertUser(db(), { username: 'disabled1', password: 'secret-pass', status: 2 });
      await insertUser(db(), { username: 'deleted1', password: 'secret-pass', status: 3 });
      const sessionsBefore = await db().selectFrom('sessions').selectAll().execute();
      for (const [username, password] of [['root', 'wrong'], ['nobody', '123456'], ['disabled1', 'secret-pass'], ['deleted1', 'secret-pass']] as const) {
        const reply = await suite.client().login(username, password);
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual({ success: false, message: loginFailed });
        expect(reply.setCookies).toEqual([]);
      }
      expect(await db().selectFrom('sessions').selectAll().execute()).toEqual(sessionsBefore);
    });

    it('logs in by e-mail when no username matches', async () => {
      const id = await insertUser(db(), { username: 'carol', password: 'carol-pass', email: 'carol@example.com', displayName: 'Carol' });
      const browser = suite.client();
      const reply = await browser.login('carol@example.com', 'carol-pass');
      expect(reply.body).toEqual({ success: true, message: '', data: loginData(id, 'carol', 'Carol', 1) });
      expect((await browser.get('/api/user/self')).body.data.email).toBe('carol@example.com');
    });

    it('refuses password login when PasswordLoginEnabled is false', async () => {
      await setOption(db(), 'PasswordLoginEnabled', 'false');
      try {
        const reply = await suite.client().login('root', '123456');
        expect(reply.body).toEqual({ success: false, message: '管理员关闭了密码登录' });
        expect(reply.setCookies).toEqual([]);
      } finally {
        await setOption(db(), 'PasswordLoginEnabled', 'true');
      }
    });

    it('localises invalid_parameter by Accept-Language', async () => {
      const en = await suite.client().post('/api/user/login', { username: '', password: 'x' });
      expect(en.body).toEqual({ success: false, message: 'invalid parameter' });
      const zh = await suite.client().post('/api/user/login', { username: 'root' }, { headers: { 'Accept-Language': 'zh-CN,zh;q=0.9' } });
      expect(zh.body).toEqual({ success: false, message: '无效的参数' });
    });

    it('GET /api/user/self returns the full user with password and access token hidden', async () => {
      const browser = suite.client();
      await browser.login('root', '123456');
      const reply = await browser.get('/api/user/self');
      expect(reply.body).toEqual({
        success: true,
        message: '',
        data: {
          id: 1, username: 'root', password: '', display_name: 'Root User', role: 100, status: 1, email: '',
          github_id: '', wechat_id: '', lark_id: '', oidc_id: '', verification_code: '', access_token: '',
          quota: 500000000000000, used_quota: 0, request_count: 0, group: 'default', aff_code: '', inviter_id: 0,
        },
      });
      expect((await browser.get('/api/user/self/')).body.data.username).toBe('root');
    });

    it('accepts the access token as "Authorization: <token>" and "Bearer <token>"', async () => {
      const id = await insertUser(db(), { username: 'tokuser', password: 'tok-pass-1', accessToken: 'abcdefabcdefabcdefabcdefabcdef12' });
      for (const header of ['abcdefabcdefabcdefabcdefabcdef12', 'Bearer abcdefabcdefabcdefabcdefabcdef12']) {
        const reply = await suite.client().get('/api/user/self', { headers: { Authorization: header } });
        expect(reply.body.data).toMatchObject({ id, username: 'tokuser', access_token: '' });
        expect(reply.setCookies).toEqual([]);
      }
      const root = await probeGet(suite.client(), '/root', { Authorization: 'Bearer abcdefabcdefabcdefabcdefabcdef12' });
      expect(root.body).toEqual({ success: false, message: forbidden });
    });

    it('answers 401 without credentials and 200 + message for an invalid access token', async () => {
      const none = await suite.client().get('/api/user/self');
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ success: false, message: notLoggedIn });
      for (const header of ['nope', 'Bearer ', 'Bearer    ', "Bearer ' OR '1'='1", 'x'.repeat(4000)]) {
        const reply = await suite.client().get('/api/user/self', { headers: { Authorization: header } });
        expect(reply.status, header).toBe(200);
        expect(reply.body).toEqual({ success: false, message: invalidToken });
      }
    });

    it('uses the session and ignores the Authorization header when both are present', async () => {
      await insertUser(db(), { username: 'other', password: 'other-pass', accessToken: '11112222333344445555666677778888' });
      const browser = suite.client();
      await browser.login('root', '123456');
      const reply = await browser.get('/api/user/self', { headers: { Authorization: '11112222333344445555666677778888' } });
      expect(reply.body.data.username).toBe('root');
      expect((await probeGet(browser, '/root', { Authorization: 'garbage' })).body).toEqual({ success: true, message: '', data: 'session' });
    });

    it('logout deletes the server session: replaying the old cookie no longer works', async () => {
      const browser = suite.client();
      await browser.login('root', '123456');
      const oldCookie = browser.cookieHeader();
      const sessionsBefore = await db().selectFrom('sessions').select('id').execute();
      const reply = await browser.get('/api/user/logout');
      expect(reply.body).toEqual({ success: true, message: '' });
      const cleared = parseSetCookie(reply.setCookies[0]!);
      expect(cleared).toMatchObject({ name: 'session', value: '' });
      expect(cleared.attributes.get('max-age')).toBe('0');
      expect(await db().selectFrom('sessions').select('id').execute()).toHaveLength(sessionsBefore.length - 1);
      const replay = await suite.client().get('/api/user/self', { headers: { cookie: oldCookie } });
      expect(replay.status).toBe(401);
      expect((await suite.client().get('/api/user/logout')).body).toEqual({ success: true, message: '' });
    });

    it('a user disabled in the database loses access on the very next request (session ended)', async () => {
      const id = await insertUser(db(), { username: 'dave', password: 'dave-pass-1', accessToken: 'dddddddddddddddddddddddddddddddd' });
      const browser = suite.client();
      await browser.login('dave', 'dave-pass-1');
      const cookie = browser.cookieHeader();
      expect((await browser.get('/api/user/self')).body.success).toBe(true);
      await db().updateTable('users').set({ status: 2 }).where('id', '=', id).execute();
      const reply = await browser.get('/api/user/self');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ success: false, message: banned });
      expect(parseSetCookie(reply.setCookies[0]!).value).toBe('');
      expect(await db().selectFrom('sessions').where('user_id', '=', id).selectAll().execute()).toEqual([]);
      const byToken = await suite.client().get('/api/user/self', { headers: { Authorization: 'dddddddddddddddddddddddddddddddd' } });
      expect(byToken.body).toEqual({ success: false, message: banned });
      // Re-enabling does not revive the ended session.
      await db().updateTable('users').set({ status: 1 }).where('id', '=', id).execute();
      expect((await suite.client().get('/api/user/self', { headers: { cookie } })).status).toBe(401);
      // A deleted user (status 3) is refused too, also by access token.
      await db().updateTable('users').set({ status: 3 }).where('id', '=', id).execute();
      const deleted = await suite.client().get('/api/user/self', { headers: { Authorization: 'dddddddddddddddddddddddddddddddd' } });
      expect(deleted.body).toEqual({ success: false, message: banned });
    });

    it('role changes in the database apply at once to Admin and Root guards', async () => {
      const id = await insertUser(db(), { username: 'erin', password: 'erin-pass-1' });
      const browser = suite.client();
      await browser.login('erin', 'erin-pass-1');
      expect((await probeGet(browser, '/user')).body).toEqual({ success: true, message: '', data: 'erin' });
      expect((await probeGet(browser, '/admin')).body).toEqual({ success: false, message: forbidden });
      await db().updateTable('users').set({ role: 10 }).where('id', '=', id).execute();
      expect((await probeGet(browser, '/admin')).body).toEqual({ success: true, message: '', data: 'erin' });
      expect((await probeGet(browser, '/root')).body).toEqual({ success: false, message: forbidden });
      await db().updateTable('users').set({ role: 100 }).where('id', '=', id).execute();
      expect((await probeGet(browser, '/root')).body.success).toBe(true);
      await db().updateTable('users').set({ role: 1 }).where('id', '=', id).execute();
      expect((await probeGet(browser, '/admin')).body).toEqual({ success: false, message: forbidden });
      expect((await probeGet(new Client(probe.url), '/admin')).status).toBe(401);
    });

    it('a second login from the same browser replaces its session', async () => {
      const id = await insertUser(db(), { username: 'frank', password: 'frank-pass-1' });
      const browser = suite.client();
      await browser.login('frank', 'frank-pass-1');
      await browser.login('frank', 'frank-pass-1');
      expect(await db().selectFrom('sessions').where('user_id', '=', id).selectAll().execute()).toHaveLength(1);
    });

    it('rejects a tampered or unsigned cookie as "no session"', async () => {
      const browser = suite.client();
      await browser.login('root', '123456');
      const [id, signature] = decodeURIComponent(browser.jar.get('session')!).split('.');
      const forged = `${id!.slice(0, -1)}${id!.endsWith('0') ? '1' : '0'}.${signature!}`;
      for (const cookie of [`session=${encodeURIComponent(forged)}`, `session=${id!}`, 'session=']) {
        expect((await suite.client().get('/api/user/self', { headers: { cookie } })).status).toBe(401);
      }
    });

    it('expires sessions after 30 days', async () => {
      const browser = suite.client();
      await browser.login('root', '123456');
      const saved = clockMs;
      try {
        clockMs = saved + (sessionMaxAgeSeconds - 1) * 1000;
        expect((await browser.get('/api/user/self')).body.success).toBe(true);
        clockMs = saved + sessionMaxAgeSeconds * 1000;
        expect((await browser.get('/api/user/self')).status).toBe(401);
      } finally {
        clockMs = saved;
      }
    });

    // Keep this test last: the restart closes the database handle the probe server was built on.
    it('sessions survive a server restart on the same database (same SESSION_SECRET), not a new secret', async () => {
      const browser = suite.client();
      await browser.login('root', '123456');
      const cookie = browser.cookieHeader();
      await suite.restart({ now: () => clockMs });
      expect((await suite.client().get('/api/user/self', { headers: { cookie } })).body.data.username).toBe('root');
      await suite.restart({ now: () => clockMs, env: { SESSION_SECRET: 'another-secret' } });
      expect((await suite.client().get('/api/user/self', { headers: { cookie } })).status).toBe(401);
      await suite.restart({ now: () => clockMs });
      expect((await suite.client().get('/api/user/self', { headers: { cookie } })).body.success).toBe(true);
    });
  });
}
