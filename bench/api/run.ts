// API latency at scale: seeds 1,000,000 logs, 10,000 users, 1,000 channels (+ abilities) and
// 100,000 tokens into a fresh SQLite file and (when 127.0.0.1:5432 answers) a fresh PostgreSQL
// database, serves the real API, and times the console's list/search/stat requests over HTTP,
// first without the `idx_oa_` query indexes (baseline), then with them (created by migrate()).
// Target: p95 < 20 ms per request. Figures only: nothing fails on them.
// Also: log stat rollup vs plain SUM in-process, and log-insert throughput with/without the rollup triggers.
// Sizes: BENCH_LOGS, BENCH_USERS, BENCH_TOKENS, BENCH_CHANNELS; BENCH_SAMPLES (50), BENCH_WARMUP (5), BENCH_INSERTS (2000),
// BENCH_DB (sqlite,postgres), BENCH_PG_DSN (admin DSN, default postgres://postgres@127.0.0.1:5432/postgres).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig, type Config, type DatabaseConfig } from '../../server/config';
import { bootstrap } from '../../server/db/bootstrap';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import { rollupTables, rollupTriggers } from '../../server/db/migrations/logRollups';
import { tableSpecs, type Dialect } from '../../server/db/schema';
import { createApi } from '../../server/http/api';
import { createRateLimitStore } from '../../server/http/rateLimit';
import { sumUsedQuota, sumUsedQuotaPlain, type LogFilter } from '../../server/services/log';
import { hashPassword } from '../../server/services/password';
import { login, sample, type BenchCase, type Latency, type SampleOptions } from './measure';
import { seedPostgres, seedSqlite, seedTables, type SeedFacts, type SeedSizes } from './seed';

const env = process.env;
const int = (name: string, fallback: number): number => {
  const raw = env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
};
const sizes: SeedSizes = {
  logs: int('BENCH_LOGS', 1_000_000),
  users: Math.max(1, int('BENCH_USERS', 10_000)),
  channels: Math.max(1, int('BENCH_CHANNELS', 1_000)),
  tokens: int('BENCH_TOKENS', 100_000),
};
const samples = Math.max(1, int('BENCH_SAMPLES', 50));
const measured: SampleOptions = { warmup: int('BENCH_WARMUP', 5), samples, minSamples: samples, budgetMs: Infinity };
// The baseline of slow queries stops after 1.5 s per case (at least 5 samples) to keep the run short.
const baseline: SampleOptions = { ...measured, minSamples: Math.min(samples, 5), budgetMs: 1_500, warmup: 1 };
/** Logs inserted one by one (autocommit, as the relay writes them) per insert-throughput run. */
const insertRuns = int('BENCH_INSERTS', 2_000);
const targets = (env.BENCH_DB ?? 'sqlite,postgres').split(',').map((s) => s.trim());
const pgAdminDsn = env.BENCH_PG_DSN ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const targetMs = 20;
/** The tables the bench fills. */
const seededTables: ReadonlySet<string> = new Set(['users', 'channels', 'abilities', 'tokens', 'logs']);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const ms = (v: number) => (Number.isNaN(v) ? '-' : v < 10 ? v.toFixed(2) : v.toFixed(1));

/** The requests timed, built from facts about the seeded data. */
function benchCases(f: SeedFacts): BenchCase[] {
  const day = 86_400;
  const week = `start_timestamp=${f.now - 7 * day}&end_timestamp=${f.now}`;
  const oldDay = `start_timestamp=${f.now - 60 * day}&end_timestamp=${f.now - 59 * day}`;
  const deepLogPage = Math.floor(sizes.logs / 10 / 10);
  const all = 'type=0&username=&token_name=&model_name=&start_timestamp=&end_timestamp=&channel=';
  const e = encodeURIComponent;
  const list = (label: string, path: string, as: 'root' | 'user' = 'root'): BenchCase => ({ label, path, as, baseline: true });
  return [
    list('logs list p0', `/api/log/?p=0&${all}`),
    list(`logs list deep p${deepLogPage}`, `/api/log/?p=${deepLogPage}&${all}`),
    list('logs list type=1 (top-up)', '/api/log/?p=0&type=1'),
    list('logs list type=1 p20', '/api/log/?p=20&type=1'),
    list('logs list model (rare)', `/api/log/?p=0&model_name=${e(f.rareModel)}`),
    list('logs list username', `/api/log/?p=0&username=${e(f.someUsername)}`),
    list('logs list token name', `/api/log/?p=0&token_name=${e(f.tokenName)}`),
    list('logs list 1 day, 60 d ago', `/api/log/?p=0&${oldDay}`),
    list('logs list type+user+7 d', `/api/log/?p=0&type=2&username=${e(f.someUsername)}&${week}`),
    list('logs search content prefix', `/api/log/search?keyword=${e(f.logKeyword)}`),
    list('logs search type "4"', '/api/log/search?keyword=4'),
    list('log stat (all)', '/api/log/stat?type=0'),
    list('log stat 7 d', `/api/log/stat?type=0&${week}`),
    list('log stat username+7 d', `/api/log/stat?username=${e(f.someUsername)}&${week}`),
    list('log stat model+1 d', `/api/log/stat?model_name=${e(f.popularModel)}&${oldDay}`),
    list('self log stat (all)', '/api/log/self/stat?type=0', 'user'),
    list('self log stat model+7 d', `/api/log/self/stat?model_name=${e(f.popularModel)}&${week}`, 'user'),
    list('self logs list p0', `/api/log/self/?p=0&${all}`, 'user'),
    list('self logs list type=1', '/api/log/self/?p=0&type=1', 'user'),
    list('self logs list model+7 d', `/api/log/self/?p=0&model_name=${e(f.popularModel)}&${week}`, 'user'),
    list('self logs search "1"', '/api/log/self/search?keyword=1', 'user'),
    list('users list p0', '/api/user/?p=0'),
    list('users list p500', '/api/user/?p=500'),
    list('users list order=quota', '/api/user/?p=0&order=quota'),
    list('users search prefix', `/api/user/search?keyword=${e(f.userKeyword)}`),
    list(`tokens list p0 (${f.heavyUserTokens} tokens)`, '/api/token/?p=0', 'user'),
    list('tokens list p100', '/api/token/?p=100', 'user'),
    list('tokens list order=used_quota', '/api/token/?p=0&order=used_quota', 'user'),
    list('tokens search prefix', `/api/token/search?keyword=${e(f.tokenKeyword)}`, 'user'),
    list('channels list p0', '/api/channel/?p=0'),
    list('channels list p50', '/api/channel/?p=50'),
    list('channels search prefix', `/api/channel/search?keyword=${e(f.channelKeyword)}`),
  ];
}

/** A fresh database for one target and a way to remove it. */
interface Fresh {
  readonly database: DatabaseConfig;
  readonly dispose: () => Promise<void>;
}

/** Runs one statement on the PostgreSQL admin database. */
async function pgAdmin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgAdminDsn, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Creates the fresh database of `dialect`. */
async function freshDatabase(dialect: Dialect): Promise<Fresh> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'oneapi-bench-'));
    return {
      database: { kind: 'sqlite', path: join(dir, 'one-api.db'), busyTimeoutMs: 5000 },
      dispose: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    };
  }
  const name = `oneapi_bench_${randomBytes(6).toString('hex')}`;
  await pgAdmin(`create database ${name}`);
  const url = new URL(pgAdminDsn);
  url.pathname = `/${name}`;
  return {
    database: { kind: 'postgres', dsn: url.toString() },
    dispose: () => pgAdmin(`drop database if exists ${name} with (force)`),
  };
}

/** Statistics for the planner: PostgreSQL's autovacuum would gather them after a bulk load; SQLite stays as deployed. */
async function analyze(handle: DatabaseHandle): Promise<void> {
  if (handle.dialect === 'postgres') await sql`vacuum analyze`.execute(handle.db);
}

/** The bench configuration: rate limits off, as in the server tests. */
const benchConfig = (database: DatabaseConfig): Config => ({
  ...loadConfig({ SESSION_SECRET: 'bench-session-secret', GLOBAL_API_RATE_LIMIT: '0', GLOBAL_WEB_RATE_LIMIT: '0' }),
  criticalRateLimit: 0,
  database,
});

/** Drops the stat rollups and their triggers (migrate() rebuilds and backfills them). */
async function dropRollups(handle: DatabaseHandle): Promise<void> {
  for (const name of rollupTriggers) {
    await sql.raw(handle.dialect === 'sqlite' ? `drop trigger if exists ${name}` : `drop trigger if exists ${name} on logs`).execute(handle.db);
  }
  for (const t of rollupTables) await sql.raw(`drop table if exists ${t.name}`).execute(handle.db);
}

/** Median time of `reps` calls of `fn` (after one warm-up call) and its answer. */
async function median<T>(reps: number, fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const value = await fn();
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] ?? Number.NaN, value };
}

/** In-process: the rollup-based consume sum against the plain SUM over `logs` (the oracle), same answers. */
async function compareStat(handle: DatabaseHandle, f: SeedFacts): Promise<void> {
  const day = 86_400;
  const none: LogFilter = { type: 0, startTimestamp: 0, endTimestamp: 0, username: '', tokenName: '', modelName: '', channel: 0 };
  const week = { startTimestamp: f.now - 7 * day, endTimestamp: f.now };
  const oldDay = { startTimestamp: f.now - 60 * day, endTimestamp: f.now - 59 * day };
  const cases: [string, LogFilter][] = [
    ['all', none],
    ['7 d', { ...none, ...week }],
    ['username+7 d', { ...none, ...week, username: f.someUsername }],
    ['model+1 d', { ...none, ...oldDay, modelName: f.popularModel }],
    ['self all', { ...none, userId: f.heavyUser.id }],
    ['self model+7 d', { ...none, ...week, modelName: f.popularModel, userId: f.heavyUser.id }],
    ['token name (plain by design)', { ...none, tokenName: f.tokenName }],
  ];
  console.log(`[${handle.dialect}] log stat in-process, median of 5 (ms): rollup vs plain SUM (the oracle)`);
  for (const [label, filter] of cases) {
    const rollup = await median(5, () => sumUsedQuota(handle.db, filter));
    const plain = await median(5, () => sumUsedQuotaPlain(handle.db, filter));
    console.log(
      `  ${label.padEnd(30)} rollup ${ms(rollup.ms).padStart(7)}  plain ${ms(plain.ms).padStart(7)}  ${rollup.value === plain.value ? 'same answer' : `DIFFERENT ${rollup.value} ≠ ${plain.value}`}`,
    );
  }
}

/** Log inserts per second, one autocommitted INSERT each, with the rollup triggers and without. */
async function insertThroughput(handle: DatabaseHandle, f: SeedFacts): Promise<void> {
  const run = async (tag: string): Promise<number> => {
    const t0 = performance.now();
    for (let i = 0; i < insertRuns; i++) {
      await handle.db
        .insertInto('logs')
        .values({
          user_id: f.heavyUser.id, created_at: f.now + i, type: 2, content: `bench insert ${tag} ${i}`,
          username: f.heavyUser.username, token_name: 'bench', model_name: f.popularModel, quota: 1000 + i,
          prompt_tokens: 10, completion_tokens: 20, channel_id: 1, request_id: `bench-${tag}-${i}`,
          elapsed_time: 100, is_stream: false, system_prompt_reset: false,
        })
        .execute();
    }
    return (insertRuns / (performance.now() - t0)) * 1000;
  };
  const withTriggers = await run('with');
  await dropRollups(handle);
  const without = await run('without');
  console.log(
    `[${handle.dialect}] log inserts (${insertRuns} single-row autocommits each): ${Math.round(withTriggers).toLocaleString('en')}/s with the rollup triggers, ` +
      `${Math.round(without).toLocaleString('en')}/s without; ratio ${(withTriggers / without).toFixed(2)}`,
  );
}

/** Figures of one target. */
interface TargetResult {
  readonly dialect: Dialect;
  readonly before: Map<string, Latency>;
  readonly after: Map<string, Latency>;
}

/** Measures every case on the running API. */
async function measureAll(url: string, cookies: Record<'root' | 'user', string>, cases: BenchCase[], o: SampleOptions) {
  const out = new Map<string, Latency>();
  for (const c of cases) out.set(c.label, await sample(url, cookies[c.as], c.path, o));
  return out;
}

/** Seeds, serves and measures one database. */
async function runTarget(dialect: Dialect): Promise<TargetResult> {
  const fresh = await freshDatabase(dialect);
  const config = benchConfig(fresh.database);
  const handle = openDatabase(config);
  try {
    // The baseline database: one-api's schema and indexes only.
    await migrate(handle.db, handle.dialect, { queryIndexes: false });
    await bootstrap(handle.db, handle.dialect, config);
    // Bulk load into bare tables, then let migrate() build one-api's indexes in one pass each.
    for (const spec of tableSpecs.filter((t) => seededTables.has(t.name))) {
      for (const index of spec.indexes) await sql.raw(`drop index if exists ${index.name}`).execute(handle.db);
    }
    // … and without the stat rollups: migrate() backfills them in one statement each after the load.
    await dropRollups(handle);
    const now = Math.floor(Date.now() / 1000);
    const { tables, facts } = seedTables(sizes, await hashPassword('bench-password'), now);
    const t0 = performance.now();
    const counts =
      fresh.database.kind === 'sqlite' ? seedSqlite(fresh.database.path, tables) : await seedPostgres(fresh.database.dsn, tables);
    const loadMs = performance.now() - t0;
    await migrate(handle.db, handle.dialect, { queryIndexes: false });
    await analyze(handle);
    const seedMs = performance.now() - t0;
    console.log(
      `[${dialect}] seeded ${[...counts].map(([t, n]) => `${n.toLocaleString('en')} ${t}`).join(', ')} in ${seconds(seedMs)}` +
        ` (rows ${seconds(loadMs)}, ${Math.round((sizes.logs / loadMs) * 1000).toLocaleString('en')} logs/s; one-api's indexes + stat rollup backfill + analyze ${seconds(seedMs - loadMs)})`,
    );

    const store = createRateLimitStore(config);
    const app = createApi({ db: handle.db, dialect: handle.dialect, config }, store);
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const cookies = {
        root: await login(url, 'root', '123456'),
        user: await login(url, facts.heavyUser.username, facts.heavyUser.password),
      };
      const cases = benchCases(facts);
      const t1 = performance.now();
      const before = await measureAll(url, cookies, cases.filter((c) => c.baseline), baseline);
      console.log(`[${dialect}] baseline (no idx_oa_ indexes) measured in ${seconds(performance.now() - t1)}`);
      const t2 = performance.now();
      const report = await migrate(handle.db, handle.dialect);
      await analyze(handle);
      console.log(`[${dialect}] migrate() created ${report.createdIndexes.length} indexes in ${seconds(performance.now() - t2)}`);
      if (report.warnings.length > 0) console.log(`[${dialect}] warnings: ${report.warnings.join('; ')}`);
      const t3 = performance.now();
      const after = await measureAll(url, cookies, cases, measured);
      console.log(`[${dialect}] with indexes measured in ${seconds(performance.now() - t3)}`);
      await compareStat(handle, facts);
      await insertThroughput(handle, facts);
      return { dialect, before, after };
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
    }
  } finally {
    await handle.close();
    await fresh.dispose();
  }
}

/** Prints the table of one target. */
function printTarget(r: TargetResult): void {
  console.log(`\n${r.dialect} — latency in ms (sequential HTTP; baseline = before the idx_oa_ indexes; stat rollups in both)`);
  const head = `${'request'.padEnd(34)} ${'n'.padStart(4)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'max'.padStart(7)}` +
    ` | ${'base p50'.padStart(8)} ${'base p95'.padStart(8)} ${'speed-up p95'.padStart(12)}  same answer`;
  console.log(head);
  console.log('-'.repeat(head.length));
  let met = 0;
  for (const [label, a] of r.after) {
    const b = r.before.get(label);
    if (a.p95 < targetMs) met++;
    const ratio = b === undefined ? '' : `${(b.p95 / a.p95).toFixed(1)}×`;
    console.log(
      `${label.padEnd(34)} ${String(a.n).padStart(4)} ${ms(a.p50).padStart(7)} ${ms(a.p95).padStart(7)} ${ms(a.max).padStart(7)}` +
        ` | ${ms(b?.p50 ?? Number.NaN).padStart(8)} ${ms(b?.p95 ?? Number.NaN).padStart(8)} ${ratio.padStart(12)}  ${b === undefined ? '' : b.body === a.body ? 'yes' : 'NO'}`,
    );
  }
  const total = r.after.size;
  console.log(`[${r.dialect}] target p95 < ${targetMs} ms: met by ${met} of ${total}, not met by ${total - met}` +
    ` (baseline: met by ${[...r.before.values()].filter((b) => b.p95 < targetMs).length} of ${r.before.size})`);
}

/** Whether PostgreSQL answers at the admin DSN. */
async function postgresUp(): Promise<boolean> {
  try {
    await pgAdmin('select 1');
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  console.log(
    `API bench: ${sizes.logs.toLocaleString('en')} logs, ${sizes.users.toLocaleString('en')} users, ` +
      `${sizes.channels.toLocaleString('en')} channels, ${sizes.tokens.toLocaleString('en')} tokens; ${samples} samples per request`,
  );
  const results: TargetResult[] = [];
  for (const target of targets) {
    if (target !== 'sqlite' && target !== 'postgres') throw new Error(`unknown BENCH_DB target ${target}`);
    if (target === 'postgres' && !(await postgresUp())) {
      console.log(`[postgres] skipped: no server answers at ${pgAdminDsn}`);
      continue;
    }
    const result = await runTarget(target);
    results.push(result);
    printTarget(result);
  }
  const [sqlite, postgres] = [results.find((r) => r.dialect === 'sqlite'), results.find((r) => r.dialect === 'postgres')];
  if (sqlite && postgres) {
    console.log('\nPostgreSQL/SQLite p95 ratio (with indexes; > 1 = PostgreSQL slower)');
    for (const [label, s] of sqlite.after) {
      const p = postgres.after.get(label);
      if (p) console.log(`${label.padEnd(34)} ${(p.p95 / s.p95).toFixed(2)}`);
    }
  }
  console.log(`\ntotal bench time ${seconds(performance.now() - started)}; load average ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
}

await main();
