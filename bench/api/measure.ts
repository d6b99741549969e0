/**
 * Sequential latency sampling over real HTTP: a warm-up, then `samples` timed requests per
 * case; p50/p95/max in milliseconds. Every answer must be HTTP 200 with `success: true`.
 */

/** One timed request: a label, a path, and which logged-in session sends it. */
export interface BenchCase {
  readonly label: string;
  readonly path: string;
  readonly as: 'root' | 'user';
  /** Also measured before the bench indexes exist (list/stat/search queries). */
  readonly baseline: boolean;
}

/** Latency summary of one case. */
export interface Latency {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  /** The body of the first answer (to check that indexes do not change answers). */
  readonly body: string;
}

/** Percentile `p` (0..1) of sorted values, nearest-rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/** Logs in and returns the Cookie header value of the session. */
export async function login(base: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await response.json()) as { success: boolean; message: string };
  if (!body.success) throw new Error(`login as ${username} failed: ${body.message}`);
  const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
  return cookies.join('; ');
}

/** Sends one GET and returns its body; throws unless it is a successful envelope. */
async function hit(url: string, cookie: string): Promise<string> {
  const get = () => fetch(url, { headers: { cookie, 'accept-encoding': 'gzip' } });
  // A kept-alive socket the server closed while the bench was busy elsewhere fails once: retry.
  const response = await get().catch(get);
  const text = await response.text();
  if (response.status !== 200 || !text.startsWith('{"success":true')) {
    throw new Error(`${url} answered ${response.status}: ${text.slice(0, 200)}`);
  }
  return text;
}

/** Options of one sampling run. */
export interface SampleOptions {
  readonly warmup: number;
  readonly samples: number;
  /** Stop early (after at least `minSamples`) once this much time went into one case. */
  readonly budgetMs: number;
  readonly minSamples: number;
}

/** Measures one case sequentially. */
export async function sample(base: string, cookie: string, path: string, o: SampleOptions): Promise<Latency> {
  const url = base + path;
  let body = '';
  for (let i = 0; i < o.warmup; i++) body = await hit(url, cookie);
  const times: number[] = [];
  const started = performance.now();
  while (times.length < o.samples) {
    const t0 = performance.now();
    const text = await hit(url, cookie);
    times.push(performance.now() - t0);
    if (body === '') body = text;
    if (times.length >= o.minSamples && performance.now() - started > o.budgetMs) break;
  }
  times.sort((a, b) => a - b);
  return { n: times.length, p50: percentile(times, 0.5), p95: percentile(times, 0.95), max: times[times.length - 1] ?? 0, body };
}
