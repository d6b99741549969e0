import { beforeAll, describe, expect, it } from 'vitest';
import { dumpDatabase, insertUser, setOption } from './support/db';
import type { Client, RequestOptions } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * `POST /api/topup` (contract §2.6, guard Admin): quota added in one transaction with its top-up
 * log; every refused body leaves the database byte for byte unchanged; parallel top-ups all land.
 */

const notLoggedIn = '无权进行此操作，未登录且未提供 access token';
const forbidden = '无权进行此操作，权限不足';
const negative = 'quota 不能为负数！';
const userNotFound = '用户不存在';

const nowMs = 1_765_000_000_250;
const nowSeconds = 1_765_000_000;

const adminToken = 'ad000000000000000000000000000001';
const commonToken = 'c0000000000000000000000000000002';

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`POST /api/topup — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => nowMs });
    const db = () => suite.api.handle.db;
    let root: Client;
    let customerId: number;
    let adminId: number;

    /** POSTs a top-up with the admin's access token. */
    const topUp = (body: unknown, options: RequestOptions = {}) =>
      suite.client().request('POST', '/api/topup', { body, ...options, headers: { Authorization: `Bearer ${adminToken}`, ...options.headers } });

    const quotaOf = async (id: number) => (await db().selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota;
    const lastLog = () => db().selectFrom('logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

    beforeAll(async () => {
      adminId = await insertUser(db(), { username: 'payadmin', role: 10, accessToken: adminToken });
      await insertUser(db(), { username: 'plain', role: 1, accessToken: commonToken });
      customerId = await insertUser(db(), { username: 'customer' });
      root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
    });

    it('adds the quota and writes a type-1 log with the remark, the amount and the request id (admin access token)', async () => {
      const before = await quotaOf(customerId);
      const reply = await topUp({ user_id: customerId, quota: 123456, remark: 'order #42 paid' });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ success: true, message: '' });
      expect(await quotaOf(customerId)).toBe(before + 123456);
      expect(await lastLog()).toMatchObject({
        user_id: customerId, created_at: nowSeconds, type: 1, content: 'order #42 paid', username: 'customer',
        token_name: '', model_name: '', quota: 123456, prompt_tokens: 0, completion_tokens: 0, channel_id: 0,
        request_id: reply.headers.get('X-Oneapi-Request-Id'),
      });
    });

    it('writes "通过 API 充值 <LogQuota>" when the remark is empty, in points or in currency', async () => {
      await setOption(db(), 'DisplayInCurrencyEnabled', 'false');
      expect((await topUp({ user_id: customerId, quota: 500000 })).body).toEqual({ success: true, message: '' });
      expect((await lastLog()).content).toBe('通过 API 充值 500000 点额度');
      await setOption(db(), 'DisplayInCurrencyEnabled', 'true');
      await setOption(db(), 'QuotaPerUnit', '500000');
      expect((await topUp({ user_id: customerId, quota: 750000, remark: null })).body).toEqual({ success: true, message: '' });
      expect((await lastLog()).content).toBe('通过 API 充值 ＄1.500000 额度');
    });

    it('works from a root session and with the trailing-slash spelling; a zero quota is accepted as in one-api', async () => {
      const before = await quotaOf(customerId);
      expect((await root.post('/api/topup/', { user_id: customerId, quota: 7, remark: 'slash' })).body).toEqual({ success: true, message: '' });
      expect((await root.post('/api/topup', { user_id: customerId, quota: 0, remark: 'nothing' })).body).toEqual({ success: true, message: '' });
      expect(await quotaOf(customerId)).toBe(before + 7);
      expect(await lastLog()).toMatchObject({ content: 'nothing', quota: 0, user_id: customerId });
    });

    it('refuses callers below Admin before reading the body', async () => {
      const before = await dumpDatabase(db());
      const anonymous = await suite.client().post('/api/topup', { user_id: customerId, quota: 1 });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ success: false, message: notLoggedIn });
      const common = await topUp({ user_id: customerId, quota: 1 }, { headers: { Authorization: commonToken } });
      expect(common.body).toEqual({ success: false, message: forbidden });
      expect(await dumpDatabase(db())).toBe(before);
    });

    const badBodies: ReadonlyArray<readonly [title: string, body: RequestOptions, message: string]> = [
      ['quota missing', { body: { user_id: 1, remark: 'x' } }, 'invalid parameter'],
      ['quota null', { body: { user_id: 1, quota: null } }, 'invalid parameter'],
      ['quota negative', { body: { user_id: 1, quota: -1 } }, negative],
      ['quota very negative', { body: { user_id: 1, quota: -9007199254740991 } }, negative],
      ['quota not an integer', { body: { user_id: 1, quota: 1.5 } }, 'json: cannot unmarshal number 1.5 into Go struct field adminTopUpRequest.quota of type int'],
      ['quota a string', { body: { user_id: 1, quota: '100' } }, 'json: cannot unmarshal string into Go struct field adminTopUpRequest.quota of type int'],
      ['quota beyond an integer', { body: { user_id: 1, quota: 1e300 } }, 'json: cannot unmarshal number 1e+300 into Go struct field adminTopUpRequest.quota of type int'],
      ['user_id unknown', { body: { user_id: 999999, quota: 10 } }, userNotFound],
      ['user_id missing', { body: { quota: 10 } }, userNotFound],
      ['user_id a string', { body: { user_id: '1', quota: 10 } }, 'json: cannot unmarshal string into Go struct field adminTopUpRequest.user_id of type int'],
      ['remark not a string', { body: { user_id: 1, quota: 10, remark: 5 } }, 'json: cannot unmarshal number into Go struct field adminTopUpRequest.remark of type string'],
      ['remark holding NUL', { body: { user_id: 1, quota: 10, remark: 'a\u0000b' } }, 'invalid byte sequence for encoding "UTF8": 0x00'],
      ['empty body', { rawBody: '' }, 'EOF'],
      ['an array', { body: [1, 2] }, 'json: cannot unmarshal array into Go value of type controller.adminTopUpRequest'],
      ['not JSON', { rawBody: '{"user_id":1,' }, ''],
    ];

    for (const [title, options, message] of badBodies) {
      it(`refuses a body with ${title}, leaving the database unchanged`, async () => {
        const before = await dumpDatabase(db());
        const reply = await topUp(undefined, options);
        expect(reply.status).toBe(200);
        expect(reply.body.success).toBe(false);
        if (message === '') expect(reply.body.message).not.toBe('');
        else expect(reply.body).toEqual({ success: false, message });
        expect(await dumpDatabase(db())).toBe(before);
      });
    }

    it('refuses a top-up that would take the total beyond a safe integer, leaving the database unchanged', async () => {
      const rich = await insertUser(db(), { username: 'rich' });
      await db().updateTable('users').set({ quota: Number.MAX_SAFE_INTEGER - 5 }).where('id', '=', rich).execute();
      const before = await dumpDatabase(db());
      expect((await topUp({ user_id: rich, quota: 6 })).body).toEqual({ success: false, message: 'invalid parameter' });
      expect(await dumpDatabase(db())).toBe(before);
      expect((await topUp({ user_id: rich, quota: 5 })).body).toEqual({ success: true, message: '' });
      expect(await quotaOf(rich)).toBe(Number.MAX_SAFE_INTEGER);
    });

    it('lands all of 50 parallel top-ups to one user: quota = start + sum, one log each', async () => {
      const target = await insertUser(db(), { username: 'parallel' });
      await db().updateTable('users').set({ quota: 1000 }).where('id', '=', target).execute();
      const amounts = Array.from({ length: 50 }, (_, i) => 10_000 + i);
      const replies = await Promise.all(amounts.map((quota, i) => topUp({ user_id: target, quota, remark: `p${i}` })));
      for (const reply of replies) expect(reply.body).toEqual({ success: true, message: '' });
      expect(await quotaOf(target)).toBe(1000 + amounts.reduce((a, b) => a + b, 0));
      const logs = await db().selectFrom('logs').select(['content', 'quota']).where('user_id', '=', target).where('type', '=', 1).execute();
      expect(logs.map((l) => l.content).sort()).toEqual(amounts.map((_, i) => `p${i}`).sort());
      expect(logs.reduce((sum, l) => sum + l.quota, 0)).toBe(amounts.reduce((a, b) => a + b, 0));
      expect(await quotaOf(adminId)).toBe(0);
    });
  });
}
