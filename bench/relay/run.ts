// Relay overhead (`npm run bench:relay`): a fake upstream (bench/relay/upstream.ts, its own process)
// loaded three ways: directly, through a bare proxy (bench/relay/proxy.ts, its own process: the
// floor of any Node.js gateway here, two loopback hops and an HTTP client + server, no work) and
// through the gateway (server/main.ts in its own process, API only, SQLite in a temp dir, two type-8
// channels to the fake, an unlimited token, LogConsumeEnabled on), for POST /v1/chat/completions
// non-streaming and streaming, at concurrency 1 and 64, in two scenarios: an instant upstream, and
// a provider-like one that waits BENCH_UPSTREAM_DELAY_MS before answering (its own channel and
// model, the `/slow` path of the fake); and a translated one: the gateway's OpenAI request to a type-14
// channel, relayed through the Anthropic wire to the fake's Messages API, against the same answer
// fetched in Anthropic's format directly and through the bare proxy. Prints p50/p99 latency, requests/s and CPU per request of
// each, the added p50 at c=1 and the throughput ratio at c=64 against the targets (< 1 ms added p50
// at c=1; >= 80 % of direct throughput at c=64) per scenario, with the same figures against the
// bare proxy beside them, the gateway's RSS before and after, and checks that the consume-log count
// equals the gateway's 2xx answers, per channel and in all.
// Figures only: the exit code is 1 when the bench could not run or the consume-log check failed,
// never because a target was missed.
// The c=1 rows measure the three ways in turns (BENCH_TURNS, 10, runs each, alternating), so that
// the machine's drift moves them together; the c=64 rows one after the other.
// Env: BENCH_SECONDS (10) per measured run, BENCH_WARMUP_SECONDS (2) before each, BENCH_JIT_WARMUP_SECONDS
// (8) per mode for the gateway once before the first measurement (at c=8), BENCH_CONCURRENCY ("1,64"),
// BENCH_UPSTREAM_DELAY_MS (100; 0 skips the provider-like scenario), BENCH_PROFILE=1 runs the
// gateway with --cpu-prof and prints its hottest functions and files (the profile is kept in
// bench/out/), BENCH_GATEWAY_CHECKOUT runs the gateway of another checkout of this repository (its
// server/main.ts, on the same seeded database; for before/after figures in the same conditions),
// BENCH_SQL_DSN runs the gateway on that PostgreSQL database (empty; seeded here) instead of SQLite.
// BENCH_SCENARIO=streams runs the many-streams scenario instead (5,000 long streams at once; see
// bench/relay/streams.ts for its figures and settings).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadFor, measure, measureInTurns, quantile, rate, type Measured, type Target } from './load';
import { cpuSeconds, freePort, repoRoot, rssMb, startChild, type Child } from './processes';
import { monotonicMicros, summarizeProfile } from './profile';
import { runStreams } from './streams';
import { assertEmptyDatabase, benchModel, openBenchDatabase, readAccounting, seedRelay, slowModel, translatedModel, type Accounting } from './seed';

const env = process.env;
const num = (name: string, fallback: number): number => {
  const raw = env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number`);
  return n;
};
const seconds = Math.max(0.5, num('BENCH_SECONDS', 10));
const warmupSeconds = num('BENCH_WARMUP_SECONDS', 2);
const jitWarmupSeconds = num('BENCH_JIT_WARMUP_SECONDS', 8);
const upstreamDelayMs = num('BENCH_UPSTREAM_DELAY_MS', 100);
const concurrencies = (env.BENCH_CONCURRENCY ?? '1,64').split(',').map((s) => {
  const n = Number(s.trim());
  if (!Number.isSafeInteger(n) || n < 1) throw new Error('BENCH_CONCURRENCY must list positive integers');
  return n;
});
/** How many turns the c=1 runs take (each way gets BENCH_SECONDS / turns per turn). */
const turns = Math.max(1, Math.round(num('BENCH_TURNS', 10)));
const profiling = env.BENCH_PROFILE === '1' || env.BENCH_PROFILE === 'true';
const targets = { addedP50Ms: 1, throughputRatio: 0.8 };

type Mode = 'non-streaming' | 'streaming';
const modes: readonly Mode[] = ['non-streaming', 'streaming'];

/** The three ways to the fake upstream, in the order they are measured and printed. */
type Via = 'direct' | 'proxy' | 'gateway';
const vias: readonly Via[] = ['direct', 'proxy', 'gateway'];

/** One scenario: which upstream path (hence which channel and model) the load goes to. */
interface Scenario {
  readonly title: string;
  /** The path prefix on the fake upstream (and on the bare proxy): '' or '/slow'. */
  readonly prefix: string;
  readonly model: string;
  /** The gateway channel that serves `model`. */
  readonly channel: number;
  /**
   * For a translated scenario: the upstream path (after `prefix`) and the body the direct and proxy
   * runs send in the provider's own format; the gateway still gets the OpenAI request.
   */
  readonly native?: { readonly path: string; readonly body: (mode: Mode) => string };
}

/** The request body of `mode` for `model`; the same bytes go direct, through the proxy and through the gateway. */
const bodyOf = (mode: Mode, model: string): string =>
  JSON.stringify({
    model,
    messages: [{ role: 'user', content: 'Say something short.' }],
    ...(mode === 'streaming' ? { stream: true, stream_options: { include_usage: true } } : {}),
  });

/** Anthropic's Messages body of the same request (what the gateway's wire sends upstream for `bodyOf`). */
const anthropicBodyOf = (mode: Mode, model: string): string =>
  JSON.stringify({
    model,
    max_tokens: 4096,
    messages: [{ role: 'user', content: 'Say something short.' }],
    ...(mode === 'streaming' ? { stream: true } : {}),
  });

/** One row of a scenario's result: a mode and a concurrency, measured each way. */
interface Row {
  readonly mode: Mode;
  readonly connections: number;
  readonly measured: Readonly<Record<Via, Measured>>;
}

/** A scenario's rows and the gateway's 2xx answers in it (checks and warm-ups included). */
interface ScenarioResult {
  readonly scenario: Scenario;
  readonly rows: readonly Row[];
  readonly gatewayOk: number;
  readonly rssAfter: number;
}

const f = (v: number, digits = 2) => (Number.isNaN(v) ? '-' : v.toFixed(digits));
const p50 = (m: Measured) => quantile(m.result.latencies, 0.5);
const p99 = (m: Measured) => quantile(m.result.latencies, 0.99);
const ratio = (a: Measured, b: Measured) => rate(a.result) / rate(b.result);
const percent = (r: number, digits = 0) => `${f(r * 100, digits)} %`;

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

/** Prints `rows` as columns of the given widths, the first left-aligned. */
function printColumns(widths: readonly number[], rows: readonly (readonly string[])[]): void {
  for (const cells of rows) console.log(cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
}

function printTable({ scenario, rows }: ScenarioResult): void {
  console.log(`\n=== Scenario: ${scenario.title} ===`);
  console.log('Latency in ms (2xx answers only), throughput in requests/s, CPU/req: ms of CPU (user + system) the serving');
  console.log('process (fake upstream for direct, bare proxy for proxy, gateway for gateway) spent per request; it stays');
  console.log('meaningful on a busy machine. Errors: non-2xx answers and failed requests of the measured run.');
  printColumns(
    [13, 3, 7, 8, 8, 8, 8, 6],
    [
      ['mode', 'c', 'via', 'p50', 'p99', 'req/s', 'CPU/req', 'errors'],
      ...rows.flatMap((r) =>
        vias.map((via, i) => {
          const m = r.measured[via];
          return [
            i === 0 ? r.mode : '',
            i === 0 ? String(r.connections) : '',
            via,
            f(p50(m)),
            f(p99(m)),
            f(rate(m.result), 0),
            f(m.cpuMsPerRequest, 3),
            String(m.result.non2xx + m.result.errors),
          ];
        }),
      ),
    ],
  );
  console.log('Added p50 (ms) and throughput ratios: gateway against direct and against the bare proxy, the proxy against direct');
  printColumns(
    [13, 3, 10, 9, 12, 10, 9, 12],
    [
      ['mode', 'c', 'gw-direct', 'gw-proxy', 'proxy-direct', 'gw/direct', 'gw/proxy', 'proxy/direct'],
      ...rows.map((r) => {
        const { direct, proxy, gateway } = r.measured;
        return [
          r.mode,
          String(r.connections),
          f(p50(gateway) - p50(direct)),
          f(p50(gateway) - p50(proxy)),
          f(p50(proxy) - p50(direct)),
          percent(ratio(gateway, direct)),
          percent(ratio(gateway, proxy)),
          percent(ratio(proxy, direct)),
        ];
      }),
    ],
  );
}

/**
 * A target's verdict, and when the gateway misses it whether the bare proxy (no work at all) meets
 * it here: when it does not, no Node.js gateway can on this machine in this scenario.
 */
const verdict = (met: boolean, proxyMeets: boolean): string =>
  met ? 'met' : proxyMeets ? 'NOT met (the bare proxy meets it)' : 'NOT met, nor by the bare proxy (out of reach on this machine here)';

function printTargets({ scenario, rows }: ScenarioResult): void {
  console.log(`\nTargets, ${scenario.title} (figures only; the bare proxy's share for comparison)`);
  for (const r of rows) {
    const { direct, proxy, gateway } = r.measured;
    if (r.connections === 1) {
      const added = p50(gateway) - p50(direct);
      const floor = p50(proxy) - p50(direct);
      console.log(
        `  ${r.mode.padEnd(13)} c=1:  added p50 ${f(added)} ms (target < ${targets.addedP50Ms} ms): ${verdict(added < targets.addedP50Ms, floor < targets.addedP50Ms)}; ` +
          `over the bare proxy ${f(p50(gateway) - p50(proxy))} ms (the proxy adds ${f(floor)} ms)`,
      );
    } else if (r.connections === 64) {
      const share = ratio(gateway, direct);
      const floor = ratio(proxy, direct);
      console.log(
        `  ${r.mode.padEnd(13)} c=64: gateway/direct ${percent(share, 1)} (target >= ${targets.throughputRatio * 100} %): ` +
          `${verdict(share >= targets.throughputRatio, floor >= targets.throughputRatio)}; ` +
          `gateway/proxy ${percent(ratio(gateway, proxy), 1)} (proxy/direct ${percent(floor, 1)})`,
      );
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

/**
 * The gateway as `npm start` runs it: the server bundle (scripts/serverBuild.mjs: esbuild, no
 * TypeScript loader) of this checkout or of BENCH_GATEWAY_CHECKOUT, built once into its
 * dist-server-bench/; or with
 * BENCH_GATEWAY_TSX=1 its sources through tsx, as before. tsx compiles with esbuild's `keepNames`,
 * which names every closure when it is created (a `defineProperty` each): with a dozen closures per
 * relayed stream, that alone was about 2 % of the gateway's CPU in the many-streams scenario, a
 * cost the real server does not have.
 */
let gatewayBuilt: { script: string; tsx: boolean } | undefined;
function gatewayScript(): { script: string; tsx: boolean } {
  const checkout = env.BENCH_GATEWAY_CHECKOUT ?? '';
  if (env.BENCH_GATEWAY_TSX === '1') return { script: checkout === '' ? 'server/main.ts' : `${resolve(checkout)}/server/main.ts`, tsx: true };
  if (gatewayBuilt === undefined) {
    // In the checkout, one level down as dist-server/ is: the bundle reads ../package.json and
    // imports its packages from the checkout's node_modules.
    const root = checkout === '' ? repoRoot : resolve(checkout);
    const outdir = join(root, 'dist-server-bench');
    // With plain Node: the build asks Node's resolver which packages it can leave as imports.
    const built = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'serverBuild.mjs'), outdir, root], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (built.status !== 0) throw new Error(`building the gateway bundle failed (exit ${built.status})`);
    gatewayBuilt = { script: join(outdir, 'main.mjs'), tsx: false };
  }
  return gatewayBuilt;
}

/**
 * Starts the gateway (`gatewayScript`) on `dbPath` in `dir` (no dist/ there: API only); with
 * `profileDir`, under --cpu-prof; with `extra`, with those Node flags, an IPC channel and that
 * open-files limit (the many-streams scenario).
 */
async function startGateway(
  dir: string,
  dbPath: string,
  profileDir: string | null,
  extra?: { readonly nodeFlags: readonly string[]; readonly openFiles: number },
): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const { script, tsx } = gatewayScript();
  const { child } = await startChild({
    script,
    tsx,
    cwd: dir,
    // as scripts/start.mjs (process.setSourceMapsEnabled): stack traces name the sources
    nodeFlags: [...(tsx ? [] : ['--enable-source-maps']), ...(profileDir === null ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]), ...(extra?.nodeFlags ?? [])],
    ipc: extra !== undefined,
    openFiles: extra?.openFiles,
    env: {
      ...env,
      NODE_ENV: 'production',
      PORT: String(port),
      ...(/^postgres(ql)?:\/\//.test(dbPath) ? { SQL_DSN: dbPath } : { SQLITE_PATH: dbPath, SQL_DSN: '' }),
      SESSION_SECRET: 'bench-relay-secret',
      GLOBAL_API_RATE_LIMIT: '0',
      GLOBAL_WEB_RATE_LIMIT: '0',
      CHANNEL_TEST_FREQUENCY: '0',
    },
    ready: /listening on/,
    // tsx compiles the server at start: slow on a busy machine.
    timeoutMs: 180_000,
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** The endpoints of the three ways, for one scenario. */
type Endpoints = (via: Via, mode: Mode) => Target;

/** One request per mode and way, to show all answer before the load; returns the gateway's 2xx count. */
async function check(scenario: Scenario, endpoint: Endpoints): Promise<number> {
  let ok = 0;
  for (const mode of modes) {
    const shape = (text: string) =>
      mode === 'streaming'
        ? `${text.split('\n\n').filter((e) => e.startsWith('data: ')).length} events${text.includes('data: [DONE]') ? ' ending [DONE]' : ', no [DONE]'}`
        : `${text.length} bytes`;
    const seen: string[] = [];
    for (const via of vias) {
      const answer = await probe(endpoint(via, mode));
      if (via === 'gateway' && answer.status >= 200 && answer.status < 300) ok++;
      seen.push(`${via} ${answer.status} (${answer.status === 200 ? shape(answer.text) : answer.text.slice(0, 200)})`);
      if (via !== 'gateway' && answer.status !== 200) throw new Error(`${via}, ${scenario.title}: answered ${answer.status}: ${answer.text}`);
    }
    console.log(`check ${scenario.title}, ${mode}: ${seen.join(', ')}`);
  }
  return ok;
}

/** The processes the bench loads, and the CPU reading of each way's serving process. */
interface Servers {
  readonly upstreamUrl: string;
  readonly proxyUrl: string;
  readonly gatewayUrl: string;
  readonly apiKey: string;
  readonly gatewayPid: number;
  readonly cpuOf: Readonly<Record<Via, () => number>>;
}

/** Checks, then measures every mode and concurrency of `scenario` each way (after the gateway's warm-up when `warmUp`). */
async function runScenario(scenario: Scenario, s: Servers, warmUp: boolean): Promise<ScenarioResult> {
  const endpoint: Endpoints = (via, mode) => {
    const body = bodyOf(mode, scenario.model);
    if (via === 'gateway') return { url: `${s.gatewayUrl}/v1/chat/completions`, headers: { authorization: `Bearer ${s.apiKey}` }, body };
    const base = via === 'direct' ? s.upstreamUrl : s.proxyUrl;
    const { path, body: nativeBody } = scenario.native ?? { path: '/v1/chat/completions', body: () => body };
    return { url: `${base}${scenario.prefix}${path}`, headers: { authorization: 'Bearer sk-bench-upstream-key' }, body: nativeBody(mode) };
  };
  console.log(`\nScenario: ${scenario.title}`);
  let gatewayOk = await check(scenario, endpoint);
  if (warmUp && jitWarmupSeconds > 0) {
    // Once per run, before the first measurement: V8 optimises the gateway's hot code over its
    // first thousands of requests (CPU per request at c=1 was about 40 % higher after 2 s than
    // after 10 s). The bare proxy and the fake upstream are small enough for their own warm-ups.
    for (const mode of modes) {
      const warmed = await loadFor(endpoint('gateway', mode), 8, jitWarmupSeconds);
      gatewayOk += warmed.ok;
      console.log(`  gateway warm-up, ${mode}: ${warmed.ok} requests in ${jitWarmupSeconds} s at c=8${warmed.non2xx > 0 ? ` (${warmed.non2xx} non-2xx)` : ''}`);
    }
  }
  const rows: Row[] = [];
  for (const mode of modes) {
    for (const connections of concurrencies) {
      const o = { connections, seconds, warmupSeconds };
      let measured = {} as Record<Via, Measured>;
      if (connections === 1) {
        // The three ways in turns (c=1 figures drift with the machine; their differences are the target).
        const targets = { direct: endpoint('direct', mode), proxy: endpoint('proxy', mode), gateway: endpoint('gateway', mode) };
        measured = await measureInTurns(targets, { ...o, rounds: turns, serverCpu: s.cpuOf });
      } else {
        for (const via of vias) measured[via] = await measure(endpoint(via, mode), { ...o, serverCpu: s.cpuOf[via] });
      }
      gatewayOk += measured.gateway.totalOk;
      rows.push({ mode, connections, measured });
      const summary = vias.map((via) => `${via} ${f(rate(measured[via].result), 0)} req/s p50 ${f(p50(measured[via]))} ms`).join('; ');
      const failed = vias.reduce((n, via) => n + measured[via].totalNon2xx, 0);
      console.log(`  ${mode} c=${connections}: ${summary}${failed > 0 ? ` (${failed} non-2xx)` : ''}; gateway RSS ${f(rssMb(s.gatewayPid), 0)} MB`);
    }
  }
  return { scenario, rows, gatewayOk, rssAfter: rssMb(s.gatewayPid) };
}

/** Compares the consume logs with the gateway's 2xx answers, per channel and in all; true when all agree. */
function reportAccounting(acc: Accounting, results: readonly ScenarioResult[]): boolean {
  const gatewayOk = results.reduce((n, r) => n + r.gatewayOk, 0);
  const perChannel = results.map((r) => ({ r, logs: acc.consumeLogsByChannel.get(r.scenario.channel) ?? 0 }));
  const same = acc.consumeLogs === gatewayOk && perChannel.every(({ r, logs }) => logs === r.gatewayOk);
  console.log(
    `Consume logs: ${acc.consumeLogs} for ${gatewayOk} 2xx gateway answers (` +
      perChannel.map(({ r, logs }) => `${r.scenario.title}: ${logs} for ${r.gatewayOk}`).join('; ') +
      `): ${same ? 'equal' : 'DIFFERENT'}; ` +
      `logged quota ${acc.loggedQuota}, token used_quota ${acc.tokenUsedQuota}, user used_quota ${acc.userUsedQuota}, ` +
      `user request_count ${acc.userRequests}: logged and user quota ${acc.loggedQuota === acc.userUsedQuota ? 'agree' : 'DIFFER'}`,
  );
  return same;
}

/** BENCH_SCENARIO=streams: the many-streams scenario (bench/relay/streams.ts) instead of the others. */
async function streamsMain(): Promise<void> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'oneapi-bench-streams-'));
  try {
    const dbPath = env.BENCH_SQL_DSN ?? join(dir, 'one-api.db');
    await assertEmptyDatabase(dbPath);
    const profileDir = join(dir, 'profile');
    const { ok, gatewayRunUs } = await runStreams(dbPath, (extra) => startGateway(dir, dbPath, profiling ? profileDir : null, extra), env);
    if (profiling) printProfile(profileDir, gatewayRunUs);
    console.log(`\nRun time ${f((performance.now() - started) / 1000, 0)} s; load average now ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    if (!ok) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (env.BENCH_SCENARIO === 'streams') return streamsMain();
  if (env.BENCH_SCENARIO !== undefined && env.BENCH_SCENARIO !== '' && env.BENCH_SCENARIO !== 'overhead') throw new Error('BENCH_SCENARIO is overhead (the default) or streams');
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'oneapi-bench-relay-'));
  const children: Child[] = [];
  try {
    console.log(
      `Relay bench: ${seconds} s per measured run after ${warmupSeconds} s warm-up (the gateway first ${jitWarmupSeconds} s per mode); concurrency ${concurrencies.join(', ')}; ` +
        `provider-like upstream delay ${upstreamDelayMs} ms${upstreamDelayMs === 0 ? ' (scenario skipped)' : ''}; ` +
        `${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    );
    const upstream = await startChild({
      script: 'bench/relay/upstream.ts',
      env: { ...env, BENCH_UPSTREAM_DELAY_MS: String(upstreamDelayMs) },
      cwd: repoRoot,
      ready: /listening (\d+)/,
    });
    children.push(upstream.child);
    const upstreamUrl = `http://127.0.0.1:${upstream.match[1]}`;
    const proxy = await startChild({ script: 'bench/relay/proxy.ts', env: { ...env, BENCH_UPSTREAM_URL: upstreamUrl }, cwd: repoRoot, ready: /listening (\d+)/ });
    children.push(proxy.child);

    const dbPath = env.BENCH_SQL_DSN ?? join(dir, 'one-api.db');
    await assertEmptyDatabase(dbPath);
    const { apiKey, channels } = await seedRelay(dbPath, upstreamUrl);
    const profileDir = join(dir, 'profile');
    const { child: gateway, url: gatewayUrl } = await startGateway(dir, dbPath, profiling ? profileDir : null);
    children.push(gateway);

    const servers: Servers = {
      upstreamUrl,
      proxyUrl: `http://127.0.0.1:${proxy.match[1]}`,
      gatewayUrl,
      apiKey,
      gatewayPid: gateway.pid,
      cpuOf: { direct: () => cpuSeconds(upstream.child.pid), proxy: () => cpuSeconds(proxy.child.pid), gateway: () => cpuSeconds(gateway.pid) },
    };
    const scenarios: Scenario[] = [
      { title: 'instant upstream', prefix: '', model: benchModel, channel: channels.instant },
      ...(upstreamDelayMs > 0 ? [{ title: `provider-like upstream (${upstreamDelayMs} ms)`, prefix: '/slow', model: slowModel, channel: channels.slow }] : []),
      {
        title: 'translated (Anthropic) instant upstream',
        prefix: '/anthropic',
        model: translatedModel,
        channel: channels.translated,
        native: { path: '/v1/messages', body: (mode: Mode) => anthropicBodyOf(mode, translatedModel) },
      },
    ];

    const rssBefore = rssMb(gateway.pid);
    const loadStartUs = monotonicMicros();
    const results: ScenarioResult[] = [];
    for (const [i, scenario] of scenarios.entries()) results.push(await runScenario(scenario, servers, i === 0));

    for (const result of results) {
      printTable(result);
      printTargets(result);
    }
    console.log(`\nGateway RSS: ${f(rssBefore, 0)} MB before the load, ${results.map((r) => `${f(r.rssAfter, 0)} MB after ${r.scenario.title}`).join(', ')}`);

    const acc = await settledAccounting(
      dbPath,
      results.reduce((n, r) => n + r.gatewayOk, 0),
    );
    const same = reportAccounting(acc, results);

    await gateway.stop();
    const complaints = gateway.stderr().trim().split('\n').filter((line) => line !== '');
    if (complaints.length > 0) console.log(`Gateway stderr (${complaints.length} lines), first lines:\n  ${complaints.slice(0, 5).join('\n  ')}`);
    if (profiling) printProfile(profileDir, loadStartUs);
    console.log(`\nRun time ${f((performance.now() - started) / 1000, 0)} s; load average now ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
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
