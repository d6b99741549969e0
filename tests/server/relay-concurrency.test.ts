import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import {
  consumeLogs,
  createRelayChannel,
  testCompletionRatio,
  testModelRatio,
  createRelayToken,
  createRelayUser,
  eventually,
  sdkClient,
  setRelayOptions,
  textQuota,
  type RelayToken,
} from './support/relayFixtures';
import { anthropicPromptTokens, anthropicUsage, startAnthropicUpstream, type AnthropicUpstream } from './support/anthropicUpstream';
import { geminiCompletionTokens, geminiUsage, startGeminiUpstream, type GeminiUpstream } from './support/geminiUpstream';
import { startRelayUpstream, type RelayUpstream } from './support/relayUpstream';
import { setupSuite } from './support/suite';
import { billingTargets as dbTargets } from './support/targets';

/**
 * Exact quota under concurrency (issue 6 items 5 and 7): 1,000 requests from 50 tokens
 * (5 users × 10 tokens), ~50 in flight, streaming and not, through a mix of provider types
 * (OpenAI-format passthrough, Anthropic and Gemini native wires), some failing upstream, with token
 * and user quotas sized so that some run out partway. Afterwards, for every token and user, remaining
 * + used equals the starting quota, used equals the sum of the consume logs, nothing is
 * overdrawn, and every refusal is one of one-api's quota errors.
 */

const goodModel = 'gpt-3.5-turbo';
/** Served by a channel that always answers 500: these requests must be refunded in full. */
const failingModel = 'gpt-4o-mini';
/** Served by an Anthropic channel (type 14) through the Messages wire. */
const claudeModel = 'claude-3-5-haiku-20241022';
/** Served by a Gemini channel (type 24) through the generateContent wire. */
const geminiModel = 'gemini-2.0-flash';
/** The native models' ratios: the passthrough model's, so every request reserves about as much. */
const nativeRatios = { [claudeModel]: testModelRatio[goodModel]!, [geminiModel]: testModelRatio[goodModel]! };
const nativeCompletionRatios = { [claudeModel]: testCompletionRatio[goodModel]!, [geminiModel]: testCompletionRatio[goodModel]! };
/** What a success costs, by model: each fake reports its own fixed usage. */
const costOf: Readonly<Record<string, number>> = {
  [goodModel]: textQuota(goodModel, 17, 9),
  [claudeModel]: Math.ceil((anthropicPromptTokens + anthropicUsage.output_tokens * nativeCompletionRatios[claudeModel]) * nativeRatios[claudeModel]),
  [geminiModel]: Math.ceil((geminiUsage.promptTokenCount + geminiCompletionTokens * nativeCompletionRatios[geminiModel]) * nativeRatios[geminiModel]),
};
/** The model of request `i`: a tenth fail upstream, two tenths each go to Anthropic and Gemini. */
function modelOf(i: number): string {
  const slot = i % 10;
  if (slot === 7) return failingModel;
  if (slot === 2 || slot === 5) return claudeModel;
  if (slot === 3 || slot === 8) return geminiModel;
  return goodModel;
}
const total = 1_000;
const inFlight = 50;
const users = 5;
const tokensPerUser = 10;

/** The refusals a request may get once quotas run low (contract §4.2 step 8, §4.4 step 7). */
const refusals: ReadonlyArray<readonly [number, RegExp]> = [
  [403, /^令牌额度不足/],
  [403, /^用户额度不足/],
  [403, /^user quota is not enough/],
  [401, /^该令牌额度已用尽/],
];

interface Outcome {
  readonly kind: 'ok' | 'refused' | 'upstreamFailed' | 'unexpected';
  readonly detail: string;
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay quota under concurrency — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: RelayUpstream;
    let anthropic: AnthropicUpstream;
    let gemini: GeminiUpstream;
    const userIds: number[] = [];
    const userStart = new Map<number, number>();
    const tokens: Array<RelayToken & { readonly userId: number; readonly start: number }> = [];

    beforeAll(async () => {
      upstream = await startRelayUpstream();
      anthropic = await startAnthropicUpstream();
      gemini = await startGeminiUpstream();
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, ...nativeRatios }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, ...nativeCompletionRatios }),
      });
      await createRelayChannel(db(), { key: 'up-good', baseUrl: upstream.url, models: goodModel });
      await createRelayChannel(db(), { key: 'up-bad', baseUrl: upstream.url, models: failingModel });
      await createRelayChannel(db(), { key: 'ant-ok', baseUrl: anthropic.url, models: claudeModel, type: 14 });
      await createRelayChannel(db(), { key: 'gem-ok', baseUrl: gemini.url, models: geminiModel, type: 24 });
      upstream.behave('up-bad', { kind: 'status', status: 500 });
      // A request reserves about 780 quota and costs 66; 20 requests per token on average.
      // User 0 runs out of quota partway (user refusals); the other users have plenty, so only
      // their limited tokens (every other one) run out.
      for (let u = 0; u < users; u += 1) {
        const start = u === 0 ? 9_000 : 2_000_000;
        const id = await createRelayUser(db(), { username: `conc${u}`, quota: start });
        userIds.push(id);
        userStart.set(id, start);
        for (let t = 0; t < tokensPerUser; t += 1) {
          const limited = t % 2 === 0;
          const remain = limited ? 1_200 + 150 * t : 1_000_000;
          tokens.push({ ...(await createRelayToken(db(), { userId: id, name: `conc${u}-t${t}`, remainQuota: remain })), userId: id, start: remain });
        }
      }
    });
    afterAll(async () => {
      await Promise.all([upstream.close(), anthropic.close(), gemini.close()]);
    });

    /** Sends request `i` (token, model and streaming chosen from `i`) and classifies the outcome. */
    async function send(client: OpenAI, i: number): Promise<Outcome> {
      const model = modelOf(i);
      const messages = [{ role: 'user' as const, content: `Request number ${i}` }];
      try {
        if (i % 3 === 0) {
          const stream = await client.chat.completions.create({ model, messages, stream: true });
          let text = '';
          for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
          return text === '' ? { kind: 'unexpected', detail: 'empty stream' } : { kind: 'ok', detail: '' };
        }
        await client.chat.completions.create({ model, messages });
        return { kind: 'ok', detail: '' };
      } catch (error) {
        if (!(error instanceof OpenAI.APIError)) return { kind: 'unexpected', detail: String(error) };
        const message = (error.error as { message?: string } | undefined)?.message ?? '';
        if (model === failingModel && error.status === 500) return { kind: 'upstreamFailed', detail: message };
        if (refusals.some(([status, pattern]) => status === error.status && pattern.test(message))) return { kind: 'refused', detail: message };
        return { kind: 'unexpected', detail: `${error.status ?? '?'} ${message}` };
      }
    }

    it(`${total} requests from ${users * tokensPerUser} tokens: every quota and log adds up`, async () => {
      const clients = tokens.map((t) => sdkClient(suite.api.url, t.key, { timeoutMs: 30_000 }));
      const outcomes: Outcome[] = new Array<Outcome>(total);
      let next = 0;
      const worker = async () => {
        while (next < total) {
          const i = next;
          next += 1;
          outcomes[i] = await send(clients[i % clients.length]!, i);
        }
      };
      const started = Date.now();
      await Promise.all(Array.from({ length: inFlight }, worker));
      const elapsed = Date.now() - started;

      const count = (kind: Outcome['kind']) => outcomes.filter((o) => o.kind === kind).length;
      expect(outcomes.filter((o) => o.kind === 'unexpected').map((o) => o.detail)).toEqual([]);
      const ok = count('ok');
      // The quotas are sized so that both successes and refusals happen in bulk.
      expect(ok).toBeGreaterThan(300);
      expect(count('refused')).toBeGreaterThan(50);
      expect(count('upstreamFailed')).toBeGreaterThan(0);

      // Every success leaves exactly one consume log (billing may land just after the answer).
      await eventually(async () => (await consumeLogs(db())).length >= ok, 'the consume logs');
      const logs = await consumeLogs(db());
      expect(logs).toHaveLength(ok);
      expect(logs.filter((l) => l.quota !== costOf[l.modelName]).map((l) => `${l.modelName}: ${l.quota}`)).toEqual([]);
      // every provider type answered in bulk
      for (const model of [goodModel, claudeModel, geminiModel]) expect(logs.filter((l) => l.modelName === model).length).toBeGreaterThan(50);

      const tokenRows = await db().selectFrom('tokens').select(['id', 'name', 'user_id', 'remain_quota', 'used_quota']).execute();
      for (const token of tokens) {
        const row = tokenRows.find((r) => r.id === token.id)!;
        const logged = logs.filter((l) => l.userId === token.userId && l.tokenName === token.name).reduce((sum, l) => sum + l.quota, 0);
        expect({ token: token.name, sum: Number(row.remain_quota) + Number(row.used_quota), used: Number(row.used_quota) }).toEqual({
          token: token.name,
          sum: token.start,
          used: logged,
        });
        expect(Number(row.remain_quota)).toBeGreaterThanOrEqual(0);
      }
      const userRows = await db().selectFrom('users').select(['id', 'quota', 'used_quota', 'request_count']).where('id', 'in', userIds).execute();
      for (const row of userRows) {
        const own = logs.filter((l) => l.userId === row.id);
        expect({ user: row.id, sum: Number(row.quota) + Number(row.used_quota), used: Number(row.used_quota), requests: Number(row.request_count) }).toEqual({
          user: row.id,
          sum: userStart.get(row.id),
          used: own.reduce((sum, l) => sum + l.quota, 0),
          requests: own.length,
        });
        expect(Number(row.quota)).toBeGreaterThanOrEqual(0);
      }
      // A figure, not an assertion: the time depends on how busy the machine is.
      console.info(`[relay concurrency ${target.label}] ${total} requests in ${elapsed} ms: ${ok} ok, ${count('refused')} refused, ${count('upstreamFailed')} upstream failures`);
    }, 180_000);
  });
}
