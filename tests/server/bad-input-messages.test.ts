import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stableDump } from './support/badInput';
import { postEarlyAnswer } from './support/hostile';
import { createRelayChannel, createRelayToken, createRelayUser, setRelayOptions } from './support/relayFixtures';
import { replyText, startRelayUpstream, type RelayUpstream } from './support/relayUpstream';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Bad input for `POST /v1/messages` (Anthropic's format in and out), sent with a valid key: every
 * undecodable body, wrong type, missing or absurd field, unsupported block, wrong content type and
 * oversized body gets a 4xx in Anthropic's error shape (`{type:"error",error:{type,message}}`)
 * whose message names the field — and nothing changes: the database is byte-identical before and
 * after, and the upstream receives no request. A session cookie is no credential here: the route
 * takes API keys only, so another site's page cannot spend a signed-in user's quota through it.
 */

const clockMs = 1_750_000_000_000;
const model = 'gpt-3.5-turbo';
const valid = { model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] };

/** A case: the raw body (or a change to the valid one), the status and what the message must say. */
interface Case {
  readonly title: string;
  readonly raw?: string;
  readonly change?: Record<string, unknown>;
  readonly contentType?: string;
  readonly status: number;
  readonly message: RegExp;
}

const cases: readonly Case[] = [
  { title: 'a body that is not JSON', raw: '{"model":', status: 400, message: /json|unexpected|unmarshal/i },
  { title: 'a JSON array', raw: '[1,2]', status: 400, message: /json|object|unmarshal|model/i },
  { title: 'no model', change: { model: undefined }, status: 400, message: /^model: / },
  { title: 'model 5 (a number)', change: { model: 5 }, status: 400, message: /model/ },
  { title: 'no max_tokens', change: { max_tokens: undefined }, status: 400, message: /^max_tokens: / },
  { title: 'max_tokens 0', change: { max_tokens: 0 }, status: 400, message: /^max_tokens: / },
  { title: 'max_tokens -5', change: { max_tokens: -5 }, status: 400, message: /^max_tokens: / },
  { title: 'max_tokens 2.5', change: { max_tokens: 2.5 }, status: 400, message: /^max_tokens: / },
  { title: 'max_tokens "100"', change: { max_tokens: '100' }, status: 400, message: /^max_tokens: / },
  { title: 'max_tokens 1e300', change: { max_tokens: 1e300 }, status: 400, message: /max_tokens/ },
  { title: 'no messages', change: { messages: undefined }, status: 400, message: /^messages: / },
  { title: 'messages []', change: { messages: [] }, status: 400, message: /^messages: / },
  { title: 'messages "hi"', change: { messages: 'hi' }, status: 400, message: /^messages: / },
  { title: 'a message that is a string', change: { messages: ['hi'] }, status: 400, message: /^messages: / },
  { title: 'a system role inside messages', change: { messages: [{ role: 'system', content: 'x' }] }, status: 400, message: /^messages: .*role/ },
  { title: 'content 5', change: { messages: [{ role: 'user', content: 5 }] }, status: 400, message: /^messages: .*content/ },
  { title: 'an unknown content block', change: { messages: [{ role: 'user', content: [{ type: 'document', source: {} }] }] }, status: 400, message: /^messages: .*document/ },
  { title: 'an image with an unknown source', change: { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file' } }] }] }, status: 400, message: /^messages: .*image/ },
  { title: 'stream "yes"', change: { stream: 'yes' }, status: 400, message: /^stream: / },
  { title: 'system 5', change: { system: 5 }, status: 400, message: /^system: / },
  { title: 'temperature "hot"', change: { temperature: 'hot' }, status: 400, message: /^temperature: / },
  { title: 'temperature 7', change: { temperature: 7 }, status: 400, message: /^temperature: / },
  { title: 'top_p -1', change: { top_p: -1 }, status: 400, message: /^top_p: / },
  { title: 'stop_sequences "END"', change: { stop_sequences: 'END' }, status: 400, message: /^stop_sequences: / },
  { title: 'tools "all"', change: { tools: 'all' }, status: 400, message: /^tools: / },
  { title: 'a server tool', change: { tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, status: 400, message: /^tools: / },
  { title: 'tool_choice "auto"', change: { tool_choice: 'auto' }, status: 400, message: /^tool_choice: / },
  {
    title: 'messages nested 100,000 levels deep',
    raw: `{"model":"${model}","max_tokens":64,"messages":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    status: 400,
    message: /deep|nest|depth/i,
  },
  { title: 'a form body', raw: 'model=gpt-3.5-turbo', contentType: 'application/x-www-form-urlencoded', status: 415, message: /content.type|application\/json/i },
  { title: 'a text/plain body', raw: JSON.stringify(valid), contentType: 'text/plain', status: 415, message: /content.type|application\/json/i },
];

/** Anthropic's error type for each status the cases get. */
const errorTypes: Readonly<Record<number, string>> = { 400: 'invalid_request_error', 401: 'authentication_error', 413: 'request_too_large', 415: 'invalid_request_error' };

/** The valid body with `change` applied (an undefined value removes the field). */
function changed(change: Readonly<Record<string, unknown>>): string {
  const body: Record<string, unknown> = { ...valid };
  for (const [field, value] of Object.entries(change)) {
    if (value === undefined) delete body[field];
    else body[field] = value;
  }
  return JSON.stringify(body);
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`bad input: /v1/messages — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => clockMs });
    const db = () => suite.api.handle.db;
    let upstream: RelayUpstream;
    let auth = '';

    beforeAll(async () => {
      upstream = await startRelayUpstream();
      await setRelayOptions(db());
      const userId = await createRelayUser(db(), { username: 'bad-messages', quota: 50_000_000 });
      const token = await createRelayToken(db(), { userId, name: 'bad-messages', remainQuota: 40_000_000 });
      // "now" already: a request that passes auth writes nothing for bookkeeping
      await db().updateTable('tokens').set({ accessed_time: clockMs / 1000 }).where('id', '=', token.id).execute();
      auth = `Bearer sk-${token.key}`;
      await createRelayChannel(db(), { key: 'up-bad-messages', baseUrl: upstream.url, models: model });
    });
    afterAll(async () => {
      await upstream.close();
    });

    /** Runs `act`, then checks the database is unchanged and the upstream got nothing. */
    async function unchanged<T>(act: () => Promise<T>): Promise<T> {
      const before = await stableDump(db());
      const sent = upstream.requests.length;
      const result = await act();
      expect(upstream.requests.slice(sent).map((r) => `${r.method} ${r.path}`), 'requests sent upstream').toEqual([]);
      expect(await stableDump(db()), 'database changed').toBe(before);
      return result;
    }

    /** Checks an Anthropic error answer: status, shape, type for the status, request id suffix, message. */
    function expectAnthropicError(reply: { status: number; body: unknown; text: string; headers: Headers }, status: number, message: RegExp): void {
      expect(reply.status, reply.text.slice(0, 300)).toBe(status);
      const body = reply.body as { type?: unknown; error?: { type?: unknown; message?: unknown } };
      expect(Object.keys(body).sort()).toEqual(['error', 'type']);
      expect(body.type).toBe('error');
      expect(body.error?.type).toBe(errorTypes[status]);
      const text = String(body.error?.message);
      const suffix = ` (request id: ${reply.headers.get('x-oneapi-request-id')})`;
      expect(text.endsWith(suffix), text).toBe(true);
      expect(text.slice(0, -suffix.length)).toMatch(message);
    }

    it('the valid body is answered (each case below differs from it in one point)', async () => {
      const reply = await suite.client().request('POST', '/v1/messages', { body: valid, headers: { Authorization: auth } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ type: 'message', content: [{ type: 'text', text: replyText(model) }] });
    });

    for (const c of cases) {
      it(`${c.title} → ${c.status} naming the problem, nothing changes`, async () => {
        await unchanged(async () => {
          const reply = await suite.client().request('POST', '/v1/messages', {
            rawBody: c.raw ?? changed(c.change ?? {}),
            headers: { Authorization: auth, 'content-type': c.contentType ?? 'application/json' },
          });
          expectAnthropicError(reply, c.status, c.message);
        });
      });
    }

    it('a body over the 32 MB limit → 413 in Anthropic\'s shape, nothing changes', async () => {
      const oversized = JSON.stringify({ ...valid, system: 'x'.repeat(33 * 1024 * 1024) });
      await unchanged(async () => {
        const [status, text] = await postEarlyAnswer(`${suite.api.url}/v1/messages`, oversized, { Authorization: auth, 'Content-Type': 'application/json' }, 30_000);
        expect(status, text).toBe('413');
        expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
      });
    });

    it("a signed-in user's session cookie is no credential: 401 without an API key, nothing changes", async () => {
      const browser = suite.client();
      const login = await browser.post('/api/user/login', { username: 'root', password: '123456' });
      expect(login.status, login.text).toBe(200);
      await unchanged(async () => {
        const reply = await browser.request('POST', '/v1/messages', { body: valid, headers: { Origin: 'https://evil.example' } });
        expectAnthropicError(reply, 401, /未提供令牌/);
      });
    });
  });
}
