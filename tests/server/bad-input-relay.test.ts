import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stableDump } from './support/badInput';
import type { Reply } from './support/http';
import { createRelayChannel, createRelayUser, setRelayOptions } from './support/relayFixtures';
import { startRelayUpstream, type RelayUpstream } from './support/relayUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Bad input for the /v1 relay (contract §4.2 step 11, §4.3, §4.4 step 2, §4.5, §4.12), sent with a
 * valid key: every bad body, type, missing field, unknown model, disallowed image option, oversized
 * body, wrong content type and wrong method gets a clear OpenAI-style error (status, `{error:{message,
 * type[,param,code]}}`, one-api's message with the ` (request id: <id>)` suffix, or where the contract
 * is silent a message that names the problem) — and NOTHING changes: the whole database (token,
 * user, logs, channels, abilities, options) is byte-identical before and after, and the fake upstream
 * receives no request. The clock is fixed and the token's `accessed_time` already holds it, so the
 * auth step's bookkeeping write does not happen either.
 */

const clockMs = 1_750_000_000_000;
const nowSeconds = clockMs / 1000;

const chatModel = 'gpt-3.5-turbo';
const completionModel = 'gpt-3.5-turbo-instruct';
const embeddingModel = 'text-embedding-3-small';
const servedModels = [chatModel, completionModel, embeddingModel, 'text-moderation-stable', 'text-moderation-latest', 'dall-e-2', 'dall-e-3'].join(',');

/** How the error must look: exact message (before the request id suffix) or a pattern; `code` absent = no param/code keys. */
interface Expected {
  readonly status: number;
  readonly message: string | RegExp;
  /** The `code` (with `param: ""`); undefined = the auth/distributor shape without param and code; null = either. */
  readonly code?: string | null;
  /** Messages the answer must not be (misleading ones). */
  readonly not?: readonly string[];
}

/** Auth/distributor errors (§4.1: message and type only). */
const plain = (status: number, message: string | RegExp): Expected => ({ status, message });
/** Relay errors with a code (§4.1: param "" and a snake_case code). */
const coded = (status: number, message: string | RegExp, code: string): Expected => ({ status, message, code });
const invalidText = (message: string): Expected => coded(400, message, 'invalid_text_request');
const unmarshal = (detail: string): Expected => plain(400, `common.UnmarshalBodyReusable failed: ${detail}`);
const noChannel = (model: string): Expected => plain(503, `当前分组 default 下对于模型 ${model} 无可用渠道`);

/** Field-presence messages that would misdescribe a body that is not a JSON object at all. */
const fieldMessages = ['model is required', 'field messages is required', 'field prompt is required', 'field input is required'];

/**
 * The error of a body the text relay cannot decode, for routes whose auth step does not refuse it
 * (embeddings, moderations: one-api refuses it in the relay with `invalid_text_request` and the
 * decoder's text). Where our decoder's wording differs from Go's, any text about JSON decoding will
 * do — but not a field-presence message about a body that was never read.
 */
const undecodable = (pattern: RegExp = /json|unmarshal/i): Expected => ({ status: 400, message: pattern, code: null, not: fieldMessages });

type RouteName = 'chat' | 'completions' | 'embeddings' | 'engines' | 'moderations' | 'images';

interface RouteRow {
  readonly name: RouteName;
  readonly path: string;
  /** A body this route accepts (used as the base of the cases). */
  readonly valid: Record<string, unknown>;
  /** Whether the auth step decodes the body (§4.2 step 11: chat, completions, images). */
  readonly strict: boolean;
  /** The answer to `{}` / `null` (Go decodes both to an empty request). */
  readonly empty: Expected;
}

const routes: readonly RouteRow[] = [
  {
    name: 'chat',
    path: '/v1/chat/completions',
    valid: { model: chatModel, messages: [{ role: 'user', content: 'hi' }] },
    strict: true,
    empty: invalidText('model is required'),
  },
  {
    name: 'completions',
    path: '/v1/completions',
    valid: { model: completionModel, prompt: 'Say hi' },
    strict: true,
    empty: invalidText('model is required'),
  },
  {
    name: 'embeddings',
    path: '/v1/embeddings',
    valid: { model: embeddingModel, input: 'hello' },
    strict: false,
    empty: invalidText('model is required'),
  },
  {
    name: 'engines',
    path: `/v1/engines/${embeddingModel}/embeddings`,
    valid: { input: 'hello' },
    strict: false,
    // The model comes from the path; what is missing is the input (contract silent: our own message).
    empty: invalidText('field input is required'),
  },
  {
    name: 'moderations',
    path: '/v1/moderations',
    valid: { input: 'hello' },
    strict: false,
    empty: invalidText('field input is required'),
  },
  {
    name: 'images',
    path: '/v1/images/generations',
    valid: { model: 'dall-e-2', prompt: 'a cat', size: '256x256' },
    strict: true,
    empty: coded(400, 'prompt is required', 'prompt_missing'),
  },
];

/** A request of a case: JSON text sent as is, with `Content-Type: application/json` unless `headers` say otherwise. */
interface Probe {
  readonly method?: string;
  readonly path?: string;
  readonly raw?: string;
  readonly headers?: Record<string, string>;
}

/** Bodies that are not JSON, with Go's / our decoder's text where it is fixed. */
const notJson: readonly [string, string, string | null][] = [
  ['empty body', '', 'unexpected end of JSON input'],
  ['whitespace', ' \n ', 'unexpected end of JSON input'],
  ['plain text', 'not json', null],
  ['truncated JSON', '{"model":', null],
  ['single quotes', "{'model':'x'}", null],
  ['form encoding', 'model=gpt-3.5-turbo&prompt=hi', null],
];

/** JSON values that are not objects, and the kind Go's decoder names. */
const notObjects: readonly [string, string, string][] = [
  ['array', '[{"model":"gpt-3.5-turbo"}]', 'array'],
  ['string', '"gpt-3.5-turbo"', 'string'],
  ['number', '42', 'number'],
  ['boolean', 'true', 'bool'],
];

/** Route-specific cases: label, body, expected. */
function routeCases(row: RouteRow): [string, unknown, Expected][] {
  const v = row.valid;
  const tooMany = (label: string, body: unknown): [string, unknown, Expected] => [label, body, coded(400, 'invalid value of n', 'n_not_within_range')];
  const maxTokens: [string, unknown, Expected][] = [
    ['max_tokens -1', { ...v, max_tokens: -1 }, invalidText('max_tokens is invalid')],
    ['max_tokens "10"', { ...v, max_tokens: '10' }, invalidText('max_tokens is invalid')],
    ['max_tokens 1.5', { ...v, max_tokens: 1.5 }, invalidText('max_tokens is invalid')],
    ['max_tokens 2^30 (over MaxInt32/2)', { ...v, max_tokens: 1_073_741_824 }, invalidText('max_tokens is invalid')],
  ];
  const stream: [string, unknown, Expected][] = [
    ['stream "yes"', { ...v, stream: 'yes' }, { status: 400, message: /stream/, code: null }],
    ['stream 1', { ...v, stream: 1 }, { status: 400, message: /stream/, code: null }],
  ];
  switch (row.name) {
    case 'chat':
      return [
        ['model missing', { messages: v.messages }, invalidText('model is required')],
        ['model ""', { ...v, model: '' }, invalidText('model is required')],
        ['messages missing', { model: chatModel }, invalidText('field messages is required')],
        ['messages []', { ...v, messages: [] }, invalidText('field messages is required')],
        ['messages null', { ...v, messages: null }, invalidText('field messages is required')],
        ['messages "x"', { ...v, messages: 'x' }, invalidText('field messages is required')],
        ['messages {}', { ...v, messages: {} }, invalidText('field messages is required')],
        ['messages [1] (not message objects)', { ...v, messages: [1] }, { status: 400, message: /messages/, code: null }],
        ['messages ["x"] (not message objects)', { ...v, messages: ['x'] }, { status: 400, message: /messages/, code: null }],
        ...stream,
        ...maxTokens,
      ];
    case 'completions':
      return [
        ['model missing', { prompt: 'hi' }, invalidText('model is required')],
        ['prompt missing', { model: completionModel }, invalidText('field prompt is required')],
        ['prompt ""', { ...v, prompt: '' }, invalidText('field prompt is required')],
        ['prompt []', { ...v, prompt: [] }, invalidText('field prompt is required')],
        ...stream,
        ...maxTokens,
      ];
    case 'embeddings':
      return [
        ['model missing', { input: 'hello' }, invalidText('model is required')],
        ['model ""', { ...v, model: '' }, invalidText('model is required')],
        // Contract silent (one-api forwards it and the upstream refuses): our own message, before any charge.
        ['input missing', { model: embeddingModel }, invalidText('field input is required')],
        ['input ""', { ...v, input: '' }, invalidText('field input is required')],
        ['input []', { ...v, input: [] }, invalidText('field input is required')],
        ...maxTokens,
      ];
    case 'engines':
      return [
        ['input missing', {}, invalidText('field input is required')],
        ['input null', { input: null }, invalidText('field input is required')],
        ...maxTokens,
      ];
    case 'moderations':
      return [
        ['input missing', {}, invalidText('field input is required')],
        ['input ""', { input: '' }, invalidText('field input is required')],
        ['input []', { input: [] }, invalidText('field input is required')],
        ...maxTokens,
      ];
    case 'images':
      return [
        ['prompt missing', { model: 'dall-e-2' }, coded(400, 'prompt is required', 'prompt_missing')],
        ['prompt ""', { ...v, prompt: '' }, coded(400, 'prompt is required', 'prompt_missing')],
        ['prompt 5', { ...v, prompt: 5 }, coded(400, 'prompt is required', 'prompt_missing')],
        ['dall-e-3 at 256x256', { model: 'dall-e-3', prompt: 'a cat', size: '256x256' }, coded(400, 'size not supported for this image model', 'size_not_supported')],
        ['dall-e-2 at 1792x1024', { ...v, size: '1792x1024' }, coded(400, 'size not supported for this image model', 'size_not_supported')],
        ['size 5 (not a string)', { ...v, size: 5 }, { status: 400, message: /size/, code: null }],
        ['dall-e-2 prompt of 1001 bytes', { ...v, prompt: 'x'.repeat(1001) }, coded(400, 'prompt is too long', 'prompt_too_long')],
        tooMany('dall-e-2 n 11', { ...v, n: 11 }),
        tooMany('dall-e-2 n 1e9', { ...v, n: 1_000_000_000 }),
        tooMany('dall-e-2 n -1', { ...v, n: -1 }),
        tooMany('dall-e-2 n 1.5', { ...v, n: 1.5 }),
        tooMany('dall-e-2 n "2"', { ...v, n: '2' }),
        tooMany('dall-e-3 n 2', { model: 'dall-e-3', prompt: 'a cat', n: 2 }),
      ];
  }
}

/** The unknown-model probe of a route. */
function unknownModel(row: RouteRow): [Probe, Expected] {
  const model = `no-such-${row.name}-model`;
  if (row.name === 'engines') return [{ path: `/v1/engines/${model}/embeddings`, raw: JSON.stringify(row.valid) }, noChannel(model)];
  return [{ raw: JSON.stringify({ ...row.valid, model }) }, noChannel(model)];
}

/** A parsed HTTP answer read from a raw socket. */
interface RawAnswer {
  readonly status: number;
  readonly headers: Map<string, string>;
  readonly body: unknown;
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`bad input: /v1 relay — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => clockMs });
    const db = () => suite.api.handle.db;
    let upstream: RelayUpstream;
    let auth = '';

    beforeAll(async () => {
      upstream = await startRelayUpstream();
      await setRelayOptions(db());
      const userId = await createRelayUser(db(), { username: 'bad-relay', quota: 50_000_000 });
      const key = `badrelay${target.kind}`.padEnd(48, 'b');
      await db()
        .insertInto('tokens')
        .values({
          user_id: userId,
          key,
          status: 1,
          name: 'bad-input',
          created_time: 100,
          // Already "now": a request that passes auth writes nothing for bookkeeping.
          accessed_time: nowSeconds,
          expired_time: -1,
          remain_quota: 40_000_000,
          unlimited_quota: false,
          used_quota: 1234,
          models: '',
          subnet: '',
        })
        .execute();
      auth = `Bearer sk-${key}`;
      await createRelayChannel(db(), { key: 'up-bad-input', baseUrl: upstream.url, models: servedModels });
    });
    afterAll(async () => {
      await upstream.close();
    });

    /** Checks the OpenAI error body of `status`/`body`/request id against `expected`. */
    function expectError(status: number, body: unknown, requestId: string | null | undefined, expected: Expected, text: string): void {
      expect(status, text.slice(0, 300)).toBe(expected.status);
      expect(requestId, 'request id header').toMatch(/^\d+$/);
      expect(body, text.slice(0, 300)).toBeTypeOf('object');
      const { error } = body as { error: { message: unknown; type: unknown; param?: unknown; code?: unknown } };
      expect(Object.keys(body as object)).toEqual(['error']);
      expect(error.type).toBe('one_api_error');
      expect(typeof error.message).toBe('string');
      const suffix = ` (request id: ${requestId})`;
      expect((error.message as string).endsWith(suffix), `request id suffix: ${String(error.message)}`).toBe(true);
      const message = (error.message as string).slice(0, -suffix.length);
      if (typeof expected.message === 'string') expect(message).toBe(expected.message);
      else expect(message).toMatch(expected.message);
      for (const misleading of expected.not ?? []) expect(message).not.toBe(misleading);
      if (expected.code === undefined) expect(Object.keys(error).sort()).toEqual(['message', 'type']);
      else if (expected.code !== null) expect(error).toEqual({ message: error.message, type: 'one_api_error', param: '', code: expected.code });
      else expect(Object.keys(error).every((k) => ['message', 'type', 'param', 'code'].includes(k))).toBe(true);
    }

    /** Runs `act`, then checks the database is unchanged and the upstream got nothing. */
    async function unchanged<T>(act: () => Promise<T>): Promise<T> {
      const before = await stableDump(db());
      const sent = upstream.requests.length;
      const result = await act();
      expect(upstream.requests.slice(sent).map((r) => `${r.method} ${r.path} ${r.body.slice(0, 120)}`), 'requests sent upstream').toEqual([]);
      expect(await stableDump(db()), 'database changed').toBe(before);
      return result;
    }

    /** Sends `probe` to `row` with the valid key; expects `expected` and nothing changed. */
    async function refused(row: RouteRow, probe: Probe, expected: Expected): Promise<Reply> {
      return unchanged(async () => {
        const reply = await suite.client().request(probe.method ?? 'POST', probe.path ?? row.path, {
          rawBody: probe.raw,
          headers: { Authorization: auth, 'content-type': 'application/json', ...probe.headers },
        });
        expectError(reply.status, reply.body, reply.headers.get('x-oneapi-request-id'), expected, reply.text);
        return reply;
      });
    }

    it('the valid bodies of every route are accepted (the cases below differ from them in one point)', async () => {
      for (const row of routes) {
        const reply = await suite.client().request('POST', row.path, { body: row.valid, headers: { Authorization: auth } });
        expect(reply.status, `${row.path}: ${reply.text.slice(0, 300)}`).toBe(200);
      }
    });

    for (const row of routes) {
      describe(`POST ${row.path}`, () => {
        it.each(notJson)('%s → 400, nothing changes', async (_label, raw, detail) => {
          const expected = row.strict ? unmarshal(detail ?? '') : undecodable();
          if (row.strict && detail === null) await refused(row, { raw }, plain(400, /^common\.UnmarshalBodyReusable failed: .+$/));
          else await refused(row, { raw }, expected);
        });

        it.each(notObjects)('JSON %s (not an object) → 400, nothing changes', async (_label, raw, kind) => {
          const expected = row.strict
            ? unmarshal(`json: cannot unmarshal ${kind} into Go value of type ModelRequest`)
            : undecodable(new RegExp(`cannot unmarshal ${kind} into Go value of type \\w+`));
          await refused(row, { raw }, expected);
        });

        it.each([
          ['{}', '{}'],
          ['null', 'null'],
        ])('JSON %s (nothing in it) → the first missing field, nothing changes', async (_label, raw) => {
          await refused(row, { raw }, row.empty);
        });

        it('model 5 (a number) → 400 with the decoder error, nothing changes', async () => {
          const raw = JSON.stringify({ ...row.valid, model: 5 });
          const expected = row.strict
            ? unmarshal('json: cannot unmarshal number into Go struct field ModelRequest.model of type string')
            : undecodable(/^json: cannot unmarshal number into Go struct field \w+\.model of type string$/);
          await refused(row, { raw }, expected);
        });

        it.each(routeCases(row))('%s → 400, nothing changes', async (_label, body, expected) => {
          await refused(row, { raw: JSON.stringify(body) }, expected);
        });

        it('an unknown model (no channel) → 503 当前分组 default 下对于模型 <model> 无可用渠道, nothing changes', async () => {
          const [probe, expected] = unknownModel(row);
          await refused(row, probe, expected);
        });

        it.each([
          ['text/plain', JSON.stringify(row.valid)],
          ['application/x-www-form-urlencoded', JSON.stringify(row.valid)],
        ])('Content-Type %s → 400/415 naming the content type, nothing changes', async (type, raw) => {
          await unchanged(async () => {
            const reply = await suite.client().request('POST', row.path, { rawBody: raw, headers: { Authorization: auth, 'content-type': type } });
            const requestId = reply.headers.get('x-oneapi-request-id');
            expect([400, 415], reply.text.slice(0, 300)).toContain(reply.status);
            expectError(reply.status, reply.body, requestId, { status: reply.status, message: /content-type/i, code: null }, reply.text);
          });
        });

        it('GET instead of POST → 501 api_not_implemented after auth, nothing changes', async () => {
          await unchanged(async () => {
            const reply = await suite.client().request('GET', row.path, { headers: { Authorization: auth } });
            expect(reply.status, reply.text).toBe(501);
            expect(reply.body).toEqual({ error: { message: 'API not implemented', type: 'one_api_error', param: '', code: 'api_not_implemented' } });
          });
        });

        it('a body declared over 32 MB → 413 at once, nothing changes', async () => {
          const answer = await unchanged(() => rawPost(row.path, 33 * 1024 * 1024));
          expectError(answer.status, answer.body, answer.headers.get('x-oneapi-request-id'), plain(413, 'request body too large (limit 32 MB)'), JSON.stringify(answer.body));
        });
      });
    }

    describe('GET /v1/models/:model', () => {
      it.each(['no-such-model', 'gpt-4o%20', "'; DROP TABLE tokens; --", '%E4%B8%AD%E6%96%87'])(
        'unknown model %s → HTTP 200 with model_not_found (contract §4.12), nothing changes',
        async (model) => {
          await unchanged(async () => {
            const reply = await suite.client().get(`/v1/models/${model.includes("'") ? encodeURIComponent(model) : model}`, { headers: { Authorization: auth } });
            expect(reply.status, reply.text).toBe(200);
            expect(reply.body).toEqual({
              error: { message: `The model '${decodeURIComponent(model)}' does not exist`, type: 'invalid_request_error', param: 'model', code: 'model_not_found' },
            });
          });
        },
      );
    });

    /**
     * POSTs a head declaring `length` bytes to `path` over a raw socket, sends a first piece of the
     * body, and reads the answer the server gives before the rest arrives.
     */
    function rawPost(path: string, length: number): Promise<RawAnswer> {
      return new Promise((resolve, reject) => {
        let data = '';
        const socket = connect(Number(new URL(suite.api.url).port), '127.0.0.1', () => {
          socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`);
          socket.write(`{"model":"${chatModel}","input":"${'x'.repeat(64 * 1024)}`);
        });
        const finish = () => {
          const split = data.indexOf('\r\n\r\n');
          if (split < 0) return reject(new Error(`no answer: ${data.slice(0, 200)}`));
          const [statusLine = '', ...lines] = data.slice(0, split).split('\r\n');
          const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
          const text = data.slice(split + 4);
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = text;
          }
          resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
        };
        socket.on('data', (part: Buffer) => {
          data += part.toString();
          const split = data.indexOf('\r\n\r\n');
          const declared = /content-length: (\d+)/i.exec(data.slice(0, Math.max(split, 0)));
          if (split >= 0 && declared !== null && Buffer.byteLength(data.slice(split + 4)) >= Number(declared[1])) {
            socket.destroy();
            finish();
          }
        });
        socket.on('error', (error) => (data === '' ? reject(error) : finish()));
        socket.on('close', () => (data === '' ? reject(new Error('closed without an answer')) : finish()));
        socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
      });
    }
  });
}
