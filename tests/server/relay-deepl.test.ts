import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import {
  chatPromptTokens,
  countText,
  createRelayChannel,
  createRelayToken,
  createRelayUser,
  ledgerOf,
  sdkClient,
  sdkError,
  setRelayOptions,
  testCompletionRatio,
  testModelRatio,
  type ChatMessage,
  type QuotaSnapshot,
  type RelayToken,
} from './support/relayFixtures';
import { deeplTranslation, startDeeplUpstream, type DeeplUpstream } from './support/deeplUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * DeepL channels (type 38) through the relay, driven by the official openai SDK against a real
 * server and a loopback fake of DeepL's `/v2/translate`: a chat request to `deepl-<language>`
 * translates its last user message (whole, and streamed as one delta), billed exactly from the
 * relay's own token counts; DeepL's errors (403, 456, 429) answered as OpenAI errors with a
 * fitting status, refunded; a dropped or malformed answer refunded; a model name without a
 * language refused before anything is sent; and the channel test.
 */

const ratio = 0.5;
const completionRatio = 2;
const faults = ['deepl-de', 'deepl-fr', 'deepl-it', 'deepl-es', 'deepl-pt-br'] as const;
type FaultModel = (typeof faults)[number];
/** Fault channels by model: their key and behaviour. */
const faultKeys: Readonly<Record<FaultModel, string>> = {
  'deepl-de': 'key-unknown',
  'deepl-fr': 'key-quota',
  'deepl-it': 'key-busy',
  'deepl-es': 'key-drop',
  'deepl-pt-br': 'key-malformed',
};
const models = ['deepl-zh', 'deepl-ja', 'deepl-en-us', 'gpt-3.5-turbo'];
const quotaOf = (model: string, messages: readonly ChatMessage[], translation: string): number =>
  Math.ceil((chatPromptTokens(messages, model) + countText(translation, model) * completionRatio) * ratio);

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay to DeepL — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: DeeplUpstream;
    let userId: number;
    let token: RelayToken;
    let channelId: number;
    const channels = new Map<FaultModel, number>();
    let sdk: OpenAI;

    beforeAll(async () => {
      upstream = await startDeeplUpstream();
      const all = [...models, ...faults];
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, ...Object.fromEntries(all.map((m) => [m, ratio])) }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, ...Object.fromEntries(all.map((m) => [m, completionRatio])) }),
      });
      userId = await createRelayUser(db(), { username: 'deepluser', quota: 500_000 });
      token = await createRelayToken(db(), { userId, name: 'deepl-token', remainQuota: 400_000 });
      channelId = await createRelayChannel(db(), { key: 'key-ok:fx', baseUrl: upstream.url, models: models.join(','), type: 38 });
      for (const model of faults) channels.set(model, await createRelayChannel(db(), { key: faultKeys[model], baseUrl: upstream.url, models: model, type: 38 }));
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
      upstream.account('key-ok:fx');
      upstream.account('key-quota', { kind: 'status', status: 456, message: 'Quota Exceeded' });
      upstream.account('key-busy', { kind: 'status', status: 429, message: 'Too many requests' });
      upstream.account('key-drop', { kind: 'drop' });
      upstream.account('key-malformed', { kind: 'malformed' });
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const snapshot = (id = channelId) => ledger.snapshot(id);
    const expectCharged = (before: QuotaSnapshot, quota: number, id = channelId): Promise<void> => ledger.expectCharged(before, quota, id);
    const { expectUnchanged } = ledger;
    const sent = () => upstream.requests.at(-1)!;

    it('translates the last user message into the model\'s language and bills the counted tokens', async () => {
      const messages: ChatMessage[] = [
        { role: 'system', content: 'Translate.' },
        { role: 'user', content: 'First question' },
        { role: 'assistant', content: 'Erste Frage' },
        { role: 'user', content: 'Good morning, world' },
      ];
      const before = await snapshot();
      const answer = await sdk.chat.completions.create({ model: 'deepl-zh', messages });
      const translation = deeplTranslation('Good morning, world', 'ZH');
      expect(answer.choices[0]?.message).toMatchObject({ role: 'assistant', content: translation });
      expect(answer.choices[0]?.finish_reason).toBe('stop');
      expect(sent().headers.authorization).toBe('DeepL-Auth-Key key-ok:fx');
      expect(sent().json).toEqual({ text: ['Good morning, world'], target_lang: 'ZH' });
      await expectCharged(before, quotaOf('deepl-zh', messages, translation));

      await sdk.chat.completions.create({ model: 'deepl-en-us', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hallo' }] }] });
      expect(sent().json).toEqual({ text: ['Hallo'], target_lang: 'EN-US' });
    });

    it('streams the translation as one delta, then [DONE], and bills the counted tokens', async () => {
      const messages: ChatMessage[] = [{ role: 'user', content: 'See you tomorrow' }];
      const before = await snapshot();
      const stream = await sdk.chat.completions.create({ model: 'deepl-ja', messages, stream: true });
      const pieces: string[] = [];
      let finish: string | null = null;
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta.content) pieces.push(chunk.choices[0].delta.content);
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      const translation = deeplTranslation('See you tomorrow', 'JA');
      expect(pieces).toEqual([translation]);
      expect(finish).toBe('stop');
      await expectCharged(before, quotaOf('deepl-ja', messages, translation));
    });

    it('answers DeepL errors as OpenAI errors with a fitting status, refunded', async () => {
      for (const [model, status, type, message] of [
        ['deepl-de', 403, 'authentication_error', 'Authorization failed'],
        ['deepl-fr', 429, 'insufficient_quota', ''],
        // the last attempt's 429 gets one-api's message (contract §4.8)
        ['deepl-it', 429, 'rate_limit_error', '当前分组上游负载已饱和'],
      ] as const) {
        const id = channels.get(model)!;
        const before = await snapshot(id);
        for (const stream of [false, true]) {
          const error = await sdkError(sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], stream }));
          expect(error.status, model).toBe(status);
          expect(error.message, model).toContain(message);
          expect((error.error as { type?: string }).type, model).toBe(type);
        }
        await expectUnchanged(before, id);
      }
    });

    it('refunds an answer cut off or not JSON, whole or streamed', async () => {
      for (const model of ['deepl-es', 'deepl-pt-br'] as const) {
        const id = channels.get(model)!;
        const before = await snapshot(id);
        for (const stream of [false, true]) {
          const error = await sdkError(sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], stream }));
          expect(error.status, `${model} stream=${stream}`).toBeGreaterThanOrEqual(500);
        }
        await expectUnchanged(before, id);
      }
    });

    it('refuses a model without a target language, or a request without a user message, before calling DeepL', async () => {
      const before = await snapshot();
      const unnamed = await sdkError(sdk.chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'Hi' }] }));
      expect(unnamed.status).toBe(400);
      expect(unnamed.message).toContain('deepl-<target language>');
      const empty = await sdkError(sdk.chat.completions.create({ model: 'deepl-zh', messages: [{ role: 'system', content: 'Translate.' }] }));
      expect(empty.status).toBe(400);
      expect(empty.message).toContain('last user message');
      expect(upstream.requests).toHaveLength(0);
      await expectUnchanged(before, channelId);
    });

    it('tests a DeepL channel through the same translation', async () => {
      const root = suite.client();
      expect((await root.login('root', '123456')).body.success).toBe(true);
      const ok = await root.get(`/api/channel/test/${channelId}?model=deepl-zh`);
      expect(ok.body.success).toBe(true);
      expect(sent().json).toMatchObject({ target_lang: 'ZH' });
      expect(ok.body.message).toBe(deeplTranslation(String((sent().json.text as string[])[0]), 'ZH'));
      const refused = await root.get(`/api/channel/test/${channels.get('deepl-de')!}`);
      expect(refused.body).toMatchObject({ success: false });
      expect(refused.body.message).toContain('http status code: 403, error message: Authorization failed');
    });
  });
}
