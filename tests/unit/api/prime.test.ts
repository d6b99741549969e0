import { afterEach, describe, expect, it, vi } from 'vitest';
import * as E from 'fp-ts/Either';
import { createActor, waitFor } from 'xstate';
import { createApiClient, primeTtlMs, readData, type FetchLike } from '../../../src/api/client';
import { createChannelApi } from '../../../src/api/channelApi';
import { listOf } from '../../../src/api/lists';
import { Channel } from '../../../src/domain/channel';
import { parseTableQuery } from '../../../src/domain/tableQuery';
import { channelTableMachine, channelTableSchema } from '../../../src/machines/channelList';
import { logQuerySchema, logTableMachine } from '../../../src/machines/logList';
import { logTableInput } from '../../../src/machines/logListPage';
import type { WiringRoot } from '../../../src/wiring/root';
import { recordedFetch, type Reply } from './support/recordedFetch';

const channelList = { method: 'GET', path: '/api/channel/', query: { p: 0 }, read: readData(listOf(Channel)) } as const;

/** A fetch whose answers wait until `release()`: what was asked for, and when it went out. */
function heldFetch(routes: Readonly<Record<string, Reply>>) {
  const recorded = recordedFetch(routes);
  let release: () => void = () => undefined;
  const held = new Promise<void>((ok) => {
    release = ok;
  });
  const fetch: FetchLike = (input, init) => recorded.fetch(input, init).then((response) => held.then(() => response));
  return { fetch, requests: recorded.requests, release: () => release() };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the api client: a primed request', () => {
  it('is asked for once: the identical request takes the answer, in flight or arrived', async () => {
    const server = heldFetch({ 'GET /api/channel/': { fixture: 'channel-list.json' } });
    const client = createApiClient({ fetch: server.fetch });
    client.prime((c) => createChannelApi(c).list(0));
    expect(server.requests.map((r) => r.url)).toEqual(['/api/channel/?p=0']);

    const taken = client.request(channelList)();
    server.release();
    const result = await taken;
    expect(E.isRight(result) && result.right.length > 0).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('is taken once; another request (another page, another language) asks for its own', async () => {
    const server = recordedFetch({ 'GET /api/channel/': { fixture: 'channel-list.json' } });
    let lang = 'zh-CN';
    const client = createApiClient({ fetch: server.fetch, language: () => lang });
    client.prime((c) => createChannelApi(c).list(0));
    await client.request({ ...channelList, query: { p: 1 } })();
    await client.request(channelList)();
    await client.request(channelList)();
    client.prime((c) => createChannelApi(c).list(0));
    lang = 'en';
    await client.request(channelList)();
    expect(server.requests.map((r) => `${r.url} ${r.headers['Accept-Language']}`)).toEqual([
      '/api/channel/?p=0 zh-CN', // primed
      '/api/channel/?p=1 zh-CN',
      '/api/channel/?p=0 zh-CN', // the second identical request (the first took the primed answer)
      '/api/channel/?p=0 zh-CN', // primed again, in Chinese
      '/api/channel/?p=0 en',
    ]);
  });

  it('is taken by a copy with an abort signal (an actor), which still reads aborted once stopped', async () => {
    const server = heldFetch({ 'GET /api/channel/': { fixture: 'channel-list.json' } });
    const client = createApiClient({ fetch: server.fetch });
    client.prime((c) => createChannelApi(c).list(0));
    const stop = new AbortController();
    const taken = client.withSignal(stop.signal).request(channelList)();
    stop.abort();
    server.release();
    const result = await taken;
    expect(E.isLeft(result) && result.left).toMatchObject({ _tag: 'Network', message: 'aborted' });
    expect(server.requests).toHaveLength(1);
  });

  it('is dropped by any write, so nothing read before a change is shown after it', async () => {
    const server = recordedFetch({ 'GET /api/channel/': { fixture: 'channel-list.json' }, 'DELETE /api/channel/disabled': { fixture: 'ok.json' } });
    const client = createApiClient({ fetch: server.fetch });
    client.prime((c) => createChannelApi(c).list(0));
    await createChannelApi(client).removeDisabled()();
    await client.request(channelList)();
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/channel/?p=0',
      'DELETE /api/channel/disabled',
      'GET /api/channel/?p=0',
    ]);
  });

  it(`is dropped once older than ${primeTtlMs} ms`, async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const server = recordedFetch({ 'GET /api/channel/': { fixture: 'channel-list.json' } });
    const client = createApiClient({ fetch: server.fetch });
    client.prime((c) => createChannelApi(c).list(0));
    vi.setSystemTime(Date.now() + primeTtlMs + 1);
    await client.request(channelList)();
    expect(server.requests).toHaveLength(2);
  });

  it('starts only plain GETs, and its errors reach the request that takes it as its own (the 401 signal then, not before)', async () => {
    const server = recordedFetch({ 'GET /api/channel/': { text: '{"message":"no session"}', status: 401 } });
    const onUnauthorized = vi.fn();
    const client = createApiClient({ fetch: server.fetch, onUnauthorized });
    client.prime((c) => createChannelApi(c).removeDisabled());
    client.prime((c) => createChannelApi(c).list(0));
    await Promise.resolve();
    expect(server.requests.map((r) => r.method)).toEqual(['GET']);
    expect(onUnauthorized).not.toHaveBeenCalled();
    const result = await client.request(channelList)();
    expect(E.isLeft(result) && result.left).toMatchObject({ _tag: 'HttpStatus', status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(server.requests).toHaveLength(1);
  });
});

/** The area's wiring over a recorded server, and the implementation it gives `id`. */
async function wired(area: 'channel' | 'log', routes: Readonly<Record<string, Reply>>) {
  const server = recordedFetch(routes);
  const root: WiringRoot = { client: createApiClient({ fetch: server.fetch }) };
  const wiring = area === 'channel' ? await import('../../../src/wiring/channel') : await import('../../../src/wiring/log');
  const module = area === 'channel' ? await import('../../../src/wiring/channelFirstPage') : await import('../../../src/wiring/logFirstPage');
  const implementation = (id: string) => wiring.wire(root).implementations.find((i) => i.id === id)!.implementation;
  return { server, root, module, implementation };
}

describe("a list page's first page, primed from the address (src/wiring)", () => {
  it('/channel: the table started from the same address asks once, and shows the answer', async () => {
    const { server, root, module, implementation } = await wired('channel', { 'GET /api/channel/': { fixture: 'channel-list.json' } });
    const search = '?sort=name&f.status=1&page=2';
    module.primeFirstPage(root, { pathname: '/channel', search, admin: true });
    const table = createActor(channelTableMachine.provide(implementation('channelTable')), {
      input: { query: parseTableQuery(search, channelTableSchema) },
    }).start();
    const ready = await waitFor(table, (s) => s.matches('ready'));
    expect(ready.context.rows.length).toBeGreaterThan(0);
    expect(server.requests.map((r) => r.url)).toEqual(['/api/channel/?p=0']);
    table.stop();
  });

  it('/channel: nothing for another page, a viewer who is not an admin, or a search (its first load is the search)', async () => {
    const { server, root, module } = await wired('channel', {});
    module.primeFirstPage(root, { pathname: '/channel/edit/3', search: '', admin: true });
    module.primeFirstPage(root, { pathname: '/channel', search: '', admin: false });
    module.primeFirstPage(root, { pathname: '/channel', search: '', admin: null });
    module.primeFirstPage(root, { pathname: '/channel', search: '?q=azure', admin: true });
    expect(server.requests).toEqual([]);
  });

  it('/log: the filters of the address and the stored scope, asked for once by the table', async () => {
    const { server, root, module, implementation } = await wired('log', {
      'GET /api/log/': { fixture: 'log-list.json' },
      'GET /api/log/self/': { fixture: 'log-self-list.json' },
    });
    const search = '?p.model_name=gpt-4o&p.type=2';
    module.primeFirstPage(root, { pathname: '/log/', search, admin: true });
    const table = createActor(logTableMachine.provide(implementation('logTable')), {
      input: logTableInput(parseTableQuery(search, logQuerySchema), 'admin'),
    }).start();
    await waitFor(table, (s) => s.matches('ready'));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ path: '/api/log/', query: { p: '0', model_name: 'gpt-4o', type: '2' } });
    table.stop();
  });

  it('/log: a session that turns out to be another scope asks for its own; the kept answer goes unused', async () => {
    const { server, root, module, implementation } = await wired('log', {
      'GET /api/log/': { fixture: 'log-list.json' },
      'GET /api/log/self/': { fixture: 'log-self-list.json' },
    });
    module.primeFirstPage(root, { pathname: '/log', search: '', admin: true });
    const table = createActor(logTableMachine.provide(implementation('logTable')), {
      input: logTableInput(parseTableQuery('', logQuerySchema), 'self'),
    }).start();
    await waitFor(table, (s) => s.matches('ready'));
    expect(server.requests.map((r) => r.path)).toEqual(['/api/log/', '/api/log/self/']);
    table.stop();
  });
});
