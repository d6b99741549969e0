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
  anthropicPieces,
  anthropicPromptTokens,
  anthropicReply,
  anthropicToolInput,
  anthropicUsage,
  startAnthropicUpstream,
  type AnthropicUpstream,
} from './support/anthropicUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Anthropic channels (type 14) through the relay, driven by the official openai SDK against a
 * real server and a loopback fake of the Messages API: the request translated into Anthropic's
 * body, the answer (whole and streamed, text and tool calls) translated back, usage billed
 * exactly, provider errors answered as OpenAI errors with their status and refunded, stream
 * faults ending in a clear error with the delivered part billed; and the channel test.
 */

const model = 'claude-3-5-haiku-20241022';
const ratio = 1.5;
const completionRatio = 5;
/** Every model of these suites (one channel each; the fake picks its behaviour by the channel key). */
const faults = ['claude-401', 'claude-529', 'claude-drop', 'claude-malformed', 'claude-errfirst', 'claude-errmid'] as const;
const quotaOf = (prompt: number, completion: number): number => Math.ceil((prompt + completion * completionRatio) * ratio);

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay to Anthropic (Messages API) — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: AnthropicUpstream;
    let userId: number;
    let token: RelayToken;
    let channelId: number;
    const channels = new Map<string, number>();
    let sdk: OpenAI;

    beforeAll(async () => {
      upstream = await startAnthropicUpstream();
      const claude = Object.fromEntries([model, ...faults].map((m) => [m, ratio]));
      const claudeCompletion = Object.fromEntries([model, ...faults].map((m) => [m, completionRatio]));
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, ...claude }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, ...claudeCompletion }),
      });
      userId = await createRelayUser(db(), { username: 'claudeuser', quota: 500_000 });
      token = await createRelayToken(db(), { userId, name: 'claude-token', remainQuota: 400_000 });
      channelId = await createRelayChannel(db(), { key: 'ant-ok', baseUrl: upstream.url, models: model, type: 14 });
      for (const fault of faults) channels.set(fault, await createRelayChannel(db(), { key: fault, baseUrl: upstream.url, models: fault, type: 14 }));
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
      upstream.behave('claude-401', { kind: 'status', status: 401, type: 'authentication_error', message: 'invalid x-api-key' });
      upstream.behave('claude-529', { kind: 'status', status: 529, type: 'overloaded_error', message: 'Overloaded' });
      upstream.behave('claude-drop', { kind: 'dropMidStream', deltas: 3 });
      upstream.behave('claude-malformed', { kind: 'malformedEvent' });
      upstream.behave('claude-errfirst', { kind: 'errorFirst' });
      upstream.behave('claude-errmid', { kind: 'errorMidStream' });
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const snapshot = (id = channelId) => ledger.snapshot(id);
    const expectCharged = (before: QuotaSnapshot, quota: number, id = channelId): Promise<void> => ledger.expectCharged(before, quota, id);
    const { expectUnchanged } = ledger;
    const sent = () => upstream.requests.at(-1)!;

    it('translates a chat request into a Messages request and the answer back, billing its usage', async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello.' },
          { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
        ],
        temperature: 1.7,
        top_p: 0.9,
        stop: ['END'],
        user: 'u-42',
      });
      expect(answer.choices[0]?.message).toMatchObject({ role: 'assistant', content: anthropicReply(model) });
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      expect(answer.usage).toEqual({ prompt_tokens: anthropicPromptTokens, completion_tokens: anthropicUsage.output_tokens, total_tokens: anthropicPromptTokens + anthropicUsage.output_tokens });

      const request = sent();
      expect(request.headers['x-api-key']).toBe('ant-ok');
      expect(request.headers['anthropic-version']).toBe('2023-06-01');
      expect(request.headers.authorization).toBeUndefined();
      expect(request.json).toEqual({
        model,
        system: 'You are terse.',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            ],
          },
        ],
        max_tokens: 4096,
        temperature: 1,
        top_p: 0.9,
        stop_sequences: ['END'],
        metadata: { user_id: 'u-42' },
      });
      await expectCharged(before, quotaOf(anthropicPromptTokens, anthropicUsage.output_tokens));
    });

    it('streams the answer as OpenAI chunks, with the usage chunk when asked, and bills it', async () => {
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'Stream please' }],
        max_tokens: 300,
        stream: true,
        stream_options: { include_usage: true },
      });
      const pieces: string[] = [];
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (choice?.delta.content) pieces.push(choice.delta.content);
        if (choice?.finish_reason) finish = choice.finish_reason;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(pieces.join('')).toBe(anthropicReply(model));
      expect(pieces).toEqual(anthropicPieces(model));
      expect(finish).toBe('stop');
      expect(usage).toEqual({ prompt_tokens: anthropicPromptTokens, completion_tokens: anthropicUsage.output_tokens, total_tokens: anthropicPromptTokens + anthropicUsage.output_tokens });
      expect(sent().json).toMatchObject({ stream: true, max_tokens: 300 });
      await expectCharged(before, quotaOf(anthropicPromptTokens, anthropicUsage.output_tokens));
    });

    it('hides the usage chunk when the client did not ask for it, and still bills the usage', async () => {
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'No usage' }], stream: true });
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.every((c) => c.choices.length === 1 && c.usage === undefined)).toBe(true);
      await expectCharged(before, quotaOf(anthropicPromptTokens, anthropicUsage.output_tokens));
    });

    it('translates tools, tool calls and tool results both ways', async () => {
      const tools: OpenAI.ChatCompletionTool[] = [
        { type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
      ];
      const answer = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools, tool_choice: 'required', parallel_tool_calls: false });
      const call = answer.choices[0]?.message.tool_calls?.[0];
      expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
      expect(call).toMatchObject({ id: 'toolu_01', type: 'function', function: { name: 'get_weather' } });
      expect(JSON.parse((call as OpenAI.ChatCompletionMessageFunctionToolCall).function.arguments)).toEqual(anthropicToolInput);
      expect(sent().json.tools).toEqual([{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }]);
      expect(sent().json.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });

      // the tool's result goes back as a tool_result block in a user turn
      const followUp = await sdk.chat.completions.create({
        model,
        tools,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_01', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
          { role: 'tool', tool_call_id: 'toolu_01', content: '21 °C' },
        ],
      });
      expect(followUp.choices[0]?.message.content).toBe(anthropicReply(model));
      expect(sent().json.messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '21 °C' }] },
      ]);

      // streamed: the tool call's arguments arrive in pieces under one tool call index
      const stream = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather?' }], tools, stream: true });
      let args = '';
      let name = '';
      let finish: string | null = null;
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta;
        for (const piece of delta?.tool_calls ?? []) {
          expect(piece.index).toBe(0);
          name += piece.function?.name ?? '';
          args += piece.function?.arguments ?? '';
        }
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(name).toBe('get_weather');
      expect(JSON.parse(args)).toEqual(anthropicToolInput);
      expect(finish).toBe('tool_calls');
    });

    it('answers provider errors as OpenAI errors with their status, refunded and unlogged', async () => {
      for (const [fault, status, type, message] of [
        ['claude-401', 401, 'authentication_error', 'invalid x-api-key'],
        ['claude-529', 529, 'overloaded_error', 'Overloaded'],
      ] as const) {
        const id = channels.get(fault)!;
        const before = await snapshot(id);
        const error = await sdkError(sdk.chat.completions.create({ model: fault, messages: [{ role: 'user', content: 'Hi' }] }));
        expect(error.status, fault).toBe(status);
        expect(error.message).toContain(message);
        expect((error.error as { type?: string }).type).toBe(type);
        await expectUnchanged(before, id);
      }
    });

    it('refuses content it cannot translate with a 400 naming it, before calling the provider', async () => {
      const before = await snapshot();
      const error = await sdkError(
        sdk.chat.completions.create({ model, messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] }] }),
      );
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/input_audio/);
      expect(upstream.requests).toHaveLength(0);
      await expectUnchanged(before, channelId);
    });

    it('answers an error event before any content as an ordinary failure, refunded', async () => {
      const id = channels.get('claude-errfirst')!;
      const before = await snapshot(id);
      const error = await sdkError(
        (async () => {
          const stream = await sdk.chat.completions.create({ model: 'claude-errfirst', messages: [{ role: 'user', content: 'Hi' }], stream: true });
          for await (const chunk of stream) void chunk;
        })(),
      );
      expect(error.status).toBe(500);
      expect(error.message).toContain('Overloaded');
      await expectUnchanged(before, id);
    });

    it('ends a stream the provider drops, or breaks with an error event, with an error and bills what was delivered', async () => {
      for (const fault of ['claude-drop', 'claude-errmid'] as const) {
        const id = channels.get(fault)!;
        const before = await snapshot(id);
        const received: string[] = [];
        const failure = await (async () => {
          try {
            const stream = await sdk.chat.completions.create({ model: fault, messages: [{ role: 'user', content: 'Hi' }], stream: true });
            for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
            return null;
          } catch (error) {
            return error as Error;
          }
        })();
        expect(failure, fault).not.toBeNull();
        expect(received.join(''), `${fault}: ${String(failure)}`).not.toBe('');
        await eventually(async () => (await consumeLogs(db(), userId)).length === before.logs + 1, `${fault}: the consume log`);
        const after = await snapshot(id);
        const charged = before.user.quota - after.user.quota;
        expect(charged).toBeGreaterThan(0);
        expect(after.token.remainQuota).toBe(before.token.remainQuota - charged);
        expect(after.channelUsed).toBe(before.channelUsed + charged);
        expect((await consumeLogs(db(), userId)).at(-1)?.quota).toBe(charged);
      }
    });

    it('drops a malformed event and completes the stream', async () => {
      const id = channels.get('claude-malformed')!;
      const before = await snapshot(id);
      const stream = await sdk.chat.completions.create({ model: 'claude-malformed', messages: [{ role: 'user', content: 'Hi' }], stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe(anthropicReply('claude-malformed'));
      await expectCharged(before, quotaOf(anthropicPromptTokens, anthropicUsage.output_tokens), id);
    });

    it('tests an Anthropic channel through the same translation', async () => {
      const root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      const ok = await root.get(`/api/channel/test/${channelId}`);
      expect(ok.body).toMatchObject({ success: true, message: anthropicReply(model) });
      expect(sent().json).toMatchObject({ model, max_tokens: 4096 });
      const refused = await root.get(`/api/channel/test/${channels.get('claude-401')!}`);
      expect(refused.body).toMatchObject({ success: false, message: 'http status code: 401, error message: invalid x-api-key' });
    });
  });
}
