import { describe, expect, it, vi } from 'vitest';
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import {
  buildQuery,
  createApiClient,
  normaliseBaseUrl,
  readData,
  readNoData,
  readPlain,
  readResult,
  type BodyReader,
  type FetchLike,
} from '../../../src/api/client';
import { createApi } from '../../../src/api';
import { listOf } from '../../../src/api/lists';
import { Status } from '../../../src/domain/status';
import { User } from '../../../src/domain/user';
import { describeApiError } from '../../../src/domain/apiError';
import { recordedFetch, type Reply } from './support/recordedFetch';

const statusCall = { method: 'GET', path: '/api/status', read: readData(Status) } as const;

describe('createApiClient: requests', () => {
  it('uses the same origin by default and sends cookies and JSON accept', async () => {
    const recorded = recordedFetch({ 'GET /api/status': { fixture: 'status.json' } });
    const client = createApiClient({ fetch: recorded.fetch });

    const result = await client.request(statusCall)();

    expect(E.isRight(result)).toBe(true);
    expect(client.baseUrl).toBe('');
    const request = recorded.only();
    expect(request.url).toBe('/api/status');
    expect(request.credentials).toBe('include');
    expect(request.headers.Accept).toBe('application/json');
    expect(request.body).toBeUndefined();
  });

  it("sends the console's language as Accept-Language to the gateway, never to external URLs", async () => {
    const recorded = recordedFetch({}, { fixture: 'status.json' });
    let lang = 'zh-CN';
    const client = createApiClient({ fetch: recorded.fetch, language: () => lang });
    await client.request(statusCall)();
    lang = 'en';
    await client.request(statusCall)();
    await client.request({ ...statusCall, path: 'https://updates.example.com/releases' })();
    const sent = recorded.requests.map((request) => request.headers['Accept-Language']);
    expect(sent).toEqual(['zh-CN', 'en', undefined]);
    // Without the option the browser's own header is left alone.
    const plain = recordedFetch({}, { fixture: 'status.json' });
    await createApiClient({ fetch: plain.fetch }).request(statusCall)();
    expect(plain.only().headers['Accept-Language']).toBeUndefined();
  });

  it('strips trailing slashes from the base URL', async () => {
    const recorded = recordedFetch({}, { fixture: 'status.json' });
    const client = createApiClient({ baseUrl: 'https://gateway.example.com//', fetch: recorded.fetch });

    await client.request(statusCall)();

    expect(client.baseUrl).toBe('https://gateway.example.com');
    expect(recorded.only().url).toBe('https://gateway.example.com/api/status');
  });

  it('normalises base URLs', () => {
    expect(normaliseBaseUrl(undefined)).toBe('');
    expect(normaliseBaseUrl('')).toBe('');
    expect(normaliseBaseUrl('/')).toBe('');
    expect(normaliseBaseUrl(' http://localhost:3000/ ')).toBe('http://localhost:3000');
    expect(normaliseBaseUrl('https://example.com/one-api/')).toBe('https://example.com/one-api');
  });

  it('builds query strings safely and leaves out undefined and null', () => {
    expect(buildQuery(undefined)).toBe('');
    expect(buildQuery({})).toBe('');
    expect(buildQuery({ a: undefined, b: null })).toBe('');
    expect(buildQuery({ keyword: 'a&b=c d', p: 0, flag: true, empty: '' })).toBe('?keyword=a%26b%3Dc+d&p=0&flag=true&empty=');
  });

  it('encodes query values end to end', async () => {
    const recorded = recordedFetch({}, { fixture: 'user-list.json' });
    const api = createApi(createApiClient({ fetch: recorded.fetch }));

    await api.user.searchUsers('张三&role=100#x')();

    expect(recorded.only().query).toEqual({ keyword: '张三&role=100#x' });
  });

  it('sends bodies as JSON with a content type', async () => {
    const recorded = recordedFetch({ 'PUT /api/option/': { fixture: 'ok.json' } });
    const client = createApiClient({ fetch: recorded.fetch });

    await client.request({ method: 'PUT', path: '/api/option/', body: { key: 'Notice', value: '"quoted"\n' }, read: readNoData })();

    const request = recorded.only();
    expect(request.headers['Content-Type']).toBe('application/json');
    expect(request.body).toEqual({ key: 'Notice', value: '"quoted"\n' });
  });

  it('uses globalThis.fetch when none is given', async () => {
    const original = globalThis.fetch;
    const recorded = recordedFetch({ 'GET /api/status': { fixture: 'status.json' } });
    globalThis.fetch = ((input: string, init: RequestInit) => recorded.fetch(input, init)) as typeof fetch;
    try {
      expect(E.isRight(await createApiClient().request(statusCall)())).toBe(true);
      expect(recorded.requests).toHaveLength(1);
    } finally {
      globalThis.fetch = original;
    }
  });
});

describe('createApiClient: answers', () => {
  /** One GET /api/status answered by `reply`, read with `read` (default: the status envelope). */
  const request = async (reply: Reply, read: BodyReader<unknown> = statusCall.read) => {
    const recorded = recordedFetch({}, reply);
    const onUnauthorized = vi.fn();
    const client = createApiClient({ fetch: recorded.fetch, onUnauthorized });
    const result = await client.request({ method: 'GET', path: '/api/status', read })();
    return { result, onUnauthorized };
  };

  it('decodes the data of a successful envelope', async () => {
    const { result } = await request({ fixture: 'status.json' });
    expect(result).toEqual(E.right(expect.objectContaining({ version: 'v0.6.10', display_in_currency: true })));
  });

  it('success: false is a Failure with the server message', async () => {
    const { result } = await request({ fixture: 'failure-permission.json' });
    expect(result).toEqual(E.left({ _tag: 'Failure', call: 'GET /api/status', message: '无权进行此操作，权限不足' }));
  });

  it('401 is an HttpStatus and calls onUnauthorized once', async () => {
    const { result, onUnauthorized } = await request({ fixture: 'unauthorized.json', status: 401, statusText: 'Unauthorized' });
    expect(result).toEqual(
      E.left({ _tag: 'HttpStatus', call: 'GET /api/status', status: 401, message: '无权进行此操作，未登录且未提供 access token' }),
    );
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('a throwing onUnauthorized does not break the call', async () => {
    const recorded = recordedFetch({}, { fixture: 'unauthorized.json', status: 401 });
    const client = createApiClient({
      fetch: recorded.fetch,
      onUnauthorized: () => {
        throw new Error('listener failed');
      },
    });
    expect(await client.request(statusCall)()).toEqual(E.left(expect.objectContaining({ _tag: 'HttpStatus', status: 401 })));
  });

  it.each([
    { status: 429, statusText: 'Too Many Requests', text: '', message: 'Too Many Requests', level: 'error', key: 'error.tooManyRequests' },
    { status: 500, statusText: '', text: '', message: 'HTTP 500', level: 'error', key: 'error.internal' },
    { status: 405, statusText: 'Method Not Allowed', text: '', message: 'Method Not Allowed', level: 'info', key: 'error.demoOnly' },
    { status: 502, statusText: '', text: '<html>Bad gateway</html>', message: '<html>Bad gateway</html>', level: 'error', key: 'error.prefixed' },
  ])('$status is an HttpStatus ($message) and does not signal expiry', async ({ status, statusText, text, message, level, key }) => {
    const { result, onUnauthorized } = await request({ text, status, statusText });
    expect(result).toEqual(E.left({ _tag: 'HttpStatus', call: 'GET /api/status', status, message }));
    expect(onUnauthorized).not.toHaveBeenCalled();
    if (E.isLeft(result)) {
      const described = describeApiError(result.left);
      expect(described.level).toBe(level);
      expect(described.message).toEqual(expect.objectContaining({ key }));
    }
  });

  it('404 for an unknown /api path reads the OpenAI-style error message', async () => {
    const { result } = await request({ fixture: 'not-found.json', status: 404, statusText: 'Not Found' });
    expect(result).toEqual(E.left({ _tag: 'HttpStatus', call: 'GET /api/status', status: 404, message: 'Invalid URL (GET /api/foo)' }));
  });

  it('a rejected fetch is a Network error with its message', async () => {
    const { result, onUnauthorized } = await request({ reject: new TypeError('Failed to fetch') });
    expect(result).toEqual(E.left({ _tag: 'Network', call: 'GET /api/status', message: 'Failed to fetch' }));
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('a rejection that is not an Error still becomes a Network error', async () => {
    expect((await request({ reject: 'offline' })).result).toEqual(E.left({ _tag: 'Network', call: 'GET /api/status', message: 'offline' }));
    expect((await request({ reject: 42 })).result).toEqual(
      E.left({ _tag: 'Network', call: 'GET /api/status', message: 'request failed' }),
    );
    const aborted = new DOMException('', 'AbortError');
    expect((await request({ reject: aborted })).result).toEqual(
      E.left({ _tag: 'Network', call: 'GET /api/status', message: 'AbortError' }),
    );
  });

  it('a body that fails to stream is a Network error', async () => {
    const fetch: FetchLike = () =>
      Promise.resolve({ ok: true, status: 200, statusText: 'OK', text: () => Promise.reject(new Error('connection reset')) } as unknown as Response);
    const result = await createApiClient({ fetch }).request(statusCall)();
    expect(result).toEqual(E.left({ _tag: 'Network', call: 'GET /api/status', message: 'connection reset' }));
  });

  it('a non-JSON 200 body (the SPA page) is a Decode error naming the call', async () => {
    const { result } = await request({ fixture: 'html.txt' });
    expect(result).toEqual(E.left(expect.objectContaining({ _tag: 'Decode', call: 'GET /api/status' })));
    if (E.isLeft(result) && result.left._tag === 'Decode') expect(result.left.report).toMatch(/^body is not JSON: <!doctype html>/);
  });

  it('a body that is not an envelope is a Decode error', async () => {
    const { result } = await request({ text: '[1,2]' });
    expect(result).toEqual(
      E.left({ _tag: 'Decode', call: 'GET /api/status', report: '(body): expected { success: boolean, message: string }, got [1,2]' }),
    );
  });

  it('a malformed item names the field path and the received value', async () => {
    const recorded = recordedFetch({ 'GET /api/user/': { fixture: 'malformed-user-list.json' } });
    const api = createApi(createApiClient({ fetch: recorded.fetch }));
    expect(await api.user.listUsers(0)()).toEqual(
      E.left({ _tag: 'Decode', call: 'GET /api/user/', report: 'data.0.id: expected number, got "x"' }),
    );
  });

  it('missing data on a call that needs it is a Decode error on data', async () => {
    const { result } = await request({ fixture: 'ok.json' });
    expect(result).toEqual(E.left({ _tag: 'Decode', call: 'GET /api/status', report: 'data: expected object, got undefined' }));
  });

  it('data-less calls accept absent or present data', async () => {
    expect((await request({ fixture: 'ok.json' }, readNoData)).result).toEqual(E.right(undefined));
    expect((await request({ fixture: 'count.json' }, readNoData)).result).toEqual(E.right(undefined));
  });

  it('non-enveloped bodies decode whole, and success:false there is a Failure', async () => {
    const codec = t.type({ success: t.boolean, message: t.string, time: t.number });
    expect((await request({ fixture: 'channel-test.json' }, readResult(codec))).result).toEqual(
      E.right({ success: true, message: 'Hello! How can I help you today?', time: 0.81, modelName: 'gpt-4o-mini' }),
    );
    expect((await request({ fixture: 'channel-test-failed.json' }, readResult(codec))).result).toEqual(
      E.left(expect.objectContaining({ _tag: 'Failure' })),
    );
    expect((await request({ fixture: 'channel-models.json' }, readPlain(t.type({ object: t.literal('list') })))).result).toEqual(
      E.right(expect.objectContaining({ object: 'list' })),
    );
  });

  it('a reader that throws becomes a Decode error, never an exception', async () => {
    const throwing = () => {
      throw new Error('boom');
    };
    expect((await request({ fixture: 'ok.json' }, throwing)).result).toEqual(
      E.left({ _tag: 'Decode', call: 'GET /api/status', report: 'boom' }),
    );
  });

  it('decodes a realistic sparse login user and keeps every typed field', async () => {
    const { result } = await request({ fixture: 'login.json' }, readData(User));
    expect(result).toEqual(E.right(expect.objectContaining({ id: 1, username: 'root', display_name: 'Root User', role: 100, status: 1, quota: 0 })));
  });

  it('listOf reads null as an empty list and still reports bad items', () => {
    const list = listOf(t.number);
    expect(list.decode(null)).toEqual(E.right([]));
    expect(list.decode([1, 2])).toEqual(E.right([1, 2]));
    expect(E.isLeft(list.decode(['a']))).toBe(true);
    expect(list.is([1])).toBe(true);
    expect(list.encode([3])).toEqual([3]);
  });
});
