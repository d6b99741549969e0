import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import {
  chatPromptTokens,
  consumeLogs,
  countText,
  createRelayChannel,
  createRelayToken,
  createRelayUser,
  eventually,
  heldReservation,
  ledgerOf,
  quotaSnapshot,
  sdkClient,
  setRelayOptions,
  textLogContent,
  textQuota,
  tokenQuota,
  userQuota,
  type ChatMessage,
  type QuotaSnapshot,
  type RelayToken,
} from './support/relayFixtures';
import { embeddingUsage, embeddingVector, replyPieces, replyText, startRelayUpstream, upstreamUsage, type RelayUpstream } from './support/relayUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * The relay (/v1, issue 6) driven by the official openai SDK against a real server and a loopback
 * fake provider: every route, streaming and not, with the exact quota movement (contract §4.6)
 * and the consume log each request leaves.
 */

const chatModel = 'gpt-3.5-turbo';
const openaiTypeModel = 'gpt-4o-mini';
const messages: ChatMessage[] = [
  { role: 'system', content: 'You are a terse assistant.' },
  { role: 'user', content: 'Say hello to the relay test.' },
];
const models = [chatModel, 'gpt-3.5-turbo-instruct', 'text-embedding-3-small', 'text-moderation-latest', 'text-moderation-stable', 'dall-e-2'];

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay through the openai SDK — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: RelayUpstream;
    let userId: number;
    let token: RelayToken;
    let customChannel: number;
    let openaiChannel: number;
    let sdk: OpenAI;
    const userStart = 60_000;
    const tokenStart = 40_000;

    beforeAll(async () => {
      upstream = await startRelayUpstream();
      await setRelayOptions(db());
      // Quotas small enough that one-api's trust shortcut (user quota > 100 × reservation) never applies.
      userId = await createRelayUser(db(), { username: 'sdkuser', quota: userStart });
      token = await createRelayToken(db(), { userId, name: 'sdk-token', remainQuota: tokenStart });
      customChannel = await createRelayChannel(db(), { key: 'up-custom', baseUrl: upstream.url, models: models.join(','), type: 8 });
      openaiChannel = await createRelayChannel(db(), { key: 'up-openai', baseUrl: upstream.url, models: openaiTypeModel, type: 1 });
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const snapshot = (channelId = customChannel) => ledger.snapshot(channelId);
    const expectCharged = (before: QuotaSnapshot, quota: number, channelId = customChannel): Promise<void> => ledger.expectCharged(before, quota, channelId);

    /** Waits for the request's consume log, then checks every figure moved by exactly `quota`. */

    const lastLog = async () => (await consumeLogs(db(), userId)).at(-1)!;

    describe('POST /v1/chat/completions', () => {
      it('non-streaming: the upstream answer and usage reach the client; the usage is billed and logged', async () => {
        const before = await snapshot();
        const completion = await sdk.chat.completions.create({ model: chatModel, messages });
        expect(completion.choices[0]!.message.content).toBe(replyText(chatModel));
        expect(completion.usage).toMatchObject(upstreamUsage);

        const [sent] = upstream.requestsFor('up-custom');
        expect(sent?.path).toBe('/v1/chat/completions');
        expect(sent?.json).toMatchObject({ model: chatModel, messages });
        expect(sent?.headers.authorization).toBe('Bearer up-custom');

        const quota = textQuota(chatModel, upstreamUsage.prompt_tokens, upstreamUsage.completion_tokens);
        await expectCharged(before, quota);
        expect(await lastLog()).toEqual({
          userId,
          username: 'sdkuser',
          tokenName: 'sdk-token',
          modelName: chatModel,
          channelId: customChannel,
          promptTokens: upstreamUsage.prompt_tokens,
          completionTokens: upstreamUsage.completion_tokens,
          quota,
          content: textLogContent(chatModel),
          isStream: false,
        });
      });

      it('streaming: chunks pass through as they arrive, include_usage is asked upstream, the final usage is billed', async () => {
        const before = await snapshot();
        const gate = upstream.gate('up-custom', 1);
        const stream = await sdk.chat.completions.create({ model: chatModel, messages, stream: true });
        const iterator = stream[Symbol.asyncIterator]();
        const first = await iterator.next();
        // The client holds chunk 1 while the fake has not yet sent anything else: no buffering.
        expect(gate.released).toBe(false);
        expect(first.done).toBe(false);
        expect(first.value?.choices[0]?.delta.content).toBe(replyPieces(chatModel)[0]);
        // While the answer streams, the reservation is held on the token and the user.
        const reserved = heldReservation(chatModel, chatPromptTokens(messages, chatModel), Math.min(before.user.quota, before.token.remainQuota));
        expect((await tokenQuota(db(), token.id)).remainQuota).toBe(before.token.remainQuota - reserved);
        expect((await userQuota(db(), userId)).quota).toBe(before.user.quota - reserved);
        gate.release();
        let text = first.value?.choices[0]?.delta.content ?? '';
        const withoutChoices: unknown[] = [];
        for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
          text += next.value.choices[0]?.delta.content ?? '';
          if (next.value.choices.length === 0) withoutChoices.push(next.value);
        }
        expect(text).toBe(replyText(chatModel));
        // The usage chunk the gateway asked for is billed, not sent: the client did not ask for it
        // (one-api forwards such a body unchanged, so its clients never saw one).
        expect(withoutChoices).toEqual([]);

        const [sent] = upstream.requestsFor('up-custom');
        expect(sent?.json).toMatchObject({ model: chatModel, stream: true, stream_options: { include_usage: true } });
        const quota = textQuota(chatModel, upstreamUsage.prompt_tokens, upstreamUsage.completion_tokens);
        await expectCharged(before, quota);
        expect(await lastLog()).toMatchObject({ isStream: true, promptTokens: 17, completionTokens: 9, quota, channelId: customChannel });
      });

      it('streaming with stream_options.include_usage from the client: the usage chunk reaches the client', async () => {
        const before = await snapshot();
        const stream = await sdk.chat.completions.create({ model: chatModel, messages, stream: true, stream_options: { include_usage: true } });
        const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
        for await (const chunk of stream) chunks.push(chunk);
        expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(replyText(chatModel));
        expect(chunks.at(-1)?.usage).toMatchObject(upstreamUsage);
        await expectCharged(before, textQuota(chatModel, 17, 9));
      });

      it('streaming without upstream usage: completion tokens are counted from the streamed text, prompt tokens from the request', async () => {
        upstream.behave('up-custom', { kind: 'noUsage' });
        const before = await snapshot();
        const stream = await sdk.chat.completions.create({ model: chatModel, messages, stream: true });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        expect(text).toBe(replyText(chatModel));
        const prompt = chatPromptTokens(messages, chatModel);
        const completion = countText(replyText(chatModel), chatModel);
        await expectCharged(before, textQuota(chatModel, prompt, completion));
        expect(await lastLog()).toMatchObject({ isStream: true, promptTokens: prompt, completionTokens: completion });
      });

      it('a type-1 (OpenAI) channel with a base URL is reached the same way', async () => {
        const before = await snapshot(openaiChannel);
        const completion = await sdk.chat.completions.create({ model: openaiTypeModel, messages: [{ role: 'user', content: 'hi' }] });
        expect(completion.choices[0]!.message.content).toBe(replyText(openaiTypeModel));
        expect(upstream.requestsFor('up-openai').map((r) => r.path)).toEqual(['/v1/chat/completions']);
        await expectCharged(before, textQuota(openaiTypeModel, 17, 9), openaiChannel);
        expect(await lastLog()).toMatchObject({ modelName: openaiTypeModel, channelId: openaiChannel, content: textLogContent(openaiTypeModel) });
      });
    });

    it('the group ratio of the token owner enters the price and the log content', async () => {
      const vipId = await createRelayUser(db(), { username: 'sdkvip', quota: 50_000, group: 'vip' });
      const vipToken = await createRelayToken(db(), { userId: vipId, name: 'vip-token', remainQuota: 20_000 });
      const vipChannel = await createRelayChannel(db(), { key: 'up-vip', baseUrl: upstream.url, models: chatModel, group: 'vip' });
      const before = await quotaSnapshot(db(), { userId: vipId, tokenId: vipToken.id, channelId: vipChannel });
      const completion = await sdkClient(suite.api.url, vipToken.key).chat.completions.create({ model: chatModel, messages });
      expect(completion.choices[0]!.message.content).toBe(replyText(chatModel));
      expect(upstream.requestsFor('up-vip')).toHaveLength(1);
      // vip's group ratio is 2 (setRelayOptions).
      const quota = textQuota(chatModel, 17, 9, 2);
      await eventually(async () => (await consumeLogs(db(), vipId)).length === 1, 'the consume log');
      expect((await userQuota(db(), vipId)).quota).toBe(before.user.quota - quota);
      expect((await tokenQuota(db(), vipToken.id)).remainQuota).toBe(before.token.remainQuota - quota);
      expect((await consumeLogs(db(), vipId))[0]).toMatchObject({ quota, content: textLogContent(chatModel, 2), channelId: vipChannel });
    });

    describe('POST /v1/completions', () => {
      const model = 'gpt-3.5-turbo-instruct';
      const prompt = 'Once upon a time in a relay';

      it('non-streaming', async () => {
        const before = await snapshot();
        const completion = await sdk.completions.create({ model, prompt, max_tokens: 20 });
        expect(completion.choices[0]!.text).toBe(replyText(model));
        expect(upstream.requestsFor('up-custom')[0]?.path).toBe('/v1/completions');
        await expectCharged(before, textQuota(model, 17, 9));
        expect(await lastLog()).toMatchObject({ modelName: model, isStream: false, promptTokens: 17, completionTokens: 9 });
      });

      it('streaming, without upstream usage: counted locally', async () => {
        upstream.behave('up-custom', { kind: 'noUsage' });
        const before = await snapshot();
        const stream = await sdk.completions.create({ model, prompt, stream: true });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
        expect(text).toBe(replyText(model));
        expect(upstream.requestsFor('up-custom')[0]?.json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
        const promptTokens = countText(prompt, model);
        const completionTokens = countText(replyText(model), model);
        await expectCharged(before, textQuota(model, promptTokens, completionTokens));
        expect(await lastLog()).toMatchObject({ modelName: model, isStream: true, promptTokens, completionTokens });
      });
    });

    it('POST /v1/embeddings: vectors (base64, as the SDK asks) reach the client; the upstream usage is billed', async () => {
      const model = 'text-embedding-3-small';
      const before = await snapshot();
      const result = await sdk.embeddings.create({ model, input: ['first text', 'second text'] });
      expect(result.data.map((d) => d.embedding)).toEqual([embeddingVector, embeddingVector]);
      const [sent] = upstream.requestsFor('up-custom');
      expect(sent?.path).toBe('/v1/embeddings');
      expect(sent?.json).toMatchObject({ model, input: ['first text', 'second text'] });
      const quota = textQuota(model, embeddingUsage.prompt_tokens, 0);
      await expectCharged(before, quota);
      expect(await lastLog()).toMatchObject({ modelName: model, promptTokens: embeddingUsage.prompt_tokens, completionTokens: 0, quota });
    });

    it('POST /v1/moderations: results reach the client; the input is counted locally (no upstream usage)', async () => {
      const model = 'text-moderation-latest';
      const input = 'A perfectly harmless sentence about relays.';
      const before = await snapshot();
      const result = await sdk.moderations.create({ model, input });
      expect(result.results).toHaveLength(1);
      expect(result.results[0]!.flagged).toBe(false);
      expect(upstream.requestsFor('up-custom')[0]?.path).toBe('/v1/moderations');
      const promptTokens = countText(input, model);
      await expectCharged(before, textQuota(model, promptTokens, 0));
      expect(await lastLog()).toMatchObject({ modelName: model, promptTokens, completionTokens: 0 });
    });

    it('POST /v1/images/generations: images reach the client; cost = trunc(ratio × size ratio × 1000) × n', async () => {
      const before = await snapshot();
      const result = await sdk.images.generate({ model: 'dall-e-2', prompt: 'a relay station at dusk', n: 2, size: '512x512' });
      expect(result.data?.map((d) => d.url)).toEqual(['https://images.invalid/dall-e-2/0.png', 'https://images.invalid/dall-e-2/1.png']);
      expect(upstream.requestsFor('up-custom')[0]?.path).toBe('/v1/images/generations');
      // dall-e-2 ratio 8 (configured), 512x512 size ratio 1.125, group ratio 1, n = 2.
      const quota = Math.trunc(8 * 1 * 1.125 * 1000) * 2;
      await expectCharged(before, quota);
      expect(await lastLog()).toMatchObject({ modelName: 'dall-e-2', promptTokens: 0, completionTokens: 0, quota, content: '倍率：8.00 × 1.00' });
    });

    describe('models', () => {
      it('GET /v1/models lists the models of the enabled abilities in the token owner group', async () => {
        const ids: string[] = [];
        for await (const model of sdk.models.list()) ids.push(model.id);
        expect([...ids].sort()).toEqual([...models, openaiTypeModel].sort());
        expect(upstream.requests).toHaveLength(0);
      });

      it('GET /v1/models lists only the allowed models of a restricted token', async () => {
        const restricted = await createRelayToken(db(), { userId, name: 'restricted', remainQuota: 1000, models: `${chatModel},my-custom-model` });
        const ids: string[] = [];
        for await (const model of sdkClient(suite.api.url, restricted.key).models.list()) ids.push(model.id);
        expect([...ids].sort()).toEqual([chatModel, 'my-custom-model'].sort());
      });

      it('GET /v1/models/:model answers the catalogue object', async () => {
        const model = await sdk.models.retrieve(chatModel);
        expect(model).toMatchObject({ id: chatModel, object: 'model' });
      });
    });
  });
}
