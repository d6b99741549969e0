import { request as httpRequest, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxiedUrl } from '../../server/relay/proxy';
import { dumpDatabase } from './support/db';
import { consumeLogs, countText, createRelayChannel, createRelayToken, createRelayUser, eventually, ledgerOf, setRelayOptions, testModelRatio, textQuota, type RelayToken } from './support/relayFixtures';
import { startLoopbackServer, type LoopbackServer } from './support/loopbackServer';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * Attackers and vanishing clients on the relay routes added last (the transparent proxy,
 * `/v1/responses`, the audio routes, image edits, edits and messages), against a real server and
 * one loopback fake speaking OpenAI's wire (and a plain byte source behind the proxy):
 * - cross-site forgery: the relay authenticates by its token header only, so the victim's session
 *   cookie, a cross-site text/plain or multipart form POST, or a cross-site fetch carry no
 *   credential (401, nothing forwarded, the database untouched), and the proxy never forwards the
 *   gateway's cookie to the upstream;
 * - clients that never read (proxy, speech): the upstream is read only as fast as the client
 *   takes it, other requests are served meanwhile, the charge is exact and once;
 * - clients that leave mid-stream (/v1/responses, speech): billed what was delivered, one log,
 *   the upstream closed;
 * - an upstream breaking mid-audio: the client's body fails (not a clean end), billed by §4.5;
 * - hostile multipart bodies (100,000 parts, a field above the body limit, a slow sender);
 * - the proxy target escaping the base URL (encoded and backslash variants);
 * - /v1/responses retries across channels, model mapping and the max_output_tokens reservation.
 */

const respModel = 'gpt-4o-mini';
/** The Responses channel that answers maps the requested model to this one. */
const mappedRespModel = 'gpt-3.5-turbo';
const proxyRatio = 2.5;
const proxyPrice = 2500;
const speechRatio = 2;
/** Bytes of the endless answers (proxy and speech): far more than any socket buffer. */
const endlessBytes = 64 * 1024 * 1024;
const piece = Buffer.alloc(64 * 1024, 0x61);
/** The worst an `/api/status` call may take meanwhile (a loaded 2-core machine deschedules processes for a few hundred ms). */
const probeBoundMs = 1500;

/** What the fake received. */
interface Received {
  readonly path: string;
  readonly key: string;
  readonly headers: IncomingMessage['headers'];
  readonly json: Record<string, unknown> | null;
  /** Set once the connection closed before the answer was complete. */
  aborted: boolean;
  /** Bytes the fake managed to write (the endless answers). */
  written: number;
}

const parsed = (text: string): Record<string, unknown> | null => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** Writes `endlessBytes` as fast as the reader takes them (waits for drain), stopping when the connection closes. */
async function endless(res: ServerResponse, record: Received, type: string): Promise<void> {
  res.writeHead(200, { 'Content-Type': type });
  let closed = false;
  res.on('close', () => (closed = true));
  while (record.written < endlessBytes && !closed) {
    record.written += piece.length;
    if (!res.write(piece)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done).off('close', done);
          resolve();
        };
        res.on('drain', done).on('close', done);
      });
    }
  }
  if (!closed) res.end();
}

/** Waits until the connection of `res` closes. */
const closedOf = (res: ServerResponse): Promise<void> => new Promise((resolve) => (res.destroyed ? resolve() : res.once('close', () => resolve())));

const responsesUsage = { input_tokens: 20, output_tokens: 10, total_tokens: 30 };

async function answer(req: IncomingMessage, res: ServerResponse, received: Received[]): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const url = new URL(req.url ?? '/', 'http://x');
  const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  const record: Received = { path: url.pathname, key, headers: req.headers, json: parsed(Buffer.concat(chunks).toString('utf8')), aborted: false, written: 0 };
  received.push(record);
  res.on('close', () => {
    if (!res.writableFinished) record.aborted = true;
  });
  const json = record.json ?? {};
  if (url.pathname.startsWith('/base/')) {
    if (url.pathname === '/base/endless') return endless(res, record, 'application/octet-stream');
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ path: url.pathname }));
    return;
  }
  if (url.pathname === '/v1/responses') {
    if (key === 'up-resp-fail') {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } }));
      return;
    }
    const object = (status: string) => ({ id: 'resp_1', object: 'response', status, model: json.model, output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello there' }] }], usage: status === 'completed' ? responsesUsage : null });
    if (json.stream !== true) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(object('completed')));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    const send = (type: string, fields: Record<string, unknown>): boolean => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`);
    send('response.created', { response: object('in_progress') });
    send('response.output_text.delta', { delta: 'Hello' });
    send('response.output_text.delta', { delta: ' there' });
    if ((json.metadata as { fake?: string } | undefined)?.fake === 'hang') return closedOf(res);
    send('response.completed', { response: object('completed') });
    res.end();
    return;
  }
  if (url.pathname === '/v1/audio/speech') {
    const input = typeof json.input === 'string' ? json.input : '';
    if (input === 'endless') return endless(res, record, 'audio/mpeg');
    res.writeHead(200, { 'Content-Type': 'audio/mpeg' });
    res.write(Buffer.alloc(4096, 1));
    if (input === 'hang') return closedOf(res);
    if (input === 'break') {
      await new Promise((resolve) => setTimeout(resolve, 30));
      res.destroy();
      return;
    }
    res.end(Buffer.alloc(4096, 2));
    return;
  }
  if (url.pathname === '/v1/audio/transcriptions' || url.pathname === '/v1/audio/translations') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ text: 'transcribed' }));
    return;
  }
  res.writeHead(404, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error', param: null, code: null } }));
}

/** Requests of `stalled` (destroyed after the suite, should a test fail before it leaves). */
const stalledRequests: ClientRequest[] = [];

/** A request whose answer is never read: the socket is paused once the head is in. */
function stalled(base: string, path: string, headers: Record<string, string>, body?: string): Promise<{ readonly res: IncomingMessage; readonly req: ClientRequest }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method: body === undefined ? 'GET' : 'POST', path, headers }, (res) => {
      res.pause();
      resolve({ res, req });
    });
    stalledRequests.push(req);
    req.on('error', reject);
    req.end(body);
  });
}

/** The worst time of `n` sequential `/api/status` calls. */
async function statusWorstMs(base: string, n = 5): Promise<number> {
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(`${base}/api/status`);
    await res.text();
    expect(res.status).toBe(200);
    worst = Math.max(worst, performance.now() - t);
  }
  return worst;
}

/** A multipart body of `parts` tiny fields (boundary `b`). */
const manyParts = (parts: number): string => `${'--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n'.repeat(parts)}--b--\r\n`;

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay routes under attack — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: LoopbackServer;
    const received: Received[] = [];
    let userId: number;
    let token: RelayToken;
    let proxyChannel: number;
    let respFail: number;
    let respOk: number;
    let speechChannel: number;

    beforeAll(async () => {
      upstream = await startLoopbackServer((req, res) => answer(req, res, received));
      await setRelayOptions(db(), {
        RetryTimes: '1',
        ModelRatio: JSON.stringify({ ...testModelRatio, 'oneapi-proxy': proxyRatio, 'tts-1': speechRatio, 'whisper-1': 1 }),
      });
      userId = await createRelayUser(db(), { username: 'attacked', quota: 50_000_000 });
      token = await createRelayToken(db(), { userId, name: 'attacked-token', remainQuota: 40_000_000 });
      proxyChannel = await createRelayChannel(db(), { key: 'up-proxy', baseUrl: `${upstream.url}/base`, models: '', type: 43 });
      // the first draw is the higher priority, failing channel; the retry goes to the one that answers
      respFail = await createRelayChannel(db(), { key: 'up-resp-fail', baseUrl: upstream.url, models: respModel, type: 1, priority: 10 });
      respOk = await createRelayChannel(db(), { key: 'up-resp', baseUrl: upstream.url, models: respModel, type: 1, modelMapping: JSON.stringify({ [respModel]: mappedRespModel }) });
      speechChannel = await createRelayChannel(db(), { key: 'up-speech', baseUrl: upstream.url, models: 'tts-1,whisper-1,dall-e-2,text-davinci-edit-001,claude-3-haiku-20240307', type: 1 });
    });
    afterAll(async () => {
      for (const req of stalledRequests.splice(0)) req.destroy();
      await upstream.close();
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const auth = (): Record<string, string> => ({ Authorization: `Bearer sk-${token.key}` });
    const speechQuota = (input: string): number => Math.floor(Buffer.byteLength(input) * speechRatio);

    describe('cross-site forgery: the relay takes tokens, never cookies', () => {
      /** The relay routes a page on another site could aim at, with a body each would accept from a token holder. */
      const routes: ReadonlyArray<readonly [string, () => string, string]> = [
        ['POST', () => `/v1/oneapi/proxy/${proxyChannel}/v1/things`, '{"hello":"proxy"}'],
        ['GET', () => `/v1/oneapi/proxy/${proxyChannel}/v1/models`, ''],
        ['POST', () => '/v1/responses', `{"model":"${respModel}","input":"forged"}`],
        ['POST', () => '/v1/audio/speech', '{"model":"tts-1","input":"forged","voice":"alloy"}'],
        ['POST', () => '/v1/audio/transcriptions', ''],
        ['POST', () => '/v1/audio/translations', ''],
        ['POST', () => '/v1/images/edits', ''],
        ['POST', () => '/v1/edits', '{"model":"text-davinci-edit-001","input":"a","instruction":"b"}'],
        ['POST', () => '/v1/messages', '{"model":"claude-3-haiku-20240307","max_tokens":10,"messages":[{"role":"user","content":"forged"}]}'],
      ];
      const crossSite = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', origin: 'http://evil.example' };

      /** A multipart form as a browser's `<form enctype="multipart/form-data">` sends it. */
      const formBody = (): { body: string; type: string } => ({
        type: 'multipart/form-data; boundary=----formboundary',
        body: [
          '------formboundary\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n',
          '------formboundary\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nforged\r\n',
          '------formboundary\r\nContent-Disposition: form-data; name="file"; filename="a.mp3"\r\nContent-Type: audio/mpeg\r\n\r\nID3fake\r\n',
          '------formboundary\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nPNGfake\r\n',
          '------formboundary--\r\n',
        ].join(''),
      });

      it('the victim session cookie alone, same-origin or cross-site, as JSON, text/plain or a multipart form: 401 on every route, nothing forwarded, the database untouched', async () => {
        const victim = suite.client();
        expect((await victim.login('root', '123456')).body.success).toBe(true);
        const cookie = victim.cookieHeader();
        expect(cookie).not.toBe('');
        received.splice(0);
        const before = await dumpDatabase(db());
        for (const [method, path, json] of routes) {
          const form = formBody();
          const variants: ReadonlyArray<readonly [string, Record<string, string>, string | undefined]> = [
            ['same-origin JSON', { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, json],
            ['cross-site text/plain form', { ...crossSite, 'content-type': 'text/plain' }, json],
            ['cross-site multipart form', { ...crossSite, 'content-type': form.type }, form.body],
            ['cross-site urlencoded form', { ...crossSite, 'content-type': 'application/x-www-form-urlencoded' }, 'model=whisper-1&input=forged'],
          ];
          for (const [what, headers, body] of variants) {
            const res = await fetch(`${suite.api.url}${path()}`, { method, headers: { ...headers, cookie }, body: method === 'GET' ? undefined : body });
            const text = await res.text();
            expect(res.status, `${method} ${path()} ${what}: ${text}`).toBe(401);
            expect(JSON.parse(text), `${path()} ${what}`).toMatchObject({ error: { message: expect.stringContaining('未提供令牌') } });
            // a credentialed cross-site read is never allowed (no reflected origin)
            expect(res.headers.get('access-control-allow-origin')).not.toBe('http://evil.example');
          }
        }
        expect(received).toEqual([]);
        expect(await dumpDatabase(db())).toBe(before);
        // the session itself is fine: the console still works with it
        expect((await victim.get('/api/user/self')).body.success).toBe(true);
      });

      it('the gateway credential never travels in a form field or the query: a token there is not a token', async () => {
        received.splice(0);
        const before = await ledger.snapshot(speechChannel);
        const form = formBody();
        const inForm = form.body.replace('------formboundary--', `------formboundary\r\nContent-Disposition: form-data; name="authorization"\r\n\r\nBearer sk-${token.key}\r\n------formboundary--`);
        const res = await fetch(`${suite.api.url}/v1/audio/transcriptions?key=sk-${token.key}&api_key=sk-${token.key}`, { method: 'POST', headers: { 'content-type': form.type, ...crossSite }, body: inForm });
        expect(res.status).toBe(401);
        const proxied = await fetch(`${suite.api.url}/v1/oneapi/proxy/${proxyChannel}/x?authorization=Bearer%20sk-${token.key}`, { headers: crossSite });
        expect(proxied.status).toBe(401);
        expect(received).toEqual([]);
        await ledger.expectUnchanged(before, speechChannel);
      });

      it('the proxy does not forward the caller’s cookies (the gateway session) to the upstream', async () => {
        received.splice(0);
        const res = await fetch(`${suite.api.url}/v1/oneapi/proxy/${proxyChannel}/v1/models`, { headers: { ...auth(), cookie: 'session=victim-session; other=1' } });
        expect(res.status).toBe(200);
        await res.text();
        expect(received).toHaveLength(1);
        expect(received[0]?.headers.cookie).toBeUndefined();
        expect(received[0]?.headers.authorization).toBe('up-proxy');
      });
    });

    describe('clients that never read', () => {
      it('proxy: the upstream is read only as fast as the client takes it; others are served; one exact charge; leaving closes the upstream', async () => {
        received.splice(0);
        const before = await ledger.snapshot(proxyChannel);
        const { res, req } = await stalled(suite.api.url, `/v1/oneapi/proxy/${proxyChannel}/endless`, auth());
        expect(res.statusCode).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const record = received[0]!;
        // socket buffers only: a few MB at most of the 64 MB the upstream would send
        expect(record.written).toBeLessThan(16 * 1024 * 1024);
        expect(await statusWorstMs(suite.api.url)).toBeLessThan(probeBoundMs);
        await ledger.expectCharged(before, proxyPrice, proxyChannel);
        req.destroy();
        await eventually(() => Promise.resolve(record.aborted), 'the upstream connection to close', 10_000);
        await ledger.expectCharged(before, proxyPrice, proxyChannel);
      });

      it('speech: the audio is read only as fast as the client takes it; others are served; leaving bills the input exactly once', async () => {
        received.splice(0);
        const before = await ledger.snapshot(speechChannel);
        const { res, req } = await stalled(suite.api.url, '/v1/audio/speech', { ...auth(), 'Content-Type': 'application/json' }, JSON.stringify({ model: 'tts-1', input: 'endless', voice: 'alloy' }));
        expect(res.statusCode).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const record = received[0]!;
        expect(record.written).toBeLessThan(16 * 1024 * 1024);
        expect(await statusWorstMs(suite.api.url)).toBeLessThan(probeBoundMs);
        req.destroy();
        await eventually(() => Promise.resolve(record.aborted), 'the upstream connection to close', 10_000);
        await ledger.expectCharged(before, speechQuota('endless'), speechChannel);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect((await consumeLogs(db(), userId)).length).toBe(before.logs + 1);
      });
    });

    describe('clients that leave mid-stream', () => {
      it('/v1/responses: billed the prompt and the deltas delivered, one log, the upstream closed', async () => {
        received.splice(0);
        const before = await ledger.snapshot(respOk);
        const input = 'leave mid-stream please';
        const controller = new AbortController();
        const res = await fetch(`${suite.api.url}/v1/responses`, {
          method: 'POST',
          headers: { ...auth(), 'Content-Type': 'application/json' },
          body: JSON.stringify({ model: respModel, input, stream: true, metadata: { fake: 'hang' } }),
          signal: controller.signal,
        });
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        let text = '';
        while (!text.includes(' there')) {
          const next = await reader.read();
          if (next.done) break;
          text += new TextDecoder().decode(next.value);
        }
        controller.abort();
        const record = received.find((r) => r.key === 'up-resp')!;
        await eventually(() => Promise.resolve(record.aborted), 'the upstream connection to close', 10_000);
        const quota = textQuota(mappedRespModel, countText(input, mappedRespModel), countText('Hello there', mappedRespModel));
        await ledger.expectCharged(before, quota, respOk);
        expect((await consumeLogs(db(), userId)).at(-1)).toMatchObject({ modelName: mappedRespModel, channelId: respOk, isStream: true, completionTokens: countText('Hello there', mappedRespModel) });
      });

      it('speech: billed the input exactly (the upstream produced the audio), one log, the upstream closed', async () => {
        received.splice(0);
        const before = await ledger.snapshot(speechChannel);
        const controller = new AbortController();
        const res = await fetch(`${suite.api.url}/v1/audio/speech`, {
          method: 'POST',
          headers: { ...auth(), 'Content-Type': 'application/json' },
          body: JSON.stringify({ model: 'tts-1', input: 'hang', voice: 'alloy' }),
          signal: controller.signal,
        });
        expect(res.status).toBe(200);
        await res.body!.getReader().read();
        controller.abort();
        const record = received[0]!;
        await eventually(() => Promise.resolve(record.aborted), 'the upstream connection to close', 10_000);
        await ledger.expectCharged(before, speechQuota('hang'), speechChannel);
      });
    });

    describe('an upstream breaking mid-audio', () => {
      it('speech: the client body fails (no clean end), billed the input exactly once as §4.5 prices speech, one log', async () => {
        received.splice(0);
        const before = await ledger.snapshot(speechChannel);
        const res = await fetch(`${suite.api.url}/v1/audio/speech`, {
          method: 'POST',
          headers: { ...auth(), 'Content-Type': 'application/json' },
          body: JSON.stringify({ model: 'tts-1', input: 'break', voice: 'alloy' }),
        });
        expect(res.status).toBe(200);
        await expect(res.arrayBuffer()).rejects.toThrow();
        await ledger.expectCharged(before, speechQuota('break'), speechChannel);
        expect((await consumeLogs(db(), userId)).at(-1)).toMatchObject({ modelName: 'tts-1', channelId: speechChannel, promptTokens: 5, quota: speechQuota('break') });
      });
    });

    describe('hostile multipart bodies', () => {
      it('100,000 parts: 413 at once, nothing reserved or forwarded, others served', async () => {
        received.splice(0);
        const before = await ledger.snapshot(speechChannel);
        const t = performance.now();
        const res = await fetch(`${suite.api.url}/v1/audio/transcriptions`, { method: 'POST', headers: { ...auth(), 'Content-Type': 'multipart/form-data; boundary=b' }, body: manyParts(100_000) });
        expect(res.status).toBe(413);
        expect(await res.text()).toContain('too many parts');
        // refused by counting boundaries, not by parsing 100,000 parts (that took seconds of event loop)
        expect(performance.now() - t).toBeLessThan(10_000);
        expect(await statusWorstMs(suite.api.url)).toBeLessThan(probeBoundMs);
        expect(received).toEqual([]);
        await ledger.expectUnchanged(before, speechChannel);
      });

      it('one field above the 32 MB body limit, sent chunked without a length: 413, the connection closed, nothing forwarded', async () => {
        received.splice(0);
        const before = await ledger.snapshot(speechChannel);
        const { hostname, port } = new URL(suite.api.url);
        const outcome = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpRequest({ hostname, port, method: 'POST', path: '/v1/audio/transcriptions', headers: { ...auth(), 'Content-Type': 'multipart/form-data; boundary=b', 'Transfer-Encoding': 'chunked' } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
          });
          req.on('error', (error) => reject(error));
          req.write('--b\r\nContent-Disposition: form-data; name="prompt"\r\n\r\n');
          const mb = Buffer.alloc(1024 * 1024, 0x61);
          let sent = 0;
          const more = (): void => {
            while (sent < 40 && !req.destroyed) {
              sent += 1;
              if (!req.write(mb)) {
                req.once('drain', more);
                return;
              }
            }
            if (!req.destroyed) req.end('\r\n--b--\r\n');
          };
          more();
        }).catch((error: unknown) => ({ status: -1, body: String(error) }));
        // either the 413 arrived, or the server closed the connection on the rest of the upload
        if (outcome.status !== -1) {
          expect(outcome.status).toBe(413);
        }
        expect(received).toEqual([]);
        await ledger.expectUnchanged(before, speechChannel);
      });

      it('a slow sender (one byte every 50 ms) holds only its own connection: others are served meanwhile', async () => {
        const { hostname, port } = new URL(suite.api.url);
        const req = httpRequest({ hostname, port, method: 'POST', path: '/v1/audio/transcriptions', headers: { ...auth(), 'Content-Type': 'multipart/form-data; boundary=b', 'Transfer-Encoding': 'chunked' } });
        req.on('error', () => undefined);
        req.flushHeaders();
        const body = '--b\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nslow';
        try {
          for (const char of body.slice(0, 20)) {
            req.write(char);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          expect(await statusWorstMs(suite.api.url)).toBeLessThan(probeBoundMs);
          const ok = await fetch(`${suite.api.url}/v1/oneapi/proxy/${proxyChannel}/v1/models`, { headers: auth() });
          expect(ok.status).toBe(200);
          await ok.text();
        } finally {
          req.destroy();
        }
      });
    });

    describe('the proxy target stays under the base URL (more spellings)', () => {
      it.each(['/%2e%2e/%2e%2e/secret', '/.%2e/secret', '/%2E%2E%5C%2E%2E%5Csecret', '/..%5c..%5csecret', '/a/%2e%2e%2f%2e%2e%2fsecret', '//evil.example/x', '/\\evil.example/x', '/%2f%2fevil.example/x', '/;/../secret', '/%252e%252e%252fsecret'])(
        '%s: the upstream sees only paths under /base',
        async (path) => {
          received.splice(0);
          const { hostname, port } = new URL(suite.api.url);
          await new Promise<void>((resolve) => {
            const req = httpRequest({ hostname, port, method: 'GET', path: `/v1/oneapi/proxy/${proxyChannel}${path}`, headers: auth() }, (res) => {
              res.resume();
              res.on('end', () => resolve());
            });
            req.on('error', () => resolve());
            req.end();
          });
          for (const r of received) expect(r.path.startsWith('/base/') || r.path === '/base', r.path).toBe(true);
          for (const r of received) expect(decodeURIComponent(r.path).replaceAll('\\', '/').split('/')).not.toContain('..');
        },
      );
    });

    it('proxiedUrl refuses a `..` segment hidden by percent-encoding (an upstream behind a decoding proxy would resolve it)', () => {
      for (const target of ['/a/..%2fsecret', '/..%5csecret', '/%2e%2e%5csecret', '/%252e%252e%252fsecret']) expect(proxiedUrl('http://up.example/base', target), target).toBeNull();
      for (const target of ['/a..b/c', '/v1/files/x..y', '/%2e/x', '/a%2fb', '/a/.%2E/b']) expect(proxiedUrl('http://up.example/base', target)?.pathname.startsWith('/base/'), target).toBe(true);
    });

    describe('/v1/responses across channels', () => {
      it('the first channel answers 500, the second answers: billed once, on the second, with its mapped model in the body and the log', async () => {
        received.splice(0);
        const failBefore = await ledger.snapshot(respFail);
        const before = await ledger.snapshot(respOk);
        const input = 'retry me';
        const res = await fetch(`${suite.api.url}/v1/responses`, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: JSON.stringify({ model: respModel, input }) });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { usage: unknown }).usage).toEqual(responsesUsage);
        expect(received.map((r) => [r.key, r.json?.model])).toEqual([
          ['up-resp-fail', respModel],
          ['up-resp', mappedRespModel],
        ]);
        const quota = textQuota(mappedRespModel, responsesUsage.input_tokens, responsesUsage.output_tokens);
        await ledger.expectCharged(before, quota, respOk);
        expect((await ledger.snapshot(respFail)).channelUsed).toBe(failBefore.channelUsed);
        // the log names the model billed, as the chat relay's does (the channel's mapped model)
        expect((await consumeLogs(db(), userId)).at(-1)).toMatchObject({ modelName: mappedRespModel, channelId: respOk, promptTokens: 20, completionTokens: 10, quota, isStream: false });
      });

      it('max_output_tokens sets the reservation: a token with one quota less than it holds is refused, a smaller bound passes', async () => {
        const input = 'hold the reservation';
        const prompt = countText(input, mappedRespModel);
        const ratio = testModelRatio[mappedRespModel]!;
        // pricing.ts reservationRange with a bound: the pre-consumed estimate or the price up to the bound, whichever is more (completion ratio 3)
        const held = (bound: number): number => Math.max(Math.floor((500 + prompt + bound) * ratio), Math.ceil((prompt + bound * 3) * ratio));
        const small = await createRelayToken(db(), { userId, name: 'bounded-token', remainQuota: held(1000) - 1 });
        const ask = async (bound: number): Promise<Response> =>
          fetch(`${suite.api.url}/v1/responses`, {
            method: 'POST',
            headers: { Authorization: `Bearer sk-${small.key}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ model: respModel, input, max_output_tokens: bound }),
          });
        received.splice(0);
        const refused = await ask(1000);
        const refusal = await refused.text();
        expect(refused.status, refusal).toBe(403);
        expect(refusal).toContain('token');
        const passed = await ask(900);
        expect(passed.status, await passed.text()).toBe(200);
        expect(received.filter((r) => r.key === 'up-resp').map((r) => r.json?.max_output_tokens)).toEqual([900]);
      });
    });
  });
}
