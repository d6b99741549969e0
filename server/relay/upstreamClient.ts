import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';

/**
 * The relay's HTTP client for upstream providers: node:http(s) with keep-alive agents. The
 * global `fetch` cost several times more CPU per call (measured by bench/relay), and the relay
 * makes one upstream call per request. The answer offers the part of `Response` the pipeline
 * reads: status, headers, the whole text, or the body as a web stream read as it arrives.
 * No `Accept-Encoding` is sent, so upstreams answer uncompressed.
 */

export interface UpstreamResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  /** The whole body as UTF-8 text. */
  text(): Promise<string>;
  /** The body as it arrives (read it or cancel it, not both with `text`). */
  readonly body: ReadableStream<Uint8Array>;
}

/** Sockets kept open per upstream host between requests. */
const agentOptions = { keepAlive: true, maxSockets: 512, maxFreeSockets: 64, scheduling: 'lifo' } as const;
const httpAgent = new http.Agent(agentOptions);
const httpsAgent = new https.Agent(agentOptions);

/** Wraps an answered request. */
function responseOf(res: http.IncomingMessage): UpstreamResponse {
  let web: ReadableStream<Uint8Array> | null = null;
  return {
    status: res.statusCode ?? 0,
    headers: {
      get: (name) => {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    text: () =>
      new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.once('error', reject);
        res.once('close', () => {
          if (!res.complete) reject(new Error('upstream connection closed before the answer ended'));
        });
      }),
    get body() {
      web ??= Readable.toWeb(res) as ReadableStream<Uint8Array>;
      return web;
    },
  };
}

/** POSTs `body` to `url`; rejects on a network failure or when `signal` aborts (with its reason). */
export function postUpstream(url: string, headers: Readonly<Record<string, string>>, body: string, signal: AbortSignal): Promise<UpstreamResponse> {
  const abortReason = (): Error => (signal.reason instanceof Error ? signal.reason : new Error('upstream request aborted'));
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortReason());
      return;
    }
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      reject(new Error(`invalid upstream URL: ${url}`));
      return;
    }
    const secure = target.protocol === 'https:';
    if (!secure && target.protocol !== 'http:') {
      reject(new Error(`unsupported upstream URL scheme: ${target.protocol}`));
      return;
    }
    const payload = Buffer.from(body, 'utf8');
    const request = (secure ? https : http).request(target, {
      method: 'POST',
      agent: secure ? httpsAgent : httpAgent,
      headers: { ...headers, 'Content-Length': String(payload.length) },
      signal,
    });
    request.once('response', (res) => resolve(responseOf(res)));
    request.once('error', (error) => reject(signal.aborted ? abortReason() : error));
    request.end(payload);
  });
}
