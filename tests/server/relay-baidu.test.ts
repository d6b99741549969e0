import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import {
  consumeLogs,
  createRelayChannel,
  createRelayToken,
  createRelayUser,
  eventually,
  ledgerOf,
  sdkClient,
  sdkError,
  setRelayOptions,
  testCompletionRatio,
  testModelRatio,
  type QuotaSnapshot,
  type RelayToken,
} from './support/relayFixtures';
import {
  baiduEmbeddingTokens,
  baiduPieces,
  baiduReply,
  baiduSecret,
  baiduToolArgs,
  baiduUsage,
  baiduVector,
  startBaiduUpstream,
  type BaiduUpstream,
} from './support/baiduUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Baidu Wenxin Qianfan channels (type 15) through the relay, driven by the official openai SDK
 * against a real server and a loopback fake of Baidu's API: the access token (fetched once and
 * shared, fetched again when Baidu refuses it, a malformed key or a refused token named), chat
 * (whole and streamed, functions), embeddings, the `error_code` errors Baidu sends with status
 * 200, stream faults, each with exact quota; and the channel test.
 */

const model = 'ERNIE-4.0-8K';
const speedModel = 'ERNIE-Speed-8K';
const embedModel = 'Embedding-V1';
const ratio = 0.5;
const completionRatio = 3;
const faults = ['baidu-auth', 'baidu-rpm', 'baidu-input', 'baidu-internal', 'baidu-expire', 'baidu-drop', 'baidu-malformed', 'baidu-badkey', 'baidu-unknown', 'baidu-shared'] as const;
const quotaOf = (prompt: number, completion: number): number => Math.ceil((prompt + completion * completionRatio) * ratio);
const fullQuota = quotaOf(baiduUsage.prompt_tokens, baiduUsage.completion_tokens);
const keyOf = (apiKey: string): string => `${apiKey}|${baiduSecret}`;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay to Baidu Qianfan — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: BaiduUpstream;
    let userId: number;
    let token: RelayToken;
    let channelId: number;
    const channels = new Map<string, number>();
    let sdk: OpenAI;

    beforeAll(async () => {
      upstream = await startBaiduUpstream();
      const all = [model, speedModel, embedModel, ...faults];
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, ...Object.fromEntries(all.map((m) => [m, ratio])) }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, ...Object.fromEntries(all.map((m) => [m, m === embedModel ? 1 : completionRatio])) }),
      });
      userId = await createRelayUser(db(), { username: 'baiduuser', quota: 500_000 });
      token = await createRelayToken(db(), { userId, name: 'baidu-token', remainQuota: 400_000 });
      channelId = await createRelayChannel(db(), { key: keyOf('bd-ok'), baseUrl: upstream.url, models: `${model},${speedModel},${embedModel}`, type: 15 });
      for (const fault of faults) {
        const key = fault === 'baidu-badkey' ? 'only-an-api-key' : fault === 'baidu-unknown' ? keyOf('unknown-client') : keyOf(fault);
        channels.set(fault, await createRelayChannel(db(), { key, baseUrl: upstream.url, models: fault, type: 15 }));
      }
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
      upstream.behave('baidu-auth', { kind: 'error', code: 14, message: 'IAM Certification failed' });
      upstream.behave('baidu-rpm', { kind: 'error', code: 336501, message: 'Rate limit reached for RPM' });
      upstream.behave('baidu-input', { kind: 'error', code: 336003, message: 'the max input characters is 20000' });
      upstream.behave('baidu-internal', { kind: 'error', code: 336000, message: 'Internal error' });
      upstream.behave('baidu-expire', { kind: 'tokenExpires' });
      upstream.behave('baidu-drop', { kind: 'dropMidStream', chunks: 2 });
      upstream.behave('baidu-malformed', { kind: 'malformedEvent' });
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const snapshot = (id = channelId) => ledger.snapshot(id);
    const expectCharged = (before: QuotaSnapshot, quota: number, id = channelId): Promise<void> => ledger.expectCharged(before, quota, id);
    const { expectUnchanged } = ledger;
    const sent = () => upstream.requests.at(-1)!;

    it('fetches an access token and translates a chat request to the model\'s endpoint and the answer back, billing its usage', async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi, how can I help?' },
          { role: 'user', content: 'Describe Beijing' },
          { role: 'user', content: [{ type: 'text', text: 'in one line' }] },
        ],
        temperature: 0.2,
        top_p: 0.7,
        max_tokens: 256,
        stop: 'END',
        user: 'u-42',
        // Baidu's own parameter, passed through
        ...({ penalty_score: 1.2 } as object),
      });
      expect(answer.choices[0]?.message.content).toBe(baiduReply('completions_pro'));
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      expect(answer.usage).toEqual(baiduUsage);
      expect(upstream.tokenFetches).toEqual(['bd-ok']);
      expect(sent().path).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro');
      expect(sent().accessToken).toMatch(/^24\.\d+\.bd-ok$/);
      expect(sent().json).toEqual({
        messages: [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi, how can I help?' },
          { role: 'user', content: 'Describe Beijing\nin one line' },
        ],
        system: 'Be brief.',
        temperature: 0.2,
        top_p: 0.7,
        penalty_score: 1.2,
        max_output_tokens: 256,
        stop: ['END'],
        user_id: 'u-42',
      });
      await expectCharged(before, fullQuota);
    });

    it('streams the answer as OpenAI chunks ending in the final usage, and bills it', async () => {
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({ model: speedModel, messages: [{ role: 'user', content: 'Stream' }], stream: true, stream_options: { include_usage: true } });
      const pieces: string[] = [];
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      expect(pieces).toEqual(baiduPieces('ernie_speed'));
      expect(finish).toBe('stop');
      expect(usage).toEqual(baiduUsage);
      expect(sent().path).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/ernie_speed');
      expect(sent().json).toMatchObject({ stream: true });
      await expectCharged(before, fullQuota);
    });

    it('translates tools into functions, a function_call into a tool call and a tool result into a function message', async () => {
      const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'weather', description: 'The weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
      const answer = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather in Beijing?' }], tools, tool_choice: { type: 'function', function: { name: 'weather' } } });
      const call = answer.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
      expect(call.function.name).toBe('weather');
      expect(JSON.parse(call.function.arguments)).toEqual(baiduToolArgs);
      expect(sent().json.functions).toEqual([{ name: 'weather', description: 'The weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }]);
      expect(sent().json.tool_choice).toEqual({ type: 'function', function: { name: 'weather' } });

      const reply = await sdk.chat.completions.create({
        model,
        tools,
        messages: [
          { role: 'user', content: 'Weather in Beijing?' },
          { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: 'weather', arguments: '{"city":"Beijing"}' } }] },
          { role: 'tool', tool_call_id: call.id, content: '{"celsius": 12}' },
        ],
      });
      expect(reply.choices[0]?.message.content).toBe(baiduReply('completions_pro'));
      expect(sent().json.messages).toEqual([
        { role: 'user', content: 'Weather in Beijing?' },
        { role: 'assistant', content: '', function_call: { name: 'weather', arguments: '{"city":"Beijing"}' } },
        { role: 'function', name: 'weather', content: '{"celsius": 12}' },
      ]);

      const stream = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather?' }], tools, stream: true });
      let args = '';
      let finish: string | null = null;
      for await (const chunk of stream) {
        for (const piece of chunk.choices[0]?.delta.tool_calls ?? []) args += piece.function?.arguments ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(JSON.parse(args)).toEqual(baiduToolArgs);
      expect(finish).toBe('tool_calls');
    });

    it('embeds through the model\'s embeddings endpoint and bills Baidu\'s usage', async () => {
      const before = await snapshot();
      const input = ['first text to embed', 'second one'];
      const answer = await sdk.embeddings.create({ model: embedModel, input, encoding_format: 'float' });
      expect(answer.data.map((d) => d.embedding)).toEqual([baiduVector, baiduVector]);
      expect(answer.usage).toEqual({ prompt_tokens: baiduEmbeddingTokens, total_tokens: baiduEmbeddingTokens });
      expect(sent().path).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1');
      expect(sent().json).toEqual({ input });
      await expectCharged(before, Math.ceil(baiduEmbeddingTokens * ratio));
    });

    it('shares one token fetch between many requests of a channel', async () => {
      const ask = () => sdk.chat.completions.create({ model: 'baidu-shared', messages: [{ role: 'user', content: 'Hi' }] });
      const answers = await Promise.all(Array.from({ length: 6 }, ask));
      for (let i = 0; i < 3; i += 1) answers.push(await ask());
      expect(answers.map((a) => a.choices[0]?.message.content)).toEqual(Array.from({ length: 9 }, () => baiduReply('baidu-shared')));
      expect(upstream.tokenFetches).toEqual(['baidu-shared']);
      expect(new Set(upstream.requests.map((r) => r.accessToken)).size).toBe(1);
    });

    it('answers Baidu\'s error codes (sent with status 200) as OpenAI errors of a fitting status, refunded and unlogged', async () => {
      for (const [fault, status, message] of [
        ['baidu-auth', 401, 'IAM Certification failed'],
        ['baidu-rpm', 429, '当前分组上游负载已饱和'],
        ['baidu-input', 400, 'the max input characters is 20000'],
        ['baidu-internal', 500, 'Internal error'],
      ] as const) {
        const id = channels.get(fault)!;
        for (const stream of [false, true]) {
          const before = await snapshot(id);
          const error = await sdkError(sdk.chat.completions.create({ model: fault, messages: [{ role: 'user', content: 'Hi' }], stream }));
          expect(error.status, `${fault} stream=${stream}`).toBe(status);
          expect(error.message, fault).toContain(message);
          await expectUnchanged(before, id);
        }
      }
    });

    it('refuses a malformed key or a refused token with an error naming it, sending nothing to the API', async () => {
      const badKey = await sdkError(sdk.chat.completions.create({ model: 'baidu-badkey', messages: [{ role: 'user', content: 'Hi' }] }));
      expect(badKey.status).toBe(500);
      expect(badKey.message).toContain('APIKey|SecretKey');
      expect(upstream.tokenFetches).toEqual([]);

      const before = await snapshot(channels.get('baidu-unknown'));
      const refused = await sdkError(sdk.chat.completions.create({ model: 'baidu-unknown', messages: [{ role: 'user', content: 'Hi' }] }));
      expect(refused.status).toBe(500);
      expect(refused.message).toContain('Baidu access token refused (HTTP 401, invalid_client: unknown client id)');
      // a failed fetch is not kept: the next request asks again
      await sdkError(sdk.chat.completions.create({ model: 'baidu-unknown', messages: [{ role: 'user', content: 'Hi' }] }));
      expect(upstream.tokenFetches).toEqual(['unknown-client', 'unknown-client']);
      expect(upstream.requests).toHaveLength(0);
      await expectUnchanged(before, channels.get('baidu-unknown')!);
    });

    it('fetches a new token after Baidu answers that the token expired', async () => {
      const id = channels.get('baidu-expire')!;
      const before = await snapshot(id);
      const expired = await sdkError(sdk.chat.completions.create({ model: 'baidu-expire', messages: [{ role: 'user', content: 'Hi' }] }));
      expect(expired.status).toBe(500);
      expect(expired.message).toContain('Access token expired');
      await expectUnchanged(before, id);
      const answer = await sdk.chat.completions.create({ model: 'baidu-expire', messages: [{ role: 'user', content: 'Hi' }] });
      expect(answer.choices[0]?.message.content).toBe(baiduReply('baidu-expire'));
      expect(upstream.tokenFetches).toEqual(['baidu-expire', 'baidu-expire']);
      const [first, second] = upstream.requests;
      expect(first?.accessToken).not.toBe(second?.accessToken);
    });

    it('refuses image parts (ERNIE chat takes text) with a 400 before calling the provider', async () => {
      const error = await sdkError(
        sdk.chat.completions.create({ model, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] }),
      );
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/text content only/);
      expect(upstream.requests).toHaveLength(0);
    });

    it('ends a dropped stream with an error and bills what was delivered; drops a malformed event', async () => {
      const id = channels.get('baidu-drop')!;
      const before = await snapshot(id);
      let received = '';
      const failure = await (async () => {
        try {
          const stream = await sdk.chat.completions.create({ model: 'baidu-drop', messages: [{ role: 'user', content: 'Hi' }], stream: true });
          for await (const chunk of stream) received += chunk.choices[0]?.delta.content ?? '';
          return null;
        } catch (error) {
          return error as Error;
        }
      })();
      expect(failure).not.toBeNull();
      expect(received).toBe(baiduPieces('baidu-drop').slice(0, 2).join(''));
      await eventually(async () => (await consumeLogs(db(), userId)).length === before.logs + 1, 'the consume log');
      const after = await snapshot(id);
      const charged = before.user.quota - after.user.quota;
      expect(charged).toBeGreaterThan(0);
      expect((await consumeLogs(db(), userId)).at(-1)?.quota).toBe(charged);

      const malformedId = channels.get('baidu-malformed')!;
      const beforeMalformed = await snapshot(malformedId);
      const stream = await sdk.chat.completions.create({ model: 'baidu-malformed', messages: [{ role: 'user', content: 'Hi' }], stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe(baiduReply('baidu-malformed'));
      await expectCharged(beforeMalformed, fullQuota, malformedId);
    });

    it('tests a Baidu channel through the same token and translation', async () => {
      const root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      const ok = await root.get(`/api/channel/test/${channelId}?model=${model}`);
      expect(ok.body).toMatchObject({ success: true, message: baiduReply('completions_pro') });
      expect(sent().accessToken).toMatch(/^24\.\d+\.bd-ok$/);
      const refused = await root.get(`/api/channel/test/${channels.get('baidu-auth')!}`);
      expect(refused.body).toMatchObject({ success: false, message: 'http status code: 401, error message: IAM Certification failed' });
      const requests = upstream.requests.length;
      const badKey = await root.get(`/api/channel/test/${channels.get('baidu-badkey')!}`);
      expect(badKey.body).toMatchObject({ success: false });
      expect(String(badKey.body.message)).toContain('APIKey|SecretKey');
      expect(upstream.requests).toHaveLength(requests);
    });
  });
}
