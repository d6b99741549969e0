import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeLogs, createRelayChannel, createRelayToken, createRelayUser, eventually, setRelayOptions, tokenQuota, userQuota } from './support/relayFixtures';
import { setupSuite } from './support/suite';
import { billingTargets as dbTargets } from './support/targets';

/**
 * Relay billing with numbers that make no sense (issue 18 §4): with PreConsumedQuota = 0, many
 * parallel requests on a small balance get at most one answer beyond it (user and token); an
 * upstream reporting absurd usage (1e12, 1.5e308 completion tokens) is billed at most
 * `max_tokens`, else RELAY_MAX_COMPLETION_TOKENS, and the anomaly is noted in the consume log.
 */

const model = 'gpt-3.5-turbo';
/** What the fake reports for a normal answer: with ratio 1.5 and completion ratio 3, 66 quota. */
const normalUsage = { prompt_tokens: 17, completion_tokens: 9, total_tokens: 26 };
const answerPrice = Math.ceil((17 + 9 * 3) * 1.5);
const maxCompletion = 1000;

/** A minimal OpenAI-style upstream whose reported usage is chosen per channel key; answers after `delayMs`. */
function startFakeUpstream(usageByKey: Record<string, unknown>, delayMs = 30): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const usage = usageByKey[key] ?? normalUsage;
      const json = JSON.parse(body) as { stream?: boolean };
      setTimeout(() => {
        if (json.stream === true) {
          res.writeHead(200, { 'Content-Type': 'text/event-stream' });
          const chunk = (delta: object, extra: object = {}) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;
          res.write(chunk({ role: 'assistant', content: 'Hi' }));
          res.write(chunk({ content: ' there' }));
          res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [], usage })}\n\n`);
          res.end('data: [DONE]\n\n');
          return;
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        // The literal is written by hand so that 1.5e308 reaches the gateway as such.
        const answer = JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content: 'Hi there' }, finish_reason: 'stop' }], usage: '__USAGE__' });
        res.end(answer.replace('"__USAGE__"', typeof usage === 'string' ? usage : JSON.stringify(usage)));
      }, delayMs);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay billing with absurd numbers — ${target.label}`, () => {
    const suite = setupSuite(target, { config: { relayMaxCompletionTokens: maxCompletion } });
    const db = () => suite.api.handle.db;
    let upstream: { url: string; server: Server };

    beforeAll(async () => {
      upstream = await startFakeUpstream({
        'up-huge': { prompt_tokens: 17, completion_tokens: 1e12, total_tokens: 1e12 },
        'up-inf': '{"prompt_tokens":17,"completion_tokens":1.5e308,"total_tokens":1.5e308}',
        'up-prompt': { prompt_tokens: 1e12, completion_tokens: 9, total_tokens: 1e12 },
      });
      await setRelayOptions(db(), { PreConsumedQuota: '0' });
    });
    afterAll(async () => {
      await new Promise((resolve) => upstream.server.close(resolve));
    });

    const chat = (key: string, body: Record<string, unknown> = {}) =>
      fetch(`${suite.api.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer sk-${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Say hi' }], ...body }),
      });

    /** Fires `count` requests at once (a third of them streamed); answers the number answered. */
    async function burst(key: string, count: number): Promise<number> {
      const replies = await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const reply = await chat(key, i % 3 === 0 ? { stream: true } : {});
          const text = await reply.text();
          if (reply.status === 200) return 1;
          expect(reply.status, text).toBe(403);
          return 0;
        }),
      );
      return replies.reduce<number>((a, b) => a + b, 0);
    }

    it('PreConsumedQuota 0: 150 parallel requests on a user balance worth 10 answers get at most 11', async () => {
      await createRelayChannel(db(), { key: 'up-normal', baseUrl: upstream.url, models: model, name: 'normal' });
      const userId = await createRelayUser(db(), { username: 'tenanswers', quota: 10 * answerPrice });
      const token = await createRelayToken(db(), { userId, name: 'unlimited', remainQuota: 0, unlimited: true });
      const answered = await burst(token.key, 150);
      await eventually(async () => (await consumeLogs(db(), userId)).length === answered, 'every answer billed');
      expect(answered).toBeGreaterThanOrEqual(1);
      expect(answered).toBeLessThanOrEqual(11);
      const user = await userQuota(db(), userId);
      expect(user.quota).toBeGreaterThanOrEqual(0);
      expect(user.quota + user.usedQuota).toBe(10 * answerPrice);
      const logged = (await consumeLogs(db(), userId)).reduce((sum, log) => sum + log.quota, 0);
      expect(logged).toBe(user.usedQuota);
    });

    it('PreConsumedQuota 0: the same on a limited token of a rich user', async () => {
      const userId = await createRelayUser(db(), { username: 'richuser', quota: 100_000_000 });
      const token = await createRelayToken(db(), { userId, name: 'limited', remainQuota: 10 * answerPrice });
      const answered = await burst(token.key, 150);
      await eventually(async () => (await consumeLogs(db(), userId)).length === answered, 'every answer billed');
      expect(answered).toBeLessThanOrEqual(11);
      const numbers = await tokenQuota(db(), token.id);
      expect(numbers.remainQuota).toBeGreaterThanOrEqual(0);
      expect(numbers.remainQuota + numbers.usedQuota).toBe(10 * answerPrice);
    });

    it('completion_tokens 1e12 is billed max_tokens, or RELAY_MAX_COMPLETION_TOKENS without it, and noted in the log', async () => {
      await createRelayChannel(db(), { key: 'up-huge', baseUrl: upstream.url, models: 'gpt-4o-mini', name: 'huge' });
      const start = 10_000_000;
      const userId = await createRelayUser(db(), { username: 'drained', quota: start });
      const token = await createRelayToken(db(), { userId, name: 'drain', remainQuota: 0, unlimited: true });
      // gpt-4o-mini: ratio 0.5, completion ratio 4
      const bounded = await chat(token.key, { model: 'gpt-4o-mini', max_tokens: 50 });
      expect(bounded.status, await bounded.text()).toBe(200);
      await eventually(async () => (await consumeLogs(db(), userId)).length === 1, 'the first bill');
      expect((await consumeLogs(db(), userId))[0]).toMatchObject({ quota: Math.ceil((17 + 50 * 4) * 0.5), completionTokens: 50 });
      const open = await chat(token.key, { model: 'gpt-4o-mini', stream: true });
      expect(open.status, await open.text()).toBe(200);
      await eventually(async () => (await consumeLogs(db(), userId)).length === 2, 'the second bill');
      const logs = await consumeLogs(db(), userId);
      const second = logs.find((log) => log.completionTokens !== 50)!;
      expect(second).toMatchObject({ quota: Math.ceil((17 + maxCompletion * 4) * 0.5), completionTokens: maxCompletion });
      expect(second.content).toContain('上游报告的用量异常');
      expect((await userQuota(db(), userId)).quota).toBe(start - logs.reduce((sum, log) => sum + log.quota, 0));
    });

    it('n choices may each use max_tokens; n and max_completion_tokens out of range are refused before anything is reserved', async () => {
      const start = 10_000_000;
      const userId = await createRelayUser(db(), { username: 'choices', quota: start });
      const token = await createRelayToken(db(), { userId, name: 'choices', remainQuota: 0, unlimited: true });
      for (const [body, message] of [
        [{ n: 1000 }, 'n must be an integer from 1 to 128'],
        [{ n: 1.5 }, 'n must be an integer from 1 to 128'],
        [{ n: -1 }, 'n must be an integer from 1 to 128'],
        [{ max_completion_tokens: -5 }, 'max_completion_tokens is invalid'],
        [{ max_completion_tokens: 1e300 }, 'max_completion_tokens is invalid'],
        [{ max_tokens: -5 }, 'max_tokens is invalid'],
      ] as const) {
        const reply = await chat(token.key, { model: 'gpt-4o-mini', ...body });
        expect(reply.status, JSON.stringify(body)).toBe(400);
        expect(((await reply.json()) as { error: { message: string } }).error.message).toContain(message);
      }
      expect((await userQuota(db(), userId)).quota).toBe(start);
      const three = await chat(token.key, { model: 'gpt-4o-mini', max_tokens: 50, n: 3 });
      expect(three.status, await three.text()).toBe(200);
      await eventually(async () => (await consumeLogs(db(), userId)).length === 1, 'the bill');
      expect((await consumeLogs(db(), userId))[0]).toMatchObject({ quota: Math.ceil((17 + 150 * 4) * 0.5), completionTokens: 150 });
    });

    it('completion_tokens 1.5e308 and prompt_tokens 1e12 are bounded too', async () => {
      await createRelayChannel(db(), { key: 'up-inf', baseUrl: upstream.url, models: 'gpt-3.5-turbo-instruct', name: 'inf' });
      await createRelayChannel(db(), { key: 'up-prompt', baseUrl: upstream.url, models: 'text-moderation-latest', name: 'prompt' });
      const start = 10_000_000;
      const userId = await createRelayUser(db(), { username: 'inf', quota: start });
      const token = await createRelayToken(db(), { userId, name: 'inf', remainQuota: 0, unlimited: true });
      const inf = await chat(token.key, { model: 'gpt-3.5-turbo-instruct' });
      expect(inf.status, await inf.text()).toBe(200);
      await eventually(async () => (await consumeLogs(db(), userId)).length === 1, 'the bill');
      // gpt-3.5-turbo-instruct: ratio 2, completion ratio 1
      expect((await consumeLogs(db(), userId))[0]).toMatchObject({ quota: Math.ceil((17 + maxCompletion) * 2), completionTokens: maxCompletion });
      const prompt = await chat(token.key, { model: 'text-moderation-latest' });
      expect(prompt.status, await prompt.text()).toBe(200);
      await eventually(async () => (await consumeLogs(db(), userId)).length === 2, 'the bill');
      const second = (await consumeLogs(db(), userId)).find((log) => log.completionTokens === 9)!;
      expect(second.promptTokens).toBeLessThanOrEqual(2 * 100 + maxCompletion);
      expect(second.content).toContain('上游报告的用量异常');
    });
  });
}
