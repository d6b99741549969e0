// The load generator of the relay bench's many-streams scenario (bench/relay/streams.ts), run as its
// own process with an IPC channel (`node --import tsx bench/relay/streamLoad.ts`), so that holding
// thousands of sockets costs the bench's own event loop nothing and the generator's delays are its
// own (it reports them). For each job it receives it starts `clients` streaming POSTs, each on a
// connection of its own (node:http's Agent, keep-alive, maxSockets = clients; opened first when
// `warm`), spread evenly over `rampMs`, reads each server-sent event stream to its end, and answers with the figures:
// time to the first token (from the request's start), each later token's delivery time (from the
// upstream's stamp, `"t"`, on the shared monotonic clock, to its arrival here) and the gaps between
// tokens, the answers' statuses, tokens and `[DONE]`s, and its own event-loop delay.
// Prints `ready` once listening for jobs.
import { Agent, request, type IncomingMessage } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { nowMicros } from './clock';

/** One run: `clients` streams to `url`. */
export interface StreamJob {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly clients: number;
  /** The requests start evenly spread over this many ms. */
  readonly rampMs: number;
  /** A stream not finished after this many ms is cut and counted as failed. */
  readonly timeoutMs: number;
  /**
   * Open the connections first (one GET each, all at once): then a request's time excludes its
   * connect. Off by default: a gateway closes connections idle for 5 s (Node's keepAliveTimeout),
   * and opening 5,000 takes longer than that on a busy machine, so reused ones met resets.
   */
  readonly warm: boolean;
}

/** p50 / p99 / max of a set of ms figures (NaN when empty). */
export interface Spread {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** What a run measured. */
export interface StreamFigures {
  readonly clients: number;
  /** Connections open before the streams started (of `clients`; 0 unless `warm`). */
  readonly warmConnections: number;
  /** Streams answered 200 that ended with `[DONE]` and every token their usage chunk counts. */
  readonly complete: number;
  readonly non200: number;
  /** Streams that failed (network error, timeout) or ended without `[DONE]` or short of tokens. */
  readonly failed: number;
  /** A few failure descriptions. */
  readonly failures: readonly string[];
  /** Streams open at once, at most. */
  readonly peakOpen: number;
  /** Tokens received (content chunks) and the completion tokens the usage chunks reported. */
  readonly tokens: number;
  readonly reportedTokens: number;
  /** From the request's start to its first token's arrival. */
  readonly firstToken: Spread;
  /** From a later token's stamp upstream to its arrival here. */
  readonly delivery: Spread;
  /** Between the arrivals of two tokens of a stream. */
  readonly gap: Spread;
  /** This process's event-loop delay during the run (ms). */
  readonly ownLoop: { readonly p99: number; readonly max: number };
  /** From the first request's start to the last stream's end. */
  readonly seconds: number;
}

/** The nearest-rank quantiles of `values` (sorted here). */
function spreadOf(values: Float64Array): Spread {
  values.sort();
  const at = (q: number) => (values.length === 0 ? Number.NaN : values[Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))]!);
  return { count: values.length, p50: at(0.5), p99: at(0.99), max: values.length === 0 ? Number.NaN : values[values.length - 1]! };
}

/** A growable list of numbers (a stream run collects hundreds of thousands). */
class Numbers {
  private data = new Float64Array(1024);
  private size = 0;
  push(v: number): void {
    if (this.size === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.size++] = v;
  }
  values(): Float64Array {
    return this.data.slice(0, this.size);
  }
}

/** The stamp (`"t":<µs>`) of an event, or NaN. */
function stampOf(event: string): number {
  const at = event.indexOf('"t":');
  return at < 0 ? Number.NaN : Number.parseInt(event.slice(at + 4, at + 24), 10);
}

/** The completion tokens a usage chunk reports, or null when `event` is none. */
function reportedOf(event: string): number | null {
  if (!event.includes('"usage"')) return null;
  try {
    const chunk = JSON.parse(event.slice('data: '.length)) as { usage?: { completion_tokens?: unknown } | null };
    return typeof chunk.usage?.completion_tokens === 'number' ? chunk.usage.completion_tokens : null;
  } catch {
    return null;
  }
}

/** Opens `count` connections to `url`'s origin through `agent` (one GET each, all in flight at once); returns how many stayed open. */
async function warm(agent: Agent, url: URL, count: number): Promise<number> {
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const req = request({ agent, host: url.hostname, port: url.port, path: '/bench-warm', method: 'GET' }, (res) => {
            res.resume();
            res.on('end', resolve);
            res.on('error', () => resolve());
          });
          req.on('error', () => resolve());
          req.end();
        }),
    ),
  );
  return Object.values(agent.freeSockets).reduce((n, list) => n + (list?.length ?? 0), 0);
}

async function run(job: StreamJob): Promise<StreamFigures> {
  const url = new URL(job.url);
  const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000, maxSockets: job.clients, maxFreeSockets: job.clients, scheduling: 'fifo' });
  const warmConnections = job.warm ? await warm(agent, url, job.clients) : 0;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const firstToken = new Numbers();
  const delivery = new Numbers();
  const gap = new Numbers();
  const failures: string[] = [];
  let complete = 0;
  let non200 = 0;
  let failed = 0;
  let open = 0;
  let peakOpen = 0;
  let tokens = 0;
  let reportedTokens = 0;
  const failure = (what: string): void => {
    failed += 1;
    if (failures.length < 5) failures.push(what);
  };
  const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(job.body)), ...job.headers };

  /** One stream, from its request to its end. */
  const stream = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const started = nowMicros();
      open += 1;
      peakOpen = Math.max(peakOpen, open);
      let settled = false;
      /** `outcome`: 'complete', 'non200', or what went wrong. */
      const finish = (outcome: string): void => {
        if (settled) return;
        settled = true;
        open -= 1;
        clearTimeout(timer);
        if (outcome === 'complete') complete += 1;
        else if (outcome === 'non200') non200 += 1;
        else failure(outcome);
        resolve();
      };
      const req = request({ agent, host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: 'POST', headers }, (res: IncomingMessage) => {
        if (res.statusCode !== 200) {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            if (failures.length < 5) failures.push(`status ${res.statusCode}: ${text.slice(0, 200)}`);
            finish('non200');
          });
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        let received = 0;
        let reported: number | null = null;
        let done = false;
        let lastArrival = Number.NaN;
        res.on('data', (chunk: string) => {
          const arrived = nowMicros();
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const event = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (event === 'data: [DONE]') {
              done = true;
              continue;
            }
            const stamp = stampOf(event);
            if (Number.isNaN(stamp)) {
              reported = reportedOf(event) ?? reported;
              continue;
            }
            received += 1;
            if (received === 1) firstToken.push((arrived - started) / 1000);
            else {
              delivery.push((arrived - stamp) / 1000);
              gap.push((arrived - lastArrival) / 1000);
            }
            lastArrival = arrived;
          }
        });
        res.on('end', () => {
          tokens += received;
          reportedTokens += reported ?? 0;
          if (done && reported === received) finish('complete');
          else finish(`ended after ${received} tokens${done ? '' : ' without [DONE]'}${reported === null ? ', no usage' : `, usage ${reported}`}`);
        });
        res.on('error', (error) => finish(`answer: ${error.message}`));
      });
      const timer = setTimeout(() => req.destroy(new Error(`not finished after ${job.timeoutMs} ms`)), job.timeoutMs);
      req.on('error', (error) => finish(`request: ${error.message}`));
      req.end(job.body);
    });

  const t0 = nowMicros();
  loop.enable();
  const all: Promise<void>[] = [];
  await new Promise<void>((resolve) => {
    let startedCount = 0;
    const startDue = (): void => {
      const due = job.rampMs <= 0 ? job.clients : Math.min(job.clients, Math.floor(((nowMicros() - t0) / 1000 / job.rampMs) * job.clients) + 1);
      while (startedCount < due) {
        all.push(stream());
        startedCount += 1;
      }
      if (startedCount < job.clients) setTimeout(startDue, 1);
      else resolve();
    };
    startDue();
  });
  await Promise.all(all);
  loop.disable();
  const seconds = (nowMicros() - t0) / 1e6;
  agent.destroy();
  return {
    clients: job.clients,
    warmConnections,
    complete,
    non200,
    failed,
    failures,
    peakOpen,
    tokens,
    reportedTokens,
    firstToken: spreadOf(firstToken.values()),
    delivery: spreadOf(delivery.values()),
    gap: spreadOf(gap.values()),
    ownLoop: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
    seconds,
  };
}

const send = (message: unknown): void => {
  process.send?.(message);
};
process.on('message', (message: unknown) => {
  const job = (message as { job?: StreamJob }).job;
  if (job === undefined) return;
  run(job).then(
    (figures) => send({ figures }),
    (error: unknown) => send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
console.log('ready');
