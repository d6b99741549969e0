import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import {
  channelHealth,
  chatPromptTokens,
  consumeLogs,
  countText,
  createRelayChannel,
  createRelayToken,
  createRelayUser,
  eventually,
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
import { setOption } from './support/db';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';
import { settlementsDone } from '../../server/relay/billing';

/**
 * Review findings on the relay (issue 6, contract §4.4–§4.9), each proved against the real server
 * with a scripted loopback upstream: error objects answered with 200 (in a stream or a JSON body),
 * usage numbers the database cannot store, multi-byte characters split across reads, an upstream
 * stalling mid-stream, Azure deployment URLs and the forced system prompt end to end, and the
 * refund of failed completions/embeddings/images requests.
 */

const model = 'gpt-3.5-turbo';
const messages: ChatMessage[] = [{ role: 'user', content: 'Review me.' }];

/** What the scripted upstream saw of one request. */
interface Seen {
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly json: Record<string, unknown>;
  /** Resolves when the gateway closed the connection (or the answer ended). */
  readonly closed: Promise<void>;
}

type Script = (res: ServerResponse, seen: Seen) => void | Promise<void>;

/** A loopback upstream whose answer is a per-key script (the key = Bearer or api-key header). */
interface ScriptedUpstream {
  readonly url: string;
  readonly seen: Map<string, Seen[]>;
  script(key: string, script: Script): void;
  close(): Promise<void>;
}

async function startScripted(): Promise<ScriptedUpstream> {
  const scripts = new Map<string, Script>();
  const seen = new Map<string, Seen[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const auth = req.headers.authorization ?? '';
      const key = typeof req.headers['api-key'] === 'string' ? req.headers['api-key'] : auth.replace(/^Bearer /, '');
      const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
      const entry: Seen = { url: req.url ?? '', headers: req.headers, json: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>, closed };
      seen.set(key, [...(seen.get(key) ?? []), entry]);
      const script = scripts.get(key);
      if (script === undefined) {
        res.writeHead(404).end();
        return;
      }
      void script(res, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    script: (key, script) => scripts.set(key, script),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const sse = (res: ServerResponse): void => {
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
};
const chunk = (content: string, extra: Record<string, unknown> = {}): string =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content }, finish_reason: null }], ...extra })}\n\n`;
const answer = (content: string, usage?: Record<string, number>): string =>
  JSON.stringify({
    id: 'c1',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    ...(usage === undefined ? {} : { usage }),
  });
const json = (res: ServerResponse, status: number, body: string): void => {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay review — ${target.label}`, () => {
    // RELAY_TIMEOUT 1 s: also the longest silence tolerated inside a stream.
    const suite = setupSuite(target, { env: { RELAY_TIMEOUT: '1' } });
    const db = () => suite.api.handle.db;
    let upstream: ScriptedUpstream;
    let userId: number;
    let token: RelayToken;
    let sdk: OpenAI;
    let seq = 0;

    beforeAll(async () => {
      upstream = await startScripted();
      userId = await createRelayUser(db(), { username: 'reviewuser', quota: 200_000 });
      token = await createRelayToken(db(), { userId, name: 'review-token', remainQuota: 100_000 });
      sdk = sdkClient(suite.api.url, token.key);
    });
    afterAll(async () => {
      await upstream.close();
    });
    beforeEach(async () => {
      await setRelayOptions(db());
      await db().updateTable('channels').set({ status: 2 }).execute();
      await db().updateTable('abilities').set({ enabled: false }).execute();
    });

    /** A fresh channel answering with `script`; returns its id and key. */
    const addChannel = async (script: Script, fields: { type?: number; systemPrompt?: string; models?: string; priority?: number } = {}) => {
      seq += 1;
      const key = `review-${seq}`;
      upstream.script(key, script);
      const id = await createRelayChannel(db(), {
        key,
        baseUrl: upstream.url,
        models: fields.models ?? model,
        type: fields.type,
        systemPrompt: fields.systemPrompt,
        priority: fields.priority,
      });
      return { id, key };
    };
    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const snapshot = (channelId: number) => ledger.snapshot(channelId);
    const { expectCharged } = ledger;
    async function expectUntouched(before: QuotaSnapshot, channelId: number): Promise<void> {
      await eventually(async () => (await snapshot(channelId)).user.quota === before.user.quota, 'the refund').catch(() => undefined);
      expect(await snapshot(channelId)).toEqual(before);
    }
    /** user quota + used and token remain + used are unchanged; `quota` moved to used; one more log. */
    const lastLog = async () => (await consumeLogs(db(), userId)).at(-1)!;

    describe('an upstream error object answered with status 200', () => {
      const errorEvent = { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } };

      it('as the first event of a stream: an error for the client (not a 200 stream), full refund, no log', async () => {
        const channel = await addChannel((res) => {
          sse(res);
          res.end(`data: ${JSON.stringify(errorEvent)}\n\n`);
        });
        const before = await snapshot(channel.id);
        const error = await sdkError(sdk.chat.completions.create({ model, messages, stream: true }).then(async (s) => {
          for await (const _ of s) void _;
        }));
        expect(error.status).toBe(500);
        expect(error.message).toContain(errorEvent.error.message);
        expect(error.type).toBe('server_error');
        await expectUntouched(before, channel.id);
      });

      it('as the first event of a stream, with RetryTimes: retried on the next channel, charged once', async () => {
        await setOption(db(), 'RetryTimes', '1');
        const failing = await addChannel((res) => {
          sse(res);
          res.end(`data: ${JSON.stringify(errorEvent)}\n\n`);
        }, { priority: 5 });
        const healthy = await addChannel((res) => {
          sse(res);
          res.write(chunk('Hi'));
          res.end(`${chunk('', { choices: [], usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } })}data: [DONE]\n\n`);
        });
        const before = await snapshot(healthy.id);
        const stream = await sdk.chat.completions.create({ model, messages, stream: true });
        let text = '';
        for await (const part of stream) text += part.choices[0]?.delta.content ?? '';
        expect(text).toBe('Hi');
        expect(upstream.seen.get(failing.key)).toHaveLength(1);
        await expectCharged(before, textQuota(model, 7, 2), healthy.id);
      });

      it('as a JSON body: an error, full refund, and a fatal one disables the channel (§4.9)', async () => {
        await setOption(db(), 'AutomaticDisableChannelEnabled', 'true');
        const body = { error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } };
        const channel = await addChannel((res) => json(res, 200, JSON.stringify(body)));
        const before = await snapshot(channel.id);
        const error = await sdkError(sdk.chat.completions.create({ model, messages }));
        expect(error.status).toBe(500);
        expect(error.code).toBe('insufficient_quota');
        expect(error.message).toContain(body.error.message);
        await expectUntouched(before, channel.id);
        await eventually(async () => (await channelHealth(db(), channel.id)).status === 3, 'the channel to be disabled');
      });
    });

    it('usage with fractional token counts is billed in whole tokens (the log columns are integers)', async () => {
      const channel = await addChannel((res) => json(res, 200, answer('ok', { prompt_tokens: 10.7, completion_tokens: 3.2, total_tokens: 13.9 })));
      const before = await snapshot(channel.id);
      await sdk.chat.completions.create({ model, messages });
      await expectCharged(before, textQuota(model, 10, 3), channel.id);
      expect(await lastLog()).toMatchObject({ promptTokens: 10, completionTokens: 3, quota: textQuota(model, 10, 3) });
    });

    it('a stream whose events and multi-byte characters are split across reads arrives intact', async () => {
      const content = 'héllo 世界 🙂 ok';
      const channel = await addChannel(async (res) => {
        sse(res);
        const bytes = Buffer.from(`${chunk(content)}data: [DONE]\n\n`, 'utf8');
        const emoji = bytes.indexOf(Buffer.from('🙂', 'utf8'));
        // cuts: inside "data:", inside 世 (3 bytes), inside 🙂 (4 bytes)
        const cuts = [3, bytes.indexOf(Buffer.from('世', 'utf8')) + 1, emoji + 2, bytes.length];
        let from = 0;
        for (const cut of cuts) {
          res.write(bytes.subarray(from, cut));
          from = cut;
          await pause(15);
        }
        res.end();
      });
      const before = await snapshot(channel.id);
      const stream = await sdk.chat.completions.create({ model, messages, stream: true });
      let text = '';
      for await (const part of stream) text += part.choices[0]?.delta.content ?? '';
      expect(text).toBe(content);
      const completion = countText(content, model);
      await expectCharged(before, textQuota(model, chatPromptTokens(messages, model), completion), channel.id);
    });

    it('an upstream that stalls mid-stream longer than RELAY_TIMEOUT: the stream ends with an error event, the upstream is closed, the delivered part billed once', async () => {
      let seen: Seen | undefined;
      const channel = await addChannel((res, s) => {
        seen = s;
        sse(res);
        res.write(chunk('Partial'));
        // then silence, never ending
      });
      const before = await snapshot(channel.id);
      const started = Date.now();
      const stream = await sdk.chat.completions.create({ model, messages, stream: true });
      let text = '';
      const failure = await (async () => {
        try {
          for await (const part of stream) text += part.choices[0]?.delta.content ?? '';
        } catch (error) {
          return error;
        }
        return null;
      })();
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(text).toBe('Partial');
      expect(String(failure)).toMatch(/stream_interrupted|interrupted/);
      await seen?.closed;
      await expectCharged(before, textQuota(model, chatPromptTokens(messages, model), countText('Partial', model)), channel.id);
      expect(await lastLog()).toMatchObject({ isStream: true });
    });

    it('Azure (type 3) end to end: deployment URL with api-version, api-key header', async () => {
      const channel = await addChannel((res) => json(res, 200, answer('azure ok', { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 })), { type: 3 });
      await db().updateTable('channels').set({ config: JSON.stringify({ api_version: '2024-06-01' }) }).where('id', '=', channel.id).execute();
      const before = await snapshot(channel.id);
      const reply = await sdk.chat.completions.create({ model, messages });
      expect(reply.choices[0]?.message.content).toBe('azure ok');
      const [request] = upstream.seen.get(channel.key) ?? [];
      expect(request?.url).toBe('/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-06-01');
      expect(request?.headers['api-key']).toBe(channel.key);
      expect(request?.headers.authorization).toBeUndefined();
      await expectCharged(before, textQuota(model, 5, 2), channel.id);
    });

    it('the channel system prompt is forced upstream and logged as system_prompt_reset', async () => {
      const channel = await addChannel((res) => json(res, 200, answer('terse', { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 })), {
        systemPrompt: 'You are terse.',
      });
      await sdk.chat.completions.create({ model, messages });
      const [request] = upstream.seen.get(channel.key) ?? [];
      expect(request?.json.messages).toEqual([{ role: 'system', content: 'You are terse.' }, ...messages]);
      await settlementsDone(db());
      const row = await db().selectFrom('logs').select(['system_prompt_reset']).where('user_id', '=', userId).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(Boolean(row.system_prompt_reset)).toBe(true);
    });

    it('without upstream usage, the forced system prompt counts in the prompt tokens (as in one-api)', async () => {
      const channel = await addChannel((res) => json(res, 200, answer('terse')), { systemPrompt: 'You are terse and precise.' });
      const before = await snapshot(channel.id);
      await sdk.chat.completions.create({ model, messages });
      const sent: ChatMessage[] = [{ role: 'system', content: 'You are terse and precise.' }, ...messages];
      const promptTokens = chatPromptTokens(sent, model);
      await expectCharged(before, textQuota(model, promptTokens, countText('terse', model)), channel.id);
      expect(await lastLog()).toMatchObject({ promptTokens });
    });

    it('a consume log that cannot be written does not lose the quota: the charge is settled without it', async () => {
      // A trigger refuses consume logs of one token name: the settlement's transaction fails.
      if (target.kind === 'sqlite') {
        await sql`CREATE TRIGGER review_no_log BEFORE INSERT ON logs WHEN NEW.token_name = 'nolog-token' BEGIN SELECT RAISE(ABORT, 'log refused'); END`.execute(db());
      } else {
        await sql`CREATE OR REPLACE FUNCTION review_no_log() RETURNS trigger AS $$ BEGIN IF NEW.token_name = 'nolog-token' THEN RAISE EXCEPTION 'log refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`.execute(db());
        await sql`CREATE TRIGGER review_no_log BEFORE INSERT ON logs FOR EACH ROW EXECUTE FUNCTION review_no_log()`.execute(db());
      }
      try {
        const nolog = await createRelayToken(db(), { userId, name: 'nolog-token', remainQuota: 50_000 });
        const channel = await addChannel((res) => json(res, 200, answer('ok', { prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 })));
        const ids = { userId, tokenId: nolog.id, channelId: channel.id };
        const before = await quotaSnapshot(db(), ids);
        const reply = await sdkClient(suite.api.url, nolog.key).chat.completions.create({ model, messages });
        expect(reply.choices[0]?.message.content).toBe('ok');
        const quota = textQuota(model, 20, 4);
        await eventually(async () => (await quotaSnapshot(db(), ids)).user.requestCount === before.user.requestCount + 1, 'the settlement');
        const after = await quotaSnapshot(db(), ids);
        expect(after.user).toEqual({ quota: before.user.quota - quota, usedQuota: before.user.usedQuota + quota, requestCount: before.user.requestCount + 1 });
        expect(after.token).toMatchObject({ remainQuota: before.token.remainQuota - quota, usedQuota: before.token.usedQuota + quota });
        expect(after.channelUsed).toBe(before.channelUsed + quota);
        expect(after.logs).toBe(before.logs);
      } finally {
        await sql`DROP TRIGGER IF EXISTS review_no_log${sql.raw(target.kind === 'sqlite' ? '' : ' ON logs')}`.execute(db());
      }
    });

    describe('other modes', () => {
      it('/v1/completions stream dropped mid-stream: the delivered text billed once, an error after it', async () => {
        const channel = await addChannel((res) => {
          sse(res);
          res.write(`data: ${JSON.stringify({ id: 'x', object: 'text_completion', created: 1, model, choices: [{ index: 0, text: 'Once upon', finish_reason: null }] })}\n\n`);
          setTimeout(() => res.destroy(), 20);
        });
        const before = await snapshot(channel.id);
        const stream = await sdk.completions.create({ model, prompt: 'Tell a story', stream: true });
        let text = '';
        const failure = await (async () => {
          try {
            for await (const part of stream) text += part.choices[0]?.text ?? '';
          } catch (error) {
            return error;
          }
          return null;
        })();
        expect(text).toBe('Once upon');
        expect(String(failure)).toMatch(/interrupted/);
        await expectCharged(before, textQuota(model, countText('Tell a story', model), countText('Once upon', model)), channel.id);
      });

      it('embeddings answered without usage are billed from the counted input, not for free', async () => {
        const channel = await addChannel((res) => json(res, 200, JSON.stringify({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.5, -0.5] }], model: 'text-embedding-3-small' })), {
          models: 'text-embedding-3-small',
        });
        const input = 'count these embedding input tokens';
        const before = await snapshot(channel.id);
        const reply = await sdk.embeddings.create({ model: 'text-embedding-3-small', input, encoding_format: 'float' });
        expect(reply.data[0]?.embedding).toEqual([0.5, -0.5]);
        const promptTokens = countText(input, 'text-embedding-3-small');
        await expectCharged(before, textQuota('text-embedding-3-small', promptTokens, 0), channel.id);
        expect(await lastLog()).toMatchObject({ promptTokens, completionTokens: 0 });
      });

      it('images are validated against the mapped model (§4.5): a size the upstream model lacks is a 400, nothing sent', async () => {
        const channel = await addChannel((res) => json(res, 200, JSON.stringify({ created: 1, data: [{ url: 'https://img.example/1.png' }] })), {
          models: 'dall-e-3',
        });
        await db().updateTable('channels').set({ model_mapping: JSON.stringify({ 'dall-e-3': 'dall-e-2' }) }).where('id', '=', channel.id).execute();
        const before = await snapshot(channel.id);
        const error = await sdkError(sdk.images.generate({ model: 'dall-e-3', prompt: 'a cat', size: '1792x1024' }));
        expect(error.status).toBe(400);
        expect(error.code).toBe('size_not_supported');
        expect(upstream.seen.get(channel.key)).toBeUndefined();
        await expectUntouched(before, channel.id);
      });

      it('embeddings and images failing upstream (500) are refunded', async () => {
        const channel = await addChannel((res) => json(res, 500, JSON.stringify({ error: { message: 'boom', type: 'server_error', code: null } })), {
          models: 'text-embedding-ada-002,dall-e-3',
        });
        const before = await snapshot(channel.id);
        const embedding = await sdkError(sdk.embeddings.create({ model: 'text-embedding-ada-002', input: 'hello' }));
        expect(embedding.status).toBe(500);
        const image = await sdkError(sdk.images.generate({ model: 'dall-e-3', prompt: 'a cat' }));
        expect(image.status).toBe(500);
        await expectUntouched(before, channel.id);
      });
    });

    describe('retries and auto-disable (§4.8, §4.9)', () => {
      it('RetryTimes with a single channel: the failed channel is not asked again, the error is its own', async () => {
        await setOption(db(), 'RetryTimes', '3');
        const channel = await addChannel((res) => json(res, 503, JSON.stringify({ error: { message: 'overloaded', type: 'server_error', code: null } })));
        const before = await snapshot(channel.id);
        const error = await sdkError(sdk.chat.completions.create({ model, messages }));
        expect(error.status).toBe(503);
        expect(error.message).toContain('overloaded');
        expect(upstream.seen.get(channel.key)).toHaveLength(1);
        await expectUntouched(before, channel.id);
      });

      it('a fatal error on the last attempt disables that channel too; the final status is the last one', async () => {
        await setOption(db(), 'RetryTimes', '1');
        await setOption(db(), 'AutomaticDisableChannelEnabled', 'true');
        const unauthorized = JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
        const first = await addChannel((res) => json(res, 429, JSON.stringify({ error: { message: 'Rate limit', type: 'requests', code: null } })), { priority: 5 });
        const last = await addChannel((res) => json(res, 401, unauthorized));
        const before = await snapshot(last.id);
        const error = await sdkError(sdk.chat.completions.create({ model, messages }));
        // the last status is 401: no "saturated" message
        expect(error.status).toBe(401);
        expect(error.message).toContain('Incorrect API key provided');
        await eventually(async () => (await channelHealth(db(), last.id)).status === 3, 'the last channel to be disabled');
        expect((await channelHealth(db(), first.id)).status).toBe(1);
        await expectUntouched(before, last.id);
      });
    });
  });
}
