import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/connect';
import { createServerApp } from '../../server/http/server';
import { modelCatalogue } from '../../server/services/channel';
import { dumpDatabase, insertToken as insertTokenRow, insertUser, setOption } from './support/db';
import type { Reply } from './support/http';
import { testConfig } from './support/server';
import { setupSuite } from './support/suite';
import { createSqlite, dbTargets } from './support/targets';
import { settlementsDone } from '../../server/relay/billing';

/**
 * Relay token authentication (contract §4.2) and the /v1 application around it (§4.1, §4.12):
 * every auth step with its status and exact message (request id suffix included) and nothing
 * written except the documented status updates and `accessed_time`; subnets, model restriction
 * and model defaults, pinned channels, /v1/models, billing, 501 routes and CORS. The relay
 * pipeline behind the auth step is not asserted here: a request that passes auth may reach the
 * pipeline (or its placeholder), so those tests assert only that no auth refusal came back.
 */

const clockMs = 1_750_000_000_000;
const nowSeconds = clockMs / 1000;

/** The relay error body for `message` with this reply's request id. */
const withRequestId = (reply: Reply, message: string): string => `${message} (request id: ${reply.headers.get('x-oneapi-request-id') ?? '?'})`;

/** Auth refusals: the statuses and messages a request that passed auth can never get. */
const authMessages = [
  '未提供令牌', '无效的令牌', '令牌验证失败', '该令牌已过期', '该令牌状态不可用', '该令牌额度已用尽', '用户已被封禁',
  '普通用户不支持指定渠道', '无效的渠道 Id', 'common.UnmarshalBodyReusable failed', '该令牌无权使用模型', '该令牌只能在指定网段使用',
];

/** Whether `reply` is an auth refusal (any of the step messages). */
const isAuthRefusal = (reply: Reply): boolean => {
  const message: unknown = reply.body?.error?.message;
  return typeof message === 'string' && authMessages.some((m) => message.startsWith(m) || /^令牌 .*额度已用尽/.test(message));
};

const notImplementedBody = { error: { message: 'API not implemented', type: 'one_api_error', param: '', code: 'api_not_implemented' } };

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`relay token auth and /v1 routes — ${target.label}`, () => {
    const suite = setupSuite(target, { now: () => clockMs });
    const db = () => suite.api.handle.db;
    const ids = { alice: 0, admin: 0, banned: 0, enabledChannel: 0, disabledChannel: 0 };

    /** Inserts a token for `userId` with a fresh 48-character key; returns id and key. */
    const insertToken = (userId: number, values: Record<string, unknown> = {}) => insertTokenRow(db(), userId, { remain_quota: 1000, ...values });

    /** Sends a request with `Authorization: <auth>` (none when null). */
    const send = (method: string, path: string, auth: string | null, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) =>
      suite.client().request(method, path, { ...options, headers: { ...(auth === null ? {} : { Authorization: auth }), ...options.headers } });

    /** A chat request for `model`. */
    const chat = (auth: string | null, model = 'gpt-4o', headers?: Record<string, string>) =>
      send('POST', '/v1/chat/completions', auth, { body: { model, messages: [{ role: 'user', content: 'hi' }] }, headers });

    /** Asserts a relay error: status, exact message with the request id suffix, one_api_error, no param/code. */
    const expectRelayError = (reply: Reply, status: number, message: string) => {
      expect(reply.status, reply.text).toBe(status);
      expect(reply.body).toEqual({ error: { message: withRequestId(reply, message), type: 'one_api_error' } });
      expect(reply.headers.get('x-oneapi-request-id')).toMatch(/^\d{20,}$/);
    };

    /** The token row, once answered requests are billed. */
    const tokenRow = async (id: number) => {
      await settlementsDone(db());
      return db().selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    };

    beforeAll(async () => {
      ids.alice = await insertUser(db(), { username: 'alice' });
      ids.admin = await insertUser(db(), { username: 'boss', role: 10 });
      ids.banned = await insertUser(db(), { username: 'banned', status: 2 });
      await db().updateTable('users').set({ quota: 1000, used_quota: 200 }).where('id', '=', ids.alice).execute();
      const channel = async (status: number) =>
        (
          await db()
            .insertInto('channels')
            .values({ type: 8, key: 'sk-upstream', status, name: `ch${status}`, base_url: 'http://127.0.0.1:9', models: 'gpt-4o', group: 'default', created_time: 1 })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      ids.enabledChannel = await channel(1);
      ids.disabledChannel = await channel(2);
      await db()
        .insertInto('abilities')
        .values([
          { group: 'default', model: 'gpt-4o', channel_id: ids.enabledChannel, enabled: true, priority: 0 },
          { group: 'default', model: 'my-private-model', channel_id: ids.enabledChannel, enabled: true, priority: 0 },
          { group: 'default', model: 'gpt-3.5-turbo', channel_id: ids.enabledChannel, enabled: true, priority: 0 },
          { group: 'default', model: 'gpt-4', channel_id: ids.disabledChannel, enabled: false, priority: 0 },
          { group: 'vip', model: 'claude-3-opus-20240229', channel_id: ids.enabledChannel, enabled: true, priority: 0 },
        ])
        .execute();
    });

    describe('steps 1–3: the credential', () => {
      it('step 2: no key → 401 未提供令牌, with the request id of the X-Oneapi-Request-Id header', async () => {
        // (fetch trims header values, so a bare `Bearer ` arrives as `Bearer`: a key, hence not tried here.)
        for (const auth of [null, '', 'Bearer sk-', 'sk-', 'sk--5', 'Bearer -3']) {
          const reply = await chat(auth);
          expectRelayError(reply, 401, '未提供令牌');
        }
      });

      it('step 3: unknown key → 401 无效的令牌 (also over-long keys and a key without its prefix stripping)', async () => {
        const { key } = await insertToken(ids.alice);
        for (const auth of ['Bearer sk-nope', `Bearer sk-${key}x`, `Bearer sk-${'a'.repeat(5000)}`, `bearer sk-${key}`, `Bearer  sk-${key}`]) {
          expectRelayError(await chat(auth), 401, '无效的令牌');
        }
      });

      it('step 1: "Bearer " and "sk-" are both optional', async () => {
        const { key } = await insertToken(ids.alice);
        for (const auth of [`Bearer sk-${key}`, `Bearer ${key}`, `sk-${key}`, key]) {
          const reply = await send('GET', '/v1/models', auth);
          expect(reply.status, `${auth}: ${reply.text}`).toBe(200);
          expect(reply.body.object).toBe('list');
        }
      });
    });

    describe('steps 4–8: the token state', () => {
      it('step 4: stored status 4 → 401 令牌 <name>（#<id>）额度已用尽, nothing written', async () => {
        const { id, key } = await insertToken(ids.alice, { status: 4, name: '我的令牌' });
        const before = await dumpDatabase(db());
        expectRelayError(await chat(`Bearer sk-${key}`), 401, `令牌 我的令牌（#${id}）额度已用尽`);
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('step 5: stored status 3 → 401 该令牌已过期; step 6: status 2 (or anything else) → 401 该令牌状态不可用', async () => {
        const expired = await insertToken(ids.alice, { status: 3 });
        const disabled = await insertToken(ids.alice, { status: 2 });
        const odd = await insertToken(ids.alice, { status: 7 });
        const before = await dumpDatabase(db());
        expectRelayError(await chat(`Bearer sk-${expired.key}`), 401, '该令牌已过期');
        expectRelayError(await chat(`Bearer sk-${disabled.key}`), 401, '该令牌状态不可用');
        expectRelayError(await chat(`Bearer sk-${odd.key}`), 401, '该令牌状态不可用');
        expect(await dumpDatabase(db())).toBe(before);
      });

      it('step 7: expired_time in the past → 401 该令牌已过期 and status set to 3; expiring this very second still passes', async () => {
        const past = await insertToken(ids.alice, { expired_time: nowSeconds - 1 });
        const edge = await insertToken(ids.alice, { expired_time: nowSeconds });
        expectRelayError(await chat(`Bearer sk-${past.key}`), 401, '该令牌已过期');
        expect(await tokenRow(past.id)).toMatchObject({ status: 3, accessed_time: 100, remain_quota: 1000, used_quota: 0 });
        // The next attempt now fails at step 5, with the same message.
        expectRelayError(await chat(`Bearer sk-${past.key}`), 401, '该令牌已过期');
        expect(isAuthRefusal(await chat(`Bearer sk-${edge.key}`))).toBe(false);
        expect((await tokenRow(edge.id)).status).toBe(1);
      });

      it('step 8: no quota left on a limited token → 401 该令牌额度已用尽 and status set to 4; unlimited tokens pass', async () => {
        const empty = await insertToken(ids.alice, { remain_quota: 0, name: 'empty' });
        const negative = await insertToken(ids.alice, { remain_quota: -5 });
        const unlimited = await insertToken(ids.alice, { remain_quota: 0, unlimited_quota: true });
        expectRelayError(await chat(`Bearer sk-${empty.key}`), 401, '该令牌额度已用尽');
        expectRelayError(await chat(`Bearer sk-${negative.key}`), 401, '该令牌额度已用尽');
        expect(await tokenRow(empty.id)).toMatchObject({ status: 4, remain_quota: 0, accessed_time: 100 });
        expect((await tokenRow(negative.id)).status).toBe(4);
        // Now refused at step 4, by name.
        expectRelayError(await chat(`Bearer sk-${empty.key}`), 401, `令牌 empty（#${empty.id}）额度已用尽`);
        expect(isAuthRefusal(await chat(`Bearer sk-${unlimited.key}`))).toBe(false);
      });

      it('steps run in order: an expired token with a foreign subnet and a banned owner is refused as expired', async () => {
        const { key } = await insertToken(ids.banned, { expired_time: nowSeconds - 10, subnet: '10.0.0.0/8', models: 'other' });
        expectRelayError(await chat(`Bearer sk-${key}`, 'gpt-4o', { 'X-Forwarded-For': '192.168.1.1' }), 401, '该令牌已过期');
      });
    });

    describe('step 9: subnets', () => {
      it('admits client IPs inside one of the CIDRs (X-Forwarded-For), IPv4 and IPv6', async () => {
        const { key } = await insertToken(ids.alice, { subnet: '192.168.0.0/16, 10.0.0.0/8,2001:db8::/32' });
        for (const ip of ['10.1.2.3', '192.168.255.1', '2001:db8::1', '2001:db8:ffff::abcd']) {
          const reply = await send('GET', '/v1/models', `Bearer sk-${key}`, { headers: { 'X-Forwarded-For': ip } });
          expect(reply.status, `${ip}: ${reply.text}`).toBe(200);
        }
      });

      it('refuses others with 403 该令牌只能在指定网段使用：<subnet>，当前 ip：<ip>', async () => {
        const subnet = '192.168.0.0/16, 10.0.0.0/8,2001:db8::/32';
        const { key } = await insertToken(ids.alice, { subnet });
        for (const ip of ['11.0.0.1', '192.169.0.1', '2001:db9::1', '::1']) {
          const reply = await chat(`Bearer sk-${key}`, 'gpt-4o', { 'X-Forwarded-For': ip });
          expectRelayError(reply, 403, `该令牌只能在指定网段使用：${subnet}，当前 ip：${ip}`);
        }
      });

      it('uses the socket address without forwarding headers, and the leftmost forwarded address with several', async () => {
        const loopback = await insertToken(ids.alice, { subnet: '127.0.0.0/8' });
        expect((await send('GET', '/v1/models', `Bearer sk-${loopback.key}`)).status).toBe(200);
        const reply = await chat(`Bearer sk-${loopback.key}`, 'gpt-4o', { 'X-Forwarded-For': '8.8.8.8, 127.0.0.1' });
        expectRelayError(reply, 403, '该令牌只能在指定网段使用：127.0.0.0/8，当前 ip：8.8.8.8');
        expect((await send('GET', '/v1/models', `Bearer sk-${loopback.key}`, { headers: { 'X-Real-IP': '127.0.0.9' } })).status).toBe(200);
      });

      it('believes forwarding headers only from TRUSTED_PROXIES: a client that names its own address gets its real one checked', async () => {
        const { key } = await insertToken(ids.alice, { subnet: '10.0.0.0/8' });
        // By default the loopback peer is a trusted proxy (a reverse proxy on the same host).
        const trusted = await send('GET', '/v1/models', `Bearer sk-${key}`, { headers: { 'X-Forwarded-For': '10.1.2.3' } });
        expect(trusted.status, trusted.text).toBe(200);
        await suite.restart({ now: () => clockMs, env: { TRUSTED_PROXIES: '192.0.2.1' } });
        try {
          for (const headers of [{ 'X-Forwarded-For': '10.1.2.3' }, { 'X-Real-IP': '10.1.2.3' }] as Record<string, string>[]) {
            expectRelayError(await chat(`Bearer sk-${key}`, 'gpt-4o', headers), 403, '该令牌只能在指定网段使用：10.0.0.0/8，当前 ip：127.0.0.1');
          }
        } finally {
          await suite.restart({ now: () => clockMs });
        }
      });

      it('an invalid CIDR entry matches nothing', async () => {
        const { key } = await insertToken(ids.alice, { subnet: 'garbage' });
        expectRelayError(await chat(`Bearer sk-${key}`), 403, '该令牌只能在指定网段使用：garbage，当前 ip：127.0.0.1');
      });
    });

    describe('step 10: the owner', () => {
      it('a banned owner → 403 用户已被封禁; a missing owner too; nothing written', async () => {
        const banned = await insertToken(ids.banned);
        const orphan = await insertToken(987654);
        const before = await dumpDatabase(db());
        expectRelayError(await chat(`Bearer sk-${banned.key}`), 403, '用户已被封禁');
        expectRelayError(await send('GET', '/v1/models', `Bearer sk-${banned.key}`), 403, '用户已被封禁');
        expectRelayError(await chat(`Bearer sk-${orphan.key}`), 403, '用户已被封禁');
        expect(await dumpDatabase(db())).toBe(before);
      });
    });

    describe('step 11: the body', () => {
      const unmarshal = (detail: string) => `common.UnmarshalBodyReusable failed: ${detail}`;

      it('chat, completions and images refuse an unparsable body with 400', async () => {
        const { key } = await insertToken(ids.alice);
        const auth = `Bearer sk-${key}`;
        for (const path of ['/v1/chat/completions', '/v1/completions', '/v1/images/generations']) {
          expectRelayError(await send('POST', path, auth, { rawBody: '' }), 400, unmarshal('unexpected end of JSON input'));
          const bad = await send('POST', path, auth, { rawBody: '{"model":' });
          expect(bad.status).toBe(400);
          expect(bad.body.error.message).toMatch(/^common\.UnmarshalBodyReusable failed: .+ \(request id: \d+\)$/);
          expectRelayError(await send('POST', path, auth, { body: [1] }), 400, unmarshal('json: cannot unmarshal array into Go value of type ModelRequest'));
          expectRelayError(
            await send('POST', path, auth, { body: { model: 5 } }),
            400,
            unmarshal('json: cannot unmarshal number into Go struct field ModelRequest.model of type string'),
          );
        }
      });

      it('embeddings and moderations pass an unparsable body on (no model)', async () => {
        const { key } = await insertToken(ids.alice, { models: 'gpt-4o' });
        for (const path of ['/v1/embeddings', '/v1/moderations']) {
          const reply = await send('POST', path, `Bearer sk-${key}`, { rawBody: 'not json' });
          expect(isAuthRefusal(reply), reply.text).toBe(false);
        }
      });

      it('model defaults: moderations text-moderation-stable, embeddings the path model, images dall-e-2 (seen through the model restriction)', async () => {
        const { key } = await insertToken(ids.alice, { models: 'only-this' });
        const auth = `Bearer sk-${key}`;
        const denied = (model: string) => `该令牌无权使用模型：${model}`;
        expectRelayError(await send('POST', '/v1/moderations', auth, { body: { input: 'x' } }), 403, denied('text-moderation-stable'));
        expectRelayError(await send('POST', '/v1/images/generations', auth, { body: { prompt: 'x' } }), 403, denied('dall-e-2'));
        expectRelayError(await send('POST', '/v1/engines/text-embedding-3-small/embeddings', auth, { body: { input: 'x' } }), 403, denied('text-embedding-3-small'));
        expectRelayError(await send('POST', '/v1/engines/ignored/embeddings', auth, { body: { input: 'x', model: 'from-body' } }), 403, denied('from-body'));
        // No default for chat: a body without model passes the restriction (the pipeline decides).
        expect(isAuthRefusal(await send('POST', '/v1/chat/completions', auth, { body: { messages: [] } }))).toBe(false);
      });

      it('a gzip body is decoded; invalid gzip → 400; a body over 32 MB after decoding → 413', async () => {
        const { key } = await insertToken(ids.alice, { models: 'gpt-4o' });
        const auth = `Bearer sk-${key}`;
        const post = (body: Buffer) =>
          fetch(`${suite.api.url}/v1/chat/completions`, {
            method: 'POST',
            headers: { Authorization: auth, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
            body: new Uint8Array(body),
          }).then(async (r) => ({ status: r.status, headers: r.headers, text: await r.text() }));
        const ok = await post(gzipSync(JSON.stringify({ model: 'zipped-model', messages: [] })));
        expect(ok.status).toBe(403);
        expect(JSON.parse(ok.text).error.message).toBe(`该令牌无权使用模型：zipped-model (request id: ${ok.headers.get('x-oneapi-request-id')})`);
        const broken = await post(Buffer.from('definitely not gzip'));
        expect(broken.status).toBe(400);
        expect(JSON.parse(broken.text).error.message).toMatch(/^invalid gzip request body: /);
        const bomb = await post(gzipSync(Buffer.alloc(33 * 1024 * 1024, 0x20)));
        expect(bomb.status).toBe(413);
        expect(JSON.parse(bomb.text).error).toMatchObject({ message: expect.stringMatching(/^request body too large \(limit 32 MB\) \(request id: \d+\)$/), type: 'one_api_error' });
      });

      /** Sends `head` then `chunk` repeatedly (up to `maxChunks`) over a raw socket until the server answers; returns the answer. */
      const rawPost = (head: string, chunk: string, maxChunks: number) =>
        new Promise<string>((resolve, reject) => {
          let data = '';
          const socket = connect(Number(new URL(suite.api.url).port), '127.0.0.1', () => {
            socket.write(head);
            let sent = 0;
            const pump = () => {
              while (data === '' && sent < maxChunks && !socket.destroyed) {
                sent += 1;
                if (!socket.write(chunk)) return void socket.once('drain', pump);
              }
            };
            pump();
          });
          socket.on('data', (part: Buffer) => {
            data += part.toString();
            if (data.includes('request body too large')) {
              socket.destroy();
              resolve(data);
            }
          });
          socket.on('error', (error) => (data === '' ? reject(error) : resolve(data)));
          socket.on('close', () => resolve(data));
          socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
        });

      it('a declared Content-Length over 32 MB → 413 at once, without reading the body', async () => {
        const { key } = await insertToken(ids.alice);
        const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk-${key}\r\nContent-Type: application/json\r\nContent-Length: ${40 * 1024 * 1024}\r\n\r\n`;
        const answer = await rawPost(head, '{"model":', 1);
        expect(answer).toMatch(/^HTTP\/1\.1 413 /);
        expect(answer).toContain('request body too large (limit 32 MB)');
      });

      /** The head of a chunked chat request. */
      const chunkedHead = (key: string) =>
        `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk-${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;

      it('a chunked body (no Content-Length) is read', async () => {
        const { key } = await insertToken(ids.alice, { models: 'gpt-4o' });
        const small = JSON.stringify({ model: 'chunked-model' });
        const denied = await rawPost(`${chunkedHead(key)}${small.length.toString(16)}\r\n${small}\r\n0\r\n\r\n`, '', 0);
        expect(denied).toMatch(/^HTTP\/1\.1 403 /);
        expect(denied).toContain('该令牌无权使用模型：chunked-model');
      });

      // Reading 32 MB takes a few seconds on a busy machine and does not depend on the database.
      // Retried: the server closes the connection after its 413 while the client may still be
      // writing, and the client's socket can then fail (EPIPE) before it has read the answer.
      it.runIf(target.kind === 'sqlite')('a chunked body is refused with 413 once it passes 32 MB', { retry: 2 }, async () => {
        const { key } = await insertToken(ids.alice);
        const head = chunkedHead(key);
        const mb = ' '.repeat(1024 * 1024);
        const answer = await rawPost(head, `${mb.length.toString(16)}\r\n${mb}\r\n`, 40);
        expect(answer).toMatch(/^HTTP\/1\.1 413 /);
        expect(answer).toContain('request body too large (limit 32 MB)');
      });
    });

    describe('step 12: the model restriction', () => {
      it('exact, untrimmed entries of the comma list', async () => {
        const { key } = await insertToken(ids.alice, { models: 'gpt-4o, gpt-3.5-turbo,my-private-model' });
        const auth = `Bearer sk-${key}`;
        expect(isAuthRefusal(await chat(auth, 'gpt-4o'))).toBe(false);
        expect(isAuthRefusal(await chat(auth, 'my-private-model'))).toBe(false);
        expect(isAuthRefusal(await chat(auth, ' gpt-3.5-turbo'))).toBe(false);
        expectRelayError(await chat(auth, 'gpt-3.5-turbo'), 403, '该令牌无权使用模型：gpt-3.5-turbo');
        expectRelayError(await chat(auth, 'gpt-4'), 403, '该令牌无权使用模型：gpt-4');
        expectRelayError(await chat(auth, 'GPT-4O'), 403, '该令牌无权使用模型：GPT-4O');
      });

      it('is checked before the channel pin (step 13)', async () => {
        const { key } = await insertToken(ids.alice, { models: 'gpt-4o' });
        expectRelayError(await chat(`Bearer sk-${key}-${ids.enabledChannel}`, 'gpt-4'), 403, '该令牌无权使用模型：gpt-4');
      });
    });

    describe('step 13: the channel pin', () => {
      it('a common user may not pin → 403 普通用户不支持指定渠道', async () => {
        const { key } = await insertToken(ids.alice);
        expectRelayError(await chat(`Bearer sk-${key}-${ids.enabledChannel}`), 403, '普通用户不支持指定渠道');
        expectRelayError(await send('GET', '/v1/models', `Bearer sk-${key}-1`), 403, '普通用户不支持指定渠道');
        expectRelayError(await chat(`Bearer sk-${key}-`), 403, '普通用户不支持指定渠道');
      });

      it('an admin may: an enabled channel passes auth, a non-integer id → 400 无效的渠道 Id, a disabled channel is refused by the distributor', async () => {
        const { key } = await insertToken(ids.admin);
        expect(isAuthRefusal(await chat(`Bearer sk-${key}-${ids.enabledChannel}`))).toBe(false);
        expect(isAuthRefusal(await chat(`${key}-${ids.enabledChannel}-ignored`))).toBe(false);
        for (const pin of ['abc', '', '1.5', '99999999999999999999']) expectRelayError(await chat(`Bearer sk-${key}-${pin}`), 400, '无效的渠道 Id');
        const disabled = await chat(`Bearer sk-${key}-${ids.disabledChannel}`);
        // The pipeline (distributor) answers 403 该渠道已被禁用; its placeholder answers 501.
        expect([403, 501]).toContain(disabled.status);
        if (disabled.status === 403) expect(disabled.body.error.message).toBe(withRequestId(disabled, '该渠道已被禁用'));
        // Routes without routing ignore the pin's value.
        expect((await send('GET', '/v1/models', `Bearer sk-${key}-abc`)).status).toBe(200);
      });
    });

    describe('accessed_time', () => {
      it('is set to now when auth passes, and only then', async () => {
        const { id, key } = await insertToken(ids.alice, { models: 'gpt-4o' });
        expectRelayError(await chat(`Bearer sk-${key}`, 'gpt-4'), 403, '该令牌无权使用模型：gpt-4');
        expect((await tokenRow(id)).accessed_time).toBe(100);
        expect((await send('GET', '/v1/models', `Bearer sk-${key}`)).status).toBe(200);
        expect(await tokenRow(id)).toMatchObject({ accessed_time: nowSeconds, status: 1, remain_quota: 1000, used_quota: 0 });
      });
    });

    describe('GET /v1/models', () => {
      it("without a restriction: enabled abilities of the owner's group, catalogue objects in catalogue order, then custom ones", async () => {
        const { key } = await insertToken(ids.alice);
        const reply = await send('GET', '/v1/models/', `Bearer sk-${key}`);
        expect(reply.status).toBe(200);
        expect(reply.body.object).toBe('list');
        expect(reply.body.data.map((m: { id: string }) => m.id)).toEqual(['gpt-3.5-turbo', 'gpt-4o', 'my-private-model']);
        const first = modelCatalogue.data.find((m) => m.id === 'gpt-3.5-turbo');
        expect(reply.body.data[0]).toEqual(first);
        expect(reply.body.data[2]).toEqual({
          id: 'my-private-model', object: 'model', created: 1626777600, owned_by: 'custom', permission: null, root: 'my-private-model', parent: null,
        });
      });

      it("with a restriction: the token's list (duplicates once), whatever the abilities say", async () => {
        const { key } = await insertToken(ids.alice, { models: 'zz-custom,gpt-4o,claude-3-opus-20240229,gpt-4o,aa-custom' });
        const reply = await send('GET', '/v1/models', `Bearer sk-${key}`);
        expect(reply.body.data.map((m: { id: string }) => m.id)).toEqual(['gpt-4o', 'claude-3-opus-20240229', 'zz-custom', 'aa-custom']);
        expect(reply.body.data[1].owned_by).toBe('anthropic');
      });

      it('another group sees its own models; no abilities → an empty list', async () => {
        const vip = await insertUser(db(), { username: 'vipuser' });
        await db().updateTable('users').set({ group: 'vip' }).where('id', '=', vip).execute();
        const lonely = await insertUser(db(), { username: 'lonely' });
        await db().updateTable('users').set({ group: 'nobody' }).where('id', '=', lonely).execute();
        const vipToken = await insertToken(vip);
        const lonelyToken = await insertToken(lonely);
        expect((await send('GET', '/v1/models', vipToken.key)).body.data.map((m: { id: string }) => m.id)).toEqual(['claude-3-opus-20240229']);
        expect((await send('GET', '/v1/models', lonelyToken.key)).body).toEqual({ object: 'list', data: [] });
      });

      it('GET /v1/models/:model: the catalogue object (ids with slashes too), else HTTP 200 with model_not_found', async () => {
        const { key } = await insertToken(ids.alice, { models: 'something-else' });
        const auth = `Bearer sk-${key}`;
        const found = await send('GET', '/v1/models/claude-3-opus-20240229', auth);
        expect(found.status).toBe(200);
        // Listed by several providers: the last catalogue entry wins, as in one-api's id map.
        expect(found.body).toEqual(modelCatalogue.data.findLast((m) => m.id === 'claude-3-opus-20240229'));
        expect(found.body.owned_by).toBe('aws');
        const slashed = await send('GET', '/v1/models/@cf/meta/llama-3.1-8b-instruct', auth);
        expect(slashed.body.id, slashed.text).toBe('@cf/meta/llama-3.1-8b-instruct');
        const missing = await send('GET', '/v1/models/no-such-model', auth);
        expect(missing.status).toBe(200);
        expect(missing.body).toEqual({
          error: { message: "The model 'no-such-model' does not exist", type: 'invalid_request_error', param: 'model', code: 'model_not_found' },
        });
        expectRelayError(await send('GET', '/v1/models/gpt-4o', null), 401, '未提供令牌');
      });
    });

    describe('billing endpoints', () => {
      const paths = {
        subscription: ['/dashboard/billing/subscription', '/v1/dashboard/billing/subscription'],
        usage: ['/dashboard/billing/usage', '/v1/dashboard/billing/usage'],
      };
      const subscriptionOf = (amount: number, accessUntil: number) => ({
        object: 'billing_subscription', has_payment_method: true, soft_limit_usd: amount, hard_limit_usd: amount, system_hard_limit_usd: amount,
        access_until: accessUntil,
      });
      const setDisplay = async (tokenStat: boolean, currency: boolean) => {
        await setOption(db(), 'DisplayTokenStatEnabled', String(tokenStat));
        await setOption(db(), 'DisplayInCurrencyEnabled', String(currency));
        await setOption(db(), 'QuotaPerUnit', '500000');
      };

      it('token stats in currency: (remain + used) / QuotaPerUnit, expiry, usage in cents', async () => {
        await setDisplay(true, true);
        const { key } = await insertToken(ids.alice, { remain_quota: 1_000_000, used_quota: 500_000, expired_time: nowSeconds + 3600 });
        for (const path of paths.subscription) expect((await send('GET', path, `Bearer sk-${key}`)).body).toEqual(subscriptionOf(3, nowSeconds + 3600));
        for (const path of paths.usage) expect((await send('GET', path, `Bearer sk-${key}`)).body).toEqual({ object: 'list', total_usage: 100 });
      });

      it('token stats in quota units; a never-expiring token reports access_until 0; an unlimited one 100000000', async () => {
        await setDisplay(true, false);
        const { key } = await insertToken(ids.alice, { remain_quota: 1_000_000, used_quota: 500_000 });
        expect((await send('GET', paths.subscription[0]!, `Bearer sk-${key}`)).body).toEqual(subscriptionOf(1_500_000, 0));
        expect((await send('GET', paths.usage[1]!, `Bearer sk-${key}`)).body).toEqual({ object: 'list', total_usage: 50_000_000 });
        const unlimited = await insertToken(ids.alice, { unlimited_quota: true, remain_quota: 7, used_quota: 3 });
        expect((await send('GET', paths.subscription[1]!, unlimited.key)).body).toEqual(subscriptionOf(100000000, 0));
        await setDisplay(true, true);
        expect((await send('GET', paths.subscription[0]!, unlimited.key)).body).toEqual(subscriptionOf(100000000, 0));
      });

      it("user stats (DisplayTokenStatEnabled off): the user's quota + used quota (one-api's inverted check fixed), access_until 0", async () => {
        await setDisplay(false, false);
        const { key } = await insertToken(ids.alice, { remain_quota: 9, used_quota: 9, expired_time: nowSeconds + 3600, unlimited_quota: true });
        await settlementsDone(db());
        const { quota, used_quota } = await db().selectFrom('users').select(['quota', 'used_quota']).where('id', '=', ids.alice).executeTakeFirstOrThrow();
        expect((await send('GET', paths.subscription[0]!, key)).body).toEqual(subscriptionOf(quota + used_quota, 0));
        expect((await send('GET', paths.usage[0]!, key)).body).toEqual({ object: 'list', total_usage: used_quota * 100 });
        await setDisplay(false, true);
        expect((await send('GET', paths.subscription[1]!, key)).body).toEqual(subscriptionOf((quota + used_quota) / 500000, 0));
        expect((await send('GET', paths.usage[1]!, key)).body).toEqual({ object: 'list', total_usage: (used_quota / 500000) * 100 });
        await setDisplay(true, true);
      });

      it('need a token, and are gzip-compressed when asked', async () => {
        for (const path of [...paths.subscription, ...paths.usage]) expectRelayError(await send('GET', path, null), 401, '未提供令牌');
        const { key } = await insertToken(ids.alice);
        const raw = await fetch(`${suite.api.url}${paths.usage[0]!}`, { headers: { Authorization: key, 'Accept-Encoding': 'gzip' } });
        expect(raw.headers.get('content-encoding')).toBe('gzip');
        expect((await raw.json()) as unknown).toMatchObject({ object: 'list' });
      });
    });

    describe('not implemented routes', () => {
      const routes: ReadonlyArray<readonly [string, string]> = [
        ['POST', '/v1/images/variations'],
        ['GET', '/v1/files'],
        ['POST', '/v1/files'],
        ['DELETE', '/v1/files/file-1'],
        ['GET', '/v1/files/file-1/content'],
        ['POST', '/v1/fine_tuning/jobs'],
        ['GET', '/v1/fine_tuning/jobs/ft-1/events'],
        ['DELETE', '/v1/models/gpt-4o'],
        ['POST', '/v1/assistants'],
        ['GET', '/v1/threads/t-1/runs'],
        ['GET', '/v1/no/such/route'],
        ['GET', '/v1'],
        ['GET', '/v1/chat/completions'],
      ];

      it('answer 501 api_not_implemented after token auth', async () => {
        const { key } = await insertToken(ids.alice);
        for (const [method, path] of routes) {
          const reply = await send(method, path, `Bearer sk-${key}`, method === 'GET' ? {} : { body: { model: 'gpt-4o' } });
          expect(reply.status, `${method} ${path}`).toBe(501);
          expect(reply.body).toEqual(notImplementedBody);
        }
      });

      it('without a token: 401 未提供令牌; with a bad one: 401 无效的令牌', async () => {
        for (const [method, path] of routes) {
          expectRelayError(await send(method, path, null), 401, '未提供令牌');
          expectRelayError(await send(method, path, 'sk-wrong'), 401, '无效的令牌');
        }
      });
    });

    describe('CORS', () => {
      it('preflights are answered 204 for any origin, without a token', async () => {
        for (const path of ['/v1/chat/completions', '/v1/models', '/dashboard/billing/usage', '/v1/anything']) {
          const reply = await send('OPTIONS', path, null, {
            headers: { Origin: 'https://chat.example.com', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' },
          });
          expect(reply.status, path).toBe(204);
          expect(reply.headers.get('access-control-allow-origin')).toBe('*');
          expect(reply.headers.get('access-control-allow-methods')).toBe('GET,POST,PUT,DELETE,OPTIONS');
          expect(reply.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
          expect(reply.headers.get('access-control-max-age')).toBe('43200');
        }
      });

      it('every relay answer carries Access-Control-Allow-Origin: *, errors included', async () => {
        const { key } = await insertToken(ids.alice);
        const origin = { Origin: 'https://chat.example.com' };
        for (const reply of [
          await send('GET', '/v1/models', key, { headers: origin }),
          await send('GET', '/v1/models', null, { headers: origin }),
          await send('GET', '/v1/files', key, { headers: origin }),
          await send('GET', '/dashboard/billing/usage', key, { headers: origin }),
          await chat(key, 'gpt-4o', origin),
        ]) {
          expect(reply.headers.get('access-control-allow-origin')).toBe('*');
          expect(reply.headers.get('x-oneapi-request-id')).toMatch(/^\d+$/);
        }
      });
    });
  });
}

describe('relay failures inside the gateway (SQLite)', () => {
  it('token lookup error → 401 令牌验证失败; owner lookup error → 500 with its text; an unexpected error → 500 without details', async () => {
    const testDb = await createSqlite();
    const config = testConfig(testDb.database);
    const handle = openDatabase(config);
    try {
      const app = createServerApp({ db: handle.db, dialect: handle.dialect, config }, null);
      const get = async (path: string, auth: string) => {
        const response = await app.request(path, { headers: { Authorization: auth } });
        return { status: response.status, id: response.headers.get('x-oneapi-request-id'), body: (await response.json()) as { error: Record<string, unknown> } };
      };
      // No tables at all: the token query fails.
      const lookup = await get('/v1/models', 'sk-whatever');
      expect(lookup).toMatchObject({ status: 401, body: { error: { message: `令牌验证失败 (request id: ${lookup.id})`, type: 'one_api_error' } } });
      // A tokens table but no users table: the owner query fails.
      await sql`create table tokens (id integer primary key, user_id integer, key text, status integer, name text, accessed_time integer,
        expired_time integer, remain_quota integer, unlimited_quota numeric, used_quota integer, models text, subnet text)`.execute(handle.db);
      await sql`insert into tokens values (1, 1, 'goodkey', 1, 't', 0, -1, 10, 0, 0, '', '')`.execute(handle.db);
      const owner = await get('/v1/models', 'sk-goodkey');
      expect(owner.status).toBe(500);
      expect(owner.body.error.message).toBe(`no such table: users (request id: ${owner.id})`);
      // Users but no abilities: listing the models throws; the client sees a plain 500 relay error.
      await sql`create table users (id integer primary key, status integer, role integer, "group" text, quota integer, used_quota integer)`.execute(handle.db);
      await sql`insert into users values (1, 1, 1, 'default', 0, 0)`.execute(handle.db);
      const crash = await get('/v1/models', 'sk-goodkey');
      expect(crash).toEqual({
        status: 500,
        id: crash.id,
        body: { error: { message: `internal server error (request id: ${crash.id})`, type: 'one_api_panic' } },
      });
    } finally {
      await handle.close();
      await testDb.dispose();
    }
  });
});
