import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import {
  createRelayChannel,
  createRelayToken,
  createRelayUser,
  ledgerOf,
  setRelayOptions,
  testCompletionRatio,
  testModelRatio,
  textQuota,
  type RelayToken,
} from './support/relayFixtures';
import { replyText, startRelayUpstream, upstreamUsage, type RelayUpstream } from './support/relayUpstream';
import { anthropicPromptTokens, anthropicReply, anthropicToolInput, anthropicUsage, startAnthropicUpstream, type AnthropicUpstream } from './support/anthropicUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * `POST /v1/messages` (Anthropic's Messages API) served from any channel, driven by the official
 * @anthropic-ai/sdk against a real server: an OpenAI-compatible channel (the request translated
 * to OpenAI chat and the answer back) and an Anthropic channel (through both translations), whole
 * and streamed, tools, errors in Anthropic's shape, and exact quota.
 */

const openAiModel = 'gpt-3.5-turbo';
const claude = 'claude-sonnet-4-5';
const claudeRatio = 1.5;
const claudeCompletion = 5;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`POST /v1/messages through the Anthropic SDK — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let openAiUpstream: RelayUpstream;
    let anthropicUpstream: AnthropicUpstream;
    let userId: number;
    let token: RelayToken;
    let openAiChannel: number;
    let claudeChannel: number;
    let sdk: Anthropic;

    beforeAll(async () => {
      openAiUpstream = await startRelayUpstream();
      anthropicUpstream = await startAnthropicUpstream();
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, [claude]: claudeRatio, 'claude-bad': claudeRatio }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, [claude]: claudeCompletion, 'claude-bad': claudeCompletion }),
      });
      userId = await createRelayUser(db(), { username: 'msguser', quota: 500_000 });
      token = await createRelayToken(db(), { userId, name: 'msg-token', remainQuota: 400_000 });
      openAiChannel = await createRelayChannel(db(), { key: 'oa-msg', baseUrl: openAiUpstream.url, models: openAiModel, type: 8 });
      claudeChannel = await createRelayChannel(db(), { key: 'ant-msg', baseUrl: anthropicUpstream.url, models: claude, type: 14 });
      await createRelayChannel(db(), { key: 'claude-bad', baseUrl: anthropicUpstream.url, models: 'claude-bad', type: 14 });
      sdk = new Anthropic({ baseURL: suite.api.url, apiKey: `sk-${token.key}`, maxRetries: 0, timeout: 20_000 });
    });
    afterAll(async () => {
      await openAiUpstream.close();
      await anthropicUpstream.close();
    });
    beforeEach(() => {
      openAiUpstream.reset();
      anthropicUpstream.reset();
      anthropicUpstream.behave('claude-bad', { kind: 'status', status: 401, type: 'authentication_error', message: 'invalid x-api-key' });
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const snapshot = (channelId: number) => ledger.snapshot(channelId);
    const { expectCharged } = ledger;

    it('answers a Messages request from an OpenAI-compatible channel and bills its usage', async () => {
      const before = await snapshot(openAiChannel);
      const message = await sdk.messages.create({
        model: openAiModel,
        max_tokens: 200,
        system: 'Be terse.',
        messages: [{ role: 'user', content: 'Say hello.' }],
        stop_sequences: ['END'],
      });
      expect(message.type).toBe('message');
      expect(message.role).toBe('assistant');
      expect(message.content).toEqual([{ type: 'text', text: replyText(openAiModel) }]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage).toMatchObject({ input_tokens: upstreamUsage.prompt_tokens, output_tokens: upstreamUsage.completion_tokens });
      const sent = openAiUpstream.requests.at(-1)!;
      expect(sent.path).toBe('/v1/chat/completions');
      expect(sent.json).toMatchObject({
        model: openAiModel,
        max_tokens: 200,
        stop: ['END'],
        messages: [
          { role: 'system', content: 'Be terse.' },
          { role: 'user', content: 'Say hello.' },
        ],
      });
      await expectCharged(before, textQuota(openAiModel, upstreamUsage.prompt_tokens, upstreamUsage.completion_tokens), openAiChannel);
    });

    it('streams Messages events from an OpenAI-compatible channel and bills the usage', async () => {
      const before = await snapshot(openAiChannel);
      const stream = sdk.messages.stream({ model: openAiModel, max_tokens: 100, messages: [{ role: 'user', content: 'Stream it.' }] });
      let text = '';
      stream.on('text', (piece) => {
        text += piece;
      });
      const message = await stream.finalMessage();
      expect(text).toBe(replyText(openAiModel));
      expect(message.content).toEqual([{ type: 'text', text: replyText(openAiModel) }]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage.output_tokens).toBe(upstreamUsage.completion_tokens);
      expect(openAiUpstream.requests.at(-1)!.json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      await expectCharged(before, textQuota(openAiModel, upstreamUsage.prompt_tokens, upstreamUsage.completion_tokens), openAiChannel);
    });

    it('serves an Anthropic channel through both translations, tools included, whole and streamed', async () => {
      const before = await snapshot(claudeChannel);
      const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];
      const message = await sdk.messages.create({ model: claude, max_tokens: 300, tools, tool_choice: { type: 'any' }, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
      expect(message.stop_reason).toBe('tool_use');
      expect(message.content).toEqual([
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: anthropicToolInput },
      ]);
      expect(message.usage).toMatchObject({ input_tokens: anthropicPromptTokens, output_tokens: anthropicUsage.output_tokens });
      const sent = anthropicUpstream.requests.at(-1)!.json;
      expect(sent.tools).toEqual(tools);
      expect(sent.tool_choice).toEqual({ type: 'any' });
      await expectCharged(before, Math.ceil((anthropicPromptTokens + anthropicUsage.output_tokens * claudeCompletion) * claudeRatio), claudeChannel);

      // the tool result goes back; the streamed answer is text again
      const stream = sdk.messages.stream({
        model: claude,
        max_tokens: 300,
        tools,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '21 °C' }] },
        ],
      });
      const final = await stream.finalMessage();
      expect(final.content).toEqual([{ type: 'text', text: anthropicReply(claude) }]);
      expect(anthropicUpstream.requests.at(-1)!.json.messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '21 °C' }] },
      ]);

      // a streamed tool call arrives as a tool_use block with its input
      const toolStream = sdk.messages.stream({ model: claude, max_tokens: 300, tools, messages: [{ role: 'user', content: 'Weather?' }] });
      const toolMessage = await toolStream.finalMessage();
      expect(toolMessage.stop_reason).toBe('tool_use');
      expect(toolMessage.content.at(-1)).toEqual({ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: anthropicToolInput });
    });

    it('answers errors in Anthropic\'s shape: a bad key, a bad request, a provider error', async () => {
      const stranger = new Anthropic({ baseURL: suite.api.url, apiKey: 'sk-nobody', maxRetries: 0 });
      const unauthorized = await stranger.messages.create({ model: openAiModel, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
      expect(unauthorized).toBeInstanceOf(Anthropic.AuthenticationError);
      expect((unauthorized as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });

      const raw = await fetch(`${suite.api.url}/v1/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'x-api-key': `sk-${token.key}`, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: openAiModel, messages: [{ role: 'user', content: 'Hi' }] }),
      });
      expect(raw.status).toBe(400);
      const body = (await raw.json()) as { type: string; error: { type: string; message: string } };
      expect(body.type).toBe('error');
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toMatch(/^max_tokens: /);

      const before = await snapshot(claudeChannel);
      const upstreamRefused = await sdk.messages.create({ model: 'claude-bad', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }).catch((e: unknown) => e);
      expect(upstreamRefused).toBeInstanceOf(Anthropic.AuthenticationError);
      expect((upstreamRefused as InstanceType<typeof Anthropic.APIError>).message).toContain('invalid x-api-key');
      const after = await snapshot(claudeChannel);
      expect(after.user).toEqual(before.user);
    });

    it('takes the token as a Bearer header too (Claude Code with an auth token)', async () => {
      const bearer = new Anthropic({ baseURL: suite.api.url, authToken: `sk-${token.key}`, apiKey: null, maxRetries: 0 });
      const message = await bearer.messages.create({ model: openAiModel, max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] });
      expect(message.content).toEqual([{ type: 'text', text: replyText(openAiModel) }]);
    });
  });
}
