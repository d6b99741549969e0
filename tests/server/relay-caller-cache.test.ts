import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeWatchOf } from '../../server/db/connect';
import { settlementsDone } from '../../server/relay/billing';
import type { Reply } from './support/http';
import { createRelayChannel, createRelayToken, createRelayUser, setRelayOptions, type RelayToken } from './support/relayFixtures';
import { startRelayUpstream, type RelayUpstream } from './support/relayUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * The token, user and channel-tier rows the relay keeps in memory on SQLite (server/relay/
 * callerCache.ts, select.ts; the change marks of server/db/migrations/changeMarks.ts). Every
 * change that decides whether a request may run is honoured by the very next request: a token
 * disabled, deleted, expired, exhausted (its remain at 0) or restricted to other models, a user
 * banned, a channel disabled; written through the query builder, raw SQL, a transaction (rolled
 * back: nothing changes), or another connection to the file (another process, the settlement
 * thread). And what every request writes (balances, accessed time, a channel's used quota) does
 * not drop what is kept, or nothing would stay kept. On PostgreSQL nothing is kept (the same
 * requests pass as the same checks read the rows every time).
 */

const model = 'gpt-3.5-turbo';

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay rows kept in memory — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: RelayUpstream;
    let userId: number;
    let token: RelayToken;
    let channelId: number;

    const chat = (key: string): Promise<Reply> =>
      suite.client().request('POST', '/v1/chat/completions', {
        headers: { Authorization: `Bearer sk-${key}` },
        body: { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 },
      });
    /** Asserts `reply` is `status` (and its message starts with `message`). */
    const expectReply = (reply: Reply, status: number, message?: string): void => {
      expect(reply.status, reply.text).toBe(status);
      if (message !== undefined) expect(String(reply.body?.error?.message)).toMatch(new RegExp(`^${message}`));
    };
    /** Another connection to the SQLite file (as another process, or the settlement thread, writes it). */
    const otherConnection = (run: (other: BetterSqlite3.Database) => void): void => {
      const path = suite.testDb.database.kind === 'sqlite' ? suite.testDb.database.path : '';
      const other = new BetterSqlite3(path, { timeout: 5000 });
      try {
        run(other);
      } finally {
        other.close();
      }
    };

    beforeAll(async () => {
      upstream = await startRelayUpstream();
      await setRelayOptions(db());
      userId = await createRelayUser(db(), { username: 'cacheuser', quota: 10_000_000 });
      token = await createRelayToken(db(), { userId, name: 'cache-token', remainQuota: 1_000_000 });
      channelId = await createRelayChannel(db(), { key: 'cache-channel', baseUrl: upstream.url, models: model });
    });
    afterAll(async () => {
      await upstream.close();
    });

    it('keeps the rows across requests: what every request writes does not drop them (SQLite)', async () => {
      expectReply(await chat(token.key), 200);
      await settlementsDone(db());
      const watch = changeWatchOf(db());
      if (target.kind !== 'sqlite') {
        expect(watch).toBeUndefined();
        return;
      }
      const before = ['tokens', 'users', 'channels'].map((mark) => watch?.generation(mark));
      expect(before.every((g) => g !== undefined)).toBe(true);
      for (let i = 0; i < 3; i += 1) expectReply(await chat(token.key), 200);
      await settlementsDone(db());
      // balances, used quota, request counts, accessed time and the consume logs were written meanwhile
      expect(['tokens', 'users', 'channels'].map((mark) => watch?.generation(mark))).toEqual(before);
    });

    it('a token disabled, then enabled again, through the query builder: refused, then served, at once', async () => {
      expectReply(await chat(token.key), 200);
      await db().updateTable('tokens').set({ status: 2 }).where('id', '=', token.id).execute();
      expectReply(await chat(token.key), 401, '该令牌状态不可用');
      await db().updateTable('tokens').set({ status: 1 }).where('id', '=', token.id).execute();
      expectReply(await chat(token.key), 200);
    });

    it('a token expired, restricted to other models, or exhausted (remain 0): refused at once', async () => {
      expectReply(await chat(token.key), 200);
      await sql`update tokens set expired_time = 1000 where id = ${token.id}`.execute(db());
      expectReply(await chat(token.key), 401, '该令牌已过期');
      // the refusal marked it expired (status 3): enabled again, without expiry
      await db().updateTable('tokens').set({ status: 1, expired_time: -1 }).where('id', '=', token.id).execute();
      expectReply(await chat(token.key), 200);
      await db().updateTable('tokens').set({ models: 'gpt-4o' }).where('id', '=', token.id).execute();
      expectReply(await chat(token.key), 403, '该令牌无权使用模型');
      await db().updateTable('tokens').set({ models: null }).where('id', '=', token.id).execute();
      expectReply(await chat(token.key), 200);
      await settlementsDone(db());
      // remain_quota alone, as a settlement writes it
      await db().updateTable('tokens').set({ remain_quota: 0 }).where('id', '=', token.id).execute();
      expectReply(await chat(token.key), 401, '该令牌额度已用尽');
      await db().updateTable('tokens').set({ status: 1, remain_quota: 1_000_000 }).where('id', '=', token.id).execute();
      expectReply(await chat(token.key), 200);
    });

    it('a token deleted: refused at once; a new token with its key is the new one', async () => {
      const doomed = await createRelayToken(db(), { userId, name: 'doomed', remainQuota: 1_000_000 });
      expectReply(await chat(doomed.key), 200);
      await db().deleteFrom('tokens').where('id', '=', doomed.id).execute();
      expectReply(await chat(doomed.key), 401, '无效的令牌');
      await settlementsDone(db());
    });

    it('a user banned, then enabled again: refused, then served, at once', async () => {
      expectReply(await chat(token.key), 200);
      await db().updateTable('users').set({ status: 2 }).where('id', '=', userId).execute();
      expectReply(await chat(token.key), 403, '用户已被封禁');
      await db().updateTable('users').set({ status: 1 }).where('id', '=', userId).execute();
      expectReply(await chat(token.key), 200);
    });

    it('a channel disabled (or its ability), then enabled again: no channel, then served, at once', async () => {
      expectReply(await chat(token.key), 200);
      await db().updateTable('channels').set({ status: 2 }).where('id', '=', channelId).execute();
      expectReply(await chat(token.key), 503, '当前分组 default 下对于模型');
      await db().updateTable('channels').set({ status: 1 }).where('id', '=', channelId).execute();
      expectReply(await chat(token.key), 200);
      await db().updateTable('abilities').set({ enabled: false }).where('channel_id', '=', channelId).execute();
      expectReply(await chat(token.key), 503, '当前分组 default 下对于模型');
      await db().updateTable('abilities').set({ enabled: true }).where('channel_id', '=', channelId).execute();
      expectReply(await chat(token.key), 200);
    });

    it('a change rolled back changes nothing; a committed transaction is seen at once', async () => {
      await expect(
        db()
          .transaction()
          .execute(async (trx) => {
            await trx.updateTable('tokens').set({ status: 2 }).where('id', '=', token.id).execute();
            throw new Error('roll back');
          }),
      ).rejects.toThrow('roll back');
      expectReply(await chat(token.key), 200);
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('users').set({ status: 2 }).where('id', '=', userId).execute();
        });
      expectReply(await chat(token.key), 403, '用户已被封禁');
      await db().updateTable('users').set({ status: 1 }).where('id', '=', userId).execute();
      expectReply(await chat(token.key), 200);
    });

    it.skipIf(target.kind !== 'sqlite')('writes by another connection to the file (another process, the settlement thread) are seen at once', async () => {
      expectReply(await chat(token.key), 200);
      await settlementsDone(db());
      otherConnection((other) => other.prepare('update tokens set status = 2 where id = ?').run(token.id));
      expectReply(await chat(token.key), 401, '该令牌状态不可用');
      otherConnection((other) => other.prepare('update tokens set status = 1 where id = ?').run(token.id));
      expectReply(await chat(token.key), 200);
      await settlementsDone(db());
      // a settlement taking the remain to 0 (as the settlement thread writes it)
      otherConnection((other) => other.prepare('update tokens set remain_quota = 0, used_quota = used_quota + 1 where id = ?').run(token.id));
      expectReply(await chat(token.key), 401, '该令牌额度已用尽');
      otherConnection((other) => other.prepare('update tokens set status = 1, remain_quota = 1000000 where id = ?').run(token.id));
      expectReply(await chat(token.key), 200);
      otherConnection((other) => other.prepare('update users set status = 2 where id = ?').run(userId));
      expectReply(await chat(token.key), 403, '用户已被封禁');
      otherConnection((other) => other.prepare('update users set status = 1 where id = ?').run(userId));
      otherConnection((other) => other.prepare('update channels set status = 2 where id = ?').run(channelId));
      expectReply(await chat(token.key), 503, '当前分组 default 下对于模型');
      otherConnection((other) => other.prepare('update channels set status = 1 where id = ?').run(channelId));
      otherConnection((other) => other.prepare('delete from tokens where id = ?').run(token.id));
      expectReply(await chat(token.key), 401, '无效的令牌');
      await settlementsDone(db());
    });
  });
}
