import { describe, expect, it } from 'vitest';
import { dumpDatabase, insertUser, setOption } from './support/db';
import type { Client, Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/** Registration and self-service account endpoints (contract §2.3.3, §2.4) over real HTTP. */

const notLoggedIn = '无权进行此操作，未登录且未提供 access token';
const banned = '用户已被封禁';
const invalidParameter = 'invalid parameter';

let seq = 0;
/** A unique username of at most 12 characters. */
const uname = (prefix: string): string => `${prefix}${(seq += 1)}`.slice(0, 12);
/** A 32-hex access token derived from a name. */
const tokenFor = (name: string): string => Buffer.from(name.padEnd(16, '#')).toString('hex').slice(0, 32).padEnd(32, '0');

const put = (client: Client, path: string, body: unknown, headers?: Record<string, string>): Promise<Reply> =>
  client.request('PUT', path, { body, headers });
const del = (client: Client, path: string, headers?: Record<string, string>): Promise<Reply> =>
  client.request('DELETE', path, { headers });

/** 2025-06-15T15:06:40Z. */
const clockMs = 1_750_000_000_000;
const todayStart = 1_749_945_600;
const day = 86_400;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`account: register and self service — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => clockMs });
    const db = () => suite.api.handle.db;

    async function makeUser(role = 1, status = 1) {
      const username = uname('u');
      const accessToken = tokenFor(username);
      const id = await insertUser(db(), { username, password: 'password-1', role, status, accessToken });
      return { id, username, accessToken };
    }

    async function session(role = 1) {
      const user = await makeUser(role);
      const browser = suite.client();
      expect((await browser.login(user.username, 'password-1')).body.success).toBe(true);
      return { ...user, browser };
    }

    const row = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const byName = (username: string) => db().selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();

    /** Runs `body` with some options set, restoring their previous values afterwards. */
    async function withOptions(values: Record<string, string>, body: () => Promise<void>): Promise<void> {
      const previous = await db().selectFrom('options').selectAll().where('key', 'in', Object.keys(values)).execute();
      for (const [key, value] of Object.entries(values)) await setOption(db(), key, value);
      try {
        await body();
      } finally {
        for (const p of previous) await setOption(db(), p.key, p.value ?? '');
      }
    }

    describe('auth matrix of the self-service routes', () => {
      const routes: readonly (readonly [string, string, unknown?])[] = [
        ['GET', '/api/user/dashboard'],
        ['PUT', '/api/user/self', { display_name: 'x' }],
        ['DELETE', '/api/user/self'],
        ['GET', '/api/user/token'],
        ['GET', '/api/user/aff'],
        ['GET', '/api/user/available_models'],
      ];

      it('anonymous → 401 and banned → 封禁, with no write', async () => {
        const disabled = await makeUser(1, 2);
        const deleted = await makeUser(1, 3);
        const before = await dumpDatabase(db());
        for (const [method, path, body] of routes) {
          const anon = await suite.client().request(method, path, { body });
          expect(anon.status, `${method} ${path}`).toBe(401);
          expect(anon.body).toEqual({ success: false, message: notLoggedIn });
          for (const u of [disabled, deleted]) {
            const reply = await suite.client().request(method, path, { body, headers: { Authorization: u.accessToken } });
            expect(reply.body).toEqual({ success: false, message: banned });
          }
          const badToken = await suite.client().request(method, path, { body, headers: { Authorization: 'Bearer nope' } });
          expect(badToken.body).toEqual({ success: false, message: '无权进行此操作，access token 无效' });
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('admits common users, admins and root by session or access token', async () => {
        for (const role of [1, 10, 100]) {
          const u = await makeUser(role);
          const byToken = await suite.client().get('/api/user/available_models', { headers: { Authorization: `Bearer ${u.accessToken}` } });
          expect(byToken.body.success).toBe(true);
        }
        const { browser } = await session();
        expect((await browser.get('/api/user/dashboard')).body.success).toBe(true);
      });
    });

    describe('POST /api/user/register', () => {
      it('creates a common user (display name = username, default token), sets no session', async () => {
        const username = uname('reg');
        const reply = await suite.client().post('/api/user/register?turnstile=', {
          username, password: 'reg-password', password2: 'reg-password', email: 'ignored@example.com', aff_code: '', role: 100, quota: 99,
        });
        expect(reply.body).toEqual({ success: true, message: '' });
        expect(reply.setCookies).toEqual([]);
        const created = await byName(username);
        expect(created).toMatchObject({ display_name: username, role: 1, status: 1, quota: 0, group: 'default', email: '', inviter_id: 0 });
        expect(created!.access_token).toMatch(/^[0-9a-f]{32}$/);
        expect(created!.aff_code).toMatch(/^[0-9a-zA-Z]{4}$/);
        const tokens = await db().selectFrom('tokens').selectAll().where('user_id', '=', created!.id).execute();
        expect(tokens).toHaveLength(1);
        expect(tokens[0]).toMatchObject({
          name: 'default', status: 1, expired_time: -1, remain_quota: -1, unlimited_quota: true, models: null,
          created_time: clockMs / 1000, accessed_time: clockMs / 1000,
        });
        expect(await db().selectFrom('logs').selectAll().where('user_id', '=', created!.id).execute()).toEqual([]);
        expect((await suite.client().login(username, 'reg-password')).body.data.username).toBe(username);
      });

      it('grants QuotaForNewUser, QuotaForInvitee and QuotaForInviter with one-api\'s log rows', async () => {
        const inviter = await makeUser();
        const inviterCode = (await row(inviter.id)).aff_code!;
        await withOptions({ QuotaForNewUser: '100', QuotaForInvitee: '20', QuotaForInviter: '30', DisplayInCurrencyEnabled: 'false' }, async () => {
          const username = uname('inv');
          const reply = await suite.client().post('/api/user/register', { username, password: 'reg-password', aff_code: inviterCode });
          expect(reply.body).toEqual({ success: true, message: '' });
          const created = (await byName(username))!;
          expect(created).toMatchObject({ quota: 120, inviter_id: inviter.id });
          expect((await row(inviter.id)).quota).toBe(30);
          const logs = await db()
            .selectFrom('logs')
            .select(['user_id', 'type', 'content', 'username', 'quota', 'created_at'])
            .where('user_id', 'in', [created.id, inviter.id])
            .orderBy('id')
            .execute();
          expect(logs).toEqual([
            { user_id: created.id, type: 4, content: '新用户注册赠送 100 点额度', username, quota: 0, created_at: clockMs / 1000 },
            { user_id: created.id, type: 4, content: '使用邀请码赠送 20 点额度', username, quota: 0, created_at: clockMs / 1000 },
            { user_id: inviter.id, type: 4, content: '邀请用户赠送 30 点额度', username: inviter.username, quota: 0, created_at: clockMs / 1000 },
          ]);
          // an unknown aff code is ignored: no inviter, no invite bonuses
          const other = uname('inv');
          expect((await suite.client().post('/api/user/register', { username: other, password: 'reg-password', aff_code: 'ZZZZ' })).body.success).toBe(true);
          expect(await byName(other)).toMatchObject({ quota: 100, inviter_id: 0 });
          expect((await row(inviter.id)).quota).toBe(30);
        });
        await withOptions({ QuotaForNewUser: '500000', DisplayInCurrencyEnabled: 'true', QuotaPerUnit: '500000' }, async () => {
          const username = uname('cur');
          await suite.client().post('/api/user/register', { username, password: 'reg-password' });
          const created = (await byName(username))!;
          const log = await db().selectFrom('logs').select('content').where('user_id', '=', created.id).executeTakeFirstOrThrow();
          expect(log.content).toBe('新用户注册赠送 ＄1.000000 额度');
        });
      });

      it('refuses when registration is closed, with no write', async () => {
        const before = await dumpDatabase(db());
        const body = { username: uname('no'), password: 'reg-password' };
        await withOptions({ RegisterEnabled: 'false' }, async () => {
          expect((await suite.client().post('/api/user/register', body)).body).toEqual({ success: false, message: '管理员关闭了新用户注册' });
        });
        await withOptions({ PasswordRegisterEnabled: 'false' }, async () => {
          expect((await suite.client().post('/api/user/register', body)).body).toEqual({
            success: false,
            message: '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
          });
        });
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('refuses bad input, duplicates, missing codes and Turnstile tokens with no write', async () => {
        const existing = await makeUser();
        const before = await dumpDatabase(db());
        const cases: readonly (readonly [unknown, string])[] = [
          ['text', invalidParameter],
          [[], invalidParameter],
          [{ username: 5, password: 'reg-password' }, invalidParameter],
          [{ username: 'ok', password: 'reg-password', quota: 'lots' }, invalidParameter],
          [{ username: 'ok', password: 'reg-password', aff_code: 7 }, invalidParameter],
          // Ours: the field and the rule, zh by default (one-api: invalid_input, SQLite's UNIQUE text)
          [{ username: 'abcdefghijklm', password: 'reg-password' }, '用户名长度不能超过 12 个字符'],
          [{ username: 'ok', password: 'short' }, '密码长度必须在 8 到 20 个字符之间'],
          [{ username: 'ok', password: 'p'.repeat(21) }, '密码长度必须在 8 到 20 个字符之间'],
          [{ username: 'ok' }, '密码不能为空'],
          [{ username: '', password: 'reg-password' }, '用户名不能为空'],
          [{ username: 'ok', password: 'reg-password', email: `${'e'.repeat(50)}@x` }, '邮箱地址长度不能超过 50 个字符'],
          [{ username: 'o\u0000k', password: 'reg-password' }, '用户名不能包含空字符（NUL）'],
          [{ username: existing.username, password: 'reg-password' }, '用户名已被占用，请换一个'],
        ];
        for (const [body, message] of cases) {
          expect((await suite.client().post('/api/user/register', body)).body, JSON.stringify(body)).toEqual({ success: false, message });
        }
        const zh = await suite.client().post('/api/user/register', { username: 'ok', password: 'x' }, { headers: { 'Accept-Language': 'zh' } });
        expect(zh.body).toEqual({ success: false, message: '密码长度必须在 8 到 20 个字符之间' });
        const en = await suite.client().post('/api/user/register', { username: 'ok', password: 'x' }, { headers: { 'Accept-Language': 'en-US,en;q=0.9' } });
        expect(en.body).toEqual({ success: false, message: 'password must be 8 to 20 characters' });
        const enTaken = await suite.client().post('/api/user/register', { username: existing.username, password: 'reg-password' }, { headers: { 'Accept-Language': 'en' } });
        expect(enTaken.body).toEqual({ success: false, message: 'username is already taken, please choose another' });
        await withOptions({ EmailVerificationEnabled: 'true' }, async () => {
          const missing = await suite.client().post('/api/user/register', { username: 'ok', password: 'reg-password', email: 'a@b.c' });
          expect(missing.body).toEqual({ success: false, message: '管理员开启了邮箱验证，请输入邮箱地址和验证码' });
          const wrong = await suite.client().post('/api/user/register', { username: 'ok', password: 'reg-password', email: 'a@b.c', verification_code: 'abc123' });
          expect(wrong.body).toEqual({ success: false, message: '验证码错误或已过期' });
        });
        await withOptions({ TurnstileCheckEnabled: 'true' }, async () => {
          const reply = await suite.client().post('/api/user/register', { username: 'ok', password: 'reg-password' });
          expect(reply.body).toEqual({ success: false, message: 'Turnstile token 为空' });
        });
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('concurrent registrations of one name: exactly one succeeds, the rest get the duplicate message', async () => {
        const username = uname('race');
        const replies = await Promise.all(
          Array.from({ length: 6 }, () => suite.client().post('/api/user/register', { username, password: 'reg-password' })),
        );
        expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200));
        expect(replies.filter((r) => r.body.success === true)).toHaveLength(1);
        for (const r of replies.filter((x) => x.body.success !== true)) {
          expect(r.body).toEqual({ success: false, message: '用户名已被占用，请换一个' });
        }
        const rows = await db().selectFrom('users').select('id').where('username', '=', username).execute();
        expect(rows).toHaveLength(1);
        expect(await db().selectFrom('tokens').select('id').where('user_id', '=', rows[0]!.id).execute()).toHaveLength(1);
      });

      it('stores SQL and script payloads verbatim', async () => {
        const username = "a';drop--";
        expect((await suite.client().post('/api/user/register', { username, password: "p' OR '1'='1" })).body.success).toBe(true);
        expect((await byName(username))?.display_name).toBe(username);
        expect((await suite.client().login(username, "p' OR '1'='1")).body.success).toBe(true);
      });
    });

    describe('PUT /api/user/self', () => {
      it('updates username, display name and password; empty fields are unchanged; other fields ignored', async () => {
        const me = await session();
        const newName = uname('me');
        const reply = await put(me.browser, '/api/user/self', { username: newName, display_name: 'Me Myself', password: 'new-password', role: 100, quota: 5 });
        expect(reply.body).toEqual({ success: true, message: '' });
        expect(await row(me.id)).toMatchObject({ username: newName, display_name: 'Me Myself', role: 1, quota: 0 });
        expect((await suite.client().login(newName, 'new-password')).body.success).toBe(true);
        expect((await put(me.browser, '/api/user/self', { username: '', display_name: '', password: '' })).body.success).toBe(true);
        expect(await row(me.id)).toMatchObject({ username: newName, display_name: 'Me Myself' });
        // The password change replaced the access token (password-sessions.test.ts): the new one works.
        const byToken = await put(suite.client(), '/api/user/self', { display_name: 'Via Token' }, { Authorization: (await row(me.id)).access_token! });
        expect(byToken.body.success).toBe(true);
        expect((await row(me.id)).display_name).toBe('Via Token');
      });

      it('names the field and the rule (not Go validator text), duplicates and bad JSON with no write', async () => {
        const me = await session();
        const other = await makeUser();
        const before = await dumpDatabase(db());
        // one-api: `输入不合法 Key: 'User.Password' Error:Field validation for 'Password' failed on the 'min' tag`
        const cases: readonly (readonly [unknown, string])[] = [
          [{ password: 'short' }, '密码长度必须在 8 到 20 个字符之间'],
          [{ password: 'p'.repeat(21) }, '密码长度必须在 8 到 20 个字符之间'],
          [{ username: 'x'.repeat(13), display_name: 'd'.repeat(21) }, '用户名长度不能超过 12 个字符'],
          [{ display_name: 'd'.repeat(21) }, '显示名称长度不能超过 20 个字符'],
          [{ username: other.username }, '用户名已被占用，请换一个'],
          [{ username: 9 }, invalidParameter],
          ['x', invalidParameter],
          [{ display_name: 'a\u0000' }, '显示名称不能包含空字符（NUL）'],
        ];
        for (const [body, message] of cases) {
          expect((await put(me.browser, '/api/user/self', body)).body, JSON.stringify(body)).toEqual({ success: false, message });
        }
        expect((await me.browser.request('PUT', '/api/user/self', { rawBody: '{' })).body).toEqual({ success: false, message: invalidParameter });
        expect(await dumpDatabase(db())).toBe(before);
      });
    });

    describe('DELETE /api/user/self', () => {
      it('root cannot delete itself', async () => {
        const root = suite.client();
        await root.login('root', '123456');
        const before = await dumpDatabase(db());
        expect((await del(root, '/api/user/self')).body).toEqual({ success: false, message: '不能删除超级管理员账户' });
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('soft-deletes the caller and ends its sessions; the access token stops working', async () => {
        const me = await session(10);
        const reply = await del(me.browser, '/api/user/self');
        expect(reply.body).toEqual({ success: true, message: '' });
        const after = await row(me.id);
        expect(after.status).toBe(3);
        expect(after.username).toMatch(/^deleted_[0-9a-f]{32}$/);
        expect(await db().selectFrom('sessions').where('user_id', '=', me.id).selectAll().execute()).toEqual([]);
        expect((await me.browser.get('/api/user/self')).status).toBe(401);
        expect((await suite.client().get('/api/user/self', { headers: { Authorization: me.accessToken } })).body).toEqual({ success: false, message: banned });
        expect((await me.browser.get('/api/user/logout')).body).toEqual({ success: true, message: '' });
      });
    });

    describe('GET /api/user/token and /api/user/aff', () => {
      it('regenerates the access token: the old one stops working at once', async () => {
        const me = await session();
        const reply = await me.browser.get('/api/user/token');
        expect(reply.body.success).toBe(true);
        expect(reply.body.data).toMatch(/^[0-9a-f]{32}$/);
        expect((await row(me.id)).access_token).toBe(reply.body.data);
        expect((await suite.client().get('/api/user/self', { headers: { Authorization: me.accessToken } })).body).toEqual({
          success: false,
          message: '无权进行此操作，access token 无效',
        });
        expect((await suite.client().get('/api/user/self', { headers: { Authorization: reply.body.data } })).body.data.id).toBe(me.id);
        const again = await suite.client().get('/api/user/token', { headers: { Authorization: `Bearer ${reply.body.data}` } });
        expect(again.body.data).not.toBe(reply.body.data);
      });

      it('generates a 4-character aff code on first use (root has none) and keeps it', async () => {
        const root = suite.client();
        await root.login('root', '123456');
        expect((await row(1)).aff_code).toBe('');
        const first = await root.get('/api/user/aff');
        expect(first.body.success).toBe(true);
        expect(first.body.data).toMatch(/^[0-9a-zA-Z]{4}$/);
        expect((await row(1)).aff_code).toBe(first.body.data);
        expect((await root.get('/api/user/aff')).body).toEqual({ success: true, message: '', data: first.body.data });
        const me = await makeUser();
        const mine = await suite.client().get('/api/user/aff', { headers: { Authorization: me.accessToken } });
        expect(mine.body.data).toBe((await row(me.id)).aff_code);
      });
    });

    describe('GET /api/user/available_models', () => {
      it('lists the distinct enabled models of the caller\'s group, sorted', async () => {
        await db()
          .insertInto('abilities')
          .values([
            { group: 'default', model: 'gpt-b', channel_id: 1, enabled: true, priority: 0 },
            { group: 'default', model: 'gpt-a', channel_id: 2, enabled: true, priority: 0 },
            { group: 'default', model: 'gpt-a', channel_id: 3, enabled: true, priority: 0 },
            { group: 'default', model: 'Zeta', channel_id: 3, enabled: true, priority: 0 },
            { group: 'default', model: 'off-model', channel_id: 4, enabled: false, priority: 0 },
            { group: 'vip', model: 'vip-only', channel_id: 1, enabled: true, priority: 0 },
          ])
          .execute();
        const me = await makeUser();
        const reply = await suite.client().get('/api/user/available_models', { headers: { Authorization: me.accessToken } });
        expect(reply.body).toEqual({ success: true, message: '', data: ['Zeta', 'gpt-a', 'gpt-b'] });
        await db().updateTable('users').set({ group: 'vip' }).where('id', '=', me.id).execute();
        expect((await suite.client().get('/api/user/available_models', { headers: { Authorization: me.accessToken } })).body.data).toEqual(['vip-only']);
        await db().updateTable('users').set({ group: 'nobody' }).where('id', '=', me.id).execute();
        expect((await suite.client().get('/api/user/available_models', { headers: { Authorization: me.accessToken } })).body.data).toEqual([]);
      });
    });

    describe('GET /api/user/dashboard', () => {
      it('sums the caller\'s consume logs of the last 7 UTC days per day and model, PascalCase keys', async () => {
        const me = await makeUser();
        const other = await makeUser();
        const log = (userId: number, createdAt: number, type: number, model: string, quota: number, prompt: number, completion: number) => ({
          user_id: userId, created_at: createdAt, type, content: '', username: '', model_name: model, quota,
          prompt_tokens: prompt, completion_tokens: completion, channel_id: 1,
        });
        await db()
          .insertInto('logs')
          .values([
            log(me.id, todayStart + 10, 2, 'gpt-b', 100, 1, 2),
            log(me.id, todayStart + 20, 2, 'gpt-b', 50, 3, 4),
            log(me.id, todayStart + day - 1, 2, 'gpt-a', 7, 0, 1),
            log(me.id, todayStart - 6 * day, 2, 'gpt-a', 5, 5, 5),
            log(me.id, todayStart - 6 * day - 1, 2, 'gpt-a', 1000, 1, 1),
            log(me.id, todayStart + day, 2, 'gpt-a', 1000, 1, 1),
            log(me.id, todayStart + 30, 3, 'gpt-a', 1000, 1, 1),
            log(other.id, todayStart + 30, 2, 'gpt-a', 1000, 1, 1),
          ])
          .execute();
        const reply = await suite.client().get('/api/user/dashboard', { headers: { Authorization: me.accessToken } });
        expect(reply.body).toEqual({
          success: true,
          message: '',
          data: [
            { Day: '2025-06-09', ModelName: 'gpt-a', RequestCount: 1, Quota: 5, PromptTokens: 5, CompletionTokens: 5 },
            { Day: '2025-06-15', ModelName: 'gpt-a', RequestCount: 1, Quota: 7, PromptTokens: 0, CompletionTokens: 1 },
            { Day: '2025-06-15', ModelName: 'gpt-b', RequestCount: 2, Quota: 150, PromptTokens: 4, CompletionTokens: 6 },
          ],
        });
        const empty = await suite.client().get('/api/user/dashboard', { headers: { Authorization: (await makeUser()).accessToken } });
        expect(empty.body).toEqual({ success: true, message: '', data: [] });
      });
    });
  });
}
