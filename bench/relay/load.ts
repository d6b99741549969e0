// Load generation for the relay bench: autocannon in this process, with latencies taken from its
// per-response events (fractional milliseconds; autocannon's own histogram keeps whole
// milliseconds, too coarse for a 1 ms target). Every run is sized by a request count, not a
// duration, so that no request is cut off when a run ends: each request the gateway receives is
// answered and counted, which the consume-log check relies on.
import autocannon from 'autocannon';

/** One endpoint to load. */
export interface Target {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The figures of one run. */
export interface LoadResult {
  /** 2xx latencies in ms, sorted ascending. */
  readonly latencies: Float64Array;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly seconds: number;
}

/** Requests per second of 2xx answers. */
export const rate = (r: LoadResult): number => r.ok / r.seconds;

/** The `q` quantile (0..1) of sorted values, nearest rank; NaN when empty. */
export function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** Sends exactly `amount` POST requests over `connections` keep-alive connections. */
export function runLoad(target: Target, connections: number, amount: number): Promise<LoadResult> {
  const values: number[] = [];
  let non2xx = 0;
  let errors = 0;
  // The run's time ends at its last answer: autocannon only notices the end at its next sample tick.
  let last = 0;
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...target.headers },
        body: target.body,
        connections,
        amount: Math.max(amount, connections),
        timeout: 30,
        sampleInt: 100,
      },
      (error: unknown) => {
        if (error !== null && error !== undefined) {
          reject(error instanceof Error ? error : new Error(`autocannon failed: ${JSON.stringify(error)}`));
          return;
        }
        const latencies = Float64Array.from(values).sort();
        resolve({ latencies, ok: values.length, non2xx, errors, seconds: ((last === 0 ? performance.now() : last) - t0) / 1000 });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      last = performance.now();
      if (statusCode >= 200 && statusCode < 300) values.push(responseTime);
      else non2xx++;
    });
    instance.on('reqError', () => errors++);
  });
}

export interface MeasureOptions {
  readonly connections: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** Reads the CPU seconds used so far by the process serving the target. */
  readonly serverCpu: () => number;
}

/** What `measure` did: the measured run plus every request it sent (warm-ups included). */
export interface Measured {
  readonly result: LoadResult;
  /** CPU time (ms, user + system) the serving process spent per answer in the measured run. */
  readonly cpuMsPerRequest: number;
  /** 2xx answers over all runs of this measurement (warm-ups included). */
  readonly totalOk: number;
  readonly totalNon2xx: number;
}

/**
 * Loads `target` for about `seconds` (in runs of about a second, each sized on the rate of the one
 * before: a cold server's first rate is far below its warm one). Returns the 2xx answers and
 * the non-2xx ones.
 */
export async function loadFor(target: Target, connections: number, seconds: number): Promise<{ ok: number; non2xx: number }> {
  const until = performance.now() + seconds * 1000;
  let amount = Math.max(20, connections * 2);
  let ok = 0;
  let non2xx = 0;
  while (performance.now() < until) {
    const run = await runLoad(target, connections, amount);
    ok += run.ok;
    non2xx += run.non2xx;
    const left = (until - performance.now()) / 1000;
    amount = Math.max(connections * 5, Math.round(rate(run) * Math.min(1, Math.max(left, 0.1))));
  }
  return { ok, non2xx };
}

/**
 * Warm-up, then the measured run. A short probe (2 requests per connection, at least 20) estimates the rate;
 * a warm-up of about `warmupSeconds` refines it; the measured run sends about `seconds` worth.
 * (`measureInTurns` with one target and one turn.)
 */
export async function measure(target: Target, o: MeasureOptions): Promise<Measured> {
  return (await measureInTurns({ target }, { ...o, rounds: 1, serverCpu: { target: o.serverCpu } })).target;
}

/**
 * `measure` for several targets at once, in turns: after each target's probe and warm-up, `rounds`
 * rounds in which every target gets a run of about `seconds / rounds` seconds. The figures of each
 * target pool its runs, so all of them span the same minutes: a machine whose speed drifts (a
 * shared one does, by ±30 % from one minute to the next at c=1) moves them together, and their
 * differences hold. Used for the c=1 rows, whose differences are the targets.
 */
export async function measureInTurns<K extends string>(
  targets: Readonly<Record<K, Target>>,
  o: { readonly connections: number; readonly seconds: number; readonly warmupSeconds: number; readonly rounds: number; readonly serverCpu: Readonly<Record<K, () => number>> },
): Promise<Record<K, Measured>> {
  const keys = Object.keys(targets) as K[];
  const sized = (r: LoadResult, s: number) => Math.max(o.connections * 5, Math.round(rate(r) * s));
  const state = {} as Record<K, { warm: LoadResult[]; runs: LoadResult[]; cpuMs: number; per: number }>;
  for (const key of keys) {
    const warm = [await runLoad(targets[key], o.connections, Math.max(20, o.connections * 2))];
    if (o.warmupSeconds > 0) warm.push(await runLoad(targets[key], o.connections, sized(warm[0]!, o.warmupSeconds)));
    state[key] = { warm, runs: [], cpuMs: 0, per: sized(warm[warm.length - 1]!, o.seconds / o.rounds) };
  }
  for (let round = 0; round < o.rounds; round++) {
    for (const key of keys) {
      const cpuBefore = o.serverCpu[key]();
      state[key].runs.push(await runLoad(targets[key], o.connections, state[key].per));
      state[key].cpuMs += (o.serverCpu[key]() - cpuBefore) * 1000;
    }
  }
  const out = {} as Record<K, Measured>;
  for (const key of keys) {
    const { warm, runs, cpuMs } = state[key];
    const result: LoadResult = {
      latencies: Float64Array.from(runs.flatMap((r) => Array.from(r.latencies))).sort(),
      ok: runs.reduce((n, r) => n + r.ok, 0),
      non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
      errors: runs.reduce((n, r) => n + r.errors, 0),
      seconds: runs.reduce((n, r) => n + r.seconds, 0),
    };
    const all = [...warm, ...runs];
    out[key] = {
      result,
      cpuMsPerRequest: cpuMs / Math.max(1, result.ok + result.non2xx),
      totalOk: all.reduce((n, r) => n + r.ok, 0),
      totalNon2xx: all.reduce((n, r) => n + r.non2xx, 0),
    };
  }
  return out;
}
