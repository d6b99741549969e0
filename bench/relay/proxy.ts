// The bare proxy of the relay bench, run as its own process (`node --import tsx bench/relay/proxy.ts`
// with BENCH_UPSTREAM_URL set): a node:http server on a free loopback port that forwards each POST
// to the fake upstream (same path, body and content-type) with undici over a keep-alive pool, and
// passes the status, content-type (and content-length, when the upstream sent one, so the framing
// stays the upstream's) and the body back as they arrive: no parsing, no auth, no database. It is
// the floor of any Node.js gateway on this machine (two extra loopback hops, an HTTP client and
// an HTTP server), against which the gateway's own figures are read. Prints `listening <port>`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';
import { serveUntilStopped } from './serve';

const upstream = process.env.BENCH_UPSTREAM_URL ?? '';
if (!/^https?:\/\//.test(upstream)) throw new Error('BENCH_UPSTREAM_URL must be an http(s) URL');

/**
 * One keep-alive pool to the upstream, as large as the load needs (no cap: the many-streams
 * scenario holds thousands of requests open at once); undici's header and body timeouts are off
 * because a provider-like upstream may be silent for as long as it likes.
 */
const dispatcher = new Agent({ connections: null, pipelining: 1, keepAliveTimeout: 120_000, headersTimeout: 0, bodyTimeout: 0 });

/** An error answer of the proxy itself; once the upstream's headers went out, the connection is cut instead. */
const fail = (res: ServerResponse, status: number, message: string): void => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = Buffer.from(JSON.stringify({ error: { message, type: 'bare_proxy_error' } }));
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
};

/** The whole request body: a gateway has to read it all before it can pick a channel, so the floor does too. */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  const answer = await request(`${upstream}${req.url ?? '/'}`, {
    method: 'POST',
    headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
    body,
    dispatcher,
  });
  const headers: Record<string, string> = {};
  const type = answer.headers['content-type'];
  const length = answer.headers['content-length'];
  if (typeof type === 'string') headers['Content-Type'] = type;
  if (typeof length === 'string') headers['Content-Length'] = length;
  res.writeHead(answer.statusCode, headers);
  // Each chunk is written as it arrives (an SSE event reaches the client when the upstream sends it);
  // a client that goes away ends the upstream body too.
  await pipeline(answer.body, res);
}

const server = createServer({ keepAlive: true, noDelay: true }, (req, res) => {
  if (req.method !== 'POST') {
    fail(res, 405, 'the bare proxy forwards POST only');
    return;
  }
  forward(req, res).catch((error: unknown) => fail(res, 502, error instanceof Error ? error.message : String(error)));
});
serveUntilStopped(server);
