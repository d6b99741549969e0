import { describe, expect, it } from 'vitest';
import { dumpDatabase, insertUser, setOption } from './support/db';
import type { Client, Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/** Admin user management (contract §2.5) over real HTTP, on SQLite and PostgreSQL. */

const notLoggedIn = '无权进行此操作，未登录且未提供 access token';
const banned = '用户已被封禁';
const forbidden = '无权进行此操作，权限不足';
const updateForbidden = '无权更新同权限等级或更高权限等级的用户信息';

/** The 19 User fields of contract §2.1.1. */
const userFields = [
  'id', 'username', 'password', 'display_name', 'role', 'status', 'email', 'github_id', 'wechat_id', 'lark_id',
  'oidc_id', 'verification_code', 'access_token', 'quota', 'used_quota', 'request_count', 'group', 'aff_code', 'inviter_id',
].sort();

let seq = 0;
/** A unique username of at most 12 characters. */
const uname = (prefix: string): string => `${prefix}${(seq += 1)}`.slice(0, 12);
/** A 32-hex access token derived from a name. */
const tokenFor = (name: string): string => Buffer.from(name.padEnd(16, '#')).toString('hex').slice(0, 32).padEnd(32, '0');

const put = (client: Client, path: string, body: unknown, headers?: Record<string, string>): Promise<Reply> =>
  client.request('PUT', path, { body, headers });
const del = (client: Client, path: string, headers?: Record<string, string>): Promise<Reply> =>
  client.request('DELETE', path, { headers });

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`admin user management — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;

    /** A user with a password and access token; returns its id, name and token. */
    async function makeUser(role = 1, status = 1, extra: { email?: string; displayName?: string } = {}) {
      const username = uname(role === 100 ? 'root' : role === 10 ? 'adm' : 'usr');
      const accessToken = tokenFor(username);
      const id = await insertUser(db(), { username, password: 'password-1', role, status, accessToken, ...extra });
      return { id, username, accessToken };
    }

    /** A logged-in browser for a new user of `role`. */
    async function session(role: number) {
      const user = await makeUser(role);
      const browser = suite.client();
      const reply = await browser.login(user.username, 'password-1');
      expect(reply.body.success).toBe(true);
      return { ...user, browser };
    }

    const rootBrowser = async () => {
      const browser = suite.client();
      await browser.login('root', '123456');
      return browser;
    };

    const row = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    describe('auth matrix', () => {
      const routes: readonly (readonly [string, string, unknown?])[] = [
        ['GET', '/api/user/'],
        ['GET', '/api/user/search?keyword=root'],
        ['GET', '/api/user/1'],
        ['POST', '/api/user/', { username: 'zz', password: 'password-1' }],
        ['PUT', '/api/user/', { id: 1, display_name: 'x' }],
        ['POST', '/api/user/manage', { username: 'root', action: 'disable' }],
        ['DELETE', '/api/user/1'],
      ];

      it('anonymous → 401, common → 权限不足, banned token → 封禁, all without any write', async () => {
        const common = await session(1);
        const bannedUser = await makeUser(10, 2);
        const before = await dumpDatabase(db());
        for (const [method, path, body] of routes) {
          const anon = await suite.client().request(method, path, { body });
          expect(anon.status, `${method} ${path}`).toBe(401);
          expect(anon.body).toEqual({ success: false, message: notLoggedIn });
          const asCommon = await common.browser.request(method, path, { body });
          expect(asCommon.status).toBe(200);
          expect(asCommon.body).toEqual({ success: false, message: forbidden });
          const byCommonToken = await suite.client().request(method, path, { body, headers: { Authorization: `Bearer ${common.accessToken}` } });
          expect(byCommonToken.body).toEqual({ success: false, message: forbidden });
          const asBanned = await suite.client().request(method, path, { body, headers: { Authorization: bannedUser.accessToken } });
          expect(asBanned.body).toEqual({ success: false, message: banned });
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('admits an admin by session and by access token', async () => {
        const admin = await makeUser(10);
        const byToken = await suite.client().get('/api/user/', { headers: { Authorization: admin.accessToken } });
        expect(byToken.body.success).toBe(true);
        const { browser } = await session(10);
        expect((await browser.get('/api/user')).body.success).toBe(true);
      });
    });

    describe('GET /api/user/ and /search', () => {
      it('lists 10 per page, id desc, without deleted users, never exposing access tokens or hashes', async () => {
        for (let i = 0; i < 12; i += 1) await makeUser();
        const deleted = await makeUser(1, 3);
        const root = await rootBrowser();
        const page0 = await root.get('/api/user/?p=0');
        expect(page0.body.success).toBe(true);
        const items = page0.body.data as Record<string, unknown>[];
        expect(items).toHaveLength(10);
        const ids = items.map((u) => u.id as number);
        expect(ids).toEqual([...ids].sort((a, b) => b - a));
        expect(ids).not.toContain(deleted.id);
        for (const item of items) {
          expect(Object.keys(item).sort()).toEqual(userFields);
          expect(item.access_token).toBe('');
          expect(item.password).toBe('');
        }
        const all = (await db().selectFrom('users').select('id').where('status', '!=', 3).orderBy('id', 'desc').execute()).map((r) => r.id);
        expect(ids).toEqual(all.slice(0, 10));
        expect((await root.get('/api/user/?p=1')).body.data.map((u: { id: number }) => u.id)).toEqual(all.slice(10, 20));
        for (const p of ['-1', 'abc', '']) expect((await root.get(`/api/user/?p=${p}`)).body.data.map((u: { id: number }) => u.id)).toEqual(all.slice(0, 10));
        expect((await root.get('/api/user/?p=999')).body).toEqual({ success: true, message: '', data: [] });
      });

      it('orders by quota, used_quota, request_count (desc); unknown order falls back to id desc', async () => {
        const a = await makeUser();
        const b = await makeUser();
        await db().updateTable('users').set({ quota: 9e14, used_quota: 1, request_count: 9e8 }).where('id', '=', a.id).execute();
        await db().updateTable('users').set({ quota: 1, used_quota: 9e14, request_count: 1 }).where('id', '=', b.id).execute();
        const root = await rootBrowser();
        expect((await root.get('/api/user/?order=quota')).body.data[0].id).toBe(a.id);
        expect((await root.get('/api/user/?order=used_quota')).body.data[0].id).toBe(b.id);
        expect((await root.get('/api/user/?order=request_count')).body.data[0].id).toBe(a.id);
        const fallback = (await root.get("/api/user/?order=id;drop table users")).body.data.map((u: { id: number }) => u.id);
        expect(fallback).toEqual([...fallback].sort((x: number, y: number) => y - x));
      });

      it('searches by exact id or username/email/display-name prefix, deleted users included, no tokens', async () => {
        const u = await makeUser(1, 1, { email: 'findme@example.com', displayName: 'Zebra Person' });
        const gone = await makeUser(1, 3, { displayName: 'Zebra Ghost' });
        const root = await rootBrowser();
        const search = async (keyword: string) =>
          ((await root.get(`/api/user/search?keyword=${encodeURIComponent(keyword)}`)).body.data as { id: number; access_token: string }[]);
        expect((await search('findme')).map((x) => x.id)).toEqual([u.id]);
        expect((await search('Zebra')).map((x) => x.id)).toEqual([u.id, gone.id]);
        expect((await search(u.username)).map((x) => x.id)).toContain(u.id);
        expect((await search(String(u.id))).map((x) => x.id)).toContain(u.id);
        for (const item of await search('')) expect(item.access_token).toBe('');
        expect(await search("' OR 1=1 --")).toEqual([]);
        expect(await search('\u0000')).toEqual([]);
        // one-api does not escape LIKE wildcards; a trailing backslash is harmless
        expect((await search('%')).length).toBeGreaterThan(2);
        expect(await search('zz\\')).toEqual([]);
      });
    });

    describe('GET /api/user/:id', () => {
      it('hides password and token; role rules; id parsing messages', async () => {
        const admin = await session(10);
        const common = await makeUser();
        const otherAdmin = await makeUser(10);
        const reply = await admin.browser.get(`/api/user/${common.id}`);
        expect(reply.body.success).toBe(true);
        expect(Object.keys(reply.body.data).sort()).toEqual(userFields);
        expect(reply.body.data).toMatchObject({ id: common.id, username: common.username, access_token: '', password: '' });
        expect((await admin.browser.get(`/api/user/${otherAdmin.id}`)).body).toEqual({ success: false, message: '无权获取同级或更高等级用户的信息' });
        expect((await admin.browser.get('/api/user/1')).body).toEqual({ success: false, message: '无权获取同级或更高等级用户的信息' });
        expect((await admin.browser.get(`/api/user/${admin.id}`)).body.success).toBe(false);
        const root = await rootBrowser();
        expect((await root.get('/api/user/1')).body.data.username).toBe('root');
        expect((await root.get(`/api/user/${otherAdmin.id}/`)).body.data.id).toBe(otherAdmin.id);
        expect((await root.get('/api/user/abc')).body).toEqual({ success: false, message: 'strconv.Atoi: parsing "abc": invalid syntax' });
        expect((await root.get('/api/user/0')).body).toEqual({ success: false, message: 'id 为空！' });
        expect((await root.get('/api/user/99999')).body).toEqual({ success: false, message: 'record not found' });
        expect((await root.get('/api/user/99999999999999999999')).body).toEqual({
          success: false,
          message: 'strconv.Atoi: parsing "99999999999999999999": value out of range',
        });
      });
    });

    describe('POST /api/user/', () => {
      it('creates a common user with QuotaForNewUser, its log and a default token', async () => {
        await setOption(db(), 'QuotaForNewUser', '1000');
        await setOption(db(), 'DisplayInCurrencyEnabled', 'false');
        try {
          const admin = await session(10);
          const username = uname('new');
          const reply = await admin.browser.post('/api/user/', { username, password: 'password-9', role: 1, unknown: 'x' });
          expect(reply.body).toEqual({ success: true, message: '' });
          const created = await db().selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
          expect(created).toMatchObject({ display_name: username, role: 1, status: 1, quota: 1000, group: 'default', inviter_id: 0, email: '' });
          expect(created.access_token).toMatch(/^[0-9a-f]{32}$/);
          expect(created.aff_code).toMatch(/^[0-9a-zA-Z]{4}$/);
          const logs = await db().selectFrom('logs').selectAll().where('user_id', '=', created.id).execute();
          expect(logs).toHaveLength(1);
          expect(logs[0]).toMatchObject({ type: 4, content: '新用户注册赠送 1000 点额度', username, quota: 0 });
          const tokens = await db().selectFrom('tokens').selectAll().where('user_id', '=', created.id).execute();
          expect(tokens).toHaveLength(1);
          expect(tokens[0]).toMatchObject({ name: 'default', status: 1, expired_time: -1, remain_quota: -1, unlimited_quota: true, models: null });
          expect(tokens[0]!.key!.trim()).toMatch(/^[0-9a-zA-Z]{48}$/);
          expect((await suite.client().login(username, 'password-9')).body.success).toBe(true);
          // display name given; role is never honoured beyond the check (always common)
          const named = uname('nm');
          await admin.browser.post('/api/user/', { username: named, password: 'password-9', display_name: 'Shown', role: 0 });
          expect(await db().selectFrom('users').select(['display_name', 'role']).where('username', '=', named).executeTakeFirst()).toEqual({ display_name: 'Shown', role: 1 });
        } finally {
          await setOption(db(), 'QuotaForNewUser', '0');
          await setOption(db(), 'DisplayInCurrencyEnabled', 'true');
        }
      });

      it('refuses bad input, high roles and duplicates with messages naming the field and no write', async () => {
        const admin = await session(10);
        const existing = await makeUser();
        const before = await dumpDatabase(db());
        const cases: readonly (readonly [unknown, string])[] = [
          [{ username: 'abc' }, '密码不能为空'],
          [{ username: '', password: 'password-1' }, '用户名不能为空'],
          [{ username: 'abc', password: 12345678 }, 'invalid parameter'],
          [[1, 2], 'invalid parameter'],
          ['not an object', 'invalid parameter'],
          [{ username: 'abc', password: 'password-1', role: '1' }, 'invalid parameter'],
          [{ username: 'abc', password: 'password-1', role: 1.5 }, 'invalid parameter'],
          // Ours: the field and the rule, zh by default (one-api: invalid_input, SQLite's UNIQUE text)
          [{ username: 'abcdefghijklm', password: 'password-1' }, '用户名长度不能超过 12 个字符'],
          [{ username: 'abc', password: 'short' }, '密码长度必须在 8 到 20 个字符之间'],
          [{ username: 'abc', password: 'p'.repeat(21) }, '密码长度必须在 8 到 20 个字符之间'],
          [{ username: 'abc', password: 'password-1', display_name: 'd'.repeat(21) }, '显示名称长度不能超过 20 个字符'],
          [{ username: 'a\u0000b', password: 'password-1' }, '用户名不能包含空字符（NUL）'],
          [{ username: 'abc', password: 'password-1', role: 10 }, '无法创建权限大于等于自己的用户'],
          [{ username: 'abc', password: 'password-1', role: 100 }, '无法创建权限大于等于自己的用户'],
          [{ username: existing.username, password: 'password-1' }, '用户名已被占用，请换一个'],
        ];
        for (const [body, message] of cases) {
          const reply = await admin.browser.post('/api/user/', body);
          expect(reply.status).toBe(200);
          expect(reply.body, JSON.stringify(body)).toEqual({ success: false, message });
        }
        const raw = await admin.browser.request('POST', '/api/user/', { rawBody: '{"username":' });
        expect(raw.body).toEqual({ success: false, message: 'invalid parameter' });
        const en = await admin.browser.post('/api/user/', { username: 'abc', password: 'x' }, { headers: { 'Accept-Language': 'en' } });
        expect(en.body).toEqual({ success: false, message: 'password must be 8 to 20 characters' });
        expect(await dumpDatabase(db())).toBe(before);
        // root may create with role 10 requested (still created as common)
        const root = await rootBrowser();
        const name = uname('byroot');
        expect((await root.post('/api/user/', { username: name, password: 'password-1', role: 10 })).body.success).toBe(true);
        // SQL / script payloads are stored verbatim
        const payload = "x');--<s>";
        expect((await root.post('/api/user/', { username: payload, password: 'password-1', display_name: '<script>1</script>' })).body.success).toBe(true);
        expect(await db().selectFrom('users').select('display_name').where('username', '=', payload).executeTakeFirst()).toEqual({ display_name: '<script>1</script>' });
      });
    });

    describe('PUT /api/user/', () => {
      it('updates profile fields, logs a quota change, ignores tokens and counters', async () => {
        await setOption(db(), 'DisplayInCurrencyEnabled', 'false');
        try {
          const admin = await session(10);
          const u = await makeUser();
          const before = await row(u.id);
          const newName = uname('ren');
          const reply = await put(admin.browser, '/api/user/', {
            ...before, id: u.id, username: newName, display_name: 'Renamed', password: 'new-password', group: 'vip',
            email: 'r@example.com', quota: 5000, access_token: 'f'.repeat(32), aff_code: 'HACK', used_quota: 77, request_count: 5,
            inviter_id: 3, github_id: 'gh', role: 1, status: 1, verification_code: '',
          });
          expect(reply.body).toEqual({ success: true, message: '' });
          const after = await row(u.id);
          expect(after).toMatchObject({ username: newName, display_name: 'Renamed', group: 'vip', email: 'r@example.com', quota: 5000 });
          expect(after).toMatchObject({ aff_code: before.aff_code, used_quota: 0, request_count: 0, inviter_id: 0, github_id: '' });
          // The body's access token is ignored; the password change replaced the stored one (password-sessions.test.ts).
          expect(after.access_token).not.toBe('f'.repeat(32));
          expect(after.access_token).not.toBe(before.access_token);
          expect((await suite.client().login(newName, 'new-password')).body.success).toBe(true);
          const logs = await db().selectFrom('logs').selectAll().where('user_id', '=', u.id).execute();
          expect(logs).toHaveLength(1);
          expect(logs[0]).toMatchObject({ type: 3, content: '管理员将用户额度从 0 点额度修改为 5000 点额度', username: newName });
          // quota 0 is applied; omitted quota is no change and no log; equal quota no log
          expect((await put(admin.browser, '/api/user/', { id: u.id, quota: 0 })).body.success).toBe(true);
          expect((await row(u.id)).quota).toBe(0);
          expect((await put(admin.browser, '/api/user/', { id: u.id, display_name: 'Again' })).body.success).toBe(true);
          expect((await put(admin.browser, '/api/user/', { id: u.id, quota: 0 })).body.success).toBe(true);
          const contents = (await db().selectFrom('logs').select('content').where('user_id', '=', u.id).orderBy('id').execute()).map((l) => l.content);
          expect(contents).toEqual(['管理员将用户额度从 0 点额度修改为 5000 点额度', '管理员将用户额度从 5000 点额度修改为 0 点额度']);
        } finally {
          await setOption(db(), 'DisplayInCurrencyEnabled', 'true');
        }
      });

      it('formats the quota log in currency when DisplayInCurrencyEnabled', async () => {
        const root = await rootBrowser();
        const u = await makeUser();
        await put(root, '/api/user/', { id: u.id, quota: 500000 });
        const log = await db().selectFrom('logs').select('content').where('user_id', '=', u.id).executeTakeFirstOrThrow();
        expect(log.content).toBe('管理员将用户额度从 ＄0.000000 额度修改为 ＄1.000000 额度');
      });

      it('applies one-api role rules', async () => {
        const admin = await session(10);
        const otherAdmin = await makeUser(10);
        const common = await makeUser();
        const before = await dumpDatabase(db());
        expect((await put(admin.browser, '/api/user/', { id: otherAdmin.id, display_name: 'x' })).body).toEqual({ success: false, message: updateForbidden });
        expect((await put(admin.browser, '/api/user/', { id: 1, display_name: 'x' })).body).toEqual({ success: false, message: updateForbidden });
        expect((await put(admin.browser, '/api/user/', { id: admin.id, display_name: 'x' })).body).toEqual({ success: false, message: updateForbidden });
        expect((await put(admin.browser, '/api/user/', { id: common.id, role: 10 })).body).toEqual({
          success: false,
          message: '无权将其他用户权限等级提升到大于等于自己的权限等级',
        });
        expect(await dumpDatabase(db())).toBe(before);
        const root = await rootBrowser();
        expect((await put(root, '/api/user/', { id: common.id, role: 10 })).body.success).toBe(true);
        expect((await row(common.id)).role).toBe(10);
        const otherRoot = await makeUser(100);
        expect((await put(root, '/api/user/', { id: otherRoot.id, display_name: 'Root Two' })).body.success).toBe(true);
      });

      it('disabling by update ends the target user\'s live session at once', async () => {
        const admin = await session(10);
        const target = await session(1);
        expect((await target.browser.get('/api/user/self')).body.success).toBe(true);
        expect((await put(admin.browser, '/api/user/', { id: target.id, status: 2 })).body.success).toBe(true);
        expect(await db().selectFrom('sessions').where('user_id', '=', target.id).selectAll().execute()).toEqual([]);
        expect((await target.browser.get('/api/user/self')).status).toBe(401);
        expect((await suite.client().get('/api/user/self', { headers: { Authorization: target.accessToken } })).body).toEqual({ success: false, message: banned });
        expect((await put(admin.browser, '/api/user/', { id: target.id, status: 1 })).body.success).toBe(true);
        expect((await suite.client().get('/api/user/self', { headers: { Authorization: target.accessToken } })).body.success).toBe(true);
      });

      it('refuses bad input with the database unchanged', async () => {
        const root = await rootBrowser();
        const u = await makeUser();
        const taken = await makeUser();
        const before = await dumpDatabase(db());
        const cases: readonly (readonly [unknown, string])[] = [
          [{ display_name: 'x' }, 'invalid parameter'],
          [{ id: 0, display_name: 'x' }, 'invalid parameter'],
          [{ id: String(u.id) }, 'invalid parameter'],
          [{ id: u.id, quota: '5' }, 'invalid parameter'],
          [{ id: u.id, quota: 1.5 }, 'invalid parameter'],
          [{ id: u.id, status: true }, 'invalid parameter'],
          [{ id: u.id, username: 'x'.repeat(13) }, '用户名长度不能超过 12 个字符'],
          [{ id: u.id, password: 'short' }, '密码长度必须在 8 到 20 个字符之间'],
          [{ id: u.id, email: `${'e'.repeat(50)}@x` }, '邮箱地址长度不能超过 50 个字符'],
          [{ id: u.id, group: 'g'.repeat(33) }, '分组名称长度不能超过 32 个字符'],
          [{ id: u.id, quota: 2 ** 60 }, 'quota 必须在 0 到 1000000000000000 之间'],
          [{ id: u.id, role: 5 }, '角色取值无效，只能是普通用户、管理员或超级管理员'],
          [{ id: u.id, status: 9 }, '状态取值无效，只能是启用、禁用或已删除'],
          [{ id: u.id, display_name: 'a\u0000' }, '显示名称不能包含空字符（NUL）'],
          [{ id: 987654, display_name: 'x' }, 'record not found'],
          [{ id: u.id, username: taken.username, quota: 99 }, '用户名已被占用，请换一个'],
        ];
        for (const [body, message] of cases) {
          expect((await put(root, '/api/user/', body)).body, JSON.stringify(body)).toEqual({ success: false, message });
        }
        expect(await dumpDatabase(db())).toBe(before);
      });
    });

    describe('POST /api/user/manage', () => {
      const manage = (client: Client, username: string, action: string) => client.post('/api/user/manage', { username, action });
      /** The manage `data`: only role and status filled. */
      const managed = (role: number, status: number) => ({
        id: 0, username: '', password: '', display_name: '', role, status, email: '', github_id: '', wechat_id: '', lark_id: '',
        oidc_id: '', verification_code: '', access_token: '', quota: 0, used_quota: 0, request_count: 0, group: '', aff_code: '', inviter_id: 0,
      });

      it('disable / enable / promote / demote / delete with the role-and-status data', async () => {
        const root = await rootBrowser();
        const u = await makeUser();
        expect((await manage(root, u.username, 'disable')).body).toEqual({ success: true, message: '', data: managed(1, 2) });
        expect((await row(u.id)).status).toBe(2);
        expect((await manage(root, u.username, 'enable')).body).toEqual({ success: true, message: '', data: managed(1, 1) });
        expect((await manage(root, u.username, 'promote')).body).toEqual({ success: true, message: '', data: managed(10, 1) });
        expect((await manage(root, u.username, 'promote')).body).toEqual({ success: false, message: '该用户已经是管理员' });
        expect((await manage(root, u.username, 'demote')).body).toEqual({ success: true, message: '', data: managed(1, 1) });
        expect((await manage(root, u.username, 'demote')).body).toEqual({ success: false, message: '该用户已经是普通用户' });
        expect((await manage(root, u.username, 'delete')).body).toEqual({ success: true, message: '', data: managed(1, 3) });
        const deleted = await row(u.id);
        expect(deleted.status).toBe(3);
        expect(deleted.username).toMatch(/^deleted_[0-9a-f]{32}$/);
        // a deleted user can be found by search and re-enabled (keeps the new name)
        expect((await manage(root, deleted.username!, 'enable')).body.data).toEqual(managed(1, 1));
      });

      it('applies one-api role rules and root protections', async () => {
        const admin = await session(10);
        const otherAdmin = await makeUser(10);
        const otherRoot = await makeUser(100);
        const common = await makeUser();
        const root = await rootBrowser();
        const before = await dumpDatabase(db());
        for (const action of ['disable', 'enable', 'delete', 'promote', 'demote']) {
          expect((await manage(admin.browser, 'root', action)).body).toEqual({ success: false, message: updateForbidden });
          expect((await manage(admin.browser, otherAdmin.username, action)).body).toEqual({ success: false, message: updateForbidden });
        }
        expect((await manage(admin.browser, common.username, 'promote')).body).toEqual({ success: false, message: '普通管理员用户无法提升其他用户为管理员' });
        expect((await manage(root, otherRoot.username, 'disable')).body).toEqual({ success: false, message: '无法禁用超级管理员用户' });
        expect((await manage(root, otherRoot.username, 'delete')).body).toEqual({ success: false, message: '无法删除超级管理员用户' });
        expect((await manage(root, otherRoot.username, 'demote')).body).toEqual({ success: false, message: '无法降级超级管理员用户' });
        expect((await manage(root, 'root', 'disable')).body).toEqual({ success: false, message: '无法禁用超级管理员用户' });
        expect((await manage(root, 'nobody-here', 'disable')).body).toEqual({ success: false, message: '用户不存在' });
        expect((await manage(root, '', 'disable')).body).toEqual({ success: false, message: '用户不存在' });
        expect((await manage(root, common.username, 'explode')).body).toEqual({ success: false, message: 'invalid parameter' });
        expect((await root.post('/api/user/manage', { username: common.username })).body).toEqual({ success: false, message: 'invalid parameter' });
        expect((await root.post('/api/user/manage', { username: 5, action: 'disable' })).body).toEqual({ success: false, message: 'invalid parameter' });
        expect(await dumpDatabase(db())).toBe(before);
        // an admin may disable a common user
        expect((await manage(admin.browser, common.username, 'disable')).body.data).toEqual(managed(1, 2));
        // root may promote then demote an admin
        expect((await manage(root, otherAdmin.username, 'demote')).body.data).toEqual(managed(1, 1));
      });

      it('disable and delete end the target\'s live session at once; enable restores access', async () => {
        const admin = await session(10);
        const target = await session(1);
        expect((await target.browser.get('/api/user/self')).body.success).toBe(true);
        expect((await manage(admin.browser, target.username, 'disable')).body.success).toBe(true);
        expect(await db().selectFrom('sessions').where('user_id', '=', target.id).selectAll().execute()).toEqual([]);
        expect((await target.browser.get('/api/user/self')).status).toBe(401);
        expect((await suite.client().get('/api/user/self', { headers: { Authorization: target.accessToken } })).body).toEqual({ success: false, message: banned });
        await manage(admin.browser, target.username, 'enable');
        expect((await target.browser.login(target.username, 'password-1')).body.success).toBe(true);
        expect((await target.browser.get('/api/user/self')).body.success).toBe(true);
        expect((await manage(admin.browser, target.username, 'delete')).body.success).toBe(true);
        expect((await target.browser.get('/api/user/self')).status).toBe(401);
        expect((await suite.client().get('/api/user/self', { headers: { Authorization: target.accessToken } })).body).toEqual({ success: false, message: banned });
        expect((await suite.client().login(target.username, 'password-1')).body.success).toBe(false);
      });

      it('promotion applies to the target\'s existing session at once', async () => {
        const root = await rootBrowser();
        const target = await session(1);
        expect((await target.browser.get('/api/user/')).body).toEqual({ success: false, message: forbidden });
        await manage(root, target.username, 'promote');
        expect((await target.browser.get('/api/user/')).body.success).toBe(true);
      });
    });

    describe('DELETE /api/user/:id', () => {
      it('soft-deletes when the caller role is strictly higher; answers an envelope', async () => {
        const admin = await session(10);
        const target = await session(1);
        const reply = await del(admin.browser, `/api/user/${target.id}/`);
        expect(reply.body).toEqual({ success: true, message: '' });
        const after = await row(target.id);
        expect(after.status).toBe(3);
        expect(after.username).toMatch(/^deleted_[0-9a-f]{32}$/);
        expect((await target.browser.get('/api/user/self')).status).toBe(401);
      });

      it('refuses equal or higher roles (root included) and bad ids without writing', async () => {
        const admin = await session(10);
        const otherAdmin = await makeUser(10);
        const otherRoot = await makeUser(100);
        const root = await rootBrowser();
        const before = await dumpDatabase(db());
        const message = '无权删除同权限等级或更高权限等级的用户';
        expect((await del(admin.browser, `/api/user/${otherAdmin.id}`)).body).toEqual({ success: false, message });
        expect((await del(admin.browser, '/api/user/1')).body).toEqual({ success: false, message });
        expect((await del(root, `/api/user/${otherRoot.id}`)).body).toEqual({ success: false, message });
        expect((await del(root, '/api/user/1')).body).toEqual({ success: false, message });
        expect((await del(root, '/api/user/x1')).body).toEqual({ success: false, message: 'strconv.Atoi: parsing "x1": invalid syntax' });
        expect((await del(root, '/api/user/0')).body).toEqual({ success: false, message: 'id 为空！' });
        expect((await del(root, '/api/user/424242')).body).toEqual({ success: false, message: 'record not found' });
        expect(await dumpDatabase(db())).toBe(before);
        expect((await del(root, `/api/user/${otherAdmin.id}`)).body.success).toBe(true);
      });
    });
  });
}
