import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOAuthResult } from '../../src/api/authApi';
import { readData, readNoData } from '../../src/api/client';
import { User } from '../../src/domain/user';
import { dumpDatabase, insertUser, setOption } from './support/db';
import type { Client, Reply } from './support/http';
import { deadUrl, startFakeProviders, type FakeProviders } from './support/oauthProvider';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/** OAuth state, GitHub / Lark callbacks and WeChat login/bind (contract §2.3.7–§2.3.9) against loopback fake providers. */

const msg = {
  // Ours: in the caller's language, saying what to do (one-api: English "state is empty or not same").
  state: '登录状态校验失败（state 为空或不一致），请返回登录页重新发起登录',
  gitHubOff: '管理员未开启通过 GitHub 登录以及注册',
  weChatOff: '管理员未开启通过微信登录以及注册',
  registerOff: '管理员关闭了新用户注册',
  banned: '用户已被封禁',
  invalidParameter: '无效的参数',
  gitHubDown: '无法连接至 GitHub 服务器，请稍后重试！',
  larkDown: '无法连接至飞书服务器，请稍后重试！',
  weChatDown: '无法连接至微信服务器，请稍后重试！',
  emptyField: '返回值非法，用户字段为空，请稍后重试！',
  gitHubTaken: '该 GitHub 账户已被绑定',
  larkTaken: '该飞书账户已被绑定',
  weChatTaken: '该微信账号已被绑定',
  badWeChatCode: '验证码错误或已过期',
  notLoggedIn: '无权进行此操作，未登录且未提供 access token',
};

/** 2025-06-15T15:06:40Z. */
const clockMs = 1_750_000_000_000;

let seq = 0;
const uniq = (prefix: string): string => `${prefix}${(seq += 1)}`;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`oauth: state, GitHub, Lark, WeChat — ${target.label}`, () => {
    let fake: FakeProviders | undefined;
    const env: Record<string, string> = {};
    beforeAll(async () => {
      fake = await startFakeProviders();
      Object.assign(env, fake.env);
    });
    afterAll(async () => {
      await fake?.stop();
    });
    const suite = setupSuite(target, { env, now: () => clockMs });
    const db = () => suite.api.handle.db;
    const providers = (): FakeProviders => {
      if (fake === undefined) throw new Error('fakes not started');
      return fake;
    };

    beforeAll(async () => {
      const f = providers();
      await setOption(db(), 'GitHubOAuthEnabled', 'true');
      await setOption(db(), 'GitHubClientId', f.gitHubClient.id);
      await setOption(db(), 'GitHubClientSecret', f.gitHubClient.secret);
      await setOption(db(), 'LarkClientId', f.larkClient.id);
      await setOption(db(), 'LarkClientSecret', f.larkClient.secret);
      await setOption(db(), 'WeChatAuthEnabled', 'true');
      await setOption(db(), 'WeChatServerAddress', f.weChatAddress);
      await setOption(db(), 'WeChatServerToken', f.weChatToken);
    });

    /** Runs `body` with some options set, restoring their previous values afterwards. */
    async function withOptions(values: Record<string, string>, body: () => Promise<void>): Promise<void> {
      const previous = await db().selectFrom('options').selectAll().where('key', 'in', Object.keys(values)).execute();
      const missing = Object.keys(values).filter((k) => !previous.some((p) => p.key === k));
      for (const [key, value] of Object.entries(values)) await setOption(db(), key, value);
      try {
        await body();
      } finally {
        for (const p of previous) await setOption(db(), p.key, p.value ?? '');
        if (missing.length > 0) await db().deleteFrom('options').where('key', 'in', missing).execute();
      }
    }

    const maxId = async (): Promise<number> => {
      const rows = await db().selectFrom('users').select('id').orderBy('id', 'desc').limit(1).execute();
      return rows[0]?.id ?? 0;
    };
    const row = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const byColumn = (column: 'github_id' | 'lark_id' | 'wechat_id', value: string) =>
      db().selectFrom('users').selectAll().where(column, '=', value).execute();

    /** A browser holding a fresh OAuth state. */
    async function withState(browser: Client = suite.client()): Promise<{ browser: Client; state: string }> {
      const reply = await browser.get('/api/oauth/state');
      const state = readData(t.string)(reply.body, 'state');
      if (E.isLeft(state)) throw new Error(`no state: ${reply.text}`);
      return { browser, state: state.right };
    }

    const callback = (browser: Client, provider: 'github' | 'lark', code: string, state: string): Promise<Reply> =>
      browser.get(`/api/oauth/${provider}?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`);

    /** A password user logged in through the API. */
    async function loggedIn(status = 1) {
      const username = uniq('pw');
      const id = await insertUser(db(), { username, password: 'password-1', status });
      const browser = suite.client();
      expect((await browser.login(username, 'password-1')).body.success).toBe(true);
      return { id, username, browser };
    }

    const expectSelf = async (browser: Client, id: number) => {
      const self = await browser.get('/api/user/self');
      expect(self.body.success).toBe(true);
      expect(self.body.data.id).toBe(id);
    };

    // -----------------------------------------------------------------------------------------
    describe('GET /api/oauth/state', () => {
      it('issues a 12-character alphanumeric state kept in a new anonymous session (cookie set)', async () => {
        const browser = suite.client();
        const reply = await browser.get('/api/oauth/state');
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual({ success: true, message: '', data: expect.stringMatching(/^[0-9a-zA-Z]{12}$/) });
        expect(browser.jar.has('session')).toBe(true);
        const sessions = await db().selectFrom('sessions').selectAll().where('oauth_state', '=', reply.body.data).execute();
        expect(sessions).toHaveLength(1);
        expect(sessions[0]?.user_id).toBe(0);
        // A second call replaces the state in the same session.
        const again = await browser.get('/api/oauth/state');
        expect(again.body.data).not.toBe(reply.body.data);
        expect(await db().selectFrom('sessions').selectAll().where('oauth_state', '=', reply.body.data).execute()).toEqual([]);
        expect(await db().selectFrom('sessions').selectAll().where('oauth_state', '=', again.body.data).execute()).toHaveLength(1);
      });

      it('stores the state in the session of a logged-in user; the anonymous session is not a login', async () => {
        const user = await loggedIn();
        const { state } = await withState(user.browser);
        const sessions = await db().selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute();
        expect(sessions.map((s) => s.oauth_state)).toEqual([state]);
        const anonymous = (await withState()).browser;
        const self = await anonymous.get('/api/user/self');
        expect(self.status).toBe(401);
        expect(self.body.message).toBe(msg.notLoggedIn);
      });

      it('decodes with the console client (data = the state string)', async () => {
        const reply = await suite.client().get('/api/oauth/state');
        expect(E.isRight(readData(t.string)(reply.body, 'state'))).toBe(true);
      });
    });

    // -----------------------------------------------------------------------------------------
    describe('state check (HTTP 403)', () => {
      it('refuses a missing session, an empty state and a different state, changing nothing', async () => {
        providers().gitHubCodes.set('code-state', { login: uniq('octo'), name: 'X', email: null });
        const before = await dumpDatabase(db());
        const noSession = await callback(suite.client(), 'github', 'code-state', 'abcdefghijkl');
        expect(noSession.status).toBe(403);
        expect(noSession.body).toEqual({ success: false, message: msg.state });
        const { browser, state } = await withState();
        const afterState = await dumpDatabase(db());
        for (const bad of ['', `${state}x`, state.toLowerCase() === state ? state.toUpperCase() : state.toLowerCase()]) {
          for (const provider of ['github', 'lark'] as const) {
            const reply = await callback(browser, provider, 'code-state', bad);
            expect(reply.status).toBe(403);
            expect(reply.body).toEqual({ success: false, message: msg.state });
          }
        }
        const missingParams = await browser.get('/api/oauth/github');
        expect(missingParams.status).toBe(403);
        expect(await dumpDatabase(db())).toBe(afterState);
        expect(afterState).not.toBe(before); // only the state session was added
        // The console client reports the failure (no user, no bind).
        expect(E.isLeft(readOAuthResult(noSession.body, 'oauth'))).toBe(true);
      });
    });

    // -----------------------------------------------------------------------------------------
    describe('GET /api/oauth/github', () => {
      it('registers a new user as github_<maxId+1> and logs it in', async () => {
        const login = uniq('octocat');
        providers().gitHubCodes.set('code-new', { login, name: 'Octo Cat', email: 'octo@example.com' });
        const { browser, state } = await withState();
        const expectedId = (await maxId()) + 1;
        const seenBefore = providers().seen.length;
        const reply = await callback(browser, 'github', 'code-new', state);
        expect(reply.status).toBe(200);
        expect(reply.body.success).toBe(true);
        expect(reply.body.message).toBe('');
        expect(reply.body.data).toMatchObject({
          id: expectedId,
          username: `github_${expectedId}`,
          display_name: 'Octo Cat',
          role: 1,
          status: 1,
          email: '',
          github_id: '',
          access_token: '',
          quota: 0,
        });
        const result = readOAuthResult(reply.body, 'oauth');
        expect(E.isRight(result) && 'user' in result.right && result.right.user.username).toBe(`github_${expectedId}`);
        const stored = await row(expectedId);
        expect(stored).toMatchObject({ github_id: login, email: 'octo@example.com', password: '', role: 1, status: 1, group: 'default' });
        expect(stored.access_token).toMatch(/^[0-9a-f]{32}$/);
        const tokens = await db().selectFrom('tokens').selectAll().where('user_id', '=', expectedId).execute();
        expect(tokens.map((tk) => tk.name)).toEqual(['default']);
        await expectSelf(browser, expectedId);
        // The exchanges one-api makes.
        const calls = providers().seen.slice(seenBefore);
        expect(calls.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /login/oauth/access_token', 'GET /user']);
        expect(calls[0]?.body).toEqual({ client_id: providers().gitHubClient.id, client_secret: providers().gitHubClient.secret, code: 'code-new' });
        expect(calls[0]?.headers.accept).toBe('application/json');
        expect(calls[1]?.headers.authorization).toMatch(/^Bearer gho_\d+$/);
        // The state is single-use after a successful login.
        const replay = await callback(browser, 'github', 'code-new', state);
        expect(replay.status).toBe(403);
      });

      it('logs an existing user in by github_id; an empty GitHub name gives "GitHub User" to new users', async () => {
        const login = uniq('exist');
        const id = await insertUser(db(), { username: uniq('gh'), displayName: 'Existing' });
        await db().updateTable('users').set({ github_id: login }).where('id', '=', id).execute();
        providers().gitHubCodes.set('code-existing', { login, name: 'Renamed', email: null });
        const { browser, state } = await withState();
        const count = (await db().selectFrom('users').select('id').execute()).length;
        const reply = await callback(browser, 'github', 'code-existing', state);
        expect(reply.body).toMatchObject({ success: true, message: '', data: { id, display_name: 'Existing', role: 1, status: 1 } });
        expect((await db().selectFrom('users').select('id').execute()).length).toBe(count);
        await expectSelf(browser, id);

        providers().gitHubCodes.set('code-noname', { login: uniq('anon'), name: null, email: null });
        const second = await withState();
        const noName = await callback(second.browser, 'github', 'code-noname', second.state);
        expect(noName.body.data.display_name).toBe('GitHub User');
        expect((await row(noName.body.data.id)).email).toBe('');
      });

      it('refuses a disabled option, an empty code, a bad code and an empty login, changing nothing', async () => {
        providers().gitHubCodes.set('code-nologin', { login: '', name: 'N', email: null });
        providers().gitHubCodes.set('code-off', { login: uniq('off'), name: 'N', email: null });
        const { browser, state } = await withState();
        const before = await dumpDatabase(db());
        await withOptions({ GitHubOAuthEnabled: 'false' }, async () => {
          const reply = await callback(browser, 'github', 'code-off', state);
          expect(reply.body).toEqual({ success: false, message: msg.gitHubOff });
        });
        const cases: [string, string][] = [
          ['', msg.invalidParameter],
          ['no-such-code', msg.emptyField],
          ['code-nologin', msg.emptyField],
        ];
        for (const [code, message] of cases) {
          const reply = await callback(browser, 'github', code, state);
          expect(reply.status).toBe(200);
          expect(reply.body).toEqual({ success: false, message });
          expect(E.isLeft(readOAuthResult(reply.body, 'oauth'))).toBe(true);
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('refuses new users when registration is disabled, and banned users', async () => {
        providers().gitHubCodes.set('code-noreg', { login: uniq('noreg'), name: 'N', email: null });
        const { browser, state } = await withState();
        await withOptions({ RegisterEnabled: 'false' }, async () => {
          const before = await dumpDatabase(db());
          const reply = await callback(browser, 'github', 'code-noreg', state);
          expect(reply.body).toEqual({ success: false, message: msg.registerOff });
          expect(await dumpDatabase(db())).toBe(before);
        });

        const login = uniq('banned');
        const id = await insertUser(db(), { username: uniq('bn'), status: 2 });
        await db().updateTable('users').set({ github_id: login }).where('id', '=', id).execute();
        providers().gitHubCodes.set('code-banned', { login, name: 'B', email: null });
        const reply = await callback(browser, 'github', 'code-banned', state);
        expect(reply.body).toEqual({ success: false, message: msg.banned });
        expect((await browser.get('/api/user/self')).status).toBe(401);
        expect(await db().selectFrom('sessions').selectAll().where('user_id', '=', id).execute()).toEqual([]);
      });

      it('binds the GitHub account to the logged-in user ("bind"), refuses an account bound already', async () => {
        const user = await loggedIn();
        const login = uniq('bindme');
        providers().gitHubCodes.set('code-bind', { login, name: 'B', email: 'b@example.com' });
        const { state } = await withState(user.browser);
        const count = (await db().selectFrom('users').select('id').execute()).length;
        const reply = await callback(user.browser, 'github', 'code-bind', state);
        expect(reply.body).toEqual({ success: true, message: 'bind' });
        expect(readOAuthResult(reply.body, 'oauth')).toEqual(E.right({ bound: true }));
        expect((await row(user.id)).github_id).toBe(login);
        expect((await db().selectFrom('users').select('id').execute()).length).toBe(count);
        await expectSelf(user.browser, user.id); // still logged in as the same user

        const other = await loggedIn();
        const again = await withState(other.browser);
        const taken = await callback(other.browser, 'github', 'code-bind', again.state);
        expect(taken.body).toEqual({ success: false, message: msg.gitHubTaken });
        expect((await row(other.id)).github_id).toBe('');

        await withOptions({ GitHubOAuthEnabled: 'false' }, async () => {
          providers().gitHubCodes.set('code-bind-off', { login: uniq('boff'), name: 'B', email: null });
          const off = await callback(other.browser, 'github', 'code-bind-off', again.state);
          expect(off.body).toEqual({ success: false, message: msg.gitHubOff });
        });
      });

      it('access-token callers cannot bind: without a session the callback logs in instead', async () => {
        const login = uniq('tok');
        providers().gitHubCodes.set('code-tok', { login, name: 'T', email: null });
        const accessToken = 'f'.repeat(16) + String(seq).padStart(16, '0');
        const id = await insertUser(db(), { username: uniq('tk'), accessToken });
        const { browser, state } = await withState();
        const reply = await browser.get(`/api/oauth/github?code=code-tok&state=${state}`, { headers: { Authorization: accessToken } });
        expect(reply.body.message).toBe('');
        expect(reply.body.data.id).not.toBe(id);
        expect((await row(id)).github_id).toBe('');
      });
    });

    // -----------------------------------------------------------------------------------------
    describe('GET /api/oauth/lark', () => {
      it('registers lark_<maxId+1> with the redirect URI of ServerAddress, then logs the same user in', async () => {
        const openId = uniq('ou_');
        providers().larkCodes.set('lark-new', { open_id: openId, name: '飞书用户甲' });
        providers().larkCodes.set('lark-again', { open_id: openId, name: '飞书用户甲' });
        const { browser, state } = await withState();
        const expectedId = (await maxId()) + 1;
        const seenBefore = providers().seen.length;
        const reply = await callback(browser, 'lark', 'lark-new', state);
        expect(reply.body).toMatchObject({ success: true, message: '', data: { id: expectedId, username: `lark_${expectedId}`, display_name: '飞书用户甲' } });
        expect(E.isRight(readOAuthResult(reply.body, 'oauth'))).toBe(true);
        expect((await row(expectedId)).lark_id).toBe(openId);
        await expectSelf(browser, expectedId);
        const calls = providers().seen.slice(seenBefore);
        expect(calls.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /open-apis/authen/v2/oauth/token', 'GET /suite/passport/oauth/userinfo']);
        expect(calls[0]?.body).toEqual({
          client_id: providers().larkClient.id,
          client_secret: providers().larkClient.secret,
          code: 'lark-new',
          grant_type: 'authorization_code',
          redirect_uri: 'http://localhost:3000/oauth/lark',
        });

        await withOptions({ ServerAddress: 'https://gw.example.com' }, async () => {
          const second = await withState();
          const seenAt = providers().seen.length;
          const again = await callback(second.browser, 'lark', 'lark-again', second.state);
          expect(again.body.data.id).toBe(expectedId);
          expect((providers().seen[seenAt]?.body as { redirect_uri: string }).redirect_uri).toBe('https://gw.example.com/oauth/lark');
        });
      });

      it('has no enable flag; "Lark User" for an empty name; refuses an empty open_id and a bad code', async () => {
        providers().larkCodes.set('lark-noname', { open_id: uniq('ou_'), name: '' });
        providers().larkCodes.set('lark-noid', { open_id: '', name: 'X' });
        const { browser, state } = await withState();
        const before = await dumpDatabase(db());
        for (const [code, message] of [
          ['lark-noid', msg.emptyField],
          ['bad-code', msg.emptyField],
          ['', msg.invalidParameter],
        ] as const) {
          const reply = await callback(browser, 'lark', code, state);
          expect(reply.body).toEqual({ success: false, message });
        }
        expect(await dumpDatabase(db())).toBe(before);
        const reply = await callback(browser, 'lark', 'lark-noname', state);
        expect(reply.body.data.display_name).toBe('Lark User');
      });

      it('binds ("bind") and refuses an account bound already; banned users cannot log in', async () => {
        const user = await loggedIn();
        const openId = uniq('ou_');
        providers().larkCodes.set('lark-bind', { open_id: openId, name: 'B' });
        const { state } = await withState(user.browser);
        const reply = await callback(user.browser, 'lark', 'lark-bind', state);
        expect(reply.body).toEqual({ success: true, message: 'bind' });
        expect((await row(user.id)).lark_id).toBe(openId);
        // a reloaded or retried callback of the same user is not told its own account is taken
        const repeat = await withState(user.browser);
        expect((await callback(user.browser, 'lark', 'lark-bind', repeat.state)).body).toEqual({ success: true, message: 'bind' });
        expect((await row(user.id)).lark_id).toBe(openId);
        const other = await loggedIn();
        const again = await withState(other.browser);
        expect((await callback(other.browser, 'lark', 'lark-bind', again.state)).body).toEqual({ success: false, message: msg.larkTaken });

        await db().updateTable('users').set({ status: 2 }).where('id', '=', user.id).execute();
        const anon = await withState();
        expect((await callback(anon.browser, 'lark', 'lark-bind', anon.state)).body).toEqual({ success: false, message: msg.banned });
      });
    });

    // -----------------------------------------------------------------------------------------
    describe('provider down', () => {
      it('answers the "cannot connect" messages when GitHub / Lark do not answer', async () => {
        const dead = await deadUrl();
        const deadEnv = { GITHUB_OAUTH_BASE_URL: dead, GITHUB_API_BASE_URL: dead, LARK_BASE_URL: dead, LARK_PASSPORT_BASE_URL: dead };
        await suite.restart({ env: deadEnv, now: () => clockMs });
        try {
          providers().gitHubCodes.set('code-down', { login: uniq('down'), name: 'D', email: null });
          const { browser, state } = await withState();
          const before = await dumpDatabase(db());
          expect((await callback(browser, 'github', 'code-down', state)).body).toEqual({ success: false, message: msg.gitHubDown });
          expect((await callback(browser, 'lark', 'code-down', state)).body).toEqual({ success: false, message: msg.larkDown });
          expect(await dumpDatabase(db())).toBe(before);
        } finally {
          await suite.restart({ env, now: () => clockMs });
        }
      });
    });

    // -----------------------------------------------------------------------------------------
    describe('GET /api/oauth/wechat', () => {
      it('registers wechat_<maxId+1> ("WeChat User"), then logs the same user in', async () => {
        const wechatId = uniq('wx_');
        providers().weChatCodes.set('wx-new', wechatId);
        const browser = suite.client();
        const expectedId = (await maxId()) + 1;
        const seenBefore = providers().seen.length;
        const reply = await browser.get('/api/oauth/wechat?code=wx-new');
        expect(reply.body).toMatchObject({ success: true, message: '', data: { id: expectedId, username: `wechat_${expectedId}`, display_name: 'WeChat User', role: 1, status: 1 } });
        expect(E.isRight(readData(User)(reply.body, 'wechat'))).toBe(true);
        expect((await row(expectedId)).wechat_id).toBe(wechatId);
        await expectSelf(browser, expectedId);
        const call = providers().seen[seenBefore];
        expect(call).toMatchObject({ method: 'GET', path: '/api/wechat/user', query: { code: 'wx-new' } });
        expect(call?.headers.authorization).toBe(providers().weChatToken);

        const again = await suite.client().get('/api/oauth/wechat?code=wx-new');
        expect(again.body.data.id).toBe(expectedId);
      });

      it('refuses: option off, empty code, upstream failure (its message), empty id, server down, registration off, banned', async () => {
        providers().weChatCodes.set('wx-empty', '');
        providers().weChatCodes.set('wx-noreg', uniq('wx_'));
        const bannedWx = uniq('wx_');
        const bannedId = await insertUser(db(), { username: uniq('wb'), status: 2 });
        await db().updateTable('users').set({ wechat_id: bannedWx }).where('id', '=', bannedId).execute();
        providers().weChatCodes.set('wx-banned', bannedWx);
        const browser = suite.client();
        const before = await dumpDatabase(db());
        const get = async (code: string): Promise<unknown> => (await browser.get(`/api/oauth/wechat?code=${code}`)).body as unknown;
        await withOptions({ WeChatAuthEnabled: 'false' }, async () => {
          expect(await get('wx-noreg')).toEqual({ success: false, message: msg.weChatOff });
        });
        expect((await browser.get('/api/oauth/wechat')).body).toEqual({ success: false, message: msg.invalidParameter });
        expect(await get('unknown')).toEqual({ success: false, message: '上游：验证码无效' });
        expect(await get('wx-empty')).toEqual({ success: false, message: msg.badWeChatCode });
        await withOptions({ WeChatServerToken: 'wrong' }, async () => {
          expect(await get('wx-noreg')).toEqual({ success: false, message: '无权进行此操作，token 无效' });
        });
        await withOptions({ WeChatServerAddress: await deadUrl() }, async () => {
          expect(await get('wx-noreg')).toEqual({ success: false, message: msg.weChatDown });
        });
        await withOptions({ RegisterEnabled: 'false' }, async () => {
          expect(await get('wx-noreg')).toEqual({ success: false, message: msg.registerOff });
        });
        expect(await get('wx-banned')).toEqual({ success: false, message: msg.banned });
        expect(browser.jar.has('session')).toBe(false);
        expect(await dumpDatabase(db())).toBe(before);
      });
    });

    describe('concurrency', () => {
      it('parallel logins of one new identity create one user; parallel binds bind it once', async () => {
        const wechatId = uniq('wx_');
        providers().weChatCodes.set('wx-race', wechatId);
        const replies = await Promise.all(Array.from({ length: 6 }, () => suite.client().get('/api/oauth/wechat?code=wx-race')));
        const ids = new Set(replies.map((r) => (r.body as { data: { id: number } }).data.id));
        expect(ids.size).toBe(1);
        expect(await byColumn('wechat_id', wechatId)).toHaveLength(1);

        const raced = uniq('wx_');
        providers().weChatCodes.set('wx-race-bind', raced);
        const users = await Promise.all([loggedIn(), loggedIn(), loggedIn()]);
        const binds = await Promise.all(users.map((u) => u.browser.get('/api/oauth/wechat/bind?code=wx-race-bind')));
        expect(binds.filter((b) => b.body.success === true)).toHaveLength(1);
        expect(binds.filter((b) => b.body.message === msg.weChatTaken)).toHaveLength(2);
        expect(await byColumn('wechat_id', raced)).toHaveLength(1);
      });
    });

    describe('GET /api/oauth/wechat/bind', () => {
      it('needs a user (401 without credentials), binds by session or access token, refuses a bound id', async () => {
        providers().weChatCodes.set('wx-bind', uniq('wx_'));
        const anonymous = await suite.client().get('/api/oauth/wechat/bind?code=wx-bind');
        expect(anonymous.status).toBe(401);
        expect(anonymous.body).toEqual({ success: false, message: msg.notLoggedIn });

        const user = await loggedIn();
        const reply = await user.browser.get('/api/oauth/wechat/bind?code=wx-bind');
        expect(reply.body).toEqual({ success: true, message: '' });
        expect(E.isRight(readNoData(reply.body, 'bind'))).toBe(true);
        expect((await row(user.id)).wechat_id).toBe(providers().weChatCodes.get('wx-bind'));

        const other = await loggedIn();
        expect((await other.browser.get('/api/oauth/wechat/bind?code=wx-bind')).body).toEqual({ success: false, message: msg.weChatTaken });

        const accessToken = 'e'.repeat(16) + String(seq).padStart(16, '0');
        const tokenUserId = await insertUser(db(), { username: uniq('wt'), accessToken });
        providers().weChatCodes.set('wx-bind-token', uniq('wx_'));
        const viaToken = await suite.client().get('/api/oauth/wechat/bind?code=wx-bind-token', { headers: { Authorization: `Bearer ${accessToken}` } });
        expect(viaToken.body).toEqual({ success: true, message: '' });
        expect((await byColumn('wechat_id', providers().weChatCodes.get('wx-bind-token') ?? '')).map((u) => u.id)).toEqual([tokenUserId]);

        await withOptions({ WeChatAuthEnabled: 'false' }, async () => {
          expect((await other.browser.get('/api/oauth/wechat/bind?code=wx-bind')).body).toEqual({ success: false, message: msg.weChatOff });
        });
        expect((await other.browser.get('/api/oauth/wechat/bind')).body).toEqual({ success: false, message: msg.invalidParameter });
      });
    });

    // -----------------------------------------------------------------------------------------
    describe('two-factor sign-in through OAuth and WeChat', () => {
      /** The code an authenticator shows for `secret` one step after the test clock (the clock stands still). */
      const codeAt = (secret: string, steps: number): string =>
        new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: clockMs + steps * 30_000 });

      /** A password user with 2FA on (enrolled through the API) and the given external id; its secret and recovery codes. */
      async function enrolled(column: 'github_id' | 'wechat_id', externalId: string) {
        const user = await loggedIn();
        await db().updateTable('users').set({ [column]: externalId }).where('id', '=', user.id).execute();
        const setup = await user.browser.post('/api/user/2fa/setup');
        const secret = setup.body.data.secret as string;
        const enabled = await user.browser.post('/api/user/2fa/enable', { code: codeAt(secret, 0) });
        expect(enabled.body.success).toBe(true);
        return { ...user, secret, codes: enabled.body.data.recovery_codes as string[] };
      }

      it('GitHub: a user with 2FA gets the second step (no session, challenge cookie, state consumed), completed by /login/2fa', async () => {
        const login = uniq('tfa-gh');
        const user = await enrolled('github_id', login);
        providers().gitHubCodes.set('code-2fa', { login, name: 'Two Factor', email: '' });
        const { browser, state } = await withState();
        const reply = await callback(browser, 'github', 'code-2fa', state);
        expect(reply.body).toEqual({ success: true, message: '', data: { require_2fa: true } });
        expect(browser.jar.has('login_2fa')).toBe(true);
        expect((await browser.get('/api/user/self')).body).toEqual({ success: false, message: msg.notLoggedIn });
        // The state is spent: replaying the callback is refused.
        expect((await callback(browser, 'github', 'code-2fa', state)).status).toBe(403);
        const second = await browser.post('/api/user/login/2fa', { code: codeAt(user.secret, 1) });
        expect(second.body.success).toBe(true);
        expect(second.body.data).toMatchObject({ id: user.id, username: user.username });
        expect(browser.jar.has('login_2fa')).toBe(false);
        await expectSelf(browser, user.id);
      });

      it('GitHub: a wrong code gives no session; a recovery code completes it', async () => {
        const login = uniq('tfa-gh');
        const user = await enrolled('github_id', login);
        providers().gitHubCodes.set('code-2fa-b', { login, name: '', email: '' });
        const { browser, state } = await withState();
        expect((await callback(browser, 'github', 'code-2fa-b', state)).body.data).toEqual({ require_2fa: true });
        expect((await browser.post('/api/user/login/2fa', { code: codeAt(user.secret, 40) })).body.success).toBe(false);
        expect((await browser.get('/api/user/self')).body.success).toBe(false);
        expect((await browser.post('/api/user/login/2fa', { code: user.codes[0] })).body.success).toBe(true);
        await expectSelf(browser, user.id);
      });

      it('WeChat: a user with 2FA gets the second step instead of a session', async () => {
        const wechatId = uniq('wx_tfa');
        const user = await enrolled('wechat_id', wechatId);
        providers().weChatCodes.set('wx-2fa', wechatId);
        const browser = suite.client();
        const reply = await browser.get('/api/oauth/wechat?code=wx-2fa');
        expect(reply.body).toEqual({ success: true, message: '', data: { require_2fa: true } });
        expect(browser.jar.has('session')).toBe(false);
        expect(browser.jar.has('login_2fa')).toBe(true);
        expect((await browser.get('/api/user/self')).body.success).toBe(false);
        expect((await browser.post('/api/user/login/2fa', { code: user.codes[1] })).body.success).toBe(true);
        await expectSelf(browser, user.id);
      });

      it('users without 2FA still sign in in one step through GitHub and WeChat', async () => {
        const login = uniq('plain-gh');
        const user = await loggedIn();
        await db().updateTable('users').set({ github_id: login }).where('id', '=', user.id).execute();
        providers().gitHubCodes.set('code-plain', { login, name: '', email: '' });
        const { browser, state } = await withState();
        const reply = await callback(browser, 'github', 'code-plain', state);
        expect(reply.body.data).toMatchObject({ id: user.id });
        expect(Object.keys(reply.body.data)).not.toContain('require_2fa');
        expect(browser.jar.has('login_2fa')).toBe(false);
        await expectSelf(browser, user.id);
      });
    });
  });
}
