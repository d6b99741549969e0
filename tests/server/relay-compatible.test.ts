import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consumeLogs,
  createRelayChannel,
  createRelayToken,
  createRelayUser,
  eventually,
  sdkClient,
  setRelayOptions,
  testCompletionRatio,
  testModelRatio,
  userQuota,
} from './support/relayFixtures';
import { replyText, startRelayUpstream, upstreamUsage, type RelayUpstream } from './support/relayUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Types one-api serves through native adaptors whose providers document an OpenAI-compatible API
 * (Zhipu, Ali, Ollama, Cohere, Cloudflare): relayed end to end to that API's path with the
 * channel's key as a Bearer token, billed from the answer's usage.
 */

const cases = [
  { type: 16, model: 'glm-4-flash', path: '/api/paas/v4/chat/completions', config: '' },
  { type: 17, model: 'qwen-turbo', path: '/compatible-mode/v1/chat/completions', config: '' },
  { type: 30, model: 'llama3.2', path: '/v1/chat/completions', config: '' },
  { type: 35, model: 'command-r', path: '/compatibility/v1/chat/completions', config: '' },
  { type: 37, model: '@cf/meta/llama-3.1-8b-instruct', path: '/client/v4/accounts/acc-7/ai/v1/chat/completions', config: '{"user_id":"acc-7"}' },
] as const;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay through OpenAI-compatible provider APIs — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: RelayUpstream;
    let userId: number;
    let key: string;

    beforeAll(async () => {
      upstream = await startRelayUpstream();
      await setRelayOptions(db(), {
        ModelRatio: JSON.stringify({ ...testModelRatio, ...Object.fromEntries(cases.map((c) => [c.model, 1])) }),
        CompletionRatio: JSON.stringify({ ...testCompletionRatio, ...Object.fromEntries(cases.map((c) => [c.model, 2])) }),
      });
      userId = await createRelayUser(db(), { username: 'compatuser', quota: 100_000 });
      key = (await createRelayToken(db(), { userId, name: 'compat', remainQuota: 100_000 })).key;
      for (const c of cases) await createRelayChannel(db(), { key: `up-${c.type}`, baseUrl: upstream.url, models: c.model, type: c.type, config: c.config });
    });
    afterAll(async () => {
      await upstream.close();
    });

    it('sends each type to its compatible path with a Bearer key and bills the usage', async () => {
      const sdk = sdkClient(suite.api.url, key);
      for (const c of cases) {
        const before = await userQuota(db(), userId);
        const logs = (await consumeLogs(db(), userId)).length;
        const answer = await sdk.chat.completions.create({ model: c.model, messages: [{ role: 'user', content: 'Hi' }] });
        expect(answer.choices[0]?.message.content, `type ${c.type}`).toBe(replyText(c.model));
        const sent = upstream.requestsFor(`up-${c.type}`).at(-1)!;
        expect(sent.path, `type ${c.type}`).toBe(c.path);
        expect(sent.headers.authorization).toBe(`Bearer up-${c.type}`);
        await eventually(async () => (await consumeLogs(db(), userId)).length === logs + 1, `type ${c.type}: the consume log`);
        const charged = before.quota - (await userQuota(db(), userId)).quota;
        expect(charged, `type ${c.type}`).toBe(upstreamUsage.prompt_tokens + upstreamUsage.completion_tokens * 2);
      }
    });
  });
}
