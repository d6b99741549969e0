// Relay overhead (`npm run bench:relay`): a fake upstream (bench/relay/upstream.ts, its own process)
// loaded directly and through the gateway (server/main.ts in its own process, API only, SQLite in
// a temp dir, one type-8 channel to the fake, an unlimited token, LogConsumeEnabled on), for
// POST /v1/chat/completions non-streaming and streaming, at concurrency 1 and 64. Prints p50/p99
// latency and requests/s for both, the added p50 at c=1 and the throughput ratio at c=64 against
// the targets (< 1 ms added p50 at c=1; >= 80 % of direct throughput at c=64), the gateway's RSS
// before and after, and checks that the consume-log count equals the gateway's 2xx answers.
// Figures only: the exit code is 1 when the bench could not run or the consume-log check failed,
// never because a target was missed.
// Env: BENCH_SECONDS (10) per measured run, BENCH_WARMUP_SECONDS (2), BENCH_CONCURRENCY ("1,64"),
// BENCH_PROFILE=1 runs the gateway with --cpu-prof and prints its hottest functions and files
// (the profile is kept in bench/out/).
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, quantile, rate, type Measured, type Target } from './load';
import { cpuSeconds, freePort, repoRoot, rssMb, startChild, type Child } from './processes';
import { monotonicMicros, summarizeProfile } from './profile';
import { benchModel, openBenchDatabase, readAccounting, seedRelay, type Accounting } from './seed';

const env = process.env;
const num = (name: string, fallback: number): number => {
  const raw = env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number`);
  return n;
};
const seconds = Math.max(0.5, num('BENCH_SECONDS', 10));
const warmupSeconds = num('BENCH_WARMUP_SECONDS', 2);
const concurrencies = (env.BENCH_CONCURRENCY ?? '1,64').split(',').map((s) => {
  const n = Number(s.trim());
  if (!Number.isSafeInteger(n) || n < 1) throw new Error('BENCH_CONCURRENCY must list positive integers');
  return n;
});
const profiling = env.BENCH_PROFILE === '1' || env.BENCH_PROFILE === 'true';
const targets = { addedP50Ms: 1, throughputRatio: 0.8 };

type Mode = 'non-streaming' | 'streaming';
const modes: readonly Mode[] = ['non-streaming', 'streaming'];

/** The request body of `mode`; the same bytes go direct and through the gateway. */
const bodyOf = (mode: Mode): string =>
  JSON.stringify({
    model: benchModel,
    messages: [{ role: 'user', content: 'Say something short.' }],
    ...(mode === 'streaming' ? { stream: true, stream_options: { include_usage: true } } : {}),
  });

/** One row of the result table. */
interface Row {
  readonly mode: Mode;
  readonly connections: number;
  readonly direct: Measured;
  readonly gateway: Measured;
}

const f = (v: number, digits = 2) => (Number.isNaN(v) ? '-' : v.toFixed(digits));
const p50 = (m: Measured) => quantile(m.result.latencies, 0.5);
const p99 = (m: Measured) => quantile(m.result.latencies, 0.99);

/** One request, to check an endpoint answers before loading it. */
async function probe(t: Target): Promise<{ status: number; text: string }> {
  const response = await fetch(t.url, { method: 'POST', headers: { 'content-type': 'application/json', ...t.headers }, body: t.body });
  return { status: response.status, text: await response.text() };
}

/** Polls the consume logs until they reach `expected` or stop changing for a second. */
async function settledAccounting(path: string, expected: number): Promise<Accounting> {
  const handle = openBenchDatabase(path);
  try {
    let last = await readAccounting(handle);
    let stableSince = performance.now();
    const deadline = performance.now() + 10_000;
    while (last.consumeLogs < expected && performance.now() - stableSince < 1_000 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const next = await readAccounting(handle);
      if (next.consumeLogs !== last.consumeLogs) stableSince = performance.now();
      last = next;
    }
    return last;
  } finally {
    await handle.close();
  }
}

function printTable(rows: readonly Row[]): void {
  const header = ['mode', 'c', 'direct p50', 'p99', 'req/s', 'CPU/req', 'gateway p50', 'p99', 'req/s', 'CPU/req', 'added p50', 'gw/direct', 'non-2xx'];
  const widths = [13, 3, 10, 7, 8, 7, 11, 7, 8, 7, 9, 9, 7];
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log('\nLatency in ms (2xx answers only), throughput in requests/s, CPU/req: ms of CPU (user + system) the serving');
  console.log('process (fake upstream for direct, gateway for gateway) spent per request; it stays meaningful on a busy machine');
  console.log(line(header));
  for (const r of rows) {
    const d = r.direct.result;
    const g = r.gateway.result;
    console.log(
      line([
        r.mode,
        String(r.connections),
        f(p50(r.direct)),
        f(p99(r.direct)),
        f(rate(d), 0),
        f(r.direct.cpuMsPerRequest, 3),
        f(p50(r.gateway)),
        f(p99(r.gateway)),
        f(rate(g), 0),
        f(r.gateway.cpuMsPerRequest, 3),
        f(p50(r.gateway) - p50(r.direct)),
        `${f((rate(g) / rate(d)) * 100, 0)} %`,
        String(d.non2xx + g.non2xx + d.errors + g.errors),
      ]),
    );
  }
}

function printTargets(rows: readonly Row[]): void {
  console.log('\nTargets');
  for (const r of rows) {
    if (r.connections === 1) {
      const added = p50(r.gateway) - p50(r.direct);
      const met = added < targets.addedP50Ms;
      console.log(`  ${r.mode.padEnd(13)} c=1:  added p50 ${f(added)} ms (target < ${targets.addedP50Ms} ms): ${met ? 'met' : 'NOT met'}`);
    } else if (r.connections === 64) {
      const ratio = rate(r.gateway.result) / rate(r.direct.result);
      const met = ratio >= targets.throughputRatio;
      console.log(`  ${r.mode.padEnd(13)} c=64: gateway/direct ${f(ratio * 100, 1)} % (target >= ${targets.throughputRatio * 100} %): ${met ? 'met' : 'NOT met'}`);
    }
  }
}

function printProfile(dir: string, sinceUs: number): void {
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  if (files.length === 0) {
    console.log('\nNo CPU profile was written.');
    return;
  }
  const out = join(repoRoot, 'bench', 'out');
  mkdirSync(out, { recursive: true });
  const kept = join(out, 'relay-gateway.cpuprofile');
  copyFileSync(join(dir, files[0]!), kept);
  const summary = summarizeProfile(kept, 30, sinceUs);
  console.log(`\nGateway CPU profile during the load (${kept}): ${f(summary.total / 1000, 1)} s busy, ${f(summary.idle / 1000, 1)} s idle; self time:`);
  console.log('  by function:');
  for (const h of summary.functions) console.log(`    ${f(h.share * 100, 1).padStart(5)} %  ${f(h.ms, 0).padStart(6)} ms  ${h.label}`);
  console.log('  by file:');
  for (const h of summary.files.slice(0, 15)) console.log(`    ${f(h.share * 100, 1).padStart(5)} %  ${f(h.ms, 0).padStart(6)} ms  ${h.label}`);
}

/** Starts server/main.ts on `dbPath` in `dir` (no dist/ there: API only); with `profileDir`, under --cpu-prof. */
async function startGateway(dir: string, dbPath: string, profileDir: string | null): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const { child } = await startChild({
    script: 'server/main.ts',
    cwd: dir,
    nodeFlags: profileDir === null ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    env: {
      ...env,
      NODE_ENV: 'production',
      PORT: String(port),
      SQLITE_PATH: dbPath,
      SQL_DSN: '',
      SESSION_SECRET: 'bench-relay-secret',
      GLOBAL_API_RATE_LIMIT: '0',
      GLOBAL_WEB_RATE_LIMIT: '0',
      CHANNEL_TEST_FREQUENCY: '0',
    },
    ready: /listening on/,
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** One request per mode, direct and through the gateway, to show both answer before the load; returns the gateway's 2xx count. */
async function check(direct: (mode: Mode) => Target, viaGateway: (mode: Mode) => Target): Promise<number> {
  let ok = 0;
  for (const mode of modes) {
    const d = await probe(direct(mode));
    const g = await probe(viaGateway(mode));
    if (g.status >= 200 && g.status < 300) ok++;
    const shape = (text: string) =>
      mode === 'streaming'
        ? `${text.split('\n\n').filter((e) => e.startsWith('data: ')).length} events${text.includes('data: [DONE]') ? ' ending [DONE]' : ', no [DONE]'}`
        : `${text.length} bytes`;
    console.log(`check ${mode}: direct ${d.status} (${shape(d.text)}), gateway ${g.status} (${g.status === 200 ? shape(g.text) : g.text.slice(0, 200)})`);
    if (d.status !== 200) throw new Error(`the fake upstream answered ${d.status}: ${d.text}`);
  }
  return ok;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'oneapi-bench-relay-'));
  const children: Child[] = [];
  try {
    console.log(
      `Relay bench: ${seconds} s per measured run after ${warmupSeconds} s warm-up; concurrency ${concurrencies.join(', ')}; ` +
        `${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    );
    const upstream = await startChild({ script: 'bench/relay/upstream.ts', env: { ...env }, cwd: repoRoot, ready: /listening (\d+)/ });
    children.push(upstream.child);
    const upstreamUrl = `http://127.0.0.1:${upstream.match[1]}`;

    const dbPath = join(dir, 'one-api.db');
    const { apiKey } = await seedRelay(dbPath, upstreamUrl);
    const profileDir = join(dir, 'profile');
    const { child: gateway, url: gatewayUrl } = await startGateway(dir, dbPath, profiling ? profileDir : null);
    children.push(gateway);

    const direct = (mode: Mode): Target => ({
      url: `${upstreamUrl}/v1/chat/completions`,
      headers: { authorization: 'Bearer sk-bench-upstream-key' },
      body: bodyOf(mode),
    });
    const viaGateway = (mode: Mode): Target => ({
      url: `${gatewayUrl}/v1/chat/completions`,
      headers: { authorization: `Bearer ${apiKey}` },
      body: bodyOf(mode),
    });

    let gatewayOk = await check(direct, viaGateway);

    const rssBefore = rssMb(gateway.pid);
    const loadStartUs = monotonicMicros();
    const rows: Row[] = [];
    for (const mode of modes) {
      for (const connections of concurrencies) {
        const o = { connections, seconds, warmupSeconds };
        const d = await measure(direct(mode), { ...o, serverCpu: () => cpuSeconds(upstream.child.pid) });
        const g = await measure(viaGateway(mode), { ...o, serverCpu: () => cpuSeconds(gateway.pid) });
        gatewayOk += g.totalOk;
        rows.push({ mode, connections, direct: d, gateway: g });
        console.log(
          `  ${mode} c=${connections}: direct ${f(rate(d.result), 0)} req/s p50 ${f(p50(d))} ms; gateway ${f(rate(g.result), 0)} req/s p50 ${f(p50(g))} ms` +
            (g.totalNon2xx > 0 ? ` (${g.totalNon2xx} non-2xx)` : '') +
            `; gateway RSS ${f(rssMb(gateway.pid), 0)} MB`,
        );
      }
    }
    const rssAfter = rssMb(gateway.pid);

    printTable(rows);
    printTargets(rows);
    console.log(`\nGateway RSS: ${f(rssBefore, 0)} MB before the load, ${f(rssAfter, 0)} MB after`);

    const acc = await settledAccounting(dbPath, gatewayOk);
    const same = acc.consumeLogs === gatewayOk;
    console.log(
      `Consume logs: ${acc.consumeLogs} for ${gatewayOk} 2xx gateway answers: ${same ? 'equal' : 'DIFFERENT'}; ` +
        `logged quota ${acc.loggedQuota}, token used_quota ${acc.tokenUsedQuota}, user used_quota ${acc.userUsedQuota}, ` +
        `user request_count ${acc.userRequests}: logged and user quota ${acc.loggedQuota === acc.userUsedQuota ? 'agree' : 'DIFFER'}`,
    );

    await gateway.stop();
    const complaints = gateway.stderr().trim().split('\n').filter((line) => line !== '');
    if (complaints.length > 0) console.log(`Gateway stderr (${complaints.length} lines), first lines:\n  ${complaints.slice(0, 5).join('\n  ')}`);
    if (profiling) printProfile(profileDir, loadStartUs);
    if (!same) process.exitCode = 1;
  } finally {
    for (const child of children.reverse()) await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
