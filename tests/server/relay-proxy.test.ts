import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { proxiedUrl } from '../../server/relay/proxy';
import { consumeLogs, createRelayChannel, createRelayToken, createRelayUser, eventually, ledgerOf, setRelayOptions, type RelayToken } from './support/relayFixtures';
import { createGate, type Gate } from './support/relayUpstream';
import { startLoopbackServer, type LoopbackServer } from './support/loopbackServer';
import { setupSuite } from './support/suite';
import { dbTargets } from './support/targets';

/**
 * The transparent proxy `/v1/oneapi/proxy/:channelid/*` (contract §4.5 "Proxy", fix of §6 #23)
 * against a real server and a loopback upstream that records what it gets: who may proxy to which
 * channel, the fixed price and its consume log, the target confined to the channel's base URL,
 * answers streamed through as they arrive, and a client that leaves stopping the upstream.
 */

/** What the loopback upstream received. */
interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** True once the connection closed before the answer was complete. */
  aborted: boolean;
}

/** The ModelRatio of the proxy's pseudo-model in these tests: each call costs 2.5 × 1000. */
const proxyRatio = 2.5;
const proxyPrice = 2500;

/** A raw HTTP exchange (node:http sends the path as written: no dot-segment normalisation). */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay proxy /v1/oneapi/proxy — ${target.label}`, () => {
    const suite = setupSuite(target);
    const db = () => suite.api.handle.db;
    let upstream: LoopbackServer;
    const received: Received[] = [];
    let gate: Gate = createGate();
    let userId: number;
    let token: RelayToken;
    let restricted: RelayToken;
    let adminToken: RelayToken;
    let proxyChannel: number;
    let vipChannel: number;
    let disabledChannel: number;
    let chatChannel: number;

    beforeAll(async () => {
      upstream = await startLoopbackServer(async (req: IncomingMessage, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const record: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), aborted: false };
        received.push(record);
        res.on('close', () => {
          if (!res.writableFinished) record.aborted = true;
        });
        const path = new URL(record.url, 'http://x').pathname;
        if (path.endsWith('/fail')) {
          res.writeHead(503, { 'Content-Type': 'application/json' });
          res.end('{"error":"overloaded"}');
          return;
        }
        if (path.endsWith('/stream')) {
          res.writeHead(200, { 'Content-Type': 'text/event-stream', 'X-Upstream': 'streaming' });
          res.write('data: one\n\n');
          const current = gate as Gate & { readonly opened: Promise<void>; readonly reach: () => void };
          current.reach();
          await Promise.race([current.opened, new Promise((resolve) => res.once('close', resolve))]);
          if (res.destroyed) return;
          res.end('data: two\n\n');
          return;
        }
        res.writeHead(201, { 'Content-Type': 'application/json', 'X-Upstream': 'yes', 'Set-Cookie': ['a=1', 'b=2'] });
        res.end(JSON.stringify({ method: record.method, url: record.url, body: record.body }));
      });
      await setRelayOptions(db(), { ModelRatio: JSON.stringify({ 'oneapi-proxy': proxyRatio, 'gpt-3.5-turbo': 1.5 }) });
      userId = await createRelayUser(db(), { username: 'proxyuser', quota: 100_000 });
      token = await createRelayToken(db(), { userId, name: 'proxy-token', remainQuota: 50_000 });
      restricted = await createRelayToken(db(), { userId, name: 'chat-only', remainQuota: 50_000, models: 'gpt-3.5-turbo' });
      const adminId = await createRelayUser(db(), { username: 'proxyadmin', quota: 100_000, role: 10 });
      adminToken = await createRelayToken(db(), { userId: adminId, name: 'admin-token', remainQuota: 50_000 });
      proxyChannel = await createRelayChannel(db(), { key: 'Bearer up-proxy-key', baseUrl: `${upstream.url}/base`, models: '', type: 43, group: 'default,vip' });
      vipChannel = await createRelayChannel(db(), { key: 'up-vip', baseUrl: `${upstream.url}/base`, models: '', type: 43, group: 'vip' });
      disabledChannel = await createRelayChannel(db(), { key: 'up-off', baseUrl: `${upstream.url}/base`, models: '', type: 43, status: 2 });
      chatChannel = await createRelayChannel(db(), { key: 'up-chat', baseUrl: `${upstream.url}/base`, models: 'gpt-3.5-turbo', type: 8 });
    });
    afterAll(async () => {
      gate.release();
      await upstream.close();
    });
    beforeEach(() => {
      received.splice(0);
      gate.release();
      gate = createGate();
    });

    const ledger = ledgerOf(db, () => ({ userId, tokenId: token.id }));
    const auth = (t: RelayToken = token): Record<string, string> => ({ Authorization: `Bearer sk-${t.key}` });

    /** A refused request: what, its headers, its channel id, the status and a part of the message. */
    type Refusal = readonly [string, () => Record<string, string>, () => number | string, number, string];

    describe('who may proxy where', () => {
      const refusals: readonly Refusal[] = [
        ['no token', () => ({}), () => proxyChannel, 401, '未提供令牌'],
        ['a channel of another group', () => auth(), () => vipChannel, 403, 'does not serve group default'],
        ['a channel that is not of type 43', () => auth(), () => chatChannel, 400, 'not a Proxy channel (type 43)'],
        ['a disabled channel', () => auth(), () => disabledChannel, 403, '该渠道已被禁用'],
        ['a channel that does not exist', () => auth(), () => 999_999, 400, '无效的渠道 Id'],
        ['a channel id that is not a number', () => auth(), () => 'x1', 400, '无效的渠道 Id'],
        ['a token restricted to other models', () => auth(restricted), () => proxyChannel, 403, '该令牌无权使用模型：oneapi-proxy'],
      ];
      it.each(refusals)('refuses %s, forwards nothing and charges nothing', async (_what, headers, channel, status, message) => {
        const before = await ledger.snapshot(proxyChannel);
        const res = await raw(suite.api.url, 'POST', `/v1/oneapi/proxy/${channel()}/v1/things`, { ...headers(), 'Content-Type': 'application/json' }, '{}');
        expect(res.status).toBe(status);
        const error = (JSON.parse(res.body) as { error: { message: string } }).error;
        expect(error.message).toContain(message);
        expect(received).toEqual([]);
        await ledger.expectUnchanged(before, proxyChannel);
      });

      it('an admin may proxy to a Proxy channel of any group (as pinning a channel lets admins)', async () => {
        const res = await raw(suite.api.url, 'GET', `/v1/oneapi/proxy/${vipChannel}/v1/models`, auth(adminToken));
        expect(res.status).toBe(201);
        expect(received.map((r) => [r.url, r.headers.authorization])).toEqual([['/base/v1/models', 'up-vip']]);
      });
    });

    describe('forwarding and billing', () => {
      it('forwards method, headers (the channel key verbatim) and body; answers unchanged; one fixed charge and one log', async () => {
        const before = await ledger.snapshot(proxyChannel);
        const body = JSON.stringify({ hello: 'proxy', n: [1, 2, 3] });
        const res = await raw(
          suite.api.url,
          'PUT',
          `/v1/oneapi/proxy/${proxyChannel}/v1/things/42?q=1&secret=s`,
          { ...auth(), 'Content-Type': 'application/json', 'X-Custom': 'kept', 'Accept-Encoding': 'gzip', Host: 'spoofed.example' },
          body,
        );
        expect(res.status).toBe(201);
        expect(res.headers['x-upstream']).toBe('yes');
        expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
        expect(JSON.parse(res.body)).toEqual({ method: 'PUT', url: '/base/v1/things/42?q=1&secret=s', body });

        expect(received).toHaveLength(1);
        const sent = received[0]!;
        expect(sent.headers.authorization).toBe('Bearer up-proxy-key');
        expect(sent.headers['x-custom']).toBe('kept');
        expect(sent.headers['content-type']).toBe('application/json');
        expect(sent.headers['accept-encoding']).toBeUndefined();
        expect(sent.headers.host).toBe(new URL(upstream.url).host);
        expect(JSON.stringify(sent.headers)).not.toContain(token.key);

        await ledger.expectCharged(before, proxyPrice, proxyChannel);
        expect((await consumeLogs(db(), userId)).at(-1)).toEqual({
          userId,
          username: 'proxyuser',
          tokenName: 'proxy-token',
          modelName: 'oneapi-proxy',
          channelId: proxyChannel,
          promptTokens: 0,
          completionTokens: 0,
          quota: proxyPrice,
          content: 'proxy PUT /v1/things/42；倍率：2.50 × 1.00',
          isStream: false,
        });
      });

      it('an upstream 5xx is passed through and refunded; an unreachable upstream is a 502, refunded', async () => {
        const before = await ledger.snapshot(proxyChannel);
        const res = await raw(suite.api.url, 'GET', `/v1/oneapi/proxy/${proxyChannel}/fail`, auth());
        expect([res.status, res.body]).toEqual([503, '{"error":"overloaded"}']);
        await ledger.expectUnchanged(before, proxyChannel);

        const dead = await createRelayChannel(db(), { key: 'up-dead', baseUrl: 'http://127.0.0.1:9', models: '', type: 43 });
        const gone = await raw(suite.api.url, 'GET', `/v1/oneapi/proxy/${dead}/x`, auth());
        expect(gone.status).toBe(502);
        expect((JSON.parse(gone.body) as { error: { code: string } }).error.code).toBe('do_request_failed');
        await ledger.expectUnchanged(before, proxyChannel);
      });

      it('a body above the relay limit is refused before anything is forwarded', async () => {
        const before = await ledger.snapshot(proxyChannel);
        const res = await raw(suite.api.url, 'POST', `/v1/oneapi/proxy/${proxyChannel}/upload`, { ...auth(), 'Content-Length': String(64 * 1024 * 1024) });
        expect(res.status).toBe(413);
        expect(received).toEqual([]);
        await ledger.expectUnchanged(before, proxyChannel);
      });
    });

    describe('the target stays under the base URL', () => {
      it.each([
        '/../../../secret',
        '/%2e%2e/%2e%2e/secret',
        '/a/..%2f..%2f..%2fsecret',
        '//evil.example/x',
        '/\\\\evil.example/x',
        '/@evil.example/x',
        '/http://evil.example/x',
      ])('%s never reaches a path outside /base', async (path) => {
        await raw(suite.api.url, 'GET', `/v1/oneapi/proxy/${proxyChannel}${path}`, auth());
        for (const r of received) expect(r.url.startsWith('/base/') || r.url === '/base').toBe(true);
      });

      it('proxiedUrl appends the target as text and refuses any URL outside the base', () => {
        expect(proxiedUrl('http://up.example/base/', '/v1/x?y=1')?.href).toBe('http://up.example/base/v1/x?y=1');
        expect(proxiedUrl('http://up.example/base', '//evil.example/x')?.host).toBe('up.example');
        expect(proxiedUrl('http://up.example/base', '/../secret')).toBeNull();
        expect(proxiedUrl('http://up.example/base', '/%2e%2e/secret')).toBeNull();
        expect(proxiedUrl('http://up.example', '@evil.example/x')?.host).toBe('up.example');
        expect(proxiedUrl('http://up.example/base', '/..\\secret')).toBeNull();
        expect(proxiedUrl('ftp://up.example', '/x')).toBeNull();
        expect(proxiedUrl('', '/x')).toBeNull();
      });
    });

    describe('streaming', () => {
      it('passes the answer through as it arrives (the first event before the upstream sends the rest)', async () => {
        const before = await ledger.snapshot(proxyChannel);
        const res = await fetch(`${suite.api.url}/v1/oneapi/proxy/${proxyChannel}/stream`, { headers: auth() });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/event-stream');
        expect(res.headers.get('x-upstream')).toBe('streaming');
        const reader = res.body!.getReader();
        const first = await reader.read();
        expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
        expect(gate.released).toBe(false);
        gate.release();
        let rest = '';
        for (;;) {
          const next = await reader.read();
          if (next.done) break;
          rest += new TextDecoder().decode(next.value);
        }
        expect(rest).toBe('data: two\n\n');
        await ledger.expectCharged(before, proxyPrice, proxyChannel);
        expect((await consumeLogs(db(), userId)).at(-1)).toMatchObject({ isStream: true, content: 'proxy GET /stream；倍率：2.50 × 1.00' });
      });

      it('a client that leaves mid-stream closes the upstream connection', async () => {
        const controller = new AbortController();
        const res = await fetch(`${suite.api.url}/v1/oneapi/proxy/${proxyChannel}/stream`, { headers: auth(), signal: controller.signal });
        const reader = res.body!.getReader();
        await reader.read();
        controller.abort();
        await eventually(() => Promise.resolve(received[0]?.aborted === true), 'the upstream connection to close');
      });
    });
  });
}
