import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { responsesTarget } from '../../server/relay/responses';
import { consumeLogs, countText, createRelayChannel, createRelayToken, createRelayUser, ledgerOf, sdkClient, sdkError, setRelayOptions, textLogContent, textQuota, type RelayToken } from './support/relayFixtures';
import { startLoopbackServer, type LoopbackServer } from './support/loopbackServer';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * `POST /v1/responses` (OpenAI's Responses API) driven by the official openai SDK's
 * `client.responses.create` against a real server and a loopback fake speaking the Responses API
 * (its JSON answer and its server-sent event grammar: `response.created`,
 * `response.output_text.delta`, `response.output_text.done`, `response.completed` with
 * `response.usage`), with a mid-stream drop, a malformed event and an upstream error; the exact
 * quota of each request.
 */

const model = 'gpt-4o-mini';
const input = 'Say hello to the Responses relay test.';
const pieces = ['Hello', ' from', ' the', ' Responses', ' fake.'];
const reply = pieces.join('');
const usage = { input_tokens: 31, input_tokens_details: { cached_tokens: 0 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 43 };

/** The Responses object of the fake (`completed` with output and usage, or `in_progress`). */
function responseObject(status: 'in_progress' | 'completed', modelName: string): Record<string, unknown> {
  return {
    id: 'resp_fake',
    object: 'response',
    created_at: 1_700_000_000,
    status,
    error: null,
    incomplete_details: null,
    model: modelName,
    output:
      status === 'completed'
        ? [{ type: 'message', id: 'msg_fake', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: reply, annotations: [] }] }]
        : [],
    usage: status === 'completed' ? usage : null,
  };
}

/** What the fake received. */
interface Received {
  readonly path: string;
  readonly search: string;
  readonly headers: IncomingMessage['headers'];
  readonly json: Record<string, unknown>;
}

/** The fake's behaviour, from the request's `metadata.fake`. */
async function answer(req: IncomingMessage, res: ServerResponse, received: Received[]): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  const url = new URL(req.url ?? '/', 'http://x');
  received.push({ path: url.pathname, search: url.search, headers: req.headers, json });
  const fake = (json.metadata as { fake?: string } | undefined)?.fake ?? 'ok';
  const modelName = typeof json.model === 'string' ? json.model : '';
  if (!url.pathname.endsWith('/responses') || fake === 'error') {
    res.writeHead(500, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } }));
    return;
  }
  if (json.stream !== true) {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(responseObject('completed', modelName)));
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  let sequence = 0;
  const send = (type: string, fields: Record<string, unknown>): void => {
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`);
  };
  send('response.created', { response: responseObject('in_progress', modelName) });
  for (const [i, delta] of pieces.entries()) {
    if (fake === 'drop' && i === 2) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      res.destroy();
      return;
    }
    send('response.output_text.delta', { item_id: 'msg_fake', output_index: 0, content_index: 0, delta });
    if (fake === 'malformed' && i === 1) res.write('event: response.output_text.delta\ndata: {"type": "response.output_text.delta", "delta": \n\n');
  }
  send('response.output_text.done', { item_id: 'msg_fake', output_index: 0, content_index: 0, text: reply });
  send('response.completed', { response: responseObject('completed', modelName) });
  res.end();
}

describe('the Responses endpoint per channel type', () => {
  const channel = (type: number, extra: { base_url?: string; config?: string; other?: string } = {}) => ({
    type,
    key: 'k',
    base_url: extra.base_url ?? 'https://up.example/',
    other: extra.other ?? null,
    config: extra.config ?? '',
  });

  it('OpenAI, Custom and OpenAI-compatible by path; Azure by api-version with api-key; others none', () => {
    expect(responsesTarget(channel(1))).toEqual({ url: 'https://up.example/v1/responses', headers: { Authorization: 'Bearer k' } });
    expect(responsesTarget(channel(8))?.url).toBe('https://up.example/v1/responses');
    expect(responsesTarget(channel(50, { base_url: 'https://up.example/api/v3' }))?.url).toBe('https://up.example/api/v3/responses');
    expect(responsesTarget(channel(3, { config: '{"api_version":"2025-03-01-preview"}' }))).toEqual({
      url: 'https://up.example/openai/responses?api-version=2025-03-01-preview',
      headers: { 'api-key': 'k' },
    });
    expect(responsesTarget(channel(3, { other: '2025-04-01-preview' }))?.url).toBe('https://up.example/openai/responses?api-version=2025-04-01-preview');
    for (const type of [14, 24, 33, 43, 16]) expect(responsesTarget(channel(type))).toBeNull();
  });
});

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay /v1/responses through the openai SDK — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    const received: Received[] = [];
    let upstream: LoopbackServer;
    let userId: number;
    let token: RelayToken;
    let channel: number;
    let sdk: OpenAI;

    beforeAll(async () => {
      upstream = await startLoopbackServer((req, res) => answer(req, res, received));
      await setRelayOptions(db());
      userId = await createRelayUser(db(), { username: 'respuser', quota: 500_000 });
      token = await createRelayToken(db(), { userId, name: 'resp-token', remainQuota: 300_000 });
      channel = await createRelayChannel(db(), { key: 'up-resp', baseUrl: upstream.url, models: model, type: 1 });
      await createRelayChannel(db(), { key: 'up-anthropic', baseUrl: upstream.url, models: 'claude-3-haiku-20240307', type: 14 });
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const quota = textQuota(model, usage.input_tokens, usage.output_tokens);

    it('whole answer: passed through as it is, the usage billed and logged', async () => {
      received.splice(0);
      const before = await ledger.snapshot(channel);
      const response = await sdk.responses.create({ model, input, max_output_tokens: 100 });
      expect(response.output_text).toBe(reply);
      expect(response.usage).toEqual(usage);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ path: '/v1/responses', json: { model, input, max_output_tokens: 100 } });
      expect(received[0]?.headers.authorization).toBe('Bearer up-resp');
      await ledger.expectCharged(before, quota, channel);
      expect((await consumeLogs(db(), userId)).at(-1)).toMatchObject({
        modelName: model,
        channelId: channel,
        promptTokens: usage.input_tokens,
        completionTokens: usage.output_tokens,
        quota,
        content: textLogContent(model),
        isStream: false,
      });
    });

    it('stream: the events pass through in order, the final usage is billed', async () => {
      const before = await ledger.snapshot(channel);
      const stream = await sdk.responses.create({ model, input, stream: true });
      const types: string[] = [];
      let text = '';
      let final: OpenAI.Responses.Response | null = null;
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'response.output_text.delta') text += event.delta;
        if (event.type === 'response.completed') final = event.response;
      }
      expect(types).toEqual(['response.created', ...pieces.map(() => 'response.output_text.delta'), 'response.output_text.done', 'response.completed']);
      expect(text).toBe(reply);
      expect(final?.usage).toEqual(usage);
      await ledger.expectCharged(before, quota, channel);
      expect((await consumeLogs(db(), userId)).at(-1)).toMatchObject({ isStream: true, quota });
    });

    it('a malformed event is dropped; the rest of the stream and its usage go through', async () => {
      const before = await ledger.snapshot(channel);
      const stream = await sdk.responses.create({ model, input, stream: true, metadata: { fake: 'malformed' } });
      const types: string[] = [];
      for await (const event of stream) types.push(event.type);
      expect(types.at(-1)).toBe('response.completed');
      expect(types.filter((t) => t === 'response.output_text.delta')).toHaveLength(pieces.length);
      await ledger.expectCharged(before, quota, channel);
    });

    it('an upstream dropping mid-stream: an error event ends the stream; what was delivered is billed', async () => {
      const before = await ledger.snapshot(channel);
      const stream = await sdk.responses.create({ model, input, stream: true, metadata: { fake: 'drop' } });
      const events: { type: string; code?: unknown }[] = [];
      for await (const event of stream) events.push(event);
      expect(events.map((e) => e.type)).toEqual(['response.created', 'response.output_text.delta', 'response.output_text.delta', 'error']);
      expect(events.at(-1)?.code).toBe('stream_interrupted');
      const counted = textQuota(model, countText(input, model), countText(pieces.slice(0, 2).join(''), model));
      await ledger.expectCharged(before, counted, channel);
    });

    it('an upstream error is the client error, refunded', async () => {
      const before = await ledger.snapshot(channel);
      const error = await sdkError(sdk.responses.create({ model, input, metadata: { fake: 'error' } }));
      expect(error.status).toBe(500);
      expect(error.message).toContain('The server had an error');
      await ledger.expectUnchanged(before, channel);
    });

    it('a channel type without a Responses endpoint (native wire) is refused clearly, nothing charged', async () => {
      received.splice(0);
      const before = await ledger.snapshot(channel);
      const error = await sdkError(sdk.responses.create({ model: 'claude-3-haiku-20240307', input }));
      expect(error.status).toBe(501);
      expect(error.code).toBe('channel_type_not_supported');
      expect(received).toEqual([]);
      await ledger.expectUnchanged(before, channel);
    });
  });
}
