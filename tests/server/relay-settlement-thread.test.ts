import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeWatchOf } from '../../server/db/connect';
import { settlementsDone } from '../../server/relay/billing';
import { relaySettings } from '../../server/relay/relaySettings';
import { SettlementLost, startSettlementThread, type SettlementStatements } from '../../server/relay/settlementThread';
import { setOption } from './support/db';
import {
  consumeLogs,
  createRelayChannel,
  createRelayToken,
  createRelayUser,
  sdkClient,
  setRelayOptions,
  textQuota,
  userQuota,
  type RelayToken,
} from './support/relayFixtures';
import { startRelayUpstream, type RelayUpstream } from './support/relayUpstream';
import { setupSuite } from './support/suite';
import { sqliteTarget } from './support/targets';

/**
 * On a SQLite file the relay's settlements run on their own thread and connection
 * (server/relay/settlementThread.ts). The main connection must keep working beside it: its
 * transactions that read and then write must not fail on the other connection's commits, and the
 * options kept in memory must survive those commits (they only write users, tokens, channels and
 * logs) but not a write to the options table.
 */
describe('relay settlements on their own thread (SQLite)', () => {
  const suite = setupSuite(sqliteTarget);
  const db = () => suite.api.handle.db;
  const model = 'gpt-3.5-turbo';
  let upstream: RelayUpstream;
  let userId: number;
  let token: RelayToken;
  let adminUser: number;

  beforeAll(async () => {
    upstream = await startRelayUpstream();
    await setRelayOptions(db());
    await createRelayChannel(db(), { key: 'up-thread', baseUrl: upstream.url, models: model });
    userId = await createRelayUser(db(), { username: 'thread-user', quota: 10_000_000 });
    token = await createRelayToken(db(), { userId, name: 'thread-token', remainQuota: 1_000_000 });
    adminUser = await createRelayUser(db(), { username: 'thread-admin-edits', quota: 0 });
  });
  afterAll(async () => {
    await upstream.close();
  });

  const ask = (i: number) => sdkClient(suite.api.url, token.key).chat.completions.create({ model, messages: [{ role: 'user', content: `thread ${i}` }] });

  it('main-connection transactions that read then write succeed while settlements commit beside them', async () => {
    const client = sdkClient(suite.api.url, token.key);
    let edits = 0;
    let relayed = 0;
    let stop = false;
    const relay = async () => {
      while (!stop) {
        await client.chat.completions.create({ model, messages: [{ role: 'user', content: `load ${relayed}` }] });
        relayed += 1;
      }
    };
    // Read-modify-write through the query builder, as the admin routes do, with awaits between.
    const edit = async () => {
      for (let i = 0; i < 100; i += 1) {
        await db()
          .transaction()
          .execute(async (trx) => {
            const row = await trx.selectFrom('users').select('quota').where('id', '=', adminUser).executeTakeFirstOrThrow();
            await new Promise((resolve) => setImmediate(resolve));
            await trx.updateTable('users').set({ quota: Number(row.quota) + 1 }).where('id', '=', adminUser).execute();
          });
        edits += 1;
      }
    };
    const loads = Array.from({ length: 8 }, relay);
    await edit();
    stop = true;
    await Promise.all(loads);
    await settlementsDone(db());
    expect(edits).toBe(100);
    expect(relayed).toBeGreaterThan(0);
    const row = await db().selectFrom('users').select('quota').where('id', '=', adminUser).executeTakeFirstOrThrow();
    expect(Number(row.quota)).toBe(100);
    // Every relayed request billed once, at its price.
    const logs = await consumeLogs(db(), userId);
    expect(logs).toHaveLength(relayed);
    expect(logs.every((l) => l.quota === textQuota(model, 17, 9))).toBe(true);
    const quota = await userQuota(db(), userId);
    expect(quota.quota + quota.usedQuota).toBe(10_000_000);
    expect(quota.usedQuota).toBe(relayed * textQuota(model, 17, 9));
  });

  it('keeps the relay options in memory across settlements, and sees an options write at once', async () => {
    const watch = changeWatchOf(db());
    const settings = await relaySettings(db());
    const generation = watch?.generation('options');
    expect(generation).toBeDefined();
    await Promise.all(Array.from({ length: 10 }, (_, i) => ask(i)));
    await settlementsDone(db());
    expect(watch?.generation('options')).toBe(generation);
    expect(await relaySettings(db())).toBe(settings);
    await setOption(db(), 'RetryTimes', '2');
    expect(watch?.generation('options')).not.toBe(generation);
    expect((await relaySettings(db())).retryTimes).toBe(2);
  });

  it('a worker that cannot open the database fails its settlements as not written (retryable), not as lost', async () => {
    const template = { sql: 'select 1', parameters: [] };
    const statements = Object.fromEntries(
      ['userBalance', 'takeUserQuotaIfAt', 'tokenBalance', 'takeTokenQuotaIfAt', 'moveTokenQuota', 'settleUser', 'chargeChannel', 'insertConsumeLog'].map((n) => [n, template]),
    ) as unknown as SettlementStatements;
    const thread = startSettlementThread('/nonexistent-folder/one-api.db', 1000, statements, 'select ?', 1);
    const job = { userId: 1, tokenId: 1, tokenLimited: true, want: 1, keepUser: 0, keepToken: 0, channelId: 1, log: null };
    const error: unknown = await thread.settle(job).done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(SettlementLost);
    expect(String(error)).toMatch(/failed to start.*nothing was written/);
    expect(thread.alive()).toBe(false);
    await expect(thread.settle(job).done).rejects.toThrow(/not running/);
    await thread.close();
  });
});
