import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import {
  consumeLogs,
  countText,
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
  geminiCompletionTokens,
  geminiPieces,
  geminiReply,
  geminiToolArgs,
  geminiUsage,
  geminiVector,
  startGeminiUpstream,
  type GeminiUpstream,
} from './support/geminiUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Gemini channels (type 24) through the relay, driven by the official openai SDK against a real
 * server and a loopback fake of the Gemini API: chat (whole and streamed, tools), embeddings,
 * errors and stream faults, each with exact quota; and the channel test.
 */

const model = 'gemini-2.0-flash';
const embedModel = 'text-embedding-004';
const ratio = 0.5;
const completionRatio = 4;
const faults = ['gemini-403', 'gemini-429', 'gemini-drop', 'gemini-malformed', 'gemini-blocked'] as const;
const quotaOf = (prompt: number, completion: number): number => Math.ceil((prompt + completion * completionRatio) * ratio);

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay to Gemini — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: GeminiUpstream;
    let userId: number;
    let token: RelayToken;
    let channelId: number;
    const channels = new Map<string, number>();
    let sdk: OpenAI;

    beforeAll(async () => {
      upstream = await startGeminiUpstream();
      const all = [model, embedModel, ...faults];
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, ...Object.fromEntries(all.map((m) => [m, ratio])) }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, ...Object.fromEntries(all.map((m) => [m, m === embedModel ? 1 : completionRatio])) }),
      });
      userId = await createRelayUser(db(), { username: 'geminiuser', quota: 500_000 });
      token = await createRelayToken(db(), { userId, name: 'gemini-token', remainQuota: 400_000 });
      channelId = await createRelayChannel(db(), { key: 'gem-ok', baseUrl: upstream.url, models: `${model},${embedModel}`, type: 24 });
      for (const fault of faults) channels.set(fault, await createRelayChannel(db(), { key: fault, baseUrl: upstream.url, models: fault, type: 24 }));
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
      upstream.behave('gemini-403', { kind: 'status', status: 403, grpcStatus: 'PERMISSION_DENIED', message: 'API key not valid. Please pass a valid API key.' });
      upstream.behave('gemini-429', { kind: 'status', status: 429, grpcStatus: 'RESOURCE_EXHAUSTED', message: 'Resource has been exhausted (e.g. check quota).' });
      upstream.behave('gemini-drop', { kind: 'dropMidStream', chunks: 2 });
      upstream.behave('gemini-malformed', { kind: 'malformedEvent' });
      upstream.behave('gemini-blocked', { kind: 'blocked' });
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const snapshot = (id = channelId) => ledger.snapshot(id);
    const expectCharged = (before: QuotaSnapshot, quota: number, id = channelId): Promise<void> => ledger.expectCharged(before, quota, id);
    const { expectUnchanged } = ledger;
    const sent = () => upstream.requests.at(-1)!;

    it('translates a chat request into generateContent and the answer back, billing its usage', async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Describe' }, { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } }] },
        ],
        temperature: 0.2,
        max_tokens: 256,
        stop: 'END',
        response_format: { type: 'json_object' },
      });
      expect(answer.choices[0]?.message.content).toBe(geminiReply(model));
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      expect(answer.usage).toEqual({ prompt_tokens: geminiUsage.promptTokenCount, completion_tokens: geminiCompletionTokens, total_tokens: geminiUsage.promptTokenCount + geminiCompletionTokens });
      expect(sent().path).toBe(`/v1beta/models/${model}:generateContent`);
      expect(sent().headers['x-goog-api-key']).toBe('gem-ok');
      expect(sent().json).toEqual({
        contents: [{ role: 'user', parts: [{ text: 'Describe' }, { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } }] }],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        generationConfig: { temperature: 0.2, maxOutputTokens: 256, stopSequences: ['END'], responseMimeType: 'application/json' },
      });
      await expectCharged(before, quotaOf(geminiUsage.promptTokenCount, geminiCompletionTokens));
    });

    it('streams the answer as OpenAI chunks ending in the final usage, and bills it', async () => {
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Stream' }], stream: true, stream_options: { include_usage: true } });
      const pieces: string[] = [];
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      expect(pieces).toEqual(geminiPieces(model));
      expect(finish).toBe('stop');
      expect(usage).toEqual({ prompt_tokens: geminiUsage.promptTokenCount, completion_tokens: geminiCompletionTokens, total_tokens: geminiUsage.promptTokenCount + geminiCompletionTokens });
      expect(sent().path).toBe(`/v1beta/models/${model}:streamGenerateContent?alt=sse`);
      await expectCharged(before, quotaOf(geminiUsage.promptTokenCount, geminiCompletionTokens));
    });

    it('translates tools into function declarations, function calls into tool calls and tool results into function responses', async () => {
      const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
      const answer = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather in Berlin?' }], tools, tool_choice: { type: 'function', function: { name: 'weather' } } });
      const call = answer.choices[0]?.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
      expect(call.function.name).toBe('weather');
      expect(JSON.parse(call.function.arguments)).toEqual(geminiToolArgs);
      expect(sent().json.tools).toEqual([{ functionDeclarations: [{ name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] }]);
      expect(sent().json.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['weather'] } });

      await sdk.chat.completions.create({
        model,
        tools,
        messages: [
          { role: 'user', content: 'Weather in Berlin?' },
          { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: 'weather', arguments: '{"city":"Berlin"}' } }] },
          { role: 'tool', tool_call_id: call.id, content: '{"celsius": 12}' },
        ],
      });
      expect(sent().json.contents).toEqual([
        { role: 'user', parts: [{ text: 'Weather in Berlin?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'weather', args: { city: 'Berlin' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { celsius: 12 } } }] },
      ]);

      const stream = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather?' }], tools, stream: true });
      let args = '';
      let finish: string | null = null;
      for await (const chunk of stream) {
        for (const piece of chunk.choices[0]?.delta.tool_calls ?? []) args += piece.function?.arguments ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(JSON.parse(args)).toEqual(geminiToolArgs);
      expect(finish).toBe('tool_calls');
    });

    it('embeds through batchEmbedContents and bills the counted input', async () => {
      const before = await snapshot();
      const input = ['first text to embed', 'second one'];
      const answer = await sdk.embeddings.create({ model: embedModel, input, encoding_format: 'float' });
      expect(answer.data.map((d) => d.embedding)).toEqual([geminiVector, geminiVector]);
      expect(sent().path).toBe(`/v1beta/models/${embedModel}:batchEmbedContents`);
      expect(sent().json).toEqual({ requests: input.map((text) => ({ model: `models/${embedModel}`, content: { parts: [{ text }] } })) });
      const counted = input.reduce((sum, text) => sum + countText(text, embedModel), 0);
      await expectCharged(before, Math.ceil(counted * ratio));
    });

    it('answers provider errors and blocked prompts as OpenAI errors, refunded and unlogged', async () => {
      for (const [fault, status, message] of [
        ['gemini-403', 403, 'API key not valid'],
        ['gemini-429', 429, '当前分组上游负载已饱和'],
        ['gemini-blocked', 500, 'blocked by Gemini (SAFETY)'],
      ] as const) {
        const id = channels.get(fault)!;
        const before = await snapshot(id);
        const error = await sdkError(sdk.chat.completions.create({ model: fault, messages: [{ role: 'user', content: 'Hi' }] }));
        expect(error.status, fault).toBe(status);
        expect(error.message, fault).toContain(message);
        await expectUnchanged(before, id);
      }
    });

    it('refuses an image link (Gemini takes inline images) with a 400 before calling the provider', async () => {
      const error = await sdkError(
        sdk.chat.completions.create({ model, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] }),
      );
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/data URLs/);
      expect(upstream.requests).toHaveLength(0);
    });

    it('ends a dropped stream with an error and bills what was delivered; drops a malformed event', async () => {
      const id = channels.get('gemini-drop')!;
      const before = await snapshot(id);
      let received = '';
      const failure = await (async () => {
        try {
          const stream = await sdk.chat.completions.create({ model: 'gemini-drop', messages: [{ role: 'user', content: 'Hi' }], stream: true });
          for await (const chunk of stream) received += chunk.choices[0]?.delta.content ?? '';
          return null;
        } catch (error) {
          return error as Error;
        }
      })();
      expect(failure).not.toBeNull();
      expect(received).not.toBe('');
      await eventually(async () => (await consumeLogs(db(), userId)).length === before.logs + 1, 'the consume log');
      const after = await snapshot(id);
      const charged = before.user.quota - after.user.quota;
      expect(charged).toBeGreaterThan(0);
      expect((await consumeLogs(db(), userId)).at(-1)?.quota).toBe(charged);

      const malformedId = channels.get('gemini-malformed')!;
      const beforeMalformed = await snapshot(malformedId);
      const stream = await sdk.chat.completions.create({ model: 'gemini-malformed', messages: [{ role: 'user', content: 'Hi' }], stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe(geminiReply('gemini-malformed'));
      await expectCharged(beforeMalformed, quotaOf(geminiUsage.promptTokenCount, geminiCompletionTokens), malformedId);
    });

    it('tests a Gemini channel through the same translation', async () => {
      const root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      const ok = await root.get(`/api/channel/test/${channelId}?model=${model}`);
      expect(ok.body).toMatchObject({ success: true, message: geminiReply(model) });
      const refused = await root.get(`/api/channel/test/${channels.get('gemini-403')!}`);
      expect(refused.body).toMatchObject({ success: false, message: 'http status code: 403, error message: API key not valid. Please pass a valid API key.' });
    });
  });
}
