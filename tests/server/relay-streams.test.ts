import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeLogs, createRelayChannel, createRelayToken, createRelayUser, setRelayOptions, textQuota, type RelayToken } from './support/relayFixtures';
import { setupSuite } from './support/suite';
import { postgresTarget, sqliteTarget } from './support/targets';

/**
 * Many streams at once to one provider (issue 22, bench/relay's many-streams scenario at a small
 * scale): 540 streams are open through the gateway together, each held by the upstream until all
 * 540 have reached it, so that a cap on the gateway's connections to one origin (it was 512: the
 * 513th stream waited for a whole stream to end) shows as streams that never start. Each then gets
 * a few tokens; every one is billed exactly once at its price and the quota moved equals the sum of
 * the consume logs. With RELAY_TIMEOUT set, a stream whose tokens come closer together than it, but
 * that lasts longer than it in all, runs to its end (the timeout bounds each silence, not the stream).
 */

const model = 'gpt-3.5-turbo';
/** Above the former cap (512), as few as that allows: the suite must stay short. */
const streams = 540;
/** The prompt tokens every answer reports (its completion tokens: the tokens it sent). */
const promptTokens = 11;
const priceOf = (tokens: number): number => textQuota(model, promptTokens, tokens);
const tokenStart = 10_000_000_000;

const chunk = (content: string, last: boolean): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-many', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content }, finish_reason: last ? 'stop' : null }] })}\n\n`;
const closing = (tokens: number): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-many', object: 'chat.completion.chunk', created: 1, model, choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: tokens, total_tokens: promptTokens + tokens } })}\n\ndata: [DONE]\n\n`;

/**
 * A provider that holds every stream until `barrier` of them are open at once (or `giveUpMs` has
 * passed, so that a gateway that cannot reach the barrier fails the test instead of hanging it),
 * then sends `tokens` tokens `gapMs` apart, the usage chunk and `[DONE]`.
 */
interface ManyUpstream {
  readonly url: string;
  /** The most streams open here at once. */
  readonly mostOpen: () => number;
  /** Sets the barrier, the tokens per answer and the gap between them for the next streams. */
  configure(o: { barrier: number; tokens: number; gapMs: number }): void;
  close(): Promise<void>;
}

async function startManyUpstream(giveUpMs: number): Promise<ManyUpstream> {
  let barrier = 1;
  let tokens = 1;
  let gapMs = 0;
  let open = 0;
  let mostOpen = 0;
  let waiting: ServerResponse[] = [];
  let giveUp: NodeJS.Timeout | null = null;
  const stream = (res: ServerResponse): void => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    let sent = 0;
    const count = tokens;
    const gap = gapMs;
    const next = (): void => {
      if (res.destroyed) return;
      sent += 1;
      if (sent < count) {
        res.write(chunk(`t${sent}`, false));
        setTimeout(next, gap);
      } else res.end(`${chunk(`t${sent}`, true)}${closing(count)}`);
    };
    next();
  };
  const release = (): void => {
    if (giveUp !== null) clearTimeout(giveUp);
    giveUp = null;
    for (const res of waiting.splice(0)) stream(res);
  };
  const server: Server = createServer({ keepAlive: true }, (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      res.on('close', () => (open -= 1));
      waiting.push(res);
      giveUp ??= setTimeout(release, giveUpMs);
      if (waiting.length >= barrier) release();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mostOpen: () => mostOpen,
    configure: (o) => {
      barrier = o.barrier;
      tokens = o.tokens;
      gapMs = o.gapMs;
      mostOpen = 0;
      waiting = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (giveUp !== null) clearTimeout(giveUp);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What one client stream got. */
interface Got {
  readonly status: number;
  readonly tokens: number;
  readonly done: boolean;
  readonly error: string | null;
}

/** One streaming request to the gateway, read to its end. */
async function streamOnce(apiUrl: string, key: string): Promise<Got> {
  try {
    const response = await fetch(`${apiUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer sk-${key}` },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Tell me a story.' }], stream: true }),
    });
    const text = await response.text();
    const events = text.split('\n\n').filter((e) => e.startsWith('data: '));
    return {
      status: response.status,
      tokens: events.filter((e) => e.includes('"content":"t')).length,
      done: events.includes('data: [DONE]'),
      error: response.status === 200 ? (events.find((e) => e.includes('"error"')) ?? null) : text.slice(0, 300),
    };
  } catch (error) {
    return { status: 0, tokens: 0, done: false, error: String(error) };
  }
}

// The settlement paths (thread, main thread, PostgreSQL) are covered under concurrency by
// relay-concurrency.test.ts; here the default SQLite one and PostgreSQL.
for (const target of [sqliteTarget, postgresTarget]) {
  describe.skipIf(target.skipReason !== null)(`relay: many streams to one provider at once — ${target.label}`, () => {
    // RELAY_TIMEOUT set: every stream's reads run under the idle timer (30 s: far above the time the
    // streams take to reach the barrier on a busy machine).
    const suite = setupSuite(target, { env: { RELAY_TIMEOUT: '30' } });
    const db = () => suite.api.handle.db;
    let upstream: ManyUpstream;
    let token: RelayToken;
    let userId: number;

    beforeAll(async () => {
      upstream = await startManyUpstream(20_000);
      await setRelayOptions(db());
      await createRelayChannel(db(), { key: 'many', baseUrl: upstream.url, models: model });
      userId = await createRelayUser(db(), { username: 'many', quota: tokenStart });
      token = await createRelayToken(db(), { userId, name: 'many', remainQuota: tokenStart });
    });
    afterAll(async () => {
      await upstream.close();
    });

    /** The token's and the user's figures against the consume logs of the streams so far (`runs`: how many got how many tokens). */
    async function expectBilled(runs: readonly { readonly streams: number; readonly tokens: number }[]): Promise<void> {
      const expectedLogs = runs.reduce((n, r) => n + r.streams, 0);
      const logs = await consumeLogs(db(), userId);
      expect(logs).toHaveLength(expectedLogs);
      expect(logs.filter((l) => l.quota !== priceOf(l.completionTokens) || !runs.some((r) => r.tokens === l.completionTokens)).map((l) => `${l.quota} ${l.completionTokens}`)).toEqual([]);
      const logged = logs.reduce((sum, l) => sum + l.quota, 0);
      expect(logged).toBe(runs.reduce((sum, r) => sum + r.streams * priceOf(r.tokens), 0));
      const tokenRow = await db().selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', token.id).executeTakeFirstOrThrow();
      const userRow = await db().selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
      expect({ tokenRemain: Number(tokenRow.remain_quota), tokenUsed: Number(tokenRow.used_quota), userQuota: Number(userRow.quota), userUsed: Number(userRow.used_quota), requests: Number(userRow.request_count) }).toEqual({
        tokenRemain: tokenStart - logged,
        tokenUsed: logged,
        userQuota: tokenStart - logged,
        userUsed: logged,
        requests: expectedLogs,
      });
    }

    it(`${streams} streams open together through one upstream pool: all reach the provider at once, all complete, each billed once`, async () => {
      upstream.configure({ barrier: streams, tokens: 3, gapMs: 0 });
      const got = await Promise.all(Array.from({ length: streams }, () => streamOnce(suite.api.url, token.key)));
      expect(upstream.mostOpen()).toBe(streams);
      expect(got.filter((g) => g.status !== 200 || g.tokens !== 3 || !g.done || g.error !== null).slice(0, 3)).toEqual([]);
      await expectBilled([{ streams, tokens: 3 }]);
      // A deadlock guard, not a time limit: a few seconds on an idle machine, a minute at a load of 35.
    }, 180_000);

    it('streams longer than RELAY_TIMEOUT whose tokens come closer than it run to their end', async () => {
      await suite.restart({ env: { RELAY_TIMEOUT: '2' } });
      // 6 tokens 0.5 s apart: 2.5 s in all against a 2 s RELAY_TIMEOUT, each silence 1.5 s short of it.
      upstream.configure({ barrier: 20, tokens: 6, gapMs: 500 });
      const got = await Promise.all(Array.from({ length: 20 }, () => streamOnce(suite.api.url, token.key)));
      expect(got.filter((g) => g.status !== 200 || g.tokens !== 6 || !g.done || g.error !== null).slice(0, 3)).toEqual([]);
      await expectBilled([
        { streams, tokens: 3 },
        { streams: 20, tokens: 6 },
      ]);
    }, 60_000);
  });
}
