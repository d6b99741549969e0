import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import {
  createRelayChannel,
  createRelayToken,
  createRelayUser,
  ledgerOf,
  sdkClient,
  sdkError,
  streamedChat,
  setRelayOptions,
  testCompletionRatio,
  testModelRatio,
  type QuotaSnapshot,
  type RelayToken,
} from './support/relayFixtures';
import { cozePieces, cozeReply, cozeUsage, startCozeUpstream, type CozeUpstream } from './support/cozeUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Coze channels (type 34) through the relay, driven by the official openai SDK against a real
 * server and a loopback fake of Coze's `/v3/chat`: the bot named by the model answers (streamed
 * as it arrives, or assembled for a client that asked for a whole answer), billed exactly from
 * Coze's usage; the channel's config user id and the system prompt sent as documented; a refusal
 * (sent by Coze with status 200) answered with its own status and refunded; a failed chat, a
 * dropped stream and a malformed event ending clearly with the quota exact; and the channel test.
 */

const bot = 'bot-7342';
const botId = '7342';
const ratio = 0.5;
const completionRatio = 3;
const faults = { refused: 'bot-9001', failed: 'bot-9002', drop: 'bot-9003', malformed: 'bot-9004' } as const;
type Fault = keyof typeof faults;
const quotaOf = (prompt: number, completion: number): number => Math.ceil((prompt + completion * completionRatio) * ratio);
const fullQuota = quotaOf(cozeUsage.input_count, cozeUsage.output_count);

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay to Coze — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: CozeUpstream;
    let userId: number;
    let token: RelayToken;
    let channelId: number;
    const channels = new Map<Fault, number>();
    let sdk: OpenAI;

    beforeAll(async () => {
      upstream = await startCozeUpstream();
      const all = [bot, ...Object.values(faults)];
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, ...Object.fromEntries(all.map((m) => [m, ratio])) }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, ...Object.fromEntries(all.map((m) => [m, completionRatio])) }),
      });
      userId = await createRelayUser(db(), { username: 'cozeuser', quota: 500_000 });
      token = await createRelayToken(db(), { userId, name: 'coze-token', remainQuota: 400_000 });
      channelId = await createRelayChannel(db(), { key: 'pat_ok', baseUrl: upstream.url, models: bot, type: 34, config: '{"user_id":"ops-team"}' });
      for (const fault of Object.keys(faults) as Fault[]) channels.set(fault, await createRelayChannel(db(), { key: `pat_${fault}`, baseUrl: upstream.url, models: faults[fault], type: 34 }));
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
      upstream.account('pat_ok');
      upstream.account('pat_refused', { kind: 'refuse', code: 4100, msg: 'authentication is invalid' });
      upstream.account('pat_failed', { kind: 'chatFailed' });
      upstream.account('pat_drop', { kind: 'drop' });
      upstream.account('pat_malformed', { kind: 'malformed' });
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const snapshot = (id = channelId) => ledger.snapshot(id);
    const expectCharged = (before: QuotaSnapshot, quota: number, id = channelId): Promise<void> => ledger.expectCharged(before, quota, id);
    const { expectUnchanged } = ledger;
    const sent = () => upstream.requests.at(-1)!;

    it('sends the bot its messages (system before the first user text) and assembles the streamed answer for a whole-answer client', async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({
        model: bot,
        messages: [
          { role: 'system', content: 'Answer in one line.' },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi!' },
          { role: 'user', content: 'What can you do?' },
        ],
      });
      expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: cozeReply(botId) }, finish_reason: 'stop' });
      expect(answer.usage).toEqual({ prompt_tokens: cozeUsage.input_count, completion_tokens: cozeUsage.output_count, total_tokens: cozeUsage.input_count + cozeUsage.output_count });
      expect(sent().headers.authorization).toBe('Bearer pat_ok');
      expect(sent().json).toEqual({
        bot_id: botId,
        user_id: 'ops-team',
        stream: true,
        auto_save_history: false,
        additional_messages: [
          { role: 'user', content: 'Answer in one line.\n\nHello', content_type: 'text' },
          { role: 'assistant', content: 'Hi!', content_type: 'text' },
          { role: 'user', content: 'What can you do?', content_type: 'text' },
        ],
      });
      await expectCharged(before, fullQuota);
    });

    it('streams the answer deltas as OpenAI chunks with the usage, and bills it', async () => {
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({ model: bot, messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } });
      const { pieces, usage, finish } = await streamedChat(stream);
      expect(pieces).toEqual(cozePieces(botId));
      expect(finish).toBe('stop');
      expect(usage).toEqual({ prompt_tokens: cozeUsage.input_count, completion_tokens: cozeUsage.output_count, total_tokens: cozeUsage.input_count + cozeUsage.output_count });
      await expectCharged(before, fullQuota);
    });

    it('answers a refusal Coze sends with status 200 with its own status (401), refunded, whole or streamed', async () => {
      const id = channels.get('refused')!;
      const before = await snapshot(id);
      for (const stream of [false, true]) {
        const error = await sdkError(sdk.chat.completions.create({ model: faults.refused, messages: [{ role: 'user', content: 'Hi' }], stream }));
        expect(error.status).toBe(401);
        expect(error.message).toContain('authentication is invalid');
      }
      await expectUnchanged(before, id);
    });

    it('ends a failed chat or a dropped stream with an error: refunded when whole, the delivered part billed when streamed', async () => {
      for (const fault of ['failed', 'drop'] as const) {
        const id = channels.get(fault)!;
        const before = await snapshot(id);
        const whole = await sdkError(sdk.chat.completions.create({ model: faults[fault], messages: [{ role: 'user', content: 'Hi' }] }));
        expect(whole.status, fault).toBeGreaterThanOrEqual(500);
        if (fault === 'failed') expect(whole.message).toContain('the bot is unavailable');
        await expectUnchanged(before, id);

        let text = '';
        let failure: Error | null = null;
        try {
          const stream = await sdk.chat.completions.create({ model: faults[fault], messages: [{ role: 'user', content: 'Hi' }], stream: true });
          for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        } catch (error) {
          failure = error as Error;
        }
        expect(failure, fault).not.toBeNull();
        expect(text).toBe(cozePieces(faults[fault].slice(4)).slice(0, 2).join(''));
        await ledger.expectPartCharged(before, id, fault);
      }
    });

    it('drops a line that is not a Coze event and completes the stream', async () => {
      const id = channels.get('malformed')!;
      const before = await snapshot(id);
      const stream = await sdk.chat.completions.create({ model: faults.malformed, messages: [{ role: 'user', content: 'Hi' }], stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe(cozeReply('9004'));
      await expectCharged(before, fullQuota, id);
    });

    it('refuses images and a request without a user message before calling Coze', async () => {
      const before = await snapshot();
      const image = await sdkError(sdk.chat.completions.create({ model: bot, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }] }));
      expect(image.status).toBe(400);
      expect(image.message).toContain('text only');
      const noUser = await sdkError(sdk.chat.completions.create({ model: bot, messages: [{ role: 'system', content: 'Be brief.' }] }));
      expect(noUser.status).toBe(400);
      expect(noUser.message).toContain('user message');
      expect(upstream.requests).toHaveLength(0);
      await expectUnchanged(before, channelId);
    });

    it('tests a Coze channel through the same translation', async () => {
      const root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      const ok = await root.get(`/api/channel/test/${channelId}?model=${bot}`);
      expect(ok.body, JSON.stringify(ok.body)).toMatchObject({ success: true, message: cozeReply(botId) });
      const refused = await root.get(`/api/channel/test/${channels.get('refused')!}`);
      expect(refused.body).toMatchObject({ success: false });
      expect(refused.body.message).toContain('authentication is invalid');
    });
  });
}
