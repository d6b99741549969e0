import { readFileSync } from 'node:fs';
import * as E from 'fp-ts/Either';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createChannelApi } from '../../../src/api/channelApi';
import { createApiClient, type FetchLike } from '../../../src/api/client';
import { createLogApi } from '../../../src/api/logApi';
import { createStatusApi } from '../../../src/api/statusApi';
import { requestLogPage } from '../../../src/api/actors/logRows';
import { fetchTokenPage } from '../../../src/api/actors/tokenRows';
import { fetchUserPage } from '../../../src/api/actors/userRows';
import { createRedemptionApi } from '../../../src/api/redemptionApi';
import { createTokenApi } from '../../../src/api/tokenApi';
import { createUserApi } from '../../../src/api/userApi';
import { primedFetch, primedRequestsKey } from '../../../src/api/primed';
import { takePrimed } from '../../../src/api/primedPage';
import type { ChannelRow } from '../../../src/domain/channel';
import { firstFetchOf } from '../../../src/domain/rowAction';
import { parseTableQuery, type TableQuerySchema } from '../../../src/domain/tableQuery';
import { channelTableSchema } from '../../../src/machines/channelList';
import { logQuerySchema } from '../../../src/machines/logList';
import { redemptionQuerySchema } from '../../../src/machines/redemptionList';
import { tokenQuerySchema } from '../../../src/machines/tokenList';
import { userQuerySchema } from '../../../src/machines/userList';
import { asListed, startWithFirstPage } from '../../../src/wiring/firstPage';
import { firstPageLists, firstPageRequestsScript, firstPaintRoutes } from '../../../vite.config';

/*
 * The first page's early GETs: index.html's script (vite.config.ts's `firstPageRequestsScript`, run
 * here as the page runs it) sends them and keeps the answers; the API client takes one once
 * (`primedFetch`), a list table's start takes its first page at once (`takePrimed`). Never for
 * another URL, another page or another user; a failed, refused or malformed early answer goes
 * the usual way.
 */

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/api/${name}`, import.meta.url), 'utf8');
const channelList = fixture('channel-list.json');
const listUrl = '/api/channel/?p=0';

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** The server: answers by URL, records every request; `hold` keeps an answer back until released. */
function server(answers: Readonly<Record<string, Answer | 'fail'>>) {
  const requests: { url: string; init: RequestInit }[] = [];
  const held = new Map<string, () => void>();
  const holding = new Set<string>();
  const fetch: FetchLike = async (url, init) => {
    requests.push({ url, init });
    if (holding.has(url)) await new Promise<void>((release) => held.set(url, release));
    const answer = answers[url];
    if (answer === undefined) return new Response('{"success":false,"message":"not found"}', { status: 404 });
    if (answer === 'fail') throw new TypeError('Failed to fetch');
    return new Response(answer.body, { status: answer.status, headers: { 'Content-Type': 'application/json' } });
  };
  return {
    fetch,
    requests,
    hold: (url: string) => holding.add(url),
    release: (url: string) => held.get(url)?.(),
  };
}

const store = new Map<string, string>();
const signIn = (user: { readonly id: number; readonly role: number } | null) => {
  if (user === null) store.delete('user');
  else store.set('user', JSON.stringify({ ...user, username: 'root' }));
};

/** Runs index.html's script for `urls` on `path`, the page's fetch being `early`. */
function sendEarly(urls: readonly string[], path: string, early: FetchLike) {
  vi.stubGlobal('fetch', early);
  const user = () => {
    try {
      const v = JSON.parse(store.get('user') ?? 'null') as { id?: unknown } | null;
      return typeof v?.id === 'number' ? v.id : null;
    } catch {
      return null;
    }
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the script's text, run as index.html runs it
  (new Function(`return (${firstPageRequestsScript})`)() as (...args: unknown[]) => void)(urls, path, user, 'zh-CN');
}

/** Lets the early answers come in. */
const settle = () => new Promise((done) => setTimeout(done, 0));

beforeEach(() => {
  store.clear();
  vi.stubGlobal('window', globalThis);
  vi.stubGlobal('location', { pathname: '/channel', search: '' });
  vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null });
});
afterEach(() => {
  vi.unstubAllGlobals();
  delete (globalThis as Record<string, unknown>)[primedRequestsKey];
});

describe('the early GETs (index.html)', () => {
  it('sends each URL once: a same-origin GET with the session cookie and nothing else', () => {
    signIn({ id: 1, role: 100 });
    const early = server({});
    sendEarly(['/api/status', listUrl], '/channel', early.fetch);
    expect(early.requests.map((r) => r.url)).toEqual(['/api/status', listUrl]);
    for (const { init } of early.requests) {
      expect(init.method ?? 'GET').toBe('GET');
      expect(init.credentials).toBe('include');
      expect(init.body).toBeUndefined();
      expect(init.headers).toEqual({ Accept: 'application/json', 'Accept-Language': 'zh-CN' });
    }
  });
});

describe('primedFetch: the client takes an early answer once', () => {
  it('answers the first GET of the URL from the early answer (no second request), and only that one', async () => {
    signIn({ id: 1, role: 100 });
    const early = server({ '/api/status': { status: 200, body: fixture('status.json') } });
    sendEarly(['/api/status'], '/channel', early.fetch);
    const later = server({ '/api/status': { status: 200, body: fixture('status.json') } });
    const status = createStatusApi(createApiClient({ fetch: primedFetch(later.fetch) }));
    const first = await status.getStatus()();
    expect(E.isRight(first) && first.right.system_name).toBe('One API');
    expect(later.requests).toEqual([]);
    await status.getStatus()();
    expect(later.requests.map((r) => r.url)).toEqual(['/api/status']);
  });

  it('waits for an early answer not in yet', async () => {
    signIn({ id: 1, role: 100 });
    const early = server({ '/api/status': { status: 200, body: fixture('status.json') } });
    early.hold('/api/status');
    sendEarly(['/api/status'], '/channel', early.fetch);
    const later = server({});
    const pending = createStatusApi(createApiClient({ fetch: primedFetch(later.fetch) })).getStatus()();
    await settle();
    early.release('/api/status');
    expect(E.isRight(await pending)).toBe(true);
    expect(later.requests).toEqual([]);
  });

  it('asks again when the early request failed', async () => {
    signIn({ id: 1, role: 100 });
    sendEarly(['/api/status'], '/channel', server({ '/api/status': 'fail' }).fetch);
    const later = server({ '/api/status': { status: 200, body: fixture('status.json') } });
    expect(E.isRight(await createStatusApi(createApiClient({ fetch: primedFetch(later.fetch) })).getStatus()())).toBe(true);
    expect(later.requests.map((r) => r.url)).toEqual(['/api/status']);
  });

  it('an early 401 still expires the session', async () => {
    signIn({ id: 1, role: 100 });
    sendEarly([listUrl], '/channel', server({ [listUrl]: { status: 401, body: '{"success":false,"message":"unauthorized"}' } }).fetch);
    await settle();
    const onUnauthorized = vi.fn();
    const later = server({});
    const client = createApiClient({ fetch: primedFetch(later.fetch), onUnauthorized });
    // the table's start leaves it to the fetch
    expect(takePrimed(client, (c) => createChannelApi(c).list(0))).toBeUndefined();
    const result = await createChannelApi(client).list(0)();
    expect(later.requests).toEqual([]);
    expect(E.isLeft(result) && result.left._tag).toBe('HttpStatus');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('a malformed early answer is the decode error it is today', async () => {
    signIn({ id: 1, role: 100 });
    sendEarly([listUrl], '/channel', server({ [listUrl]: { status: 200, body: '{"success":true,"message":"","data":[{"id":"x"}]}' } }).fetch);
    await settle();
    const later = server({});
    const client = createApiClient({ fetch: primedFetch(later.fetch) });
    expect(takePrimed(client, (c) => createChannelApi(c).list(0))).toBeUndefined();
    const result = await createChannelApi(client).list(0)();
    expect(E.isLeft(result) && result.left._tag).toBe('Decode');
    expect(later.requests).toEqual([]);
  });

  it('never for another user: a different stored user drops every early answer', async () => {
    signIn({ id: 1, role: 100 });
    sendEarly(['/api/status'], '/channel', server({ '/api/status': { status: 200, body: fixture('status.json') } }).fetch);
    await settle();
    signIn({ id: 2, role: 100 });
    const later = server({ '/api/status': { status: 200, body: fixture('status.json') } });
    await createStatusApi(createApiClient({ fetch: primedFetch(later.fetch) })).getStatus()();
    expect(later.requests.map((r) => r.url)).toEqual(['/api/status']);
    signIn({ id: 1, role: 100 });
    await createStatusApi(createApiClient({ fetch: primedFetch(later.fetch) })).getStatus()();
    expect(later.requests).toHaveLength(2);
  });

  it('never on another page: once the address has left the page, every early answer is dropped', async () => {
    signIn({ id: 1, role: 100 });
    sendEarly(['/api/status'], '/channel', server({ '/api/status': { status: 200, body: fixture('status.json') } }).fetch);
    await settle();
    vi.stubGlobal('location', { pathname: '/token', search: '' });
    const later = server({ '/api/status': { status: 200, body: fixture('status.json') } });
    await createStatusApi(createApiClient({ fetch: primedFetch(later.fetch) })).getStatus()();
    expect(later.requests.map((r) => r.url)).toEqual(['/api/status']);
  });

  it('never for a POST, nor for a page load without the script', async () => {
    const later = server({});
    await createStatusApi(createApiClient({ fetch: primedFetch(later.fetch) })).getStatus()();
    expect(later.requests).toHaveLength(1);
    signIn({ id: 1, role: 100 });
    const early = server({ '/api/status': { status: 200, body: fixture('status.json') } });
    sendEarly(['/api/status'], '/channel', early.fetch);
    await primedFetch(later.fetch)('/api/status', { method: 'POST' });
    expect(later.requests).toHaveLength(2);
  });
});

describe('takePrimed: a list table starts with its first page', () => {
  it('gives the decoded rows once the answer is in, once, and only for the exact URL', async () => {
    signIn({ id: 1, role: 100 });
    const early = server({ [listUrl]: { status: 200, body: channelList } });
    early.hold(listUrl);
    sendEarly([listUrl], '/channel', early.fetch);
    const later = server({ [listUrl]: { status: 200, body: channelList } });
    const client = createApiClient({ fetch: primedFetch(later.fetch) });
    // not in yet: the table loads as always (and the fetch will take the answer)
    expect(takePrimed(client, (c) => createChannelApi(c).list(0))).toBeUndefined();
    early.release(listUrl);
    await settle();
    expect(takePrimed(client, (c) => createChannelApi(c).list(1))).toBeUndefined();
    const rows = takePrimed(client, (c) => createChannelApi(c).list(0));
    expect(rows?.length).toBeGreaterThan(0);
    expect(rows?.[0]).toEqual(expect.objectContaining({ id: expect.any(Number), name: expect.any(String) }));
    expect(takePrimed(client, (c) => createChannelApi(c).list(0))).toBeUndefined();
    await createChannelApi(client).list(0)();
    expect(later.requests.map((r) => r.url)).toEqual([listUrl]);
  });

  it("starts the channel table from it (the wiring's start input), for the default view only", async () => {
    signIn({ id: 1, role: 100 });
    sendEarly([listUrl], '/channel', server({ [listUrl]: { status: 200, body: channelList } }).fetch);
    await settle();
    const client = createApiClient({ fetch: primedFetch(server({}).fetch) });
    const start = startWithFirstPage<ChannelRow>(client, (c, { page }) => createChannelApi(c).list(page), asListed);
    const searching = { query: parseTableQuery('?q=gpt', channelTableSchema) };
    expect(start(searching)).toBe(searching);
    const started = start({ query: parseTableQuery('', channelTableSchema) });
    expect(started.firstPage?.length).toBeGreaterThan(0);
    const again = { query: parseTableQuery('', channelTableSchema) };
    expect(start(again)).toBe(again);
  });
});

describe("firstPageLists: the URLs the lists' first fetch asks for", () => {
  const urlOf = async (run: (fetch: FetchLike) => Promise<unknown>): Promise<string> => {
    const seen = server({});
    await run(seen.fetch);
    return seen.requests[0]!.url;
  };
  it('/channel (admins only)', async () => {
    const first = firstFetchOf({ query: parseTableQuery('', channelTableSchema) })!;
    const url = await urlOf((fetch) => createChannelApi(createApiClient({ fetch })).list(first.page)());
    expect(firstPageLists['src/views/channel/ChannelListPage.tsx']).toEqual([url, null]);
  });
  it('/log (an admin sees every log, anyone else their own)', async () => {
    const query = parseTableQuery('', logQuerySchema);
    const [admin, self] = await Promise.all(
      (['admin', 'self'] as const).map((scope) =>
        urlOf((fetch) => requestLogPage(createLogApi(createApiClient({ fetch })))(firstFetchOf({ query, baseParams: { scope } })!)()),
      ),
    );
    expect(firstPageLists['src/views/log/LogListPage.tsx']).toEqual([admin, self]);
  });
  it('/token (anyone signed in), /redemption and /user (admins)', async () => {
    const first = (schema: TableQuerySchema) => firstFetchOf({ query: parseTableQuery('', schema) })!;
    const token = await urlOf((fetch) => fetchTokenPage(createTokenApi(createApiClient({ fetch })))(first(tokenQuerySchema))());
    const redemption = await urlOf((fetch) => createRedemptionApi(createApiClient({ fetch })).list(first(redemptionQuerySchema).page)());
    const user = await urlOf((fetch) => fetchUserPage(createUserApi(createApiClient({ fetch })))(first(userQuerySchema))());
    expect(firstPageLists['src/views/token/TokenListPage.tsx']).toEqual([token, token]);
    expect(firstPageLists['src/views/redemption/RedemptionListPage.tsx']).toEqual([redemption, null]);
    expect(firstPageLists['src/views/user/UserListPage.tsx']).toEqual([user, null]);
  });
  it('names only pages of firstPaintRoutes', () => {
    const modules = new Set(firstPaintRoutes.map(([, module]) => module));
    for (const module of Object.keys(firstPageLists)) expect(modules.has(module)).toBe(true);
  });
});
