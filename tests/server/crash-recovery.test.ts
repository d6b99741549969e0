import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { loadConfig } from '../../server/config';
import { bootstrap } from '../../server/db/bootstrap';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import type { Database } from '../../server/db/schema';
import { closedPort, createRelayChannel, createRelayToken, createRelayUser, setRelayOptions } from './support/relayFixtures';
import { GatewayProcess } from './support/gatewayProcess';
import { startRelayUpstream, type RelayUpstream } from './support/relayUpstream';
import { dbTargets, type TestDatabase } from './support/targets';

/**
 * A crash must not lose or invent money (issue 18 item 3). The real server runs as a child
 * process (`server/main.ts` through tsx) on a SQLite file or a PostgreSQL database; 40 clients
 * send relay requests (streaming and not, limited and unlimited tokens, one user whose quota
 * runs out) and an admin tops a user up meanwhile; at a random moment the child is killed with
 * SIGKILL, then started again on the same database. Once it is up and idle, for every user,
 * token and channel the quota reconciles exactly with the ledger (the logs table):
 *
 *   user:    quota = start + Σ top-up logs − Σ consume logs, used_quota = Σ consume logs
 *   token:   remain_quota = start − Σ its consume logs (limited), used_quota = Σ its consume logs
 *   channel: used_quota = Σ its consume logs
 *
 * Several kill/restart cycles per database; the last cycle stops the server with SIGTERM under
 * load instead, and reconciles with the server down (a graceful stop leaves nothing open).
 */

const model = 'gpt-3.5-turbo';
const upstreamKey = 'up-crash';
const clients = 40;
const killCycles = 3;
const rootAccessToken = 'crashtestrootaccesstoken00000000';

type Db = Kysely<Database>;

interface Seeded {
  readonly users: ReadonlyArray<{ readonly id: number; readonly start: number }>;
  readonly tokens: ReadonlyArray<{ readonly id: number; readonly key: string; readonly name: string; readonly start: number; readonly limited: boolean }>;
  readonly channelId: number;
  readonly topUpUserId: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the clients saw. */
interface LoadFigures {
  answered: number;
  refused: number;
  failed: number;
  topUps: number;
}

/**
 * Runs 40 relay clients and one admin topping up until `stop` aborts; requests cut by the crash
 * count as failed. `figures` grow as answers arrive; `done` resolves when every client has stopped.
 */
function runLoad(gateway: GatewayProcess, seeded: Seeded, stop: AbortSignal): { readonly figures: LoadFigures; readonly done: Promise<LoadFigures> } {
  const figures: LoadFigures = { answered: 0, refused: 0, failed: 0, topUps: 0 };
  const relayClient = async (n: number): Promise<void> => {
    for (let i = 0; !stop.aborted; i += 1) {
      const token = seeded.tokens[(n + i) % seeded.tokens.length]!;
      const stream = (n + i) % 2 === 0;
      try {
        const res = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { Authorization: `Bearer sk-${token.key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ model, stream, max_tokens: 40, messages: [{ role: 'user', content: `crash test ${n} ${i}` }] }),
          signal: stop,
        });
        await res.text();
        if (res.status === 200) figures.answered += 1;
        else if (res.status === 403 || res.status === 401) figures.refused += 1;
        else figures.failed += 1;
      } catch {
        figures.failed += 1;
        if (!stop.aborted) await sleep(20);
      }
    }
  };
  const topUpClient = async (): Promise<void> => {
    while (!stop.aborted) {
      try {
        const res = await fetch(`${gateway.url}/api/topup`, {
          method: 'POST',
          headers: { Authorization: rootAccessToken, 'Content-Type': 'application/json' },
          body: JSON.stringify({ user_id: seeded.topUpUserId, quota: 1_000, remark: 'crash test top-up' }),
          signal: stop,
        });
        const body = (await res.json()) as { success?: boolean };
        if (body.success === true) figures.topUps += 1;
      } catch {
        // cut by the crash: the top-up log says whether it happened
      }
      await sleep(25);
    }
  };
  const done = Promise.all([...Array.from({ length: clients }, (_, n) => relayClient(n)), topUpClient()]).then(() => figures);
  return { figures, done };
}

/** Waits until the load has had `answers` answers (a fresh gateway warms up slowly on a busy machine), then a random while more. */
async function randomMomentUnderLoad(figures: LoadFigures, answers: number, maxExtraMs: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (figures.answered < answers && Date.now() < deadline) await sleep(10);
  await sleep(Math.floor(Math.random() * maxExtraMs));
}

/** Every difference between the quotas and the ledger (empty: reconciled). */
async function discrepancies(db: Db, seeded: Seeded): Promise<string[]> {
  const found: string[] = [];
  const sums = async (column: 'user_id' | 'token_name' | 'channel_id', type: number) => {
    const rows = await db
      .selectFrom('logs')
      .select([column, (eb) => eb.fn.sum<number>('quota').as('quota')])
      .where('type', '=', type)
      .groupBy(column)
      .execute();
    return new Map(rows.map((r) => [String(r[column]), Number(r.quota)]));
  };
  const consumedBy = await sums('user_id', 2);
  const toppedUp = await sums('user_id', 1);
  const consumedOn = await sums('token_name', 2);
  const consumedVia = await sums('channel_id', 2);
  for (const user of seeded.users) {
    const row = await db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', user.id).executeTakeFirstOrThrow();
    const consumed = consumedBy.get(String(user.id)) ?? 0;
    const expectedQuota = user.start + (toppedUp.get(String(user.id)) ?? 0) - consumed;
    if (Number(row.quota) !== expectedQuota || Number(row.used_quota) !== consumed) {
      found.push(`user ${user.id}: quota ${row.quota} (ledger ${expectedQuota}, off by ${Number(row.quota) - expectedQuota}), used ${row.used_quota} (ledger ${consumed})`);
    }
  }
  for (const token of seeded.tokens) {
    const row = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', token.id).executeTakeFirstOrThrow();
    const consumed = consumedOn.get(token.name) ?? 0;
    const remainOk = !token.limited || Number(row.remain_quota) === token.start - consumed;
    if (!remainOk || Number(row.used_quota) !== consumed) {
      found.push(`token ${token.name}: remain ${row.remain_quota} (ledger ${token.limited ? token.start - consumed : 'unlimited'}), used ${row.used_quota} (ledger ${consumed})`);
    }
  }
  const channel = await db.selectFrom('channels').select('used_quota').where('id', '=', seeded.channelId).executeTakeFirstOrThrow();
  const viaChannel = consumedVia.get(String(seeded.channelId)) ?? 0;
  if (Number(channel.used_quota) !== viaChannel) found.push(`channel: used ${channel.used_quota} (ledger ${viaChannel})`);
  return found;
}

/** Waits until the quotas reconcile (the restarted server recovers at start), or returns what is still off. */
async function reconciled(db: Db, seeded: Seeded, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await discrepancies(db, seeded);
    if (found.length === 0 || Date.now() > deadline) return found;
    await sleep(200);
  }
}

const consumeLogCount = async (db: Db): Promise<number> =>
  Number((await db.selectFrom('logs').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', 2).executeTakeFirstOrThrow()).n);

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`crash recovery — ${target.label}`, () => {
    let testDb: TestDatabase;
    let handle: DatabaseHandle;
    let upstream: RelayUpstream;
    let gateway: GatewayProcess;
    let seeded: Seeded;

    beforeAll(async () => {
      testDb = await target.create();
      upstream = await startRelayUpstream();
      // Answers take a while, so that many requests are in flight (reserved, not settled) at the kill.
      upstream.behave(upstreamKey, { kind: 'slow', ms: 60 });
      const database = testDb.database;
      const env: Record<string, string> =
        database.kind === 'sqlite' ? { SQLITE_PATH: database.path } : { SQL_DSN: database.dsn };
      Object.assign(env, {
        SESSION_SECRET: randomBytes(16).toString('hex'),
        INITIAL_ROOT_ACCESS_TOKEN: rootAccessToken,
        GLOBAL_API_RATE_LIMIT: '100000',
        GLOBAL_WEB_RATE_LIMIT: '100000',
        // A restarted gateway takes its killed predecessor's reservations once that one has been
        // silent for two heartbeats (a third of the lease each): 2 s here instead of 20 s.
        RELAY_LEASE_SECONDS: '3',
      });
      // The test's own connection: seeds before the first start, reads the ledger after each crash.
      handle = openDatabase({ database: database.kind === 'sqlite' ? { ...database, settlementThread: false } : database });
      await migrate(handle.db, handle.dialect);
      await bootstrap(handle.db, handle.dialect, loadConfig({ INITIAL_ROOT_ACCESS_TOKEN: rootAccessToken, SESSION_SECRET: 'x' }));
      await setRelayOptions(handle.db);
      const channelId = await createRelayChannel(handle.db, { key: upstreamKey, baseUrl: upstream.url, models: model });
      const users: Array<{ id: number; start: number }> = [];
      const tokens: Array<Seeded['tokens'][number]> = [];
      // User 0 runs out of quota within the first cycle (refusals); the others have plenty.
      for (const [u, start] of [8_000, 50_000_000, 50_000_000].entries()) {
        const id = await createRelayUser(handle.db, { username: `crash${u}`, quota: start });
        users.push({ id, start });
        for (const limited of [true, false]) {
          const remain = limited ? 4_000_000 : 0;
          const token = await createRelayToken(handle.db, { userId: id, name: `crash${u}-${limited ? 'limited' : 'unlimited'}`, remainQuota: remain, unlimited: !limited });
          tokens.push({ ...token, start: remain, limited });
        }
      }
      seeded = { users, tokens, channelId, topUpUserId: users[1]!.id };
      gateway = new GatewayProcess(await closedPort(), env);
      await gateway.start(30_000);
    }, 60_000);

    afterAll(async () => {
      await gateway?.stop('SIGKILL');
      await handle?.close();
      await upstream?.close();
      await testDb?.dispose();
    });

    it('reconciles every user, token and channel with the logs after SIGKILL under load, cycle after cycle', async () => {
      const history: string[] = [];
      for (let cycle = 1; cycle <= killCycles; cycle += 1) {
        const logsBefore = await consumeLogCount(handle.db);
        const stop = new AbortController();
        const load = runLoad(gateway, seeded, stop.signal);
        // A random moment while requests are in flight (the first cycle also drains user 0).
        await randomMomentUnderLoad(load.figures, 5, 800);
        await gateway.stop('SIGKILL');
        stop.abort();
        const figures = await load.done;
        const logs = (await consumeLogCount(handle.db)) - logsBefore;
        await gateway.start(30_000);
        const off = await reconciled(handle.db, seeded, 8_000);
        history.push(`cycle ${cycle}: ${figures.answered} answered, ${logs} consume logs, ${figures.refused} refused, ${figures.failed} cut, ${figures.topUps} top-ups`);
        expect(off, `after kill ${cycle} (${history.join('; ')})\n${gateway.output.slice(-2_000)}`).toEqual([]);
        expect(figures.answered, `cycle ${cycle}: load reached the relay`).toBeGreaterThan(0);
        // A log for every answer the crash did not cut short, never one for an answer not given.
        expect(logs).toBeLessThanOrEqual(figures.answered + clients);
      }
      console.log(`[crash recovery ${target.label}] ${history.join('; ')}`);
    }, 90_000);

    it('a SIGTERM under load stops the gateway with every reservation settled or given back', async () => {
      const stop = new AbortController();
      const load = runLoad(gateway, seeded, stop.signal);
      await randomMomentUnderLoad(load.figures, 5, 300);
      const code = await gateway.stop('SIGTERM');
      stop.abort();
      await load.done;
      expect(code, gateway.output.slice(-2_000)).toBe(0);
      expect(await discrepancies(handle.db, seeded), gateway.output.slice(-2_000)).toEqual([]);
      if (handle.dialect === 'postgres') {
        // Nothing left open for the next start to recover.
        const { rows } = await sql<{ n: number }>`select count(*) as n from oa_relay_reservations`.execute(handle.db);
        expect(Number(rows[0]?.n)).toBe(0);
      }
    }, 60_000);
  });
}
