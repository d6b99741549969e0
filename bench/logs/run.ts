// Log export and dashboard at scale: fills a SQLite file with BENCH_LOGS logs (default 1,000,000)
// and, in the same run, a baseline file with BENCH_BASELINE logs (default 10,000), starts the real
// server (server/main.ts in its own process) on a loopback port for each, and prints:
//   - the start-up time (migrations: the query indexes and rollups built on the filled table),
//   - the streamed CSV export of every row: seconds, MB, rows/s, the server's peak RSS against its
//     RSS before the export,
//   - the export of one user's rows (username filter),
//   - the dashboard over 7 and 30 days for one user and for everyone (admin, user_id=0),
// each the median of BENCH_REPS runs (the full export: BENCH_EXPORT_REPS), and the ratio of the
// large run to the baseline. Figures only: nothing fails on them.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/connect';
import { migrate } from '../../server/db/migrate';
import { rollupTables, rollupTriggers } from '../../server/db/migrations/logRollups';
import { queryIndexes } from '../../server/db/migrations/queryIndexes';

const env = process.env;
const int = (name: string, fallback: number): number => {
  const raw = env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
};
const largeSize = int('BENCH_LOGS', 1_000_000);
const baselineSize = int('BENCH_BASELINE', 10_000);
const reps = int('BENCH_REPS', 5);
const exportReps = int('BENCH_EXPORT_REPS', 3);
const users = 1_000;
const rootToken = 'benchlogsrootaccesstoken00000000';
const day = 86_400;
/** The logs span the last 90 days, ids increasing with time (as the relay writes them). */
const spanDays = 90;
const models = Array.from({ length: 20 }, (_, i) => `model-${String(i).padStart(2, '0')}`);
/** User 2 ("heavy") writes 5 % of the logs; the rest are spread over users 3..1002. */
const heavyUser = { id: 2, name: 'heavy' };

const now = Math.floor(Date.now() / 1000);

/** Fills a new SQLite file with `count` logs; returns its path and directory. */
async function fill(count: number): Promise<{ path: string; dir: string; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'oneapi-bench-logs-'));
  const path = join(dir, 'one-api.db');
  // The schema as the server creates it, then the bulk load without our query indexes and rollups
  // (the server's start-up migration builds them on the filled table, as on an upgraded database).
  const handle = openDatabase({ ...loadConfig({ SESSION_SECRET: 'bench' }), database: { kind: 'sqlite', path, busyTimeoutMs: 5000 } });
  await migrate(handle.db, handle.dialect, { queryIndexes: false });
  await handle.close();
  const t0 = performance.now();
  const db = new BetterSqlite3(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    for (const name of rollupTriggers) db.exec(`drop trigger if exists ${name}`);
    for (const t of rollupTables) db.exec(`drop table if exists ${t.name}`);
    for (const i of queryIndexes) db.exec(`drop index if exists ${i.name}`);
    const insert = db.prepare(
      `insert into logs (user_id, created_at, type, content, username, token_name, model_name, quota, prompt_tokens,
        completion_tokens, channel_id, request_id, elapsed_time, is_stream, system_prompt_reset)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
    );
    const start = now - spanDays * day;
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const heavy = i % 20 === 0;
        const userId = heavy ? heavyUser.id : 3 + Math.floor(random() * users);
        const username = heavy ? heavyUser.name : `user${userId}`;
        const r = random();
        const type = r < 0.9 ? 2 : r < 0.95 ? 1 : r < 0.98 ? 3 : 4;
        const model = models[Math.floor(random() * random() * models.length)]!;
        const prompt = Math.floor(random() * 2000);
        const completion = Math.floor(random() * 1000);
        const content = type === 2 ? `模型倍率 ${(1 + (i % 7) * 0.5).toFixed(2)}，分组倍率 1.00` : `管理员操作 ${i}`;
        insert.run(
          userId, start + Math.floor((i * spanDays * day) / count), type, content, username, `token-${userId % 97}`,
          model, prompt + 2 * completion, prompt, completion, 1 + (i % 50), `req-${i}`, Math.floor(random() * 5000), i % 3 === 0 ? 1 : 0,
        );
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return { path, dir, seconds: (performance.now() - t0) / 1000 };
}

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The running server process. */
interface Server {
  readonly url: string;
  readonly child: ChildProcess;
  readonly startSeconds: number;
}

/** Starts server/main.ts on `path` and waits until it listens. */
async function startServer(path: string): Promise<Server> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...env,
      PORT: String(port),
      SQLITE_PATH: path,
      SQL_DSN: '',
      SESSION_SECRET: 'bench-logs-secret',
      INITIAL_ROOT_ACCESS_TOKEN: rootToken,
      GLOBAL_API_RATE_LIMIT: '0',
      GLOBAL_WEB_RATE_LIMIT: '0',
      CHANNEL_TEST_FREQUENCY: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (b: Buffer) => (errors += b.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (b: Buffer) => {
      if (b.toString().includes('listening')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${errors}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, startSeconds: (performance.now() - t0) / 1000 };
}

/** The server's resident set size (MB), from /proc. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

const auth = { Authorization: `Bearer ${rootToken}` };

/** One export: seconds, bytes, data rows (lines minus header and totals), peak RSS while it ran. */
async function exportOnce(server: Server, query: string): Promise<{ seconds: number; bytes: number; rows: number; peakMb: number }> {
  const pid = server.child.pid!;
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 25);
  const t0 = performance.now();
  const response = await fetch(`${server.url}/api/log/export${query}`, { headers: auth });
  if (response.headers.get('content-type') !== 'text/csv; charset=utf-8') throw new Error(`export failed: ${await response.text()}`);
  const reader = response.body!.getReader();
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, rssMb(pid));
  return { seconds, bytes, rows: lines - 2, peakMb: peak };
}

/** Median time (ms) of `n` dashboard requests (after one warm-up) and the row count of its answer. */
async function dashboardMs(server: Server, query: string, n: number): Promise<{ ms: number; rows: number }> {
  const once = async () => {
    const t0 = performance.now();
    const response = await fetch(`${server.url}/api/user/dashboard${query}`, { headers: auth });
    const body = (await response.json()) as { success: boolean; data: unknown[]; message: string };
    if (!body.success) throw new Error(`dashboard failed: ${body.message}`);
    return { ms: performance.now() - t0, rows: body.data.length };
  };
  const first = await once();
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push((await once()).ms);
  return { ms: median(times), rows: first.rows };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** The figures of one size. */
interface Figures {
  readonly size: number;
  readonly fillSeconds: number;
  readonly startSeconds: number;
  readonly exportAll: { seconds: number; mb: number; rowsPerSecond: number; rows: number; rssBeforeMb: number; peakMb: number };
  readonly exportUser: { ms: number; rows: number };
  readonly dashboards: readonly { label: string; ms: number; rows: number }[];
}

async function measure(size: number): Promise<Figures> {
  console.log(`\n[${size.toLocaleString('en')} logs] filling…`);
  const filled = await fill(size);
  console.log(`  filled in ${filled.seconds.toFixed(1)} s; starting the server (migrations build the indexes)…`);
  const server = await startServer(filled.path);
  try {
    console.log(`  server up in ${server.startSeconds.toFixed(1)} s`);
    const rssBeforeMb = rssMb(server.child.pid!);
    const runs = [];
    for (let i = 0; i < exportReps; i++) runs.push(await exportOnce(server, ''));
    const mid = runs.slice().sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!;
    const exportAll = {
      seconds: mid.seconds,
      mb: mid.bytes / 1e6,
      rowsPerSecond: mid.rows / mid.seconds,
      rows: mid.rows,
      rssBeforeMb,
      peakMb: Math.max(...runs.map((r) => r.peakMb)),
    };
    console.log(
      `  export all: ${exportAll.rows} rows, ${exportAll.seconds.toFixed(2)} s, ${exportAll.mb.toFixed(1)} MB, ` +
        `${Math.round(exportAll.rowsPerSecond).toLocaleString('en')} rows/s, RSS ${exportAll.rssBeforeMb.toFixed(0)} → peak ${exportAll.peakMb.toFixed(0)} MB`,
    );
    const userRuns = [];
    for (let i = 0; i < reps; i++) userRuns.push(await exportOnce(server, `?username=${heavyUser.name}&type=2`));
    const exportUser = { ms: median(userRuns.map((r) => r.seconds * 1000)), rows: userRuns[0]!.rows };
    console.log(`  export one user (consume): ${exportUser.rows} rows, ${exportUser.ms.toFixed(0)} ms`);
    const range = (days: number) => `start_timestamp=${now - days * day}&end_timestamp=${now}`;
    const dashboards = [];
    for (const [label, query] of [
      ['dashboard 7 d, one user', `?${range(7)}&user_id=${heavyUser.id}`],
      ['dashboard 30 d, one user', `?${range(30)}&user_id=${heavyUser.id}`],
      ['dashboard 7 d, all users', `?${range(7)}&user_id=0`],
      ['dashboard 30 d, all users', `?${range(30)}&user_id=0`],
      ['dashboard default (root, 7 UTC days)', ''],
    ] as const) {
      const result = await dashboardMs(server, query, reps);
      dashboards.push({ label, ...result });
      console.log(`  ${label}: ${result.ms.toFixed(1)} ms (${result.rows} rows)`);
    }
    return { size, fillSeconds: filled.seconds, startSeconds: server.startSeconds, exportAll, exportUser, dashboards };
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    rmSync(filled.dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`Log export and dashboard bench: ${largeSize.toLocaleString('en')} logs vs ${baselineSize.toLocaleString('en')} (median of ${reps}; full export ${exportReps}×)`);
  const base = await measure(baselineSize);
  const large = await measure(largeSize);
  const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
  console.log(`\nSummary (${large.size.toLocaleString('en')} vs ${base.size.toLocaleString('en')} logs, ${ratio(large.size, base.size)} the rows)`);
  console.log(
    `  export all:      ${large.exportAll.seconds.toFixed(2)} s vs ${base.exportAll.seconds.toFixed(3)} s; ` +
      `rows/s ${Math.round(large.exportAll.rowsPerSecond).toLocaleString('en')} vs ${Math.round(base.exportAll.rowsPerSecond).toLocaleString('en')} (${ratio(large.exportAll.rowsPerSecond, base.exportAll.rowsPerSecond)}); ` +
      `RSS growth ${(large.exportAll.peakMb - large.exportAll.rssBeforeMb).toFixed(0)} MB vs ${(base.exportAll.peakMb - base.exportAll.rssBeforeMb).toFixed(0)} MB`,
  );
  console.log(`  export one user: ${large.exportUser.ms.toFixed(0)} ms vs ${base.exportUser.ms.toFixed(0)} ms (${ratio(large.exportUser.ms, base.exportUser.ms)})`);
  large.dashboards.forEach((d, i) => {
    const b = base.dashboards[i]!;
    console.log(`  ${d.label.padEnd(38)} ${d.ms.toFixed(1).padStart(7)} ms vs ${b.ms.toFixed(1).padStart(6)} ms (${ratio(d.ms, b.ms)})`);
  });
  console.log(`  server start (index build): ${large.startSeconds.toFixed(1)} s vs ${base.startSeconds.toFixed(1)} s; fill ${large.fillSeconds.toFixed(1)} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
