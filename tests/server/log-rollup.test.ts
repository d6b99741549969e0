import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { rollupTables, rollupTriggers } from '../../server/db/migrations/logRollups';
import type { Database } from '../../server/db/schema';
import { listLogs, sumUsedQuota, sumUsedQuotaPlain, type LogFilter } from '../../server/services/log';
import { insertUser } from './support/db';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * The log stat rollups (hourly sums kept by triggers on `logs`) must give exactly the plain
 * `SUM(quota)` for any filter and range, after inserts, updates and deletes made by raw SQL (as
 * one-api makes them) and after `DELETE /api/log/`.
 */

const hour = 3600;
const base = 1_700_000_000 - (1_700_000_000 % hour); // an hour boundary
const usernames = ['alice', 'boss', 'carol', null] as const;
const models = ['gpt-4o', 'gpt-3.5-turbo', 'claude', '', null] as const;
const tokenNames = ['tk-a', 'tk-b', ''] as const;

/** Deterministic pseudo-random numbers in [0, 1). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(items: readonly T[], rnd: () => number): T => items[Math.floor(rnd() * items.length)]!;

/** A SQL literal of a log column value. */
const literal = (v: string | number | null): string => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v}'`);

/** Inserts `n` random logs with one raw multi-row INSERT, as another program would. */
async function insertRawLogs(db: Kysely<Database>, n: number, rnd: () => number, ids: Record<string, number>): Promise<void> {
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const username = pick(usernames, rnd);
    const userId = username === null ? (rnd() < 0.5 ? null : 0) : (ids[username] ?? 0);
    const createdAt =
      rnd() < 0.02 ? null : rnd() < 0.02 ? -Math.floor(rnd() * 3 * hour) : base + Math.floor(rnd() * 72 * hour) - 6 * hour;
    const type = rnd() < 0.75 ? 2 : pick([1, 3, 4, 5, null], rnd);
    const quota = rnd() < 0.03 ? null : Math.floor(rnd() * 100_000);
    const channel = rnd() < 0.05 ? null : 1 + Math.floor(rnd() * 4);
    rows.push(
      `(${[userId, createdAt, type, `c${i}`, username, pick(tokenNames, rnd), pick(models, rnd), quota, channel].map(literal).join(', ')})`,
    );
  }
  await sql
    .raw(`INSERT INTO logs (user_id, created_at, type, content, username, token_name, model_name, quota, channel_id) VALUES ${rows.join(', ')}`)
    .execute(db);
}

/** A random filter: any subset of the filters, ranges on and off hour boundaries. */
function randomFilter(rnd: () => number, userId?: number): LogFilter {
  const time = (): number => {
    const r = rnd();
    if (r < 0.25) return 0;
    const t = base + Math.floor(rnd() * 80 * hour) - 8 * hour;
    return r < 0.5 ? t - (t % hour) : r < 0.6 ? t - (t % hour) - 1 : t;
  };
  let start = time();
  let end = time();
  if (start > end && rnd() < 0.8) [start, end] = [end, start];
  if (rnd() < 0.1 && start !== 0) end = start + Math.floor(rnd() * 2 * hour);
  const admin = userId === undefined;
  return {
    type: pick([0, 1, 2], rnd),
    startTimestamp: start,
    endTimestamp: end,
    username: admin && rnd() < 0.4 ? pick(['alice', 'boss', 'carol', 'nobody'], rnd) : '',
    tokenName: rnd() < 0.15 ? pick(['tk-a', 'tk-b'], rnd) : '',
    modelName: rnd() < 0.4 ? pick(['gpt-4o', 'gpt-3.5-turbo', 'claude'], rnd) : '',
    channel: admin && rnd() < 0.15 ? 1 + Math.floor(rnd() * 4) : 0,
    ...(admin ? {} : { userId }),
  };
}

/** The time filters of `f` on a plain logs query (the oracle of `listLogs`). */
function applyPlainFilter<O>(q: SelectQueryBuilder<Database, 'logs', O>, f: LogFilter): SelectQueryBuilder<Database, 'logs', O> {
  let out = q;
  if (f.startTimestamp !== 0) out = out.where('created_at', '>=', f.startTimestamp);
  if (f.endTimestamp !== 0) out = out.where('created_at', '<=', f.endTimestamp);
  return out;
}

/** The stat query string of a filter. */
const statQuery = (f: LogFilter): string =>
  new URLSearchParams({
    type: String(f.type),
    start_timestamp: String(f.startTimestamp),
    end_timestamp: String(f.endTimestamp),
    username: f.username,
    token_name: f.tokenName,
    model_name: f.modelName,
    channel: String(f.channel),
  }).toString();

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`log stat rollups — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    const ids: Record<string, number> = {};
    const adminToken = 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1';
    const aliceToken = 'c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1';
    const rnd = prng(20240611);

    /** Every rollup table holds exactly the groups recomputed here from the type-2 logs (no empty groups). */
    async function expectRollupsExact(): Promise<void> {
      const logs = await sql<{ user_id: number | null; created_at: number | null; username: string | null; model_name: string | null; quota: number | null }>`
        select user_id, created_at, username, model_name, quota from logs where type = 2`.execute(db());
      const nullBucket = -(2 ** 62);
      for (const t of rollupTables) {
        const expected = new Map<string, { quota: number; count: number }>();
        for (const r of logs.rows) {
          const createdAt = r.created_at === null ? null : Number(r.created_at);
          const bucket = createdAt === null ? nullBucket : Math.floor(createdAt / hour);
          const key = [String(bucket), ...t.keys.map((k) => String((k === 'user_id' ? Number(r.user_id ?? 0) : r[k]) ?? ''))].join('|');
          const group = expected.get(key) ?? { quota: 0, count: 0 };
          expected.set(key, { quota: group.quota + Number(r.quota ?? 0), count: group.count + 1 });
        }
        const keys = ['bucket', ...t.keys].join(', ');
        const stored = await sql.raw<Record<string, string | number>>(`select ${keys}, quota, count from ${t.name}`).execute(db());
        const actual = new Map(
          stored.rows.map((r) => [
            [String(Number(r.bucket) === nullBucket ? nullBucket : r.bucket), ...t.keys.map((k) => String(k === 'user_id' ? Number(r[k]) : r[k]))].join('|'),
            { quota: Number(r.quota), count: Number(r.count) },
          ]),
        );
        expect(new Map([...actual].sort()), t.name).toEqual(new Map([...expected].sort()));
      }
    }

    /** Compares rollup answers with the plain sum for `n` random filters in-process and `http` over HTTP. */
    async function expectExact(n: number, http: number): Promise<void> {
      for (let i = 0; i < n; i++) {
        const f = randomFilter(rnd, rnd() < 0.3 ? ids.alice : undefined);
        expect(await sumUsedQuota(db(), f), JSON.stringify(f)).toBe(await sumUsedQuotaPlain(db(), f));
      }
      for (let i = 0; i < http; i++) {
        const admin = randomFilter(rnd);
        const a = await suite.client().get(`/api/log/stat?${statQuery(admin)}`, { headers: { Authorization: `Bearer ${adminToken}` } });
        expect(a.body, JSON.stringify(admin)).toEqual({ success: true, message: '', data: { quota: await sumUsedQuotaPlain(db(), admin) } });
        const self = randomFilter(rnd, ids.alice);
        const s = await suite.client().get(`/api/log/self/stat?${statQuery(self)}`, { headers: { Authorization: `Bearer ${aliceToken}` } });
        expect(s.body, JSON.stringify(self)).toEqual({ success: true, message: '', data: { quota: await sumUsedQuotaPlain(db(), self) } });
      }
      await expectRollupsExact();
    }

    beforeAll(async () => {
      ids.alice = await insertUser(db(), { username: 'alice', accessToken: aliceToken });
      ids.boss = await insertUser(db(), { username: 'boss', role: 10, accessToken: adminToken });
      ids.carol = await insertUser(db(), { username: 'carol' });
    });

    it('backfills logs written before the rollups existed', async () => {
      await insertRawLogs(db(), 400, rnd, ids);
      // As if the logs came from one-api alone: no rollups, no triggers; the next start builds them.
      for (const name of rollupTriggers) {
        await sql.raw(target.kind === 'sqlite' ? `drop trigger ${name}` : `drop trigger ${name} on logs`).execute(db());
      }
      for (const t of rollupTables) await sql.raw(`drop table ${t.name}`).execute(db());
      await suite.restart();
      await insertRawLogs(db(), 200, rnd, ids);
      await expectExact(300, 20);
    });

    it('stays exact after raw inserts, updates and deletes', async () => {
      await insertRawLogs(db(), 300, rnd, ids);
      await sql`UPDATE logs SET quota = quota + 7 WHERE id % 5 = 0`.execute(db());
      await sql`UPDATE logs SET type = 2 WHERE id % 11 = 0`.execute(db());
      await sql`UPDATE logs SET type = 1 WHERE id % 13 = 0`.execute(db());
      await sql`UPDATE logs SET created_at = created_at + 1800, model_name = 'claude' WHERE id % 7 = 0`.execute(db());
      await sql`UPDATE logs SET username = 'carol', user_id = ${ids.carol} WHERE id % 9 = 0`.execute(db());
      await sql`UPDATE logs SET content = 'edited' WHERE id % 3 = 0`.execute(db());
      await sql`DELETE FROM logs WHERE id % 17 = 0`.execute(db());
      await expectExact(300, 20);
    });

    it('stays exact after DELETE /api/log/?target_timestamp=', async () => {
      const cut = base + 20 * hour + 1234;
      const reply = await suite.client().request('DELETE', `/api/log/?target_timestamp=${cut}`, {
        headers: { Authorization: `Bearer ${adminToken}` },
      });
      expect(reply.body.success).toBe(true);
      expect(reply.body.data).toBeGreaterThan(0);
      await expectExact(300, 20);
      await insertRawLogs(db(), 200, rnd, ids);
      await expectExact(200, 10);
    });

    it('rebuilds the rollups at start when a trigger went missing, and changes nothing when all is there', async () => {
      const dropped = rollupTriggers[0];
      await sql.raw(target.kind === 'sqlite' ? `drop trigger ${dropped}` : `drop trigger ${dropped} on logs`).execute(db());
      await insertRawLogs(db(), 100, rnd, ids); // not seen by the rollups
      await suite.restart();
      await expectExact(200, 10);
      const before = await sql.raw(`select count(*) as n from ${rollupTables[2].name}`).execute(db());
      await suite.restart();
      expect(await sql.raw(`select count(*) as n from ${rollupTables[2].name}`).execute(db())).toEqual(before);
      await expectExact(50, 5);
    });

    it('pages narrow time windows (read as id ranges) exactly like the plain query', async () => {
      // Ids and created_at are uncorrelated in these logs: the id range of a window spans other logs too.
      for (let i = 0; i < 120; i++) {
        const f = randomFilter(rnd);
        const window: LogFilter = { ...f, username: '', tokenName: '', modelName: '', channel: 0 };
        const page = Math.floor(rnd() * 4);
        let plain = applyPlainFilter(db().selectFrom('logs').selectAll(), window);
        if (window.type !== 0) plain = plain.where('type', '=', window.type);
        const expected = await plain.orderBy('id', 'desc').limit(10).offset(page * 10).execute();
        expect(await listLogs(db(), window, page), JSON.stringify({ window, page })).toEqual(expected);
      }
      // Deep pages of all logs (offset ≥ 1000) skip ids in the primary key: same rows.
      await insertRawLogs(db(), 1200, rnd, ids);
      const none: LogFilter = { type: 0, startTimestamp: 0, endTimestamp: 0, username: '', tokenName: '', modelName: '', channel: 0 };
      for (const page of [99, 100, 101, 150, 1000]) {
        const expected = await db().selectFrom('logs').selectAll().orderBy('id', 'desc').limit(10).offset(page * 10).execute();
        expect(await listLogs(db(), none, page), `page ${page}`).toEqual(expected);
      }
      expect((await listLogs(db(), none, 101)).length).toBe(10);
    });

    it('answers 0 for an empty range and for filters nothing matches', async () => {
      const f: LogFilter = { type: 0, startTimestamp: base + 10 * hour, endTimestamp: base + 5 * hour, username: '', tokenName: '', modelName: '', channel: 0 };
      expect(await sumUsedQuota(db(), f)).toBe(0);
      expect(await sumUsedQuota(db(), { ...f, startTimestamp: 0, username: 'nobody' })).toBe(0);
    });
  });
}
