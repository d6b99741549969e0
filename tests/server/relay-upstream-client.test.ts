import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { FreeListDispatcher } from '../../server/relay/upstreamClient';

/**
 * The relay's upstream dispatcher (server/relay/upstreamClient.ts): one connection per request in
 * flight, a finished connection reused by the next request (last freed first), idle connections
 * closed by the upstream given up, and requests in flight unaffected by each other.
 */
/** A connection is free once undici has seen the end of its answer, a little after the body's end reached the reader. */
const turn = (): Promise<unknown> => new Promise((resolve) => setImmediate(resolve));

describe('upstream free-list dispatcher', () => {
  let server: Server;
  let origin: string;
  /** Responses held open until released (`/hold`). */
  const held: ServerResponse[] = [];
  const sockets = new Set<unknown>();

  beforeAll(async () => {
    server = createServer({ keepAlive: true }, (req, res) => {
      sockets.add(req.socket);
      if (req.url === '/hold') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('first ');
        held.push(res);
        return;
      }
      if (req.url === '/silent') return; // never answers
      if (req.url === '/close') {
        res.writeHead(200, { 'Content-Type': 'text/plain', Connection: 'close' });
        res.end('closing');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(`ok ${req.socket.remotePort}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reuses a finished connection and opens one per request in flight', async () => {
    const dispatcher = new FreeListDispatcher({ pipelining: 1, keepAliveTimeout: 10_000 });
    const first = await (await request(`${origin}/a`, { dispatcher })).body.text();
    await turn();
    const second = await (await request(`${origin}/b`, { dispatcher })).body.text();
    // one after the other: the same socket (same client port)
    expect(second).toBe(first);
    await turn();
    expect(dispatcher.size).toEqual({ clients: 1, free: 1 });

    // 20 held open at once: 20 connections, none waits behind another
    const answers = await Promise.all(Array.from({ length: 20 }, () => request(`${origin}/hold`, { dispatcher })));
    expect(dispatcher.size).toEqual({ clients: 20, free: 0 });
    const readers = answers.map((answer) => answer.body.text());
    for (const res of held.splice(0)) res.end('done');
    expect(await Promise.all(readers)).toEqual(Array.from({ length: 20 }, () => 'first done'));
    await turn();
    expect(dispatcher.size).toEqual({ clients: 20, free: 20 });

    // the next request takes a free one: no new connection
    await (await request(`${origin}/c`, { dispatcher })).body.text();
    expect(dispatcher.size.clients).toBe(20);
    await dispatcher.close();
  });

  it('gives up an idle connection the upstream closed, and connects again for the next request', async () => {
    const dispatcher = new FreeListDispatcher({ pipelining: 1, keepAliveTimeout: 10_000 });
    expect(await (await request(`${origin}/close`, { dispatcher })).body.text()).toBe('closing');
    for (let i = 0; i < 50 && dispatcher.size.clients > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(dispatcher.size).toEqual({ clients: 0, free: 0 });
    expect(await (await request(`${origin}/d`, { dispatcher })).body.text()).toMatch(/^ok \d+$/);
    await turn();
    expect(dispatcher.size).toEqual({ clients: 1, free: 1 });
    await dispatcher.close();
  });

  it('fails a request whose connection cannot be made, and serves the next one', async () => {
    const dispatcher = new FreeListDispatcher({ pipelining: 1, keepAliveTimeout: 10_000 });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(request(`http://127.0.0.1:${port}/x`, { dispatcher })).rejects.toThrow();
    expect(await (await request(`${origin}/e`, { dispatcher })).body.text()).toMatch(/^ok \d+$/);
    await dispatcher.close();
  });

  it('applies per-request timeouts (the Proxy channel sets them from RELAY_TIMEOUT)', async () => {
    const dispatcher = new FreeListDispatcher({ pipelining: 1, keepAliveTimeout: 10_000 });
    await expect(request(`${origin}/silent`, { dispatcher, headersTimeout: 200 })).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(await (await request(`${origin}/f`, { dispatcher })).body.text()).toMatch(/^ok \d+$/);
    await dispatcher.close();
  });

  it('aborts one request without touching the others in flight', async () => {
    const dispatcher = new FreeListDispatcher({ pipelining: 1, keepAliveTimeout: 10_000 });
    const abort = new AbortController();
    const kept = await request(`${origin}/hold`, { dispatcher });
    const cut = await request(`${origin}/hold`, { dispatcher, signal: abort.signal });
    const cutText = cut.body.text();
    abort.abort(new Error('client gone'));
    await expect(cutText).rejects.toThrow();
    const keptText = kept.body.text();
    for (const res of held.splice(0)) res.end('done');
    expect(await keptText).toBe('first done');
    await dispatcher.close();
  });
});
