import { Client, Dispatcher, request } from 'undici';

/**
 * The relay's HTTP client for upstream providers: undici with one keep-alive pool per origin.
 * bench/relay measured, per call against a local upstream: undici about 60 µs p50 and 80–120 µs
 * of CPU, node:http about 100 µs and 130–210 µs, the global `fetch` about 400 µs and 450–520 µs;
 * the relay makes one upstream call per request. The answer offers the part of `Response` the
 * pipeline reads: status, headers, the whole text, or the body's chunks read as they arrive (a
 * Node stream; a web stream around it cost about 2 % of the relay's CPU). No `Accept-Encoding`
 * is sent, so upstreams answer uncompressed.
 *
 * undici's own header and body timeouts are off: RELAY_TIMEOUT (the pipeline's abort signal)
 * bounds the wait for the answer and each silence of a stream, and a stream may run for as
 * long as its upstream keeps sending.
 */

export interface UpstreamResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  /** The whole body as UTF-8 text. */
  text(): Promise<string>;
  /** The next chunk of the body as it arrives, or null at its end (use this or `text`, not both). */
  read(): Promise<Uint8Array | null>;
  /** Stops reading the body; its connection is kept when the rest arrives soon. Never throws. */
  cancel(): void;
}

/** An answer made in the gateway, not read from an upstream (a provider's refusal, a polled result): `text` whole, with `headers` (names read case-insensitively). */
export function madeResponse(status: number, text: string, headers: Readonly<Record<string, string>>): UpstreamResponse {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  let sent = false;
  return {
    status,
    headers: { get: (name) => lower[name.toLowerCase()] ?? null },
    text: () => Promise.resolve(text),
    read: () => {
      if (sent) return Promise.resolve(null);
      sent = true;
      return Promise.resolve(new TextEncoder().encode(text));
    },
    cancel: () => undefined,
  };
}

/** The whole UTF-8 text of a body read chunk by chunk with `read` (an `UpstreamResponse.text` over its own `read`). */
export async function textOfChunks(read: () => Promise<Uint8Array | null>): Promise<string> {
  const decoder = new TextDecoder();
  let all = '';
  for (let chunk = await read(); chunk !== null; chunk = await read()) all += decoder.decode(chunk, { stream: true });
  return all + decoder.decode();
}

/**
 * The connections per upstream origin, with no cap: each serves one relay request in flight (or a
 * channel test), so their number is already bounded by the requests the gateway accepts; a cap
 * only made requests wait behind others' streams: with 512, the 513th of 5,000 concurrent streams
 * to one provider got its first token only once a whole stream before it had ended, ten seconds
 * later (bench/relay, many-streams scenario). Idle connections close after `keepAliveTimeout`.
 *
 * A free list per origin instead of undici's pool: the pool looks for an idle connection by
 * scanning all of them, so with thousands of streams open each new request walked thousands of
 * busy connections first (2.5 % of the gateway's time while 1,000 streams a second started, and
 * quadratic in the streams open). Here a connection that finished its request (undici's `drain`)
 * goes on its origin's stack and the next request takes the last one put there (the warmest
 * socket); a new connection is made only when the stack is empty.
 */
const clientOptions: Client.Options = {
  pipelining: 1,
  keepAliveTimeout: 30_000,
  headersTimeout: 0,
  bodyTimeout: 0,
};

/** The undici dispatcher over the free lists (see above); exported for its tests. */
export class FreeListDispatcher extends Dispatcher {
  /** Per origin, the connections free for a request, the last freed on top. */
  private readonly free = new Map<string, Client[]>();
  /** Every connection made and not closed yet, for `close` and `destroy`. */
  private readonly clients = new Set<Client>();
  /** The connections on a free list (one is never pushed twice). */
  private readonly idle = new WeakSet<Client>();
  /** The busy connections whose socket closed: given up when their request is over. */
  private readonly disconnected = new WeakSet<Client>();
  private closing = false;

  constructor(private readonly options: Client.Options = clientOptions) {
    super();
  }

  /** How many connections are open or opening, and how many wait on a free list (tests). */
  get size(): { readonly clients: number; readonly free: number } {
    let free = 0;
    for (const list of this.free.values()) free += list.length;
    return { clients: this.clients.size, free };
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = typeof options.origin === 'string' ? options.origin : (options.origin?.origin ?? '');
    let list = this.free.get(origin);
    if (list === undefined) {
      list = [];
      this.free.set(origin, list);
    }
    let client = list.pop();
    while (client !== undefined && (client.closed || client.destroyed)) client = list.pop();
    if (client === undefined) {
      if (this.closing) throw new Error('upstream dispatcher closed');
      client = this.open(origin, list);
    } else this.idle.delete(client);
    // With pipelining 1 a connection is busy as soon as it took a request (`false`), and says
    // `drain` once that request is over; `true` would mean it can take another at once.
    if (client.dispatch(options, handler)) this.release(client, list);
    return true;
  }

  /** A new connection to `origin`, put back on `list` whenever its request is over. */
  private open(origin: string, list: Client[]): Client {
    const client = new Client(origin, this.options);
    this.clients.add(client);
    client.on('drain', () => this.release(client, list));
    client.on('connect', () => this.disconnected.delete(client));
    // A connection whose socket closed (keep-alive timeout, `Connection: close`, the upstream
    // leaving) is given up rather than kept on the list: at once when idle, else when its
    // request is over; the next request to the origin makes a new one.
    client.on('disconnect', () => {
      if (!this.idle.has(client)) {
        this.disconnected.add(client);
        return;
      }
      this.forget(client, list);
      void client.close().catch(() => undefined);
    });
    return client;
  }

  private release(client: Client, list: Client[]): void {
    if (this.idle.has(client) || client.closed || client.destroyed) return;
    if (this.closing || this.disconnected.has(client)) {
      this.disconnected.delete(client);
      this.clients.delete(client);
      void client.close().catch(() => undefined);
      return;
    }
    this.idle.add(client);
    list.push(client);
  }

  private forget(client: Client, list: Client[]): void {
    this.clients.delete(client);
    this.idle.delete(client);
    const at = list.lastIndexOf(client);
    if (at !== -1) list.splice(at, 1);
  }

  /** Closes every connection once its request is over; no request is taken afterwards. */
  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const closed = this.endAll((client) => client.close());
    if (callback === undefined) return closed;
    void closed.then(callback);
  }

  /** Closes every connection at once, its request in flight failing with `error`; no request is taken afterwards. */
  override destroy(): Promise<void>;
  override destroy(error: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(first?: Error | null | (() => void), second?: () => void): Promise<void> | void {
    const error = typeof first === 'function' ? null : (first ?? null);
    const callback = typeof first === 'function' ? first : second;
    const destroyed = this.endAll((client) => client.destroy(error));
    if (callback === undefined) return destroyed;
    void destroyed.then(callback);
  }

  private async endAll(end: (client: Client) => Promise<void>): Promise<void> {
    this.closing = true;
    const all = [...this.clients];
    this.clients.clear();
    this.free.clear();
    await Promise.all(all.map((client) => end(client).catch(() => undefined)));
  }
}

const dispatcher = new FreeListDispatcher();

/** How much of an abandoned body is read (so its connection can be kept) before the connection is closed instead. */
const drainLimitBytes = 64 * 1024;
const drainLimitMs = 5_000;
/** How often the bodies read to their end are checked against `drainLimitMs` (one may run that much longer). */
const drainSweepMs = 1_000;

/**
 * The bodies being read to their end after a `cancel`, with when each is given up (destroyed).
 * One sweep a second for all of them: a timer per body (nearly every stream is cancelled right
 * after its `[DONE]`, before the end of its body arrives) was a timer created and cleared per
 * stream.
 */
const draining = new Map<Dispatcher.ResponseData['body'], number>();
let sweeper: NodeJS.Timeout | null = null;

function sweepDraining(): void {
  const now = performance.now();
  for (const [body, deadline] of draining) {
    if (deadline > now) continue;
    draining.delete(body);
    body.destroy();
  }
  if (draining.size === 0 && sweeper !== null) {
    clearInterval(sweeper);
    sweeper = null;
  }
}

function drainUntil(body: Dispatcher.ResponseData['body'], deadline: number): void {
  draining.set(body, deadline);
  sweeper ??= setInterval(sweepDraining, drainSweepMs);
}

/**
 * The next-chunk reader of a body. The body flows (`data` events): a chunk goes straight to the
 * read waiting for it; one that comes while no read waits is kept and the body paused until the
 * next read takes it (what came meanwhile, joined). The body's own async iterator cost an async
 * generator step, its promises and an end-of-stream watcher per chunk, and reading it in paused
 * mode (`readable`, then `read()`) a `process.nextTick` and a buffer walk per chunk: with
 * thousands of streams a token each, that was most of what the relay spent per token besides the
 * writes (bench/relay, many-streams scenario).
 */
function chunkReader(body: Dispatcher.ResponseData['body']): { read(): Promise<Uint8Array | null>; detach(): void } {
  let ended = false;
  let failure: Error | null = null;
  /** Chunks that came while no read was waiting (the body is paused while there are any). */
  let kept: Uint8Array[] = [];
  let waiter: { resolve: (chunk: Uint8Array | null) => void; reject: (error: Error) => void } | null = null;
  const onData = (chunk: Uint8Array): void => {
    const w = waiter;
    if (w !== null) {
      waiter = null;
      w.resolve(chunk);
      return;
    }
    kept.push(chunk);
    body.pause();
  };
  const wake = (): void => {
    const w = waiter;
    if (w === null) return;
    waiter = null;
    if (failure !== null) w.reject(failure);
    else w.resolve(null);
  };
  const onEnd = (): void => {
    ended = true;
    wake();
  };
  const onError = (error: Error): void => {
    failure = error;
    wake();
  };
  // A body destroyed before its end (an abort) ends the reads with its error, or a premature close.
  const onClose = (): void => {
    if (!ended && failure === null) failure = body.errored ?? new Error('upstream body closed before its end');
    wake();
  };
  body.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  return {
    read: () => {
      if (failure !== null) return Promise.reject(failure);
      if (kept.length > 0) {
        const chunks = kept;
        kept = [];
        body.resume();
        return Promise.resolve(chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks));
      }
      if (ended || body.readableEnded) return Promise.resolve(null);
      return new Promise((resolve, reject) => {
        waiter = { resolve, reject };
      });
    },
    detach: () => {
      body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    },
  };
}

/** Wraps an answered request. */
function responseOf(answer: Dispatcher.ResponseData): UpstreamResponse {
  let chunks: ReturnType<typeof chunkReader> | null = null;
  return {
    status: answer.statusCode,
    headers: {
      get: (name) => {
        const value = answer.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    text: () => answer.body.text(),
    read: () => {
      chunks ??= chunkReader(answer.body);
      return chunks.read();
    },
    cancel: () => {
      const body = answer.body;
      chunks?.detach();
      if (body.destroyed || body.readableEnded) return;
      // The rest is read and dropped, so that the connection serves the next request: a stream
      // usually ends right after its `[DONE]`, and destroying an unfinished body closes the
      // connection (and built an error with its stack each time). A rest that is too long or too
      // slow in coming closes it after all.
      let left = drainLimitBytes;
      drainUntil(body, performance.now() + drainLimitMs);
      body
        .on('close', () => draining.delete(body))
        .on('error', () => undefined)
        .on('data', (chunk: Uint8Array) => {
          left -= chunk.length;
          if (left < 0) body.destroy();
        })
        .resume();
    },
  };
}

/** POSTs `body` to `url`; rejects on a network failure or when `signal` aborts (with its reason). */
export function postUpstream(url: string, headers: Readonly<Record<string, string>>, body: string | Uint8Array, signal: AbortSignal): Promise<UpstreamResponse> {
  return requestUpstream('POST', url, headers, body, signal);
}

/** GETs `url` (a provider's follow-up call: a prediction polled, its stream, a file); rejects like `postUpstream`. */
export function getUpstream(url: string, headers: Readonly<Record<string, string>>, signal: AbortSignal): Promise<UpstreamResponse> {
  return requestUpstream('GET', url, headers, undefined, signal);
}

async function requestUpstream(method: 'GET' | 'POST', url: string, headers: Readonly<Record<string, string>>, body: string | Uint8Array | undefined, signal: AbortSignal): Promise<UpstreamResponse> {
  const abortReason = (): Error => (signal.reason instanceof Error ? signal.reason : new Error('upstream request aborted'));
  if (signal.aborted) throw abortReason();
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new Error(`invalid upstream URL: ${url}`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`unsupported upstream URL scheme: ${target.protocol}`);
  try {
    return responseOf(await request(target, { method, headers, body, signal, dispatcher }));
  } catch (error) {
    throw signal.aborted ? abortReason() : error;
  }
}
