import { beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from './support/db';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Redeeming under concurrency (contract §2.4.6, conventions §6): a code credits exactly once,
 * and parallel credits to one user are never lost.
 */

const keyUsed = '兑换失败，该兑换码已被使用';
const parallel = 100;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`POST /api/user/topup under concurrency — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    const tokenOf = (i: number) => `concurrent-user-${String(i).padStart(3, '0')}`.padEnd(32, '0');
    const userIds: number[] = [];

    /** Inserts `count` unused codes of `quota` each; returns their keys. */
    const insertCodes = async (prefix: string, count: number, quota: (i: number) => number): Promise<string[]> => {
      const keys = Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`.padEnd(32, 'c'));
      await db()
        .insertInto('redemptions')
        .values(keys.map((key, i) => ({ user_id: 1, key, status: 1, name: prefix, quota: quota(i), created_time: 1, redeemed_time: 0 })))
        .execute();
      return keys;
    };

    /** POSTs a top-up as the user with access token `token`. */
    const topUp = (token: string, key: string) =>
      suite.client().request('POST', '/api/user/topup', { headers: { Authorization: token }, body: { key } });

    const quotas = async (ids: readonly number[]) =>
      new Map((await db().selectFrom('users').select(['id', 'quota']).where('id', 'in', [...ids]).execute()).map((r) => [r.id, r.quota]));

    beforeAll(async () => {
      for (let i = 0; i < parallel; i += 1) userIds.push(await insertUser(db(), { username: `cu${i}`, accessToken: tokenOf(i) }));
    });

    it('100 users redeeming ONE code in parallel: exactly one success, quota credited once, 99 one-api failures', async () => {
      const [key] = await insertCodes('single', 1, () => 4321);
      const replies = await Promise.all(userIds.map((_, i) => topUp(tokenOf(i), key!)));
      const winners = replies.flatMap((reply, i) => (reply.body.success === true ? [i] : []));
      expect(winners).toHaveLength(1);
      expect(replies[winners[0]!]!.body).toEqual({ success: true, message: '', data: 4321 });
      for (const reply of replies) {
        expect(reply.status).toBe(200);
        if (reply.body.success !== true) expect(reply.body).toEqual({ success: false, message: keyUsed });
      }
      const after = await quotas(userIds);
      const winnerId = userIds[winners[0]!]!;
      for (const id of userIds) expect(after.get(id)).toBe(id === winnerId ? 4321 : 0);
      const code = await db().selectFrom('redemptions').selectAll().where('key', '=', key!).executeTakeFirstOrThrow();
      expect(code.status).toBe(3);
      const logs = await db().selectFrom('logs').selectAll().where('type', '=', 1).where('content', 'like', '通过兑换码充值%').execute();
      expect(logs.map((l) => l.user_id)).toEqual([winnerId]);
    });

    it('one user redeeming 100 different codes in parallel: all succeed, quota = the sum', async () => {
      const keys = await insertCodes('many', parallel, (i) => 1000 + i);
      const userId = userIds[0]!;
      const start = (await quotas([userId])).get(userId)!;
      const replies = await Promise.all(keys.map((key) => topUp(tokenOf(0), key)));
      for (const [i, reply] of replies.entries()) expect(reply.body).toEqual({ success: true, message: '', data: 1000 + i });
      const sum = keys.reduce((total, _, i) => total + 1000 + i, 0);
      expect((await quotas([userId])).get(userId)).toBe(start + sum);
      const used = await db().selectFrom('redemptions').select('status').where('name', '=', 'many').execute();
      expect(used.every((r) => r.status === 3)).toBe(true);
      const logs = await db().selectFrom('logs').select('id').where('user_id', '=', userId).where('type', '=', 1).execute();
      expect(logs.length).toBeGreaterThanOrEqual(parallel);
    });

    it('one user sending the SAME code 100 times in parallel is credited once', async () => {
      const [key] = await insertCodes('repeat', 1, () => 77);
      const userId = userIds[1]!;
      const start = (await quotas([userId])).get(userId)!;
      const replies = await Promise.all(Array.from({ length: parallel }, () => topUp(tokenOf(1), key!)));
      expect(replies.filter((r) => r.body.success === true)).toHaveLength(1);
      expect(replies.filter((r) => r.body.message === keyUsed)).toHaveLength(parallel - 1);
      expect((await quotas([userId])).get(userId)).toBe(start + 77);
    });
  });
}
