import { beforeAll, describe, expect, it } from 'vitest';
import { dumpDatabase, insertToken, insertUser } from './support/db';
import type { Reply } from './support/http';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Numbers that make no sense are refused by name, in the caller's language, and change nothing
 * (issue 18 §4): redemption codes, tokens, user quota, the API top-up, every numeric option, and
 * redeeming a code stored with a bad quota before the rules existed.
 */

const nowMs = 1_765_000_000_250;
const rootToken = 'f0000000000000000000000000000001';
const userToken = 'f0000000000000000000000000000002';
const zh = { 'Accept-Language': 'zh-CN,zh;q=0.9' };
/** Without a header the messages are Chinese (one-api's language); most cases read them in English. */
const en = { 'Accept-Language': 'en' };

/** Values no quota, count or time may take (as raw JSON text). */
const notIntegers = ['1.5', '1.0', '1e3', '4503599627370496.5', '1e400', '-1e400'];

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`numeric ranges — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => nowMs });
    const db = () => suite.api.handle.db;
    let userId: number;

    const send = (token: string, method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
      suite.client().request(method, path, {
        ...(typeof body === 'string' ? { rawBody: body } : { body }),
        headers: { Authorization: `Bearer ${token}`, ...en, ...headers },
      });
    const asRoot = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => send(rootToken, method, path, body, headers);
    const asUser = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => send(userToken, method, path, body, headers);

    /** Sends `attempt`, expects the refusal `message`, and that the database did not change. */
    const refused = async (attempt: () => Promise<Reply>, message: string | RegExp): Promise<void> => {
      const before = await dumpDatabase(db());
      const reply = await attempt();
      expect(reply.status).toBe(200);
      expect(reply.body.success, reply.text).toBe(false);
      if (typeof message === 'string') expect(reply.body.message).toBe(message);
      else expect(reply.body.message).toMatch(message);
      expect(await dumpDatabase(db())).toBe(before);
    };

    beforeAll(async () => {
      await insertUser(db(), { username: 'ranger', role: 100, accessToken: rootToken });
      userId = await insertUser(db(), { username: 'spender', accessToken: userToken });
    });

    describe('redemption codes', () => {
      it('a negative, too large or fractional quota is refused on create, named, in zh or en', async () => {
        await refused(() => asRoot('POST', '/api/redemption/', { name: 'bad', quota: -100, count: 1 }, zh), 'quota 必须在 0 到 1000000000000000 之间');
        await refused(() => asRoot('POST', '/api/redemption/', { name: 'bad', quota: -100, count: 1 }), 'quota must be between 0 and 1000000000000000');
        await refused(() => asRoot('POST', '/api/redemption/', { name: 'bad', quota: 1e15 + 1, count: 1 }), 'quota must be between 0 and 1000000000000000');
        for (const raw of notIntegers) {
          await refused(() => asRoot('POST', '/api/redemption/', `{"name":"bad","count":1,"quota":${raw}}`), /^json: cannot unmarshal number .* into Go struct field Redemption\.quota of type int64$/);
        }
        await refused(() => asRoot('POST', '/api/redemption/', '{"name":"bad","count":1.0,"quota":5}'), 'json: cannot unmarshal number 1.0 into Go struct field Redemption.count of type int');
      });

      it('count stays within 1..100 as one-api', async () => {
        await refused(() => asRoot('POST', '/api/redemption/', { name: 'bad', quota: 5, count: 0 }), '兑换码个数必须大于0');
        await refused(() => asRoot('POST', '/api/redemption/', { name: 'bad', quota: 5, count: 101 }), '一次兑换码批量生成的个数不能大于 100');
      });

      it('an update to a quota of 0 or less, or to an unknown status, is refused', async () => {
        const created = await asRoot('POST', '/api/redemption/', { name: 'good', quota: 7, count: 1 });
        expect(created.body.success).toBe(true);
        const id = (await db().selectFrom('redemptions').select('id').where('name', '=', 'good').executeTakeFirstOrThrow()).id;
        await refused(() => asRoot('PUT', '/api/redemption/', { id, name: 'good', quota: -5 }), 'quota must be between 1 and 1000000000000000');
        await refused(() => asRoot('PUT', '/api/redemption/', { id, name: 'good', quota: 0 }), 'quota must be between 1 and 1000000000000000');
        await refused(() => asRoot('PUT', '/api/redemption/?status_only=true', { id, status: 9 }), 'status must be between 1 and 3');
        expect((await asRoot('PUT', '/api/redemption/', { id, name: 'good', quota: 8 })).body.success).toBe(true);
      });

      it('a code stored with a negative quota (before these rules) takes nothing when redeemed', async () => {
        await db()
          .insertInto('redemptions')
          .values({ user_id: 1, key: 'a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0', status: 1, name: 'old', quota: -100, created_time: 1, redeemed_time: 0 })
          .execute();
        await refused(() => asUser('POST', '/api/user/topup', { key: 'a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0' }), '兑换失败，该兑换码的额度无效');
      });

      it('redeeming past the largest safe balance is refused and the code stays unused', async () => {
        const rich = await insertUser(db(), { username: 'rich', accessToken: 'f0000000000000000000000000000009' });
        await db().updateTable('users').set({ quota: Number.MAX_SAFE_INTEGER - 10 }).where('id', '=', rich).execute();
        await db()
          .insertInto('redemptions')
          .values({ user_id: 1, key: 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0', status: 1, name: 'big', quota: 100, created_time: 1, redeemed_time: 0 })
          .execute();
        await refused(() => send('f0000000000000000000000000000009', 'POST', '/api/user/topup', { key: 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0' }), '兑换失败，充值后的额度超出上限');
      });
    });

    describe('tokens', () => {
      it('remain_quota below 0 (limited), beyond 10^15 or fractional is refused on create and update', async () => {
        await refused(() => asUser('POST', '/api/token/', { name: 't', remain_quota: -5, expired_time: -1 }), 'remain_quota must be between 0 and 1000000000000000');
        await refused(() => asUser('POST', '/api/token/', { name: 't', remain_quota: -5, expired_time: -1 }, zh), 'remain_quota 必须在 0 到 1000000000000000 之间');
        await refused(() => asUser('POST', '/api/token/', { name: 't', remain_quota: 2e15, expired_time: -1 }), 'remain_quota must be between 0 and 1000000000000000');
        await refused(() => asUser('POST', '/api/token/', '{"name":"t","remain_quota":10.5}'), 'json: cannot unmarshal number 10.5 into Go struct field Token.remain_quota of type int64');
        const { id } = await insertToken(db(), userId, { name: 'mine', remain_quota: 10 });
        await refused(() => asUser('PUT', '/api/token/', { id, name: 'mine', remain_quota: -1, expired_time: -1 }), 'remain_quota must be between 0 and 1000000000000000');
        await refused(() => asUser('PUT', '/api/token/?status_only=true', { id, status: 0 }), 'status must be between 1 and 4');
      });

      it('an unlimited token may keep one-api\'s -1, nothing lower', async () => {
        expect((await asUser('POST', '/api/token/', { name: 'free', remain_quota: -1, unlimited_quota: true })).body.success).toBe(true);
        await refused(() => asUser('POST', '/api/token/', { name: 'free', remain_quota: -2, unlimited_quota: true }), 'remain_quota must be between -1 and 1000000000000000');
      });

      it('expired_time is -1, 0 or a Unix time up to year 9999', async () => {
        const rule = 'expired_time must be -1 (never expires) or a Unix time from 0 to 253402300799';
        for (const bad of [-2, -100, 253402300800, 1e15]) {
          await refused(() => asUser('POST', '/api/token/', { name: 't', remain_quota: 1, expired_time: bad }), rule);
        }
        expect((await asUser('POST', '/api/token/', { name: 'ok', remain_quota: 1, expired_time: 1_900_000_000 })).body.success).toBe(true);
      });
    });

    describe('users and the API top-up', () => {
      it('an admin cannot set a negative, huge or fractional user quota (create or edit)', async () => {
        await refused(() => asRoot('PUT', '/api/user/', { id: userId, quota: -1 }), 'quota must be between 0 and 1000000000000000');
        await refused(() => asRoot('PUT', '/api/user/', { id: userId, quota: -1 }, zh), 'quota 必须在 0 到 1000000000000000 之间');
        await refused(() => asRoot('PUT', '/api/user/', { id: userId, quota: 1e16 }), 'quota must be between 0 and 1000000000000000');
        await refused(() => asRoot('POST', '/api/user/', { username: 'newbie', password: 'password123', quota: -1 }), 'quota must be between 0 and 1000000000000000');
        expect((await asRoot('PUT', '/api/user/', { id: userId, quota: 500 })).body.success).toBe(true);
      });

      it('a top-up past 10^15 or with a fraction is refused (4503599627370496.5 was accepted)', async () => {
        await refused(() => asRoot('POST', '/api/topup', `{"user_id":${userId},"quota":4503599627370496.5}`), 'json: cannot unmarshal number 4503599627370496.5 into Go struct field adminTopUpRequest.quota of type int');
        await refused(() => asRoot('POST', '/api/topup', { user_id: userId, quota: 1e15 + 1 }), 'quota must be between 0 and 1000000000000000');
        await refused(() => asRoot('POST', '/api/topup', { user_id: userId, quota: -1 }), 'quota 不能为负数！');
      });
    });

    describe('options', () => {
      const cases: [key: string, value: string, message: string][] = [
        ['RetryTimes', '-3', 'RetryTimes must be between 0 and 10'],
        ['RetryTimes', '11', 'RetryTimes must be between 0 and 10'],
        ['RetryTimes', '1.5', 'RetryTimes must be an integer'],
        ['RetryTimes', 'abc', 'RetryTimes must be an integer'],
        ['PreConsumedQuota', '-1', 'PreConsumedQuota must be between 0 and 1000000000000000'],
        ['PreConsumedQuota', '1e400', 'PreConsumedQuota must be an integer'],
        ['QuotaForNewUser', '-100', 'QuotaForNewUser must be between 0 and 1000000000000000'],
        ['QuotaForInviter', 'NaN', 'QuotaForInviter must be an integer'],
        ['QuotaForInvitee', 'Infinity', 'QuotaForInvitee must be an integer'],
        ['QuotaRemindThreshold', '-1', 'QuotaRemindThreshold must be between 0 and 1000000000000000'],
        ['SMTPPort', '0', 'SMTPPort must be between 1 and 65535'],
        ['SMTPPort', '70000', 'SMTPPort must be between 1 and 65535'],
        ['ChannelDisableThreshold', '-5', 'ChannelDisableThreshold must be greater than 0 and at most 86400'],
        ['ChannelDisableThreshold', '0', 'ChannelDisableThreshold must be greater than 0 and at most 86400'],
        ['ChannelDisableThreshold', '86401', 'ChannelDisableThreshold must be greater than 0 and at most 86400'],
        ['QuotaForNewUser', '1.5', 'QuotaForNewUser must be an integer'],
        ['QuotaForInviter', '-1', 'QuotaForInviter must be between 0 and 1000000000000000'],
        ['QuotaForInvitee', '-1', 'QuotaForInvitee must be between 0 and 1000000000000000'],
        ['QuotaPerUnit', 'abc', 'QuotaPerUnit must be a number'],
        ['SMTPPort', '-1', 'SMTPPort must be between 1 and 65535'],
        ['ChannelDisableThreshold', 'x', 'ChannelDisableThreshold must be a number'],
        ['QuotaPerUnit', '0', 'QuotaPerUnit must be greater than 0 and at most 1000000000'],
        ['QuotaPerUnit', '-500000', 'QuotaPerUnit must be greater than 0 and at most 1000000000'],
      ];
      it.each(cases)('%s = %s is refused: %s', async (key, value, message) => {
        await refused(() => asRoot('PUT', '/api/option/', { key, value }), message);
      });

      it('in zh, and sensible values still save', async () => {
        await refused(() => asRoot('PUT', '/api/option/', { key: 'RetryTimes', value: '-3' }, zh), 'RetryTimes 必须在 0 到 10 之间');
        await refused(() => asRoot('PUT', '/api/option/', { key: 'ChannelDisableThreshold', value: '0' }, zh), 'ChannelDisableThreshold 必须大于 0 且不大于 86400');
        for (const [key, value] of [['RetryTimes', '3'], ['RetryTimes', '0'], ['RetryTimes', '10'], ['PreConsumedQuota', '0'], ['QuotaForNewUser', '0'], ['QuotaRemindThreshold', '0'], ['ChannelDisableThreshold', '2.5'], ['QuotaPerUnit', '500000'], ['SMTPPort', '465']]) {
          expect((await asRoot('PUT', '/api/option/', { key, value })).body, `${key}=${value}`).toEqual({ success: true, message: '' });
        }
      });
    });
  });
}
