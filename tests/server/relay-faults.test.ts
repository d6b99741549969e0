import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import {
  channelHealth,
  chatPromptTokens,
  closedPort,
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
  sdkError,
  setRelayOptions,
  textQuota,
  type ChatMessage,
  type QuotaSnapshot,
  type RelayToken,
} from './support/relayFixtures';
import { replyPieces, replyText, startRelayUpstream, upstreamErrorOf, upstreamUsage, type RelayUpstream } from './support/relayUpstream';
import { setOption } from './support/db';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Faults of the upstream and of the client (issue 6 items 4–7, contract §4.4, §4.6, §4.8, §4.9):
 * each ends in a clear OpenAI-style error for the SDK, the right log, and quota exactly as before
 * the request — or, for a stream cut after some chunks, exactly the delivered part charged once.
 */

const model = 'gpt-3.5-turbo';
const messages: ChatMessage[] = [{ role: 'user', content: 'Tell me something about faults.' }];
const requestIdSuffix = / \(request id: [^)]+\)$/;
const saturated = '当前分组上游负载已饱和，请稍后再试';

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay faults — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: RelayUpstream;
    let userId: number;
    let adminId: number;
    let token: RelayToken;
    let adminToken: RelayToken;
    let sdk: OpenAI;
    let channelSeq = 0;

    beforeAll(async () => {
      upstream = await startRelayUpstream();
      userId = await createRelayUser(db(), { username: 'faultuser', quota: 50_000 });
      adminId = await createRelayUser(db(), { username: 'faultadmin', quota: 50_000, role: 10 });
      token = await createRelayToken(db(), { userId, name: 'fault-token', remainQuota: 30_000 });
      adminToken = await createRelayToken(db(), { userId: adminId, name: 'admin-token', remainQuota: 30_000 });
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(async () => {
      upstream.reset();
      await setRelayOptions(db());
      // Each test gets its own channels: none from an earlier test may be chosen.
      await db().updateTable('channels').set({ status: 2 }).execute();
      await db().updateTable('abilities').set({ enabled: false }).execute();
    });

    /** A fresh enabled channel for `model` whose upstream key is unique; returns its id and key. */
    const addChannel = async (fields: { priority?: number; baseUrl?: string } = {}) => {
      channelSeq += 1;
      const key = `up-fault-${channelSeq}`;
      const id = await createRelayChannel(db(), { key, baseUrl: fields.baseUrl ?? upstream.url, models: model, priority: fields.priority ?? 0 });
      return { id, key };
    };

    const snapshot = (channelId: number, tokenId = token.id, owner = userId) => quotaSnapshot(db(), { userId: owner, tokenId, channelId });
    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const { expectCharged } = ledger;

    /** Lets asynchronous refunds land, then checks nothing moved and no consume log was written. */
    async function expectUntouched(before: QuotaSnapshot, channelId: number, tokenId = token.id, owner = userId): Promise<void> {
      await eventually(async () => {
        const now = await snapshot(channelId, tokenId, owner);
        return now.user.quota === before.user.quota && now.token.remainQuota === before.token.remainQuota;
      }, 'the refund').catch(() => undefined);
      expect(await snapshot(channelId, tokenId, owner)).toEqual(before);
    }

    const lastLog = async () => (await consumeLogs(db(), userId)).at(-1)!;
    const chat = (client = sdk) => client.chat.completions.create({ model, messages });
    const chatStream = (client = sdk, signal?: AbortSignal) => client.chat.completions.create({ model, messages, stream: true }, { signal });

    describe('upstream error statuses', () => {
      for (const status of [400, 401, 403, 404, 429, 500, 503]) {
        it(`${status}: same status, the upstream error with the request id, full refund, no consume log`, async () => {
          const channel = await addChannel();
          upstream.behave(channel.key, { kind: 'status', status });
          const before = await snapshot(channel.id);
          const error = await sdkError(chat());
          expect(error.status).toBe(status);
          const expected = upstreamErrorOf(status);
          const body = error.error as { message: string; type: string; code: unknown };
          // A final 429 always says the group is saturated (contract §4.8), retries or not.
          expect(body.message.replace(requestIdSuffix, '')).toBe(status === 429 ? saturated : expected.message);
          expect(body.message).toMatch(requestIdSuffix);
          expect(body.type).toBe(expected.type);
          expect(body.code).toBe(expected.code);
          await expectUntouched(before, channel.id);
          // AutomaticDisableChannelEnabled is off: the channel stays enabled whatever the error.
          expect(await channelHealth(db(), channel.id)).toMatchObject({ status: 1, abilitiesEnabled: [true] });
        });
      }

      it('a streaming request answered with an error status fails before any chunk, with a refund', async () => {
        const channel = await addChannel();
        upstream.behave(channel.key, { kind: 'status', status: 429 });
        const before = await snapshot(channel.id);
        const error = await sdkError(chatStream());
        expect(error.status).toBe(429);
        expect((error.error as { message: string }).message.replace(requestIdSuffix, '')).toBe(saturated);
        await expectUntouched(before, channel.id);
      });
    });

    describe('automatic channel disabling (AutomaticDisableChannelEnabled)', () => {
      const fatal: ReadonlyArray<readonly [string, { status: number; message?: string; type?: string; code?: string | null }]> = [
        ['401', { status: 401 }],
        ['403 permission_error', { status: 403, type: 'permission_error', code: null, message: 'You are not allowed to sample from this model' }],
        ['429 with a "credit balance is too low" message', { status: 429, type: 'requests', code: null, message: 'Your credit balance is too low to access the API.' }],
      ];
      for (const [name, fault] of fatal) {
        it(`${name} disables the channel (status 3, abilities disabled) when the option is on`, async () => {
          await setOption(db(), 'AutomaticDisableChannelEnabled', 'true');
          const channel = await addChannel();
          upstream.behave(channel.key, { kind: 'status', ...fault });
          const before = await snapshot(channel.id);
          const error = await sdkError(chat());
          expect(error.status).toBe(fault.status);
          await eventually(async () => (await channelHealth(db(), channel.id)).status === 3, 'the channel to be disabled');
          expect(await channelHealth(db(), channel.id)).toMatchObject({ status: 3, abilitiesEnabled: [false] });
          await expectUntouched(before, channel.id);
        });
      }

      it('a non-fatal 500 leaves the channel enabled even with the option on', async () => {
        await setOption(db(), 'AutomaticDisableChannelEnabled', 'true');
        const channel = await addChannel();
        upstream.behave(channel.key, { kind: 'status', status: 500 });
        expect((await sdkError(chat())).status).toBe(500);
        expect(await channelHealth(db(), channel.id)).toMatchObject({ status: 1, abilitiesEnabled: [true] });
      });

      it('401 with the option off leaves the channel enabled', async () => {
        const channel = await addChannel();
        upstream.behave(channel.key, { kind: 'status', status: 401 });
        expect((await sdkError(chat())).status).toBe(401);
        expect(await channelHealth(db(), channel.id)).toMatchObject({ status: 1, abilitiesEnabled: [true] });
      });
    });

    describe('retries (RetryTimes = 2)', () => {
      beforeEach(async () => {
        await setOption(db(), 'RetryTimes', '2');
      });

      it('a 500 on the first channel is retried on the other: success, one consume log, charged once', async () => {
        const first = await addChannel({ priority: 10 });
        const second = await addChannel({ priority: 0 });
        upstream.behave(first.key, { kind: 'status', status: 500 });
        const before = await snapshot(second.id);
        const completion = await chat();
        expect(completion.choices[0]!.message.content).toBe(replyText(model));
        expect(upstream.requestsFor(first.key)).toHaveLength(1);
        expect(upstream.requestsFor(second.key)).toHaveLength(1);
        // The replayed body is the client's.
        expect(upstream.requestsFor(second.key)[0]!.json).toMatchObject({ model, messages });
        await expectCharged(before, textQuota(model, 17, 9), second.id);
        expect(await lastLog()).toMatchObject({ channelId: second.id, promptTokens: 17, completionTokens: 9 });
        expect((await channelHealth(db(), first.id)).usedQuota).toBe(0);
      });

      it('a stream dropped before its first chunk is retried on the other channel: one log, charged once', async () => {
        const first = await addChannel({ priority: 10 });
        const second = await addChannel({ priority: 0 });
        upstream.behave(first.key, { kind: 'dropBeforeFirst' });
        const before = await snapshot(second.id);
        let text = '';
        for await (const chunk of await chatStream()) text += chunk.choices[0]?.delta.content ?? '';
        expect(text).toBe(replyText(model));
        expect(upstream.requestsFor(first.key)).toHaveLength(1);
        expect(upstream.requestsFor(second.key)).toHaveLength(1);
        await expectCharged(before, textQuota(model, 17, 9), second.id);
        expect(await lastLog()).toMatchObject({ channelId: second.id, isStream: true });
      });

      it('a 400 is not retried', async () => {
        const first = await addChannel({ priority: 10 });
        const second = await addChannel({ priority: 0 });
        upstream.behave(first.key, { kind: 'status', status: 400 });
        const before = await snapshot(first.id);
        expect((await sdkError(chat())).status).toBe(400);
        expect(upstream.requestsFor(second.key)).toHaveLength(0);
        await expectUntouched(before, first.id);
      });

      it('a channel pinned by an admin (sk-key-<id>) is not retried', async () => {
        const first = await addChannel({ priority: 10 });
        const second = await addChannel({ priority: 0 });
        upstream.behave(first.key, { kind: 'status', status: 500 });
        const before = await snapshot(first.id, adminToken.id, adminId);
        const pinned = sdkClient(suite.api.url, adminToken.key, { channelId: first.id });
        expect((await sdkError(chat(pinned))).status).toBe(500);
        expect(upstream.requestsFor(first.key)).toHaveLength(1);
        expect(upstream.requestsFor(second.key)).toHaveLength(0);
        await expectUntouched(before, first.id, adminToken.id, adminId);
      });

      it(`429 everywhere: status 429 with "${saturated}", full refund`, async () => {
        const first = await addChannel({ priority: 10 });
        const second = await addChannel({ priority: 0 });
        upstream.behave(first.key, { kind: 'status', status: 429 });
        upstream.behave(second.key, { kind: 'status', status: 429 });
        const before = await snapshot(first.id);
        const error = await sdkError(chat());
        expect(error.status).toBe(429);
        const message = (error.error as { message: string }).message;
        expect(message.replace(requestIdSuffix, '')).toBe(saturated);
        expect(message).toMatch(requestIdSuffix);
        expect(upstream.requestsFor(second.key).length).toBeGreaterThanOrEqual(1);
        await expectUntouched(before, first.id);
      });
    });

    it('an unreachable upstream (connection refused): 500 do_request_failed, refund', async () => {
      const channel = await addChannel({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
      const before = await snapshot(channel.id);
      const error = await sdkError(chat());
      expect(error.status).toBe(500);
      expect(error.code).toBe('do_request_failed');
      expect((error.error as { message: string }).message).toMatch(requestIdSuffix);
      await expectUntouched(before, channel.id);
    });

    describe('streams', () => {
      const delivered = (chunks: number) => replyPieces(model).slice(0, chunks).join('');
      const promptTokens = chatPromptTokens(messages, model);

      it('dropped mid-stream after 3 chunks: the client gets 3 chunks then an error; the delivered part is billed once', async () => {
        const channel = await addChannel();
        upstream.behave(channel.key, { kind: 'dropMidStream', chunks: 3 });
        const before = await snapshot(channel.id);
        const stream = await chatStream();
        const received: string[] = [];
        let failure: unknown = null;
        try {
          for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
        } catch (error) {
          failure = error;
        }
        // A clear OpenAI-style error event ends the stream (the SDK throws it), not a cut connection.
        expect(failure).toBeInstanceOf(OpenAI.APIError);
        expect((failure as InstanceType<typeof OpenAI.APIError>).message).toMatch(requestIdSuffix);
        expect(received.join('')).toBe(delivered(3));
        const completionTokens = countText(delivered(3), model);
        await expectCharged(before, textQuota(model, promptTokens, completionTokens), channel.id);
        expect(await lastLog()).toMatchObject({ isStream: true, promptTokens, completionTokens, channelId: channel.id });
        // Still one log a moment later (no second billing).
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await consumeLogs(db(), userId)).toHaveLength(before.logs + 1);
      });

      it('dropped before the first chunk: 502 upstream_stream_failed, refund', async () => {
        const channel = await addChannel();
        upstream.behave(channel.key, { kind: 'dropBeforeFirst' });
        const before = await snapshot(channel.id);
        const error = await sdkError(chatStream());
        expect(error.status).toBe(502);
        expect(error.code).toBe('upstream_stream_failed');
        await expectUntouched(before, channel.id);
      });

      it('malformed SSE lines in the middle are skipped; the stream completes and its usage is billed', async () => {
        const channel = await addChannel();
        upstream.behave(channel.key, { kind: 'malformedSse' });
        const before = await snapshot(channel.id);
        let text = '';
        for await (const chunk of await chatStream()) text += chunk.choices[0]?.delta.content ?? '';
        expect(text).toBe(replyText(model));
        await expectCharged(before, textQuota(model, upstreamUsage.prompt_tokens, upstreamUsage.completion_tokens), channel.id);
      });

      it('a stream of nothing but malformed lines: 502 bad_response, refund', async () => {
        const channel = await addChannel();
        upstream.behave(channel.key, { kind: 'malformedSse', only: true });
        const before = await snapshot(channel.id);
        const error = await sdkError(chatStream());
        expect(error.status).toBe(502);
        expect(error.code).toBe('bad_response');
        await expectUntouched(before, channel.id);
      });

      it('the client aborting mid-stream cancels the upstream request; the delivered part is billed once', async () => {
        const channel = await addChannel();
        const gate = upstream.gate(channel.key, 2);
        const before = await snapshot(channel.id);
        const controller = new AbortController();
        const stream = await chatStream(sdk, controller.signal);
        const iterator = stream[Symbol.asyncIterator]();
        const received: string[] = [];
        for (let i = 0; i < 2; i += 1) {
          const next = await iterator.next();
          received.push(next.value?.choices[0]?.delta.content ?? '');
        }
        await gate.reached;
        controller.abort();
        // The SDK ends an aborted stream quietly (or throws, depending on timing): either way no more chunks.
        const rest = await iterator.next().catch(() => ({ done: true as const, value: undefined }));
        expect(rest.done).toBe(true);
        const [sent] = upstream.requestsFor(channel.key);
        await Promise.race([sent!.settled, new Promise((resolve) => setTimeout(resolve, 3000))]);
        expect(sent!.abortedByClient).toBe(true);
        expect(gate.released).toBe(false);
        expect(received.join('')).toBe(delivered(2));
        const completionTokens = countText(delivered(2), model);
        await expectCharged(before, textQuota(model, promptTokens, completionTokens), channel.id);
        expect(await lastLog()).toMatchObject({ isStream: true, promptTokens, completionTokens });
      });
    });

    describe('the client leaving before the answer', () => {
      it('a stream left before its first chunk: the upstream request is cancelled, refund, no log', async () => {
        const channel = await addChannel();
        const gate = upstream.gate(channel.key, 0);
        const before = await snapshot(channel.id);
        const controller = new AbortController();
        const call = chatStream(sdk, controller.signal);
        await gate.reached;
        controller.abort();
        await expect(call).rejects.toThrow();
        const [sent] = upstream.requestsFor(channel.key);
        await Promise.race([sent!.settled, new Promise((resolve) => setTimeout(resolve, 3000))]);
        expect(sent!.abortedByClient).toBe(true);
        await expectUntouched(before, channel.id);
      });

      it('a non-streaming request left while the upstream thinks: the upstream request is cancelled, refund, no log', async () => {
        const channel = await addChannel();
        upstream.behave(channel.key, { kind: 'slow', ms: 5_000 });
        const before = await snapshot(channel.id);
        const controller = new AbortController();
        const call = sdk.chat.completions.create({ model, messages }, { signal: controller.signal });
        await eventually(() => Promise.resolve(upstream.requestsFor(channel.key).length === 1), 'the upstream request');
        controller.abort();
        await expect(call).rejects.toThrow();
        const [sent] = upstream.requestsFor(channel.key);
        await Promise.race([sent!.settled, new Promise((resolve) => setTimeout(resolve, 3000))]);
        expect(sent!.abortedByClient).toBe(true);
        await expectUntouched(before, channel.id);
      });
    });

    describe('non-streaming bodies', () => {
      it('a 200 with malformed JSON: 500 unmarshal_response_body_failed, refund', async () => {
        const channel = await addChannel();
        upstream.behave(channel.key, { kind: 'malformedJson' });
        const before = await snapshot(channel.id);
        const error = await sdkError(chat());
        expect(error.status).toBe(500);
        expect(error.code).toBe('unmarshal_response_body_failed');
        await expectUntouched(before, channel.id);
      });

      it('an answer without usage is billed from local counts (fix of one-api §6 #19)', async () => {
        const channel = await addChannel();
        upstream.behave(channel.key, { kind: 'noUsage' });
        const before = await snapshot(channel.id);
        const completion = await chat();
        expect(completion.choices[0]!.message.content).toBe(replyText(model));
        const promptTokens = chatPromptTokens(messages, model);
        const completionTokens = countText(replyText(model), model);
        await expectCharged(before, textQuota(model, promptTokens, completionTokens), channel.id);
        expect(await lastLog()).toMatchObject({ isStream: false, promptTokens, completionTokens });
      });
    });

    it('an upstream slower than RELAY_TIMEOUT: 504 upstream_timeout, refund', async () => {
      await suite.restart({ env: { RELAY_TIMEOUT: '1' } });
      try {
        const channel = await addChannel();
        upstream.behave(channel.key, { kind: 'slow', ms: 1_600 });
        const before = await snapshot(channel.id);
        const started = Date.now();
        const failed = sdkError(chat(sdkClient(suite.api.url, token.key)));
        // While the upstream thinks, the reservation is held on the token and the user.
        await eventually(() => Promise.resolve(upstream.requestsFor(channel.key).length === 1), 'the upstream request');
        const reserved = heldReservation(model, chatPromptTokens(messages, model), Math.min(before.user.quota, before.token.remainQuota));
        const during = await snapshot(channel.id);
        expect(during.token.remainQuota).toBe(before.token.remainQuota - reserved);
        expect(during.user.quota).toBe(before.user.quota - reserved);
        const error = await failed;
        expect(Date.now() - started).toBeLessThan(1_500);
        expect(error.status).toBe(504);
        expect(error.code).toBe('upstream_timeout');
        await expectUntouched(before, channel.id);
      } finally {
        await suite.restart({});
      }
    });
  });
}
