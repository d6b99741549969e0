import { beforeAll, describe, expect, it } from 'vitest';
import { dumpDatabase, insertUser, setOption } from './support/db';
import type { Client, Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

const notLoggedIn = '无权进行此操作，未登录且未提供 access token';
const invalidToken = '无权进行此操作，access token 无效';
const banned = '用户已被封禁';
const forbidden = '无权进行此操作，权限不足';
const idRequired = 'id 为空！';
const notFound = 'record not found';
const nameLength = '兑换码名称长度必须在1-20之间';
const countPositive = '兑换码个数必须大于0';
const countMax = '一次兑换码批量生成的个数不能大于 100';
const keyMissing = '未提供兑换码';
const keyInvalid = '兑换失败，无效的兑换码';
const keyUsed = '兑换失败，该兑换码已被使用';

/** The 9 fields of a Redemption object (contract §2.1.4). */
const redemptionFields = ['count', 'created_time', 'id', 'key', 'name', 'quota', 'redeemed_time', 'status', 'user_id'];

const clockMs = 1_760_000_000_000;
const nowSeconds = clockMs / 1000;

interface Caller {
  readonly id: number;
  readonly client: Client;
  readonly headers: Record<string, string>;
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`redemption codes and top-up — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => clockMs });
    const db = () => suite.api.handle.db;
    const callers: Record<'common' | 'admin' | 'root' | 'adminToken' | 'commonToken', Caller> = {} as never;
    const anonymous = () => ({ client: suite.client(), headers: {} });
    const bannedCaller = () => ({ client: suite.client(), headers: { Authorization: 'banned-access-token-000000000000' } });
    const badTokenCaller = () => ({ client: suite.client(), headers: { Authorization: 'nope' } });

    const call = (caller: { client: Client; headers: Record<string, string> }, method: string, path: string, body?: unknown, rawBody?: string): Promise<Reply> =>
      caller.client.request(method, path, { headers: caller.headers, body, rawBody });

    /** Creates codes via the API; returns the keys. */
    const createCodes = async (body: Record<string, unknown>, caller = callers.admin): Promise<string[]> => {
      const reply = await call(caller, 'POST', '/api/redemption/', body);
      expect(reply.body.success, reply.text).toBe(true);
      return reply.body.data as string[];
    };
    const codeByKey = (key: string) => db().selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    const quotaOf = async (id: number) => (await db().selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota;

    beforeAll(async () => {
      const login = async (username: string, password: string, role: number): Promise<Caller> => {
        const id = username === 'root' ? 1 : await insertUser(db(), { username, password, role, accessToken: `${username}-access-token`.padEnd(32, '0') });
        const client = suite.client();
        expect((await client.login(username, password)).body.success).toBe(true);
        return { id, client, headers: {} };
      };
      callers.common = await login('common1', 'common-pass', 1);
      callers.admin = await login('admin1', 'admin-pass', 10);
      callers.root = await login('root', '123456', 100);
      callers.adminToken = { id: callers.admin.id, client: suite.client(), headers: { Authorization: `Bearer ${'admin1-access-token'.padEnd(32, '0')}` } };
      callers.commonToken = { id: callers.common.id, client: suite.client(), headers: { Authorization: 'common1-access-token'.padEnd(32, '0') } };
      await insertUser(db(), { username: 'banned1', status: 2, accessToken: 'banned-access-token-000000000000' });
    });

    describe('auth matrix', () => {
      const adminRoutes: ReadonlyArray<readonly [string, string, unknown?]> = [
        ['GET', '/api/redemption/'],
        ['GET', '/api/redemption/search?keyword=x'],
        ['GET', '/api/redemption/1'],
        ['POST', '/api/redemption/', { name: 'x', quota: 1, count: 1 }],
        ['PUT', '/api/redemption/', { id: 1, name: 'x', quota: 1 }],
        ['DELETE', '/api/redemption/1'],
      ];

      it('admin routes: anonymous → 401; bad token, banned, common (session or token) → 200 failures; DB unchanged', async () => {
        const before = await dumpDatabase(db());
        for (const [method, path, body] of adminRoutes) {
          const anon = await call(anonymous(), method, path, body);
          expect([anon.status, anon.body]).toEqual([401, { success: false, message: notLoggedIn }]);
          expect((await call(badTokenCaller(), method, path, body)).body).toEqual({ success: false, message: invalidToken });
          expect((await call(bannedCaller(), method, path, body)).body).toEqual({ success: false, message: banned });
          for (const caller of [callers.common, callers.commonToken]) {
            const reply = await call(caller, method, path, body);
            expect([reply.status, reply.body]).toEqual([200, { success: false, message: forbidden }]);
          }
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('admin routes: admin, root and an admin access token succeed', async () => {
        for (const caller of [callers.admin, callers.root, callers.adminToken]) {
          const [key] = await createCodes({ name: 'matrix', quota: 5, count: 1 }, caller);
          const code = await codeByKey(key!);
          expect(code.user_id).toBe(caller.id);
          expect((await call(caller, 'GET', '/api/redemption/')).body.success).toBe(true);
          expect((await call(caller, 'GET', `/api/redemption/search?keyword=${code.id}`)).body.data[0].id).toBe(code.id);
          expect((await call(caller, 'GET', `/api/redemption/${code.id}`)).body.data.key).toBe(key);
          expect((await call(caller, 'PUT', '/api/redemption/', { id: code.id, name: 'm2', quota: 6 })).body.data.name).toBe('m2');
          expect((await call(caller, 'DELETE', `/api/redemption/${code.id}`)).body).toEqual({ success: true, message: '' });
        }
      });

      it('POST /api/user/topup: anonymous → 401, bad token/banned → 200 failures; common, admin, token callers redeem', async () => {
        const keys = await createCodes({ name: 'auth', quota: 10, count: 4 });
        const before = await dumpDatabase(db());
        const anon = await call(anonymous(), 'POST', '/api/user/topup', { key: keys[0] });
        expect([anon.status, anon.body]).toEqual([401, { success: false, message: notLoggedIn }]);
        expect((await call(badTokenCaller(), 'POST', '/api/user/topup', { key: keys[0] })).body).toEqual({ success: false, message: invalidToken });
        expect((await call(bannedCaller(), 'POST', '/api/user/topup', { key: keys[0] })).body).toEqual({ success: false, message: banned });
        expect(await dumpDatabase(db())).toBe(before);
        for (const [i, caller] of [callers.common, callers.commonToken, callers.admin, callers.root].entries()) {
          expect((await call(caller, 'POST', '/api/user/topup', { key: keys[i] })).body).toEqual({ success: true, message: '', data: 10 });
        }
      });
    });

    describe('POST /api/redemption/', () => {
      it('creates count codes with 32-hex keys, creator as user_id, returns the keys', async () => {
        const reply = await call(callers.admin, 'POST', '/api/redemption/', { name: 'promo', quota: 100000, count: 3, id: 77, key: 'mine', status: 3, user_id: 9 });
        expect(reply.body.success).toBe(true);
        expect(reply.body.message).toBe('');
        const keys = reply.body.data as string[];
        expect(keys).toHaveLength(3);
        expect(new Set(keys).size).toBe(3);
        for (const key of keys) {
          expect(key).toMatch(/^[0-9a-f]{32}$/);
          const row = await codeByKey(key);
          expect({ ...row, key: row.key?.trimEnd() }).toMatchObject({
            user_id: callers.admin.id, key, status: 1, name: 'promo', quota: 100000, created_time: nowSeconds, redeemed_time: 0,
          });
          expect(row.id).not.toBe(77);
        }
      });

      it('accepts 1–20 byte names, any quota in range; quota 0 takes the column default 100', async () => {
        const [k0] = await createCodes({ name: '一二三四五六', quota: 0, count: 1 });
        expect((await codeByKey(k0!)).quota).toBe(100);
        const [k1] = await createCodes({ name: 'a'.repeat(20), quota: 5, count: 1 });
        expect((await codeByKey(k1!)).quota).toBe(5);
        const hundred = await createCodes({ name: 'bulk', quota: 1, count: 100 });
        expect(hundred).toHaveLength(100);
      });

      it('refuses bad names, counts and bodies with one-api messages; database unchanged', async () => {
        const before = await dumpDatabase(db());
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ name: '', quota: 1, count: 1 }, nameLength],
          [{ quota: 1, count: 1 }, nameLength],
          [{ name: 'a'.repeat(21), quota: 1, count: 1 }, nameLength],
          [{ name: '一二三四五六七', quota: 1, count: 1 }, nameLength],
          [{ name: 'ok', quota: 1 }, countPositive],
          [{ name: 'ok', quota: 1, count: 0 }, countPositive],
          [{ name: 'ok', quota: 1, count: -3 }, countPositive],
          [{ name: 'ok', quota: 1, count: 101 }, countMax],
        ];
        for (const [body, message] of cases) {
          expect((await call(callers.admin, 'POST', '/api/redemption/', body)).body).toEqual({ success: false, message });
        }
        expect((await call(callers.admin, 'POST', '/api/redemption/', undefined, JSON.stringify({ name: 'ok', quota: '5', count: 1 }))).body)
          .toEqual({ success: false, message: 'json: cannot unmarshal string into Go struct field Redemption.quota of type int64' });
        expect((await call(callers.admin, 'POST', '/api/redemption/', undefined, '')).body).toEqual({ success: false, message: 'EOF' });
        expect((await call(callers.admin, 'POST', '/api/redemption/', undefined, 'null')).body).toEqual({ success: false, message: nameLength });
        const raws = ['x', '', '[]', 'null', JSON.stringify({ name: 'ok', quota: '5', count: 1 }), JSON.stringify({ name: 'ok', quota: 1, count: 1.5 }),
          JSON.stringify({ name: 7, quota: 1, count: 1 }), JSON.stringify({ name: 'a\u0000', quota: 1, count: 1 }), JSON.stringify({ name: 'ok', quota: 1e20, count: 1 })];
        for (const rawBody of raws) {
          const reply = await call(callers.admin, 'POST', '/api/redemption/', undefined, rawBody);
          expect([reply.status, reply.body.success], rawBody).toEqual([200, false]);
          expect(reply.body.message).not.toBe('');
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('stores SQL and script payloads verbatim', async () => {
        const name = "';DROP TABLE x;--";
        const [key] = await createCodes({ name, quota: 1, count: 1 });
        expect((await codeByKey(key!)).name).toBe(name);
      });
    });

    describe('listing, search, get', () => {
      const ids: number[] = [];
      beforeAll(async () => {
        await db().deleteFrom('redemptions').execute();
        for (let i = 0; i < 12; i += 1) {
          const row = await db()
            .insertInto('redemptions')
            .values({ user_id: callers.admin.id, key: `${String(i).padStart(2, '0')}`.padEnd(32, 'a'), status: 1, name: i < 6 ? `spring-${i}` : `autumn-${i}`, quota: i, created_time: 1, redeemed_time: 0 })
            .returning('id')
            .executeTakeFirstOrThrow();
          ids.push(row.id);
        }
      });

      it('pages by id desc, 10 per page, full objects with keys; bad p → 0', async () => {
        const page0 = await call(callers.admin, 'GET', '/api/redemption/?p=0');
        expect(page0.body.success).toBe(true);
        expect(page0.body.data.map((r: { id: number }) => r.id)).toEqual([...ids].reverse().slice(0, 10));
        for (const row of page0.body.data) expect(Object.keys(row).sort()).toEqual(redemptionFields);
        expect(page0.body.data[0]).toEqual({
          id: ids[11], user_id: callers.admin.id, key: '11'.padEnd(32, 'a'), status: 1, name: 'autumn-11', quota: 11, created_time: 1, redeemed_time: 0, count: 0,
        });
        expect((await call(callers.admin, 'GET', '/api/redemption?p=1')).body.data.map((r: { id: number }) => r.id)).toEqual([ids[1], ids[0]]);
        expect((await call(callers.admin, 'GET', '/api/redemption/?p=5')).body.data).toEqual([]);
        for (const p of ['-2', 'x']) expect((await call(callers.admin, 'GET', `/api/redemption/?p=${p}`)).body.data).toEqual(page0.body.data);
      });

      it('searches by id or name prefix, unpaginated', async () => {
        const byName = await call(callers.admin, 'GET', '/api/redemption/search?keyword=spring');
        expect(byName.body.data.map((r: { id: number }) => r.id)).toEqual(ids.slice(0, 6));
        const byId = await call(callers.admin, 'GET', `/api/redemption/search?keyword=${ids[8]}`);
        expect(byId.body.data.map((r: { id: number }) => r.id)).toEqual([ids[8]]);
        expect((await call(callers.admin, 'GET', '/api/redemption/search?keyword=')).body.data).toHaveLength(12);
        expect((await call(callers.admin, 'GET', '/api/redemption/search?keyword=pring')).body.data).toEqual([]);
        expect((await call(callers.admin, 'GET', `/api/redemption/search?keyword=${encodeURIComponent("1' or '1'='1")}`)).body).toEqual({ success: true, message: '', data: [] });
      });

      it('gets one code; 0 → id 为空！; non-numeric → strconv error; missing → record not found', async () => {
        const one = await call(callers.root, 'GET', `/api/redemption/${ids[2]}/`);
        expect(one.body.success).toBe(true);
        expect(Object.keys(one.body.data).sort()).toEqual(redemptionFields);
        expect(one.body.data.name).toBe('spring-2');
        expect((await call(callers.admin, 'GET', '/api/redemption/0')).body).toEqual({ success: false, message: idRequired });
        expect((await call(callers.admin, 'GET', '/api/redemption/x1')).body).toEqual({ success: false, message: 'strconv.Atoi: parsing "x1": invalid syntax' });
        expect((await call(callers.admin, 'GET', '/api/redemption/987654')).body).toEqual({ success: false, message: notFound });
      });
    });

    describe('PUT and DELETE /api/redemption/', () => {
      it('full update writes name and quota only (no name check); status_only writes only status', async () => {
        const [key] = await createCodes({ name: 'upd', quota: 50, count: 1 });
        const { id } = await codeByKey(key!);
        await call(callers.common, 'POST', '/api/user/topup', { key });
        const full = await call(callers.admin, 'PUT', '/api/redemption/', { id, name: 'a much longer name than twenty bytes', quota: 1, status: 1, redeemed_time: 5 });
        expect(full.body.success).toBe(true);
        expect(Object.keys(full.body.data).sort()).toEqual(redemptionFields);
        expect(full.body.data).toMatchObject({ id, name: 'a much longer name than twenty bytes', quota: 1, status: 3, redeemed_time: nowSeconds, key });
        const status = await call(callers.admin, 'PUT', '/api/redemption/?status_only=true', { id, status: 2, name: 'ignored', quota: 9 });
        expect(status.body.data).toMatchObject({ status: 2, name: 'a much longer name than twenty bytes', quota: 1 });
        // A code worth 0 (quota omitted or 0) is refused since the number ranges (numeric-ranges.test.ts).
        const omitted = await call(callers.admin, 'PUT', '/api/redemption', { id });
        expect(omitted.body).toEqual({ success: false, message: 'quota 必须在 1 到 1000000000000000 之间' });
      });

      it('refuses id 0 / missing / unknown and bad bodies; database unchanged', async () => {
        const before = await dumpDatabase(db());
        expect((await call(callers.admin, 'PUT', '/api/redemption/', { name: 'x' })).body).toEqual({ success: false, message: idRequired });
        expect((await call(callers.admin, 'PUT', '/api/redemption/?status_only=true', { id: 0, status: 1 })).body).toEqual({ success: false, message: idRequired });
        expect((await call(callers.admin, 'PUT', '/api/redemption/', { id: 55555, name: 'x' })).body).toEqual({ success: false, message: notFound });
        for (const rawBody of ['{', '"x"', JSON.stringify({ id: '1' }), JSON.stringify({ id: 1, quota: 'lots' }), JSON.stringify({ id: 1, status: true })]) {
          const reply = await call(callers.admin, 'PUT', '/api/redemption/?status_only=true', undefined, rawBody);
          expect([reply.status, reply.body.success], rawBody).toEqual([200, false]);
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('hard-deletes; missing → record not found; 0 or non-numeric → id 为空！', async () => {
        const [key] = await createCodes({ name: 'del', quota: 1, count: 1 });
        const { id } = await codeByKey(key!);
        const before = await dumpDatabase(db());
        expect((await call(callers.admin, 'DELETE', '/api/redemption/0')).body).toEqual({ success: false, message: idRequired });
        expect((await call(callers.admin, 'DELETE', '/api/redemption/abc')).body).toEqual({ success: false, message: idRequired });
        expect((await call(callers.admin, 'DELETE', '/api/redemption/4444444')).body).toEqual({ success: false, message: notFound });
        expect(await dumpDatabase(db())).toBe(before);
        expect((await call(callers.admin, 'DELETE', `/api/redemption/${id}/`)).body).toEqual({ success: true, message: '' });
        expect(await db().selectFrom('redemptions').selectAll().where('id', '=', id).executeTakeFirst()).toBeUndefined();
      });
    });

    describe('POST /api/user/topup', () => {
      it('credits the code’s quota, marks it used, writes the one-api top-up log, returns the quota', async () => {
        const [key] = await createCodes({ name: 'gift', quota: 250000, count: 1 });
        const quotaBefore = await quotaOf(callers.common.id);
        const reply = await call(callers.common, 'POST', '/api/user/topup', { Key: key, extra: 1 });
        expect(reply.body).toEqual({ success: true, message: '', data: 250000 });
        expect(await quotaOf(callers.common.id)).toBe(quotaBefore + 250000);
        const code = await codeByKey(key!);
        expect(code).toMatchObject({ status: 3, redeemed_time: nowSeconds, user_id: callers.admin.id });
        const log = await db().selectFrom('logs').selectAll().where('user_id', '=', callers.common.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
        expect(log).toMatchObject({
          type: 1, content: '通过兑换码充值 ＄0.500000 额度', username: 'common1', quota: 0, created_at: nowSeconds,
          token_name: '', model_name: '', request_id: reply.headers.get('X-Oneapi-Request-Id'),
        });
      });

      it('formats the log quota as points when DisplayInCurrencyEnabled is false', async () => {
        await setOption(db(), 'DisplayInCurrencyEnabled', 'false');
        try {
          const [key] = await createCodes({ name: 'pts', quota: 1234, count: 1 });
          expect((await call(callers.common, 'POST', '/api/user/topup', { key })).body.data).toBe(1234);
          const log = await db().selectFrom('logs').selectAll().where('user_id', '=', callers.common.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
          expect(log.content).toBe('通过兑换码充值 1234 点额度');
        } finally {
          await setOption(db(), 'DisplayInCurrencyEnabled', 'true');
        }
      });

      it('refuses empty, unknown, used and disabled codes and bad bodies; database unchanged', async () => {
        const [used, disabled] = await createCodes({ name: 'once', quota: 7, count: 2 });
        expect((await call(callers.admin, 'POST', '/api/user/topup', { key: used })).body.success).toBe(true);
        await db().updateTable('redemptions').set({ status: 2 }).where('key', '=', disabled!).execute();
        const before = await dumpDatabase(db());
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ key: '' }, keyMissing],
          [{}, keyMissing],
          [{ key: null }, keyMissing],
          [{ KEY: '' }, keyMissing],
          [null, keyMissing],
          [{ key: 'f'.repeat(32) }, keyInvalid],
          [{ key: ' ' }, keyInvalid],
          [{ key: "' OR '1'='1" }, keyInvalid],
          [{ key: 'a\u0000b' }, keyInvalid],
          [{ key: used }, keyUsed],
          [{ key: disabled }, keyUsed],
        ];
        for (const [body, message] of cases) {
          expect((await call(callers.common, 'POST', '/api/user/topup', body)).body).toEqual({ success: false, message });
        }
        expect((await call(callers.common, 'POST', '/api/user/topup', { key: 5 })).body)
          .toEqual({ success: false, message: 'json: cannot unmarshal number into Go struct field topUpRequest.key of type string' });
        expect((await call(callers.common, 'POST', '/api/user/topup', undefined, '')).body).toEqual({ success: false, message: 'EOF' });
        for (const rawBody of ['nope', '', '[]', JSON.stringify({ key: 5 }), JSON.stringify({ key: [used] })]) {
          const reply = await call(callers.common, 'POST', '/api/user/topup', undefined, rawBody);
          expect([reply.status, reply.body.success], rawBody).toEqual([200, false]);
          expect(reply.body.message).not.toBe('');
        }
        expect(await dumpDatabase(db())).toBe(before);
      });
    });
  });
}
