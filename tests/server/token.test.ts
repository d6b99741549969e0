import { beforeAll, describe, expect, it } from 'vitest';
import { dumpDatabase, insertToken as insertTokenRow, insertUser } from './support/db';
import type { Client, Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

const notLoggedIn = '无权进行此操作，未登录且未提供 access token';
const invalidToken = '无权进行此操作，access token 无效';
const banned = '用户已被封禁';
const nameTooLong = '参数错误：令牌名称过长';
const idRequired = 'id 或 userId 为空！';
const notFound = 'record not found';
const expiredMessage = '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期';
const exhaustedMessage = '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度';

/** The 13 fields of a Token object (contract §2.1.2). */
const tokenFields = [
  'accessed_time', 'created_time', 'expired_time', 'id', 'key', 'models', 'name', 'remain_quota', 'status',
  'subnet', 'unlimited_quota', 'used_quota', 'user_id',
];

const clockMs = 1_750_000_000_000;
const nowSeconds = clockMs / 1000;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`tokens /api/token — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => clockMs });
    const db = () => suite.api.handle.db;

    /** A caller: how it authenticates. */
    interface Caller {
      readonly id: number;
      readonly client: Client;
      readonly headers: Record<string, string>;
    }
    const callers: Record<'alice' | 'bob' | 'admin' | 'root' | 'aliceToken', Caller> = {} as never;
    const anonymous = () => ({ client: suite.client(), headers: {} });
    const bannedCaller = () => ({ client: suite.client(), headers: { Authorization: 'banned-access-token-000000000000' } });
    const badTokenCaller = () => ({ client: suite.client(), headers: { Authorization: 'Bearer not-a-valid-token' } });

    /** Sends a request as `caller`. */
    const call = (caller: { client: Client; headers: Record<string, string> }, method: string, path: string, body?: unknown, rawBody?: string): Promise<Reply> =>
      caller.client.request(method, path, { headers: caller.headers, body, rawBody });

    /** Creates a token through the API and returns its JSON. */
    const createVia = async (caller: Caller, body: Record<string, unknown>) => {
      const reply = await call(caller, 'POST', '/api/token/', body);
      expect(reply.body.success, reply.text).toBe(true);
      return reply.body.data as Record<string, unknown> & { id: number; key: string };
    };

    /** Inserts a token row directly; returns its id. */
    const insertToken = async (userId: number, values: Record<string, unknown> = {}) =>
      (await insertTokenRow(db(), userId, { name: 'seeded', ...values })).id;

    beforeAll(async () => {
      const login = async (username: string, password: string, role: number): Promise<Caller> => {
        const id = username === 'root' ? 1 : await insertUser(db(), { username, password, role });
        const client = suite.client();
        expect((await client.login(username, password === '' ? '123456' : password)).body.success).toBe(true);
        return { id, client, headers: {} };
      };
      callers.alice = await login('alice', 'alice-pass', 1);
      callers.bob = await login('bob', 'bob-pass-1', 1);
      callers.admin = await login('admin1', 'admin-pass', 10);
      callers.root = await login('root', '', 100);
      const aliceRow = await db().selectFrom('users').select('access_token').where('id', '=', callers.alice.id).executeTakeFirstOrThrow();
      callers.aliceToken = { id: callers.alice.id, client: suite.client(), headers: { Authorization: `Bearer ${aliceRow.access_token}` } };
      await insertUser(db(), { username: 'banned1', status: 2, accessToken: 'banned-access-token-000000000000' });
    });

    describe('auth matrix', () => {
      const routes: ReadonlyArray<readonly [string, string, unknown?]> = [
        ['GET', '/api/token/'],
        ['GET', '/api/token/search?keyword=x'],
        ['GET', '/api/token/1'],
        ['POST', '/api/token/', { name: 'x' }],
        ['PUT', '/api/token/', { id: 1, name: 'x' }],
        ['DELETE', '/api/token/999999'],
      ];

      it('anonymous → 401, invalid access token and banned user → 200 failures, DB unchanged', async () => {
        const before = await dumpDatabase(db());
        for (const [method, path, body] of routes) {
          const anon = await call(anonymous(), method, path, body);
          expect(anon.status).toBe(401);
          expect(anon.body).toEqual({ success: false, message: notLoggedIn });
          const bad = await call(badTokenCaller(), method, path, body);
          expect([bad.status, bad.body]).toEqual([200, { success: false, message: invalidToken }]);
          const ban = await call(bannedCaller(), method, path, body);
          expect([ban.status, ban.body]).toEqual([200, { success: false, message: banned }]);
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('common user, admin, root and an access-token caller all reach the routes (their own tokens)', async () => {
        for (const name of ['alice', 'admin', 'root', 'aliceToken'] as const) {
          const caller = callers[name];
          const created = await createVia(caller, { name: `m-${name}`, remain_quota: 5 });
          expect(created.user_id).toBe(caller.id);
          expect((await call(caller, 'GET', '/api/token/')).body.success).toBe(true);
          expect((await call(caller, 'GET', `/api/token/search?keyword=m-${name}`)).body.data).toHaveLength(1);
          expect((await call(caller, 'GET', `/api/token/${created.id}`)).body.data.id).toBe(created.id);
          expect((await call(caller, 'PUT', '/api/token/', { ...created, name: `n-${name}` })).body.data.name).toBe(`n-${name}`);
          expect((await call(caller, 'DELETE', `/api/token/${created.id}`)).body).toEqual({ success: true, message: '' });
        }
      });
    });

    describe('POST /api/token/', () => {
      it('creates a token with a 48-char one-api key and returns the full Token object', async () => {
        const reply = await call(callers.alice, 'POST', '/api/token/', {
          name: 'first', remain_quota: 500000, expired_time: 1_900_000_000, unlimited_quota: false,
          models: 'gpt-4o,gpt-4o-mini', subnet: '10.0.0.0/8, 192.168.1.0/24,::1/128',
          // ignored by the server:
          id: 999, user_id: 12345, key: 'chosen', status: 2, used_quota: 77, created_time: 5, extra: 'x',
        });
        expect(reply.status).toBe(200);
        expect(reply.body.success).toBe(true);
        expect(reply.body.message).toBe('');
        const data = reply.body.data;
        expect(Object.keys(data).sort()).toEqual(tokenFields);
        expect(data).toMatchObject({
          user_id: callers.alice.id, status: 1, name: 'first', created_time: nowSeconds, accessed_time: nowSeconds,
          expired_time: 1_900_000_000, remain_quota: 500000, unlimited_quota: false, used_quota: 0,
          models: 'gpt-4o,gpt-4o-mini', subnet: '10.0.0.0/8, 192.168.1.0/24,::1/128',
        });
        expect(data.id).not.toBe(999);
        expect(data.key).toMatch(/^[0-9a-zA-Z]{16}[0-9A-F][0-9a-f]([0-9A-F][0-9a-f]){15}$/);
        const row = await db().selectFrom('tokens').selectAll().where('id', '=', data.id).executeTakeFirstOrThrow();
        expect(row.key?.trimEnd()).toBe(data.key);
        expect(row.user_id).toBe(callers.alice.id);
      });

      it('fills one-api defaults: empty name allowed, expired_time 0 → -1, subnet "", models null, status 1', async () => {
        const data = await createVia(callers.alice, {});
        expect(data).toMatchObject({ name: '', expired_time: -1, remain_quota: 0, unlimited_quota: false, models: null, subnet: '', status: 1 });
        const nulls = await createVia(callers.alice, { name: null, models: null, subnet: null, expired_time: null });
        expect(nulls).toMatchObject({ name: '', models: null, subnet: '', expired_time: -1 });
      });

      it('accepts past expiry, 30-byte names; refuses 31 bytes (UTF-8) (a negative quota: numeric-ranges.test.ts)', async () => {
        const past = await createVia(callers.alice, { name: '一二三四五六七八九十', expired_time: 5, remain_quota: 3 });
        expect(past).toMatchObject({ name: '一二三四五六七八九十', expired_time: 5, remain_quota: 3 });
        expect((await createVia(callers.alice, { name: 'a'.repeat(30) })).name).toBe('a'.repeat(30));
        const before = await dumpDatabase(db());
        for (const name of ['a'.repeat(31), '一二三四五六七八九十a', 'é'.repeat(16)]) {
          expect((await call(callers.alice, 'POST', '/api/token/', { name })).body).toEqual({ success: false, message: nameTooLong });
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('validates every subnet entry as a CIDR with one-api’s message', async () => {
        const before = await dumpDatabase(db());
        const cases: ReadonlyArray<readonly [string, string]> = [
          ['10.0.0.1', '10.0.0.1'],
          ['10.0.0.0/8, bad', 'bad'],
          ['10.0.0.0/33', '10.0.0.0/33'],
          ['10.0.0.0/8,,', ''],
          ['::1/129', '::1/129'],
          ['010.0.0.0/8', '010.0.0.0/8'],
        ];
        for (const [subnet, entry] of cases) {
          const reply = await call(callers.alice, 'POST', '/api/token/', { name: 'net', subnet });
          expect(reply.body).toEqual({
            success: false,
            message: `参数错误：无效的网段：failed to parse subnet: invalid CIDR address: ${entry}`,
          });
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('refuses malformed bodies with the envelope, never a 500, and leaves the database unchanged', async () => {
        const before = await dumpDatabase(db());
        const bodies: ReadonlyArray<string> = [
          'not json',
          '',
          '[]',
          '"name"',
          JSON.stringify({ name: 5 }),
          JSON.stringify({ remain_quota: '100' }),
          JSON.stringify({ remain_quota: 1.5 }),
          JSON.stringify({ expired_time: 1e300 }),
          JSON.stringify({ unlimited_quota: 'true' }),
          JSON.stringify({ models: ['a'] }),
          JSON.stringify({ subnet: 1 }),
          JSON.stringify({ name: 'nul\u0000byte' }),
        ];
        for (const rawBody of bodies) {
          const reply = await call(callers.alice, 'POST', '/api/token/', undefined, rawBody);
          expect(reply.status, rawBody).toBe(200);
          expect(reply.body.success, rawBody).toBe(false);
          expect(typeof reply.body.message).toBe('string');
          expect(reply.body.message).not.toBe('');
        }
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('answers with Go’s decoder messages; binds keys case-insensitively; a null body is an empty token', async () => {
        const before = await dumpDatabase(db());
        const cases: ReadonlyArray<readonly [string, string]> = [
          ['', 'EOF'],
          ['  ', 'EOF'],
          ['[]', 'json: cannot unmarshal array into Go value of type model.Token'],
          ['5', 'json: cannot unmarshal number into Go value of type model.Token'],
          [JSON.stringify({ remain_quota: '100' }), 'json: cannot unmarshal string into Go struct field Token.remain_quota of type int64'],
          [JSON.stringify({ remain_quota: 1.5 }), 'json: cannot unmarshal number 1.5 into Go struct field Token.remain_quota of type int64'],
          [JSON.stringify({ name: 'ok', key: 5 }), 'json: cannot unmarshal number into Go struct field Token.key of type string'],
          [JSON.stringify({ unlimited_quota: 1 }), 'json: cannot unmarshal number into Go struct field Token.unlimited_quota of type bool'],
          [JSON.stringify({ models: {} }), 'json: cannot unmarshal object into Go struct field Token.models of type string'],
          [JSON.stringify({ id: true }), 'json: cannot unmarshal bool into Go struct field Token.id of type int'],
        ];
        for (const [rawBody, message] of cases) {
          expect((await call(callers.alice, 'POST', '/api/token/', undefined, rawBody)).body, rawBody).toEqual({ success: false, message });
        }
        expect(await dumpDatabase(db())).toBe(before);
        const folded = await createVia(callers.alice, { NAME: 'folded', Remain_Quota: 9 });
        expect(folded).toMatchObject({ name: 'folded', remain_quota: 9 });
        const empty = await call(callers.alice, 'POST', '/api/token/', undefined, 'null');
        expect(empty.body.data).toMatchObject({ name: '', expired_time: -1, remain_quota: 0, models: null, subnet: '' });
      });

      it('stores SQL and script payloads verbatim', async () => {
        const name = "x'); DROP TABLE tokens;--";
        const models = '<script>alert(1)</script>';
        const data = await createVia(callers.alice, { name, models });
        const row = await db().selectFrom('tokens').selectAll().where('id', '=', data.id).executeTakeFirstOrThrow();
        expect([row.name, row.models]).toEqual([name, models]);
        expect((await call(callers.alice, 'GET', `/api/token/${data.id}`)).body.data.name).toBe(name);
      });
    });

    describe('listing, search, get', () => {
      let carol: Caller;
      const ids: number[] = [];

      beforeAll(async () => {
        const id = await insertUser(db(), { username: 'carol', accessToken: 'carol-access-token-0000000000000' });
        carol = { id, client: suite.client(), headers: { Authorization: 'carol-access-token-0000000000000' } };
        for (let i = 0; i < 12; i += 1) {
          ids.push(await insertToken(id, {
            name: i % 2 === 0 ? `even-${i}` : `odd-${i}`,
            remain_quota: (i * 7) % 5,
            used_quota: (i * 3) % 11,
            unlimited_quota: i === 4,
          }));
        }
        await insertToken(callers.bob.id, { name: 'even-bob' });
      });

      it('pages the caller’s tokens by id desc, 10 per page, bare arrays; bad p → page 0', async () => {
        const page0 = await call(carol, 'GET', '/api/token/?p=0');
        expect(page0.body.success).toBe(true);
        expect(page0.body.data.map((t: { id: number }) => t.id)).toEqual([...ids].reverse().slice(0, 10));
        for (const row of page0.body.data) expect(Object.keys(row).sort()).toEqual(tokenFields);
        const page1 = await call(carol, 'GET', '/api/token?p=1');
        expect(page1.body.data.map((t: { id: number }) => t.id)).toEqual([ids[1], ids[0]]);
        expect((await call(carol, 'GET', '/api/token/?p=2')).body.data).toEqual([]);
        for (const p of ['-1', 'abc', '']) {
          expect((await call(carol, 'GET', `/api/token/?p=${p}`)).body.data).toEqual(page0.body.data);
        }
      });

      it('orders by remain_quota (unlimited first) and used_quota; unknown order → id desc', async () => {
        const all = async (order: string) => {
          const out: Array<Record<string, number | boolean>> = [];
          for (let p = 0; p < 2; p += 1) out.push(...(await call(carol, 'GET', `/api/token/?p=${p}&order=${order}`)).body.data);
          return out;
        };
        const byRemain = await all('remain_quota');
        expect(byRemain[0]!.unlimited_quota).toBe(true);
        const limited = byRemain.slice(1).map((t) => t.remain_quota as number);
        expect(limited).toEqual([...limited].sort((a, b) => b - a));
        const used = (await all('used_quota')).map((t) => t.used_quota as number);
        expect(used).toEqual([...used].sort((a, b) => b - a));
        expect((await all('bogus')).map((t) => t.id)).toEqual([...ids].reverse());
      });

      it('admins and root see only their own tokens', async () => {
        for (const caller of [callers.admin, callers.root]) {
          const data = (await call(caller, 'GET', '/api/token/')).body.data as Array<{ user_id: number }>;
          for (const row of data) expect(row.user_id).toBe(caller.id);
          expect((await call(caller, 'GET', '/api/token/search?keyword=even')).body.data).toEqual([]);
        }
      });

      it('searches own tokens by name prefix, unpaginated; empty keyword → all own', async () => {
        const even = await call(carol, 'GET', '/api/token/search?keyword=even');
        expect(even.body.success).toBe(true);
        expect(even.body.data.map((t: { name: string }) => t.name).sort()).toEqual(
          ['even-0', 'even-10', 'even-2', 'even-4', 'even-6', 'even-8'],
        );
        expect((await call(carol, 'GET', '/api/token/search?keyword=ven')).body.data).toEqual([]);
        expect((await call(carol, 'GET', '/api/token/search/?keyword=')).body.data).toHaveLength(12);
        expect((await call(carol, 'GET', '/api/token/search')).body.data).toHaveLength(12);
        expect((await call(carol, 'GET', `/api/token/search?keyword=${encodeURIComponent("' OR 1=1 --")}`)).body.data).toEqual([]);
        expect((await call(carol, 'GET', '/api/token/search?keyword=%00')).body).toEqual({ success: true, message: '', data: [] });
      });

      it('gets one own token; another user’s id → record not found; bad ids → one-api messages', async () => {
        const own = await call(carol, 'GET', `/api/token/${ids[3]}`);
        expect(own.body.success).toBe(true);
        expect(Object.keys(own.body.data).sort()).toEqual(tokenFields);
        expect(own.body.data).toMatchObject({ id: ids[3], user_id: carol.id, name: 'odd-3' });
        expect((await call(carol, 'GET', `/api/token/${ids[3]}/`)).body.data.id).toBe(ids[3]);
        expect((await call(callers.bob, 'GET', `/api/token/${ids[3]}`)).body).toEqual({ success: false, message: notFound });
        expect((await call(callers.root, 'GET', `/api/token/${ids[3]}`)).body).toEqual({ success: false, message: notFound });
        expect((await call(carol, 'GET', '/api/token/0')).body).toEqual({ success: false, message: idRequired });
        expect((await call(carol, 'GET', '/api/token/abc')).body).toEqual({
          success: false, message: 'strconv.Atoi: parsing "abc": invalid syntax',
        });
        expect((await call(carol, 'GET', '/api/token/99999999999999999999')).body).toEqual({
          success: false, message: 'strconv.Atoi: parsing "99999999999999999999": value out of range',
        });
      });

      it('serialises null models of old rows as null', async () => {
        const id = await insertToken(carol.id, { name: 'legacy', models: null });
        expect((await call(carol, 'GET', `/api/token/${id}`)).body.data.models).toBeNull();
        await db().deleteFrom('tokens').where('id', '=', id).execute();
      });
    });

    describe('PUT /api/token/', () => {
      it('full update overwrites the six fields (omitted → zero/null) and keeps status', async () => {
        const created = await createVia(callers.alice, { name: 'edit-me', remain_quota: 10, models: 'a', subnet: '1.2.3.0/24', unlimited_quota: true });
        await db().updateTable('tokens').set({ status: 2, used_quota: 9 }).where('id', '=', created.id).execute();
        const reply = await call(callers.alice, 'PUT', '/api/token/', { id: created.id, name: 'edited', status: 2, key: 'zzz', used_quota: 0 });
        expect(reply.body.success).toBe(true);
        expect(Object.keys(reply.body.data).sort()).toEqual(tokenFields);
        expect(reply.body.data).toMatchObject({
          id: created.id, key: created.key, name: 'edited', status: 2, expired_time: 0, remain_quota: 0,
          unlimited_quota: false, models: null, subnet: null, used_quota: 9,
        });
        const row = await db().selectFrom('tokens').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
        expect(row).toMatchObject({ name: 'edited', status: 2, models: null, subnet: null, expired_time: 0 });
        const full = await call(callers.alice, 'PUT', '/api/token', {
          id: created.id, name: 'again', expired_time: 123, remain_quota: 77, unlimited_quota: true, models: 'm', subnet: '',
        });
        expect(full.body.data).toMatchObject({ name: 'again', expired_time: 123, remain_quota: 77, unlimited_quota: true, models: 'm', subnet: '', status: 2 });
      });

      it('status_only replaces only the status (1 to 4)', async () => {
        const created = await createVia(callers.alice, { name: 'toggle', remain_quota: 3 });
        const off = await call(callers.alice, 'PUT', '/api/token/?status_only=true', { id: created.id, status: 2, name: 'ignored' });
        expect(off.body.data).toMatchObject({ status: 2, name: 'toggle', remain_quota: 3 });
        const on = await call(callers.alice, 'PUT', '/api/token/?status_only=1', { id: created.id, status: 1 });
        expect(on.body.data.status).toBe(1);
        const odd = await call(callers.alice, 'PUT', '/api/token/?status_only=true', { id: created.id, status: 7 });
        expect(odd.body).toEqual({ success: false, message: 'status 必须在 1 到 4 之间' });
        await call(callers.alice, 'PUT', '/api/token/?status_only=true', { id: created.id, status: 2 });
        const empty = await call(callers.alice, 'PUT', '/api/token/?status_only=', { id: created.id, status: 1, name: 'full' });
        expect(empty.body.data).toMatchObject({ status: 2, name: 'full' });
      });

      it('refuses re-enabling an expired or exhausted token (stored state), in either mode', async () => {
        const expired = await insertToken(callers.alice.id, { status: 3, expired_time: nowSeconds - 10 });
        const exhausted = await insertToken(callers.alice.id, { status: 4, remain_quota: 0 });
        const before = await dumpDatabase(db());
        for (const query of ['?status_only=true', '']) {
          expect((await call(callers.alice, 'PUT', `/api/token/${query}`, { id: expired, status: 1, expired_time: -1 })).body)
            .toEqual({ success: false, message: expiredMessage });
          expect((await call(callers.alice, 'PUT', `/api/token/${query}`, { id: exhausted, status: 1, remain_quota: 100 })).body)
            .toEqual({ success: false, message: exhaustedMessage });
        }
        expect(await dumpDatabase(db())).toBe(before);
        // the console's way: save the new expiry / quota first (no status in body), then enable
        await call(callers.alice, 'PUT', '/api/token/', { id: expired, name: 'seeded', expired_time: -1 });
        expect((await call(callers.alice, 'PUT', '/api/token/?status_only=true', { id: expired, status: 1 })).body.data.status).toBe(1);
        await call(callers.alice, 'PUT', '/api/token/', { id: exhausted, name: 'seeded', remain_quota: 5 });
        expect((await call(callers.alice, 'PUT', '/api/token/?status_only=true', { id: exhausted, status: 1 })).body.data.status).toBe(1);
      });

      it('allows enabling: a disabled token past expiry, an expired token with a future expiry, an exhausted unlimited token', async () => {
        const disabled = await insertToken(callers.alice.id, { status: 2, expired_time: nowSeconds - 10 });
        const future = await insertToken(callers.alice.id, { status: 3, expired_time: nowSeconds + 100 });
        const unlimited = await insertToken(callers.alice.id, { status: 4, remain_quota: 0, unlimited_quota: true });
        for (const id of [disabled, future, unlimited]) {
          expect((await call(callers.alice, 'PUT', '/api/token/?status_only=true', { id, status: 1 })).body.data.status).toBe(1);
        }
      });

      it('runs name/subnet checks first, then id and ownership checks; database unchanged', async () => {
        const created = await createVia(callers.alice, { name: 'mine' });
        const before = await dumpDatabase(db());
        const expectFail = async (caller: Caller, path: string, body: unknown, message: string) =>
          expect((await call(caller, 'PUT', path, body)).body).toEqual({ success: false, message });
        await expectFail(callers.alice, '/api/token/?status_only=true', { id: created.id, status: 2, name: 'x'.repeat(31) }, nameTooLong);
        await expectFail(callers.alice, '/api/token/', { id: 0, name: 'x'.repeat(31) }, nameTooLong);
        await expectFail(callers.alice, '/api/token/', { id: created.id, subnet: 'nope' }, '参数错误：无效的网段：failed to parse subnet: invalid CIDR address: nope');
        await expectFail(callers.alice, '/api/token/', { name: 'x' }, idRequired);
        await expectFail(callers.alice, '/api/token/', { id: 0, name: 'x' }, idRequired);
        await expectFail(callers.bob, '/api/token/', { id: created.id, name: 'stolen' }, notFound);
        await expectFail(callers.root, '/api/token/?status_only=true', { id: created.id, status: 2 }, notFound);
        await expectFail(callers.alice, '/api/token/', { id: 99_999_999, name: 'x' }, notFound);
        for (const rawBody of ['{', '[1]', JSON.stringify({ id: '1' }), JSON.stringify({ id: created.id, status: '1' }), JSON.stringify({ id: 1.5 })]) {
          const reply = await call(callers.alice, 'PUT', '/api/token/', undefined, rawBody);
          expect([reply.status, reply.body.success], rawBody).toEqual([200, false]);
        }
        expect(await dumpDatabase(db())).toBe(before);
      });
    });

    describe('DELETE /api/token/:id', () => {
      it('hard-deletes an own token; others’ → record not found; 0 or non-numeric → id 或 userId 为空！', async () => {
        const created = await createVia(callers.alice, { name: 'doomed' });
        const before = await dumpDatabase(db());
        for (const [caller, path, message] of [
          [callers.bob, `/api/token/${created.id}`, notFound],
          [callers.admin, `/api/token/${created.id}`, notFound],
          [callers.alice, '/api/token/0', idRequired],
          [callers.alice, '/api/token/abc', idRequired],
          [callers.alice, '/api/token/99999999', notFound],
        ] as const) {
          expect((await call(caller, 'DELETE', path)).body).toEqual({ success: false, message });
        }
        expect(await dumpDatabase(db())).toBe(before);
        expect((await call(callers.alice, 'DELETE', `/api/token/${created.id}/`)).body).toEqual({ success: true, message: '' });
        expect(await db().selectFrom('tokens').selectAll().where('id', '=', created.id).executeTakeFirst()).toBeUndefined();
        expect((await call(callers.alice, 'DELETE', `/api/token/${created.id}`)).body).toEqual({ success: false, message: notFound });
      });
    });

    it('unknown paths under /api/token are 404 before any guard', async () => {
      const reply = await call(anonymous(), 'GET', '/api/token/1/extra');
      expect(reply.status).toBe(404);
      expect(reply.body.error.message).toBe('Invalid URL (GET /api/token/1/extra)');
    });
  });
}
