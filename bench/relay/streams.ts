// The relay bench's many-streams scenario (`BENCH_SCENARIO=streams npm run bench:relay`, or
// `npm run bench:relay:streams`): BENCH_STREAMS (5,000) streaming clients at once, each getting a
// long answer from a provider-like upstream (the fake's `/tokens` path: the first token after
// BENCH_STREAM_FIRST_MS, 100, then one every BENCH_STREAM_TOKEN_MS, 500, for BENCH_STREAM_SECONDS,
// 10), started evenly over BENCH_STREAM_RAMP_MS (5,000), loaded directly, through the bare proxy
// and through the gateway (BENCH_STREAM_VIAS, "direct,proxy,gateway"), one after the other. The
// load generator is its own process (bench/relay/streamLoad.ts) with its own open-files limit and
// one keep-alive connection per client. Prints, per way: the streams completed, the time to the
// first token and the tokens' delivery time (upstream stamp to arrival, on the shared monotonic
// clock) and gaps, p50 / p99 / max; the serving processes' event-loop delay (perf_hooks'
// monitorEventLoopDelay, preloaded by bench/relay/loopProbe.mjs and read over an IPC channel: no
// route, no change in the gateway) and peak RSS; the load generator's own delay (it must not be
// the bottleneck); then the gateway's added p99 over the bare proxy and over direct, against the
// targets (RSS < 1 GB), and the quota check: the streams token's consume logs, their sum, the
// token's and root's quota movements and tokens × price must all agree exactly.
// Figures only: the exit code is 1 when the bench could not run or the quota check failed.
import type { ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { cpuSeconds, openFilesLimit, peakRssMb, repoRoot, rssMb, startChild, type Child } from './processes';
import { monotonicMicros } from './profile';
import { openBenchDatabase, readStreamsAccounting, seedRelay, seedStreams, streamsModel, streamsRatios, streamsTokenQuota, type StreamsAccounting } from './seed';
import { envNumber, streamShapeOf, tokensPerStream } from './streamShape';
import type { Spread, StreamFigures, StreamJob } from './streamLoad';

type Via = 'direct' | 'proxy' | 'gateway';
const allVias: readonly Via[] = ['direct', 'proxy', 'gateway'];

/** Starts the gateway on `dbPath` with extra Node flags, an IPC channel and an open-files limit (run.ts's `startGateway`). */
export type GatewayStarter = (o: { readonly nodeFlags: readonly string[]; readonly openFiles: number }) => Promise<{ child: Child; url: string }>;

/** The event-loop delays one probe reported (ms). */
interface Loop {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** One way's run. */
interface ViaRun {
  readonly via: Via;
  readonly figures: StreamFigures;
  /** The serving process's event-loop delay, peak RSS sampled during the run (MB). */
  readonly loop: Loop | null;
  readonly upstreamLoop: Loop | null;
  readonly peakRss: number;
  /** CPU seconds (user + system) the serving process and the load generator spent in the run. */
  readonly cpu: number;
  readonly loadCpu: number;
}

/** Sends `message` to `child` and resolves with the first answer `accept` takes. */
function ask<T>(child: ChildProcess, message: object, accept: (answer: unknown) => T | undefined, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', listen);
      reject(new Error(`no answer to ${JSON.stringify(message)} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listen = (answer: unknown): void => {
      const taken = accept(answer);
      if (taken === undefined) return;
      clearTimeout(timer);
      child.off('message', listen);
      resolve(taken);
    };
    child.on('message', listen);
    child.send(message);
  });
}

const probeReset = (child: Child): Promise<true> => ask(child.process, { probe: 'reset' }, (a) => ((a as { probe?: unknown }).probe === 'reset' ? true : undefined), 60_000);
const probeRead = (child: Child): Promise<Loop> =>
  ask(child.process, { probe: 'read' }, (a) => ((a as { probe?: unknown }).probe === 'loop' ? (a as Loop) : undefined), 60_000);

/** A figure, or '-' when there is none (NaN, which the IPC channel carries as null: a run with one token per stream has no delivery times). */
const f = (v: number | null, digits = 1): string => (v === null || Number.isNaN(v) ? '-' : v.toFixed(digits));
const spreadText = (s: Spread): string => `${f(s.p50)} / ${f(s.p99)} / ${f(s.max)}`;

/** Prints `rows` as columns of the given widths, the first left-aligned. */
function printColumns(widths: readonly number[], rows: readonly (readonly string[])[]): void {
  for (const cells of rows) console.log(cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
}

/** Polls the streams token's figures until its consume logs reach `expected` (Infinity: no count known) and the token's figures stop changing for 2 s. */
async function settledStreams(dbPath: string, expected: number): Promise<StreamsAccounting> {
  const handle = openBenchDatabase(dbPath);
  try {
    let last = await readStreamsAccounting(handle);
    let stableSince = performance.now();
    const deadline = performance.now() + 60_000;
    while (!(last.consumeLogs >= expected && last.loggedQuota === last.tokenUsed) && performance.now() - stableSince < 2_000 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const next = await readStreamsAccounting(handle);
      if (next.consumeLogs !== last.consumeLogs || next.tokenUsed !== last.tokenUsed) stableSince = performance.now();
      last = next;
    }
    return last;
  } finally {
    await handle.close();
  }
}

/**
 * The scenario, on the processes it starts itself (fake upstream, bare proxy, gateway, load
 * generator) and the database at `dbPath` (a SQLite file, or the BENCH_SQL_DSN database); returns
 * whether the quota check passed, and when the gateway's run began (`monotonicMicros`, for its profile).
 */
export async function runStreams(dbPath: string, startGateway: GatewayStarter, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; gatewayRunUs: number }> {
  const clients = Math.max(1, Math.round(envNumber(env, 'BENCH_STREAMS', 5000)));
  const rampMs = envNumber(env, 'BENCH_STREAM_RAMP_MS', 5000);
  const shape = streamShapeOf(env);
  const perStream = tokensPerStream(shape);
  const vias = (env.BENCH_STREAM_VIAS ?? 'direct,proxy,gateway').split(',').map((v) => v.trim()) as Via[];
  if (vias.some((v) => !allVias.includes(v)) || !vias.includes('gateway')) throw new Error('BENCH_STREAM_VIAS lists direct, proxy and gateway (gateway at least)');
  const limits = openFilesLimit();
  console.log(
    `Many-streams bench: ${clients} streaming clients started over ${rampMs} ms; each answer's first token after ${shape.firstMs} ms, ` +
      `then one every ${shape.everyMs} ms for ${shape.forMs / 1000} s (${perStream} tokens, ${f((clients * 1000) / shape.everyMs, 0)} tokens/s at full concurrency); ` +
      `ways: ${vias.join(', ')}; ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; open files limit ${limits.soft} (hard ${limits.hard})`,
  );
  const probe = ['--import', new URL('./loopProbe.mjs', import.meta.url).href];
  const children: Child[] = [];
  try {
    const shapeEnv = { BENCH_STREAM_FIRST_MS: String(shape.firstMs), BENCH_STREAM_TOKEN_MS: String(shape.everyMs), BENCH_STREAM_SECONDS: String(shape.forMs / 1000) };
    // The fake keeps the proxy's and the gateway's idle pools open besides the current run's.
    const upstream = await startChild({ script: 'bench/relay/upstream.ts', env: { ...env, ...shapeEnv }, cwd: repoRoot, ready: /listening (\d+)/, nodeFlags: probe, ipc: true, openFiles: 3 * clients + 1024 });
    children.push(upstream.child);
    const upstreamUrl = `http://127.0.0.1:${upstream.match[1]}`;
    const proxy = await startChild({ script: 'bench/relay/proxy.ts', env: { ...env, BENCH_UPSTREAM_URL: upstreamUrl }, cwd: repoRoot, ready: /listening (\d+)/, nodeFlags: probe, ipc: true, openFiles: 2 * clients + 1024 });
    children.push(proxy.child);
    await seedRelay(dbPath, upstreamUrl);
    const { apiKey } = await seedStreams(dbPath, upstreamUrl);
    const gateway = await startGateway({ nodeFlags: probe, openFiles: 2 * clients + 1024 });
    children.push(gateway.child);
    const load = await startChild({ script: 'bench/relay/streamLoad.ts', env: { ...env }, cwd: repoRoot, ready: /ready/, ipc: true, openFiles: clients + 1024 });
    children.push(load.child);

    const body = JSON.stringify({ model: streamsModel, messages: [{ role: 'user', content: 'Tell me a long story.' }], stream: true, stream_options: { include_usage: true } });
    const jobOf = (via: Via): StreamJob => ({
      url: via === 'gateway' ? `${gateway.url}/v1/chat/completions` : `${via === 'direct' ? upstreamUrl : `http://127.0.0.1:${proxy.match[1]}`}/tokens/v1/chat/completions`,
      headers: { authorization: `Bearer ${via === 'gateway' ? apiKey : 'sk-bench-upstream-key'}` },
      body,
      clients,
      rampMs,
      timeoutMs: rampMs + shape.firstMs + shape.forMs + 60_000,
      warm: env.BENCH_STREAM_WARM === '1',
    });
    const server: Record<Via, Child> = { direct: upstream.child, proxy: proxy.child, gateway: gateway.child };

    // One stream each way first: all answer, and the gateway's first request is not measured.
    const check = await ask(load.child.process, { job: { ...jobOf('gateway'), clients: 1, rampMs: 0 } }, (a) => a as { figures?: StreamFigures; error?: string }, 120_000);
    if (check.figures === undefined || check.figures.complete !== 1) throw new Error(`the gateway's check stream failed: ${check.error ?? JSON.stringify(check.figures?.failures)}`);
    console.log(`check: one stream through the gateway, ${check.figures.tokens} tokens, first after ${f(check.figures.firstToken.p50)} ms`);
    // The check stream billed first, so that the figures before the runs include it.
    const checkStreams = 1;
    const before = await settledStreams(dbPath, checkStreams);

    const runs: ViaRun[] = [];
    let gatewayRunUs = 0;
    for (const via of vias) {
      if (via === 'gateway') gatewayRunUs = monotonicMicros();
      await Promise.all([probeReset(server[via]), probeReset(upstream.child)]);
      let peakRss = rssMb(server[via].pid);
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server[via].pid))), 200);
      const cpuBefore = cpuSeconds(server[via].pid);
      const loadCpuBefore = cpuSeconds(load.child.pid);
      const answer = await ask(load.child.process, { job: jobOf(via) }, (a) => a as { figures?: StreamFigures; error?: string }, jobOf(via).timeoutMs + 120_000);
      const cpu = cpuSeconds(server[via].pid) - cpuBefore;
      const loadCpu = cpuSeconds(load.child.pid) - loadCpuBefore;
      clearInterval(sampler);
      if (answer.figures === undefined) throw new Error(`load generator (${via}): ${answer.error ?? 'no figures'}`);
      const [loop, upstreamLoop] = await Promise.all([probeRead(server[via]), probeRead(upstream.child)]);
      const run: ViaRun = { via, figures: answer.figures, loop: via === 'direct' ? upstreamLoop : loop, upstreamLoop, peakRss, cpu, loadCpu };
      runs.push(run);
      const g = answer.figures;
      console.log(
        `  ${via}: ${g.complete} of ${clients} streams complete (${g.non200} non-200, ${g.failed} failed), ${g.peakOpen} open at once, ${g.warmConnections} connections opened first; ` +
          `first token p99 ${f(g.firstToken.p99)} ms; delivery p99 ${f(g.delivery.p99)} ms; loop delay p99 ${f(run.loop?.p99 ?? Number.NaN)} ms; RSS peak ${f(peakRss, 0)} MB; ` +
          `CPU ${f(cpu, 2)} s (load generator ${f(loadCpu, 2)} s); ${f(g.seconds)} s`,
      );
      for (const failure of g.failures) console.log(`    ${failure}`);
    }
    const gatewayPeakHwm = peakRssMb(gateway.child.pid);

    console.log('\n=== Many streams: per way (ms; p50 / p99 / max) ===');
    printColumns(
      [8, 9, 22, 22, 22, 20, 8, 10, 10, 14],
      [
        ['via', 'complete', 'first token', 'token delivery', 'gap between tokens', 'server loop delay', 'RSS MB', 'CPU ms/str', 'CPU µs/tok', 'client loop'],
        ...runs.map((r) => [
          r.via,
          `${r.figures.complete}/${clients}`,
          spreadText(r.figures.firstToken),
          spreadText(r.figures.delivery),
          spreadText(r.figures.gap),
          r.loop === null ? '-' : `${f(r.loop.p50)} / ${f(r.loop.p99)} / ${f(r.loop.max)}`,
          f(r.peakRss, 0),
          f((r.cpu * 1000) / Math.max(1, r.figures.complete), 2),
          f((r.cpu * 1e6) / Math.max(1, r.figures.tokens), 1),
          `${f(r.figures.ownLoop.p99)} / ${f(r.figures.ownLoop.max)}`,
        ]),
      ],
    );
    console.log(
      `(first token: from the request's start, the upstream waiting ${shape.firstMs} ms; token delivery: from the upstream's write to the client's read; ` +
        `gap: between two tokens' arrivals, ${shape.everyMs} ms apart at the upstream; server loop delay: the serving process's, the fake upstream's for direct; ` +
        `CPU: the serving process's (user + system) per stream and per token, the settlement thread's included; client loop: the load generator's own delay, p99 / max; ` +
        `the fake upstream's own: ${runs.map((r) => `${r.via} run ${r.upstreamLoop === null ? '-' : `p99 ${f(r.upstreamLoop.p99)} max ${f(r.upstreamLoop.max)}`}`).join(', ')})`,
    );

    const byVia = new Map(runs.map((r) => [r.via, r]));
    const gw = byVia.get('gateway')!;
    console.log('\nAdded by the gateway, p99 (ms):');
    for (const base of ['proxy', 'direct'] as const) {
      const b = byVia.get(base);
      if (b === undefined) continue;
      console.log(
        `  over ${base.padEnd(6)}: first token ${f(gw.figures.firstToken.p99 - b.figures.firstToken.p99)}, token delivery ${f(gw.figures.delivery.p99 - b.figures.delivery.p99)}, ` +
          `gap ${f(gw.figures.gap.p99 - b.figures.gap.p99)} (p50: ${f(gw.figures.firstToken.p50 - b.figures.firstToken.p50)}, ${f(gw.figures.delivery.p50 - b.figures.delivery.p50)}, ${f(gw.figures.gap.p50 - b.figures.gap.p50)})`,
      );
    }
    // The added p99 against its target, over each baseline measured; a baseline whose own figures
    // already exceed the target (the machine's share) is said so: no gateway could meet it here.
    const addedTargetMs = 50;
    console.log(`\nTargets (figures only):`);
    for (const base of ['proxy', 'direct'] as const) {
      const b = byVia.get(base);
      if (b === undefined) {
        console.log(`  added p99 over ${base}: not measured (BENCH_STREAM_VIAS)`);
        continue;
      }
      const added = Math.max(gw.figures.firstToken.p99 - b.figures.firstToken.p99, gw.figures.delivery.p99 - b.figures.delivery.p99);
      const floor = base === 'direct' ? null : Math.max(b.figures.delivery.p99 - (byVia.get('direct')?.figures.delivery.p99 ?? Number.NaN), b.figures.firstToken.p99 - (byVia.get('direct')?.figures.firstToken.p99 ?? Number.NaN));
      console.log(
        `  added p99 over ${base.padEnd(6)} (the larger of first token and token delivery): ${f(added)} ms (target < ${addedTargetMs} ms): ${added < addedTargetMs ? 'met' : 'NOT met'}` +
          (floor === null || Number.isNaN(floor) ? '' : `; the bare proxy itself adds ${f(floor)} ms over direct${floor >= addedTargetMs ? ' (out of reach on this machine now)' : ''}`),
      );
    }
    console.log(
      `  gateway RSS peak ${f(gw.peakRss, 0)} MB sampled during the run, ${f(gatewayPeakHwm, 0)} MB over its life (VmHWM) (target < 1024 MB): ${Math.max(gw.peakRss, gatewayPeakHwm) < 1024 ? 'met' : 'NOT met'}`,
    );
    console.log(`  gateway event-loop delay p99 ${f(gw.loop?.p99 ?? Number.NaN)} ms, max ${f(gw.loop?.max ?? Number.NaN)} ms; CPU ${f((gw.cpu * 1e6) / Math.max(1, gw.figures.tokens), 1)} µs per token relayed`);
    console.log(`  streams complete ${gw.figures.complete} of ${clients}: ${gw.figures.complete === clients ? 'all' : 'NOT all'}`);
    const starved = runs.filter((r) => r.figures.ownLoop.p99 > addedTargetMs);
    if (starved.length > 0) {
      console.log(
        `  the load generator's own event loop was late (p99 ${starved.map((r) => `${r.via} ${f(r.figures.ownLoop.p99)} ms`).join(', ')}): above the target itself, so the latencies ` +
          `measure the machine (load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}) as much as the ways`,
      );
    }

    // The gateway stops first: a graceful stop waits for the billing of every stream it served
    // (cut streams included), so the figures read next are final (read while it ran, settlements
    // still queued made them disagree).
    await gateway.child.stop();
    const complaints = gateway.child.stderr().trim().split('\n').filter((line) => line !== '');

    // Exact quota: every complete stream costs ceil((prompt + completion × completion ratio) × model ratio).
    const expectedLogs = gw.figures.complete + checkStreams;
    // Streams cut short (client timeouts) are billed for what was delivered: their price is not known here.
    const allComplete = gw.figures.complete === clients;
    const after = await settledStreams(dbPath, allComplete ? expectedLogs : Number.POSITIVE_INFINITY);
    const price = Math.ceil((9 + perStream * streamsRatios.completion) * streamsRatios.model);
    const expectedQuota = price * expectedLogs;
    const logged = after.loggedQuota;
    const runLogged = logged - before.loggedQuota;
    const checks: [string, boolean][] = [];
    if (allComplete) {
      checks.push(
        [`consume logs ${after.consumeLogs} = streams answered ${expectedLogs} (incl. the check stream)`, after.consumeLogs === expectedLogs],
        [`logged quota ${logged} = ${expectedLogs} × ${price} (${perStream} tokens × ${streamsRatios.completion} + 9 prompt, × ${streamsRatios.model}) = ${expectedQuota}`, logged === expectedQuota],
        [`every log's quota is ${price} (${after.distinctQuotas.join(', ')})`, after.distinctQuotas.length === 1 && after.distinctQuotas[0] === price],
        [`logged completion tokens ${after.loggedCompletionTokens} = ${expectedLogs} × ${perStream}`, after.loggedCompletionTokens === expectedLogs * perStream],
      );
    }
    checks.push(
      [`token used_quota ${after.tokenUsed} = logged quota; remain_quota + used_quota = ${after.tokenRemain + after.tokenUsed} (the starting ${streamsTokenQuota})`, after.tokenUsed === logged && after.tokenRemain + after.tokenUsed === streamsTokenQuota],
      [
        `during the runs: logged ${runLogged}, token remain_quota fell by ${before.tokenRemain - after.tokenRemain}, root's quota fell by ${before.userQuota - after.userQuota} and its used_quota grew by ${after.userUsed - before.userUsed}: all equal`,
        before.tokenRemain - after.tokenRemain === runLogged && before.userQuota - after.userQuota === runLogged && after.userUsed - before.userUsed === runLogged,
      ],
    );
    console.log(`\nQuota check (streams token)${allComplete ? '' : `: not every stream completed, so ${after.consumeLogs} consume logs (some for cut streams, billed what they got) are only checked against the quota moved`}:`);
    for (const [text, ok] of checks) console.log(`  ${ok ? 'ok ' : 'BAD'} ${text}`);
    const ok = checks.every(([, good]) => good);

    if (complaints.length > 0) console.log(`Gateway stderr (${complaints.length} lines), first lines:\n  ${complaints.slice(0, 5).join('\n  ')}`);
    return { ok, gatewayRunUs };
  } finally {
    for (const child of children.reverse()) await child.stop();
  }
}
