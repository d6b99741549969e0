import { describe, expect, it, vi } from 'vitest';
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { createApiClient, readPlain } from '../../../src/api/client';
import { createRelayApi, readRelay, readRelayError } from '../../../src/api/relayApi';
import { createApi } from '../../../src/api';
import { describeApiError } from '../../../src/domain/apiError';
import { chatRequestFor } from '../../../src/domain/relay';
import { recordedFetch, type Reply } from './support/recordedFetch';

/*
 * The client's non-envelope path (a call keyed by a token instead of the session, with its own
 * error reader) and the relay API on top of it, against a recorded fetch.
 */

const key = 'Qw3rTy7uIoP9aS1d0F1E2D3C4B5A69788A7B6C5D4E3F2A1B';
const modelList = JSON.stringify({
  object: 'list',
  data: [
    { id: 'gpt-4o-mini', object: 'model', created: 1626777600, owned_by: 'openai', permission: [], root: 'gpt-4o-mini', parent: null },
    { id: 'my-model', object: 'model', created: 1626777600, owned_by: 'custom', permission: null, root: 'my-model', parent: null },
  ],
});
const completion = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1763900000,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 8, completion_tokens: 1, total_tokens: 9 },
});
const relayRefusal = (message: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ error: { message, type: 'one_api_error', ...extra } });

function relayWith(routes: Readonly<Record<string, Reply>>) {
  const recorded = recordedFetch(routes);
  const onUnauthorized = vi.fn();
  const api = createApi(createApiClient({ fetch: recorded.fetch, onUnauthorized }));
  return { relay: api.relay, recorded, onUnauthorized };
}

describe('createApiClient: calls keyed by a token (bearer)', () => {
  it('sends Authorization: Bearer, no cookies, and keeps the JSON body', async () => {
    const recorded = recordedFetch({ 'POST https://gw.example.com/v1/echo': { text: '{"ok":true}' } });
    const client = createApiClient({ fetch: recorded.fetch, baseUrl: 'https://gw.example.com/' });
    const result = await client.request({
      method: 'POST',
      path: '/v1/echo',
      bearer: 'sk-abc',
      body: { a: 1 },
      read: readPlain(t.type({ ok: t.boolean })),
    })();
    expect(result).toEqual(E.right({ ok: true }));
    const request = recorded.only();
    expect(request.url).toBe('https://gw.example.com/v1/echo');
    expect(request.headers.Authorization).toBe('Bearer sk-abc');
    expect(request.headers['Content-Type']).toBe('application/json');
    expect(request.credentials).toBe('omit');
    expect(request.body).toEqual({ a: 1 });
  });

  it('a keyed 401 is about the key: no session-expired signal', async () => {
    const recorded = recordedFetch({}, { text: relayRefusal('无效的令牌'), status: 401, statusText: 'Unauthorized' });
    const onUnauthorized = vi.fn();
    const client = createApiClient({ fetch: recorded.fetch, onUnauthorized });
    const result = await client.request({ method: 'GET', path: '/v1/models', bearer: 'sk-x', read: readPlain(t.unknown) })();
    expect(result).toEqual(E.left({ _tag: 'HttpStatus', call: 'GET /v1/models', status: 401, message: '无效的令牌' }));
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('readError turns a JSON error body into the call error; a declined or non-JSON body keeps HttpStatus', async () => {
    const call = async (reply: Reply) => {
      const recorded = recordedFetch({}, reply);
      return createApiClient({ fetch: recorded.fetch }).request({
        method: 'GET',
        path: '/v1/models',
        read: readPlain(t.unknown),
        readError: (body, name) => (typeof body === 'object' && body !== null && 'boom' in body ? { _tag: 'Failure', call: name, message: 'boom' } : undefined),
      })();
    };
    expect(await call({ text: '{"boom":1}', status: 503 })).toEqual(E.left({ _tag: 'Failure', call: 'GET /v1/models', message: 'boom' }));
    expect(await call({ text: '{"other":1}', status: 503, statusText: 'Service Unavailable' })).toEqual(
      E.left({ _tag: 'HttpStatus', call: 'GET /v1/models', status: 503, message: 'Service Unavailable' }),
    );
    expect(await call({ text: '<html>bad gateway</html>', status: 502 })).toEqual(
      E.left({ _tag: 'HttpStatus', call: 'GET /v1/models', status: 502, message: '<html>bad gateway</html>' }),
    );
  });

  it('a throwing readError keeps the default error', async () => {
    const recorded = recordedFetch({}, { text: '{}', status: 500 });
    const result = await createApiClient({ fetch: recorded.fetch }).request({
      method: 'GET',
      path: '/v1/models',
      read: readPlain(t.unknown),
      readError: () => {
        throw new Error('reader failed');
      },
    })();
    expect(result).toEqual(E.left({ _tag: 'HttpStatus', call: 'GET /v1/models', status: 500, message: '{}' }));
  });
});

describe('relay error body', () => {
  it('decodes OpenAI error bodies (with or without param/code) into a Failure with the message', () => {
    expect(readRelayError({ error: { message: '该令牌已过期', type: 'one_api_error' } }, 'GET /v1/models')).toEqual({
      _tag: 'Failure',
      call: 'GET /v1/models',
      message: '该令牌已过期',
    });
    expect(readRelayError({ error: { message: 'm', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } }, 'c')).toEqual({
      _tag: 'Failure',
      call: 'c',
      message: 'm',
    });
    expect(readRelayError({ error: { message: 'm', type: null, param: null, code: 429 } }, 'c')).toEqual({ _tag: 'Failure', call: 'c', message: 'm' });
  });

  it('declines bodies that are not OpenAI errors', () => {
    expect(readRelayError({ success: false, message: 'x' }, 'c')).toBeUndefined();
    expect(readRelayError({ error: 'text' }, 'c')).toBeUndefined();
    expect(readRelayError({ error: { code: 1 } }, 'c')).toBeUndefined();
    expect(readRelayError(null, 'c')).toBeUndefined();
  });

  it('a 200 answer carrying an OpenAI error is that error, not a decode failure', () => {
    const read = readRelay(t.type({ id: t.string }));
    expect(read({ error: { message: "The model 'x' does not exist", type: 'invalid_request_error' } }, 'GET /v1/models/x')).toEqual(
      E.left({ _tag: 'Failure', call: 'GET /v1/models/x', message: "The model 'x' does not exist" }),
    );
    expect(read({ id: 'x' }, 'c')).toEqual(E.right({ id: 'x' }));
    expect(read({ error: 'nope' }, 'c')).toEqual(E.left(expect.objectContaining({ _tag: 'Decode', call: 'c' })));
  });
});

describe('createRelayApi', () => {
  it('lists the models with Bearer sk-<key>', async () => {
    const { relay, recorded } = relayWith({ 'GET /v1/models': { text: modelList } });
    const result = await relay.listModels(key)();
    expect(E.isRight(result) && result.right.data.map((m) => m.id)).toEqual(['gpt-4o-mini', 'my-model']);
    expect(recorded.only().headers.Authorization).toBe(`Bearer sk-${key}`);
    expect(recorded.only().credentials).toBe('omit');
  });

  it('posts a non-streaming chat completion and decodes the answer', async () => {
    const { relay, recorded } = relayWith({ 'POST /v1/chat/completions': { text: completion } });
    const result = await relay.chat(key, chatRequestFor('gpt-4o-mini'))();
    expect(E.isRight(result) && result.right.choices[0]?.message.content).toBe('pong');
    expect(recorded.only().body).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }], max_tokens: 8, stream: false });
    expect(recorded.only().headers.Authorization).toBe(`Bearer sk-${key}`);
  });

  it('a refused token is a Failure with the relay message (the toast shows it verbatim), not an expired session', async () => {
    const message = '该令牌状态不可用 (request id: 202611240912001)';
    const { relay, onUnauthorized } = relayWith({ 'GET /v1/models': { text: relayRefusal(message), status: 401, statusText: 'Unauthorized' } });
    const result = await relay.listModels(key)();
    expect(result).toEqual(E.left({ _tag: 'Failure', call: 'GET /v1/models', message }));
    expect(onUnauthorized).not.toHaveBeenCalled();
    if (E.isLeft(result)) expect(describeApiError(result.left)).toEqual({ level: 'error', message: { text: message } });
  });

  it('an upstream error passed through (status and code) is a Failure too', async () => {
    const message = 'Rate limit reached for requests';
    const { relay } = relayWith({
      'POST /v1/chat/completions': { text: relayRefusal(message, { type: 'requests', param: '', code: 'rate_limit_exceeded' }), status: 429 },
    });
    expect(await relay.chat(key, chatRequestFor('m'))()).toEqual(E.left({ _tag: 'Failure', call: 'POST /v1/chat/completions', message }));
  });

  it('a completion without choices is a Decode error naming the field', async () => {
    const { relay } = relayWith({ 'POST /v1/chat/completions': { text: '{"model":"m"}' } });
    expect(await relay.chat(key, chatRequestFor('m'))()).toEqual(
      E.left({ _tag: 'Decode', call: 'POST /v1/chat/completions', report: 'choices: expected array, got undefined' }),
    );
  });

  it('createRelayApi alone speaks to the same client', async () => {
    const recorded = recordedFetch({ 'GET /v1/models': { text: '{"object":"list","data":[]}' } });
    const result = await createRelayApi(createApiClient({ fetch: recorded.fetch }))
      .listModels(key)();
    expect(result).toEqual(E.right({ object: 'list', data: [] }));
  });
});
