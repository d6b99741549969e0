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
  streamedChat,
  setRelayOptions,
  testCompletionRatio,
  testModelRatio,
  type QuotaSnapshot,
  type RelayToken,
} from './support/relayFixtures';
import { failureMessage, replicateMetrics, replicatePieces, replicatePng, replicateReply, startReplicateUpstream, type ReplicateUpstream } from './support/replicateUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Replicate channels (type 46) through the relay, driven by the official openai SDK against a
 * real server and a loopback fake of Replicate's predictions API: a language model answering at
 * once with `Prefer: wait`, or still processing and polled; streamed from the prediction's stream
 * URL; images as URLs or b64_json; billed exactly from the prediction's metrics (images at their
 * price); refusals (401, 402, 422, 429), a failed prediction, a dropped stream and a malformed
 * event ending clearly with the quota exact; tools and images in chat refused; the channel test.
 */

const llama = 'meta/meta-llama-3-70b-instruct';
const slow = 'meta/llama-slow';
const flux = 'black-forest-labs/flux-schnell';
const ratio = 0.5;
const completionRatio = 3;
const imageRatio = 2;
const faults = {
  failed: 'meta/fault-failed',
  drop: 'meta/fault-drop',
  malformed: 'meta/fault-malformed',
  unauthorized: 'meta/fault-unauthorized',
  poor: 'meta/fault-poor',
  busy: 'meta/fault-busy',
  invalid: 'meta/fault-invalid',
} as const;
type Fault = keyof typeof faults;
const quotaOf = (prompt: number, completion: number): number => Math.ceil((prompt + completion * completionRatio) * ratio);
const fullQuota = quotaOf(replicateMetrics.input_token_count, replicateMetrics.output_token_count);
const fullUsage = {
  prompt_tokens: replicateMetrics.input_token_count,
  completion_tokens: replicateMetrics.output_token_count,
  total_tokens: replicateMetrics.input_token_count + replicateMetrics.output_token_count,
};

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay to Replicate — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: ReplicateUpstream;
    let userId: number;
    let token: RelayToken;
    let channelId: number;
    const channels = new Map<Fault, number>();
    let sdk: OpenAI;

    beforeAll(async () => {
      upstream = await startReplicateUpstream();
      const all = [llama, slow, ...Object.values(faults)];
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, ...Object.fromEntries(all.map((m) => [m, ratio])), [flux]: imageRatio }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, ...Object.fromEntries(all.map((m) => [m, completionRatio])) }),
      });
      userId = await createRelayUser(db(), { username: 'replicateuser', quota: 500_000 });
      token = await createRelayToken(db(), { userId, name: 'replicate-token', remainQuota: 400_000 });
      // the type's default base ends in /v1/models: a base given that way works as the host does
      channelId = await createRelayChannel(db(), { key: 'r8_ok', baseUrl: `${upstream.url}/v1/models/`, models: [llama, slow, flux].join(','), type: 46 });
      for (const fault of Object.keys(faults) as Fault[]) channels.set(fault, await createRelayChannel(db(), { key: `r8_${fault}`, baseUrl: upstream.url, models: faults[fault], type: 46 }));
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
      upstream.account('r8_ok');
      upstream.account('r8_failed', { kind: 'failed' });
      upstream.account('r8_drop', { kind: 'drop' });
      upstream.account('r8_malformed', { kind: 'malformed' });
      upstream.account('r8_poor', { kind: 'refuse', status: 402, title: 'Insufficient credit', detail: 'You have insufficient credit to run this model.' });
      upstream.account('r8_busy', { kind: 'refuse', status: 429, title: 'Request was throttled.', detail: 'Request was throttled. Expected available in 1 second.' });
      upstream.account('r8_invalid', { kind: 'refuse', status: 422, title: 'Input validation failed', detail: '- input.max_tokens: Must be less than or equal to 4096' });
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const snapshot = (id = channelId) => ledger.snapshot(id);
    const expectCharged = (before: QuotaSnapshot, quota: number, id = channelId): Promise<void> => ledger.expectCharged(before, quota, id);
    const { expectUnchanged } = ledger;
    const creates = () => upstream.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/predictions'));

    it('creates a prediction with Prefer: wait, the messages flattened into prompt and system_prompt, and answers at once', async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({
        model: llama,
        messages: [
          { role: 'system', content: 'Answer in one line.' },
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hi!' },
          { role: 'user', content: 'What can you do?' },
        ],
        max_tokens: 64,
        temperature: 0.2,
        top_p: 0.9,
        stop: ['###', 'User:'],
      });
      expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: replicateReply(llama) }, finish_reason: 'stop' });
      expect(answer.usage).toEqual(fullUsage);
      const sent = creates().at(-1)!;
      expect(sent.path).toBe(`/v1/models/${llama}/predictions`);
      expect(sent.headers.authorization).toBe('Bearer r8_ok');
      expect(sent.headers.prefer).toBe('wait');
      expect(sent.json).toEqual({
        input: {
          prompt: 'User: Hello\n\nAssistant: Hi!\n\nUser: What can you do?\n\nAssistant:',
          system_prompt: 'Answer in one line.',
          max_tokens: 64,
          max_new_tokens: 64,
          temperature: 0.2,
          top_p: 0.9,
          stop_sequences: '###,User:',
        },
      });
      await expectCharged(before, fullQuota);
    });

    it('polls a prediction still processing until it succeeded', async () => {
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({ model: slow, messages: [{ role: 'user', content: 'Hi' }] });
      expect(answer.choices[0]?.message.content).toBe(replicateReply(slow));
      expect(creates().at(-1)?.json).toEqual({ input: { prompt: 'Hi' } });
      expect(upstream.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/predictions/')).length).toBe(2);
      await expectCharged(before, fullQuota);
    });

    it('streams the output events as OpenAI chunks with the usage from the metrics, and bills it', async () => {
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({ model: llama, messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } });
      const { pieces, usage, finish } = await streamedChat(stream);
      expect(pieces).toEqual(replicatePieces(llama));
      expect(finish).toBe('stop');
      expect(usage).toEqual(fullUsage);
      expect(creates().at(-1)?.json).toEqual({ input: { prompt: 'Hi' }, stream: true });
      expect(creates().at(-1)?.headers.prefer).toBeUndefined();
      expect(upstream.canceled).toEqual([]);
      await expectCharged(before, fullQuota);
    });

    it('cancels the prediction when the client leaves mid-stream, and bills what was delivered', async () => {
      const before = await snapshot();
      const controller = new AbortController();
      const stream = await sdk.chat.completions.create({ model: slow, messages: [{ role: 'user', content: 'Hi' }], stream: true }, { signal: controller.signal });
      let text = '';
      try {
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta.content ?? '';
          if (text !== '') controller.abort();
        }
      } catch {
        // the SDK reports the abort
      }
      expect(text).toBe(replicatePieces(slow)[0]);
      await eventually(() => Promise.resolve(upstream.canceled.length > 0), 'the prediction canceled');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(upstream.canceled).toEqual(['pred' + /\d+$/.exec(upstream.requests.find((r) => r.path.startsWith('/stream/'))?.path ?? '')?.[0]]);
      await eventually(async () => (await consumeLogs(db(), userId)).length === before.logs + 1, 'the consume log');
      const after = await snapshot();
      expect(before.user.quota - after.user.quota).toBeGreaterThan(0);
    });

    it('generates images: URLs by default, b64_json when asked, billed at the image price', async () => {
      let before = await snapshot();
      const urls = await sdk.images.generate({ model: flux, prompt: 'a lighthouse at dawn', n: 2, size: '1792x1024' });
      expect(urls.data).toHaveLength(2);
      expect(urls.data?.[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/pred\d+-0\.png$/);
      const sent = creates().at(-1)!;
      expect(sent.path).toBe(`/v1/models/${flux}/predictions`);
      // 1792x1024 is 7:4, not one of the listed aspect ratios: sent as width and height
      expect(sent.json).toEqual({ input: { prompt: 'a lighthouse at dawn', output_format: 'png', width: 1792, height: 1024, num_outputs: 2 } });
      await expectCharged(before, imageRatio * 1000 * 2);

      before = await snapshot();
      const inline = await sdk.images.generate({ model: flux, prompt: 'a lighthouse at dawn', size: '1024x1024', response_format: 'b64_json' });
      expect(inline.data?.[0]?.b64_json).toBe(replicatePng.toString('base64'));
      expect(creates().at(-1)?.json).toEqual({ input: { prompt: 'a lighthouse at dawn', output_format: 'png', aspect_ratio: '1:1' } });
      await expectCharged(before, imageRatio * 1000);
    });

    it('answers refusals with their status (401, 402 and 429 → 429, 422 → 400), refunded, whole or streamed', async () => {
      // a 429 is answered with the relay's own "saturated" message (attempts.ts), whatever Replicate said
      const cases: readonly [Fault, number, string | null][] = [
        ['poor', 429, null],
        ['busy', 429, null],
        ['invalid', 400, 'less than or equal to 4096'],
        ['unauthorized', 401, 'valid authentication token'],
      ];
      for (const [fault, status, message] of cases) {
        const id = channels.get(fault)!;
        const before = await snapshot(id);
        for (const stream of [false, true]) {
          const error = await sdkError(sdk.chat.completions.create({ model: faults[fault], messages: [{ role: 'user', content: 'Hi' }], stream }));
          expect(error.status, `${fault} stream=${stream}`).toBe(status);
          if (message !== null) expect(error.message).toContain(message);
          if (fault === 'unauthorized') break; // the channel is then disabled
        }
        await expectUnchanged(before, id);
      }
    });

    it('ends a failed prediction or a dropped stream with an error: refunded when whole, the delivered part billed when streamed', async () => {
      for (const fault of ['failed', 'drop'] as const) {
        const id = channels.get(fault)!;
        const before = await snapshot(id);
        const whole = await sdkError(sdk.chat.completions.create({ model: faults[fault], messages: [{ role: 'user', content: 'Hi' }] }));
        expect(whole.status, fault).toBeGreaterThanOrEqual(500);
        if (fault === 'failed') expect(whole.message).toContain(failureMessage);
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
        if (fault === 'failed') expect(failure?.message).toContain(failureMessage);
        expect(text).toBe(replicatePieces(faults[fault]).slice(0, 2).join(''));
        await ledger.expectPartCharged(before, id, fault);
      }
    });

    it('drops a line that is not a Replicate event and completes the stream', async () => {
      const id = channels.get('malformed')!;
      const before = await snapshot(id);
      const stream = await sdk.chat.completions.create({ model: faults.malformed, messages: [{ role: 'user', content: 'Hi' }], stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe(replicateReply(faults.malformed));
      await expectCharged(before, fullQuota, id);
    });

    it('refuses image parts and tools with a 400 naming them, before calling Replicate', async () => {
      const before = await snapshot();
      const image = await sdkError(sdk.chat.completions.create({ model: llama, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }] }));
      expect(image.status).toBe(400);
      expect(image.message).toContain('text only');
      const tools = await sdkError(
        sdk.chat.completions.create({
          model: llama,
          messages: [{ role: 'user', content: 'Weather?' }],
          tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: {} } } }],
        }),
      );
      expect(tools.status).toBe(400);
      expect(tools.message).toContain('tools');
      expect(upstream.requests).toHaveLength(0);
      await expectUnchanged(before, channelId);
    });

    it('tests a Replicate channel through the same predictions', async () => {
      const root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      const ok = await root.get(`/api/channel/test/${channelId}?model=${encodeURIComponent(llama)}`);
      expect(ok.body, JSON.stringify(ok.body)).toMatchObject({ success: true, message: replicateReply(llama) });
      const refused = await root.get(`/api/channel/test/${channels.get('busy')!}`);
      expect(refused.body).toMatchObject({ success: false });
      expect(refused.body.message).toContain('throttled');
    });
  });
}
