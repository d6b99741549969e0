import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect';
import type { Database } from '../../server/db/schema';
import { ChannelTestRun } from '../../src/domain/channel';
import { setOption } from './support/db';
import { GatewayProcess } from './support/gatewayProcess';
import { Client, type Reply } from './support/http';
import { createRelayChannel, createRelayToken, createRelayUser, setRelayOptions, testModelRatio } from './support/relayFixtures';
import { startRelayUpstream, type RelayUpstream } from './support/relayUpstream';
import { createPostgres, postgresTarget, type TestDatabase } from './support/targets';

/**
 * Scale-out (README "Running several instances"): three gateway processes, started as the
 * crash tests start them (server/main.ts), on one PostgreSQL database and one Redis, behind a
 * round-robin loopback proxy. What one instance does must hold on the others: sessions and
 * logout, the shared rate limits, option changes (cached per process, invalidated through Redis
 * pub/sub: measured), automatic disabling of a channel (selection caches), quota of relay requests
 * spread over all three (exact), and channel test runs (followed and cancelled from another
 * instance, one at a time cluster-wide, a run whose gateway died is ended as interrupted).
 */

type Db = Kysely<Database>;

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A Redis database index of its own, so that other suites' keys are not touched. */
const redisDbIndex = 7;
const sessionSecret = 'scale-out-shared-session-secret';
const model = 'gpt-3.5-turbo';
const staleSeconds = 3;

/** Null when Redis answers, else why not. */
async function probeRedis(): Promise<string | null> {
  const probe = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (error) {
    return `Redis unreachable at ${redisUrl}: ${(error as Error).message || String(error)}`;
  } finally {
    probe.disconnect();
  }
}

const redisSkip = await probeRedis();
const skipReason = postgresTarget.skipReason ?? redisSkip;
if (skipReason !== null) console.warn(`[server tests] scale-out suite is skipped: ${skipReason}`);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The gateways' SYNC_FREQUENCY: what they cache is dropped at every multiple of it on the wall clock. */
const syncSeconds = 600;

/**
 * Waits, when the next SYNC_FREQUENCY reload (a multiple of the period on the wall clock, the
 * same moment on every instance) is less than `marginMs` away, until it has passed: a check that
 * something stays cached must not straddle it.
 */
async function clearOfSyncReload(marginMs: number): Promise<void> {
  const periodMs = syncSeconds * 1000;
  const untilReload = periodMs - (Date.now() % periodMs);
  if (untilReload < marginMs) await sleep(untilReload + 50);
}

/** A random TEST-NET-3 address: the client IP the proxy forwards, so rate-limit keys never collide with other runs. */
const randomIp = (): string => `203.0.113.${1 + (randomBytes(1)[0]! % 250)}`;

/** The round-robin proxy: each request goes to the next live backend; which one served it is recorded. */
interface Proxy {
  readonly url: string;
  /** Index of the backend of each request, in order. */
  readonly served: number[];
  close(): Promise<void>;
}

async function startProxy(backends: readonly GatewayProcess[]): Promise<Proxy> {
  const served: number[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    const index = next % backends.length;
    next += 1;
    served.push(index);
    const target = new URL(backends[index]!.url);
    const headers = { ...req.headers, 'x-forwarded-for': String(req.headers['x-test-ip'] ?? '203.0.113.254') };
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A relay chat request to `base` with token `key`; the HTTP status. */
async function chat(base: string, key: string, text = 'hello'): Promise<number> {
  const res = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer sk-${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 20, messages: [{ role: 'user', content: text }] }),
  });
  await res.text();
  return res.status;
}

/** The run in an answer, checked against the shared codec. */
function runOf(reply: Reply): ChannelTestRun & { interrupted?: boolean } {
  expect(reply.body, reply.text).toMatchObject({ success: true, message: '' });
  expect(ChannelTestRun.is(reply.body.data), reply.text).toBe(true);
  return reply.body.data as ChannelTestRun;
}

/** `client`'s cookies on another base URL (the same browser talking to one instance directly). */
function sameBrowser(client: Client, base: string): Client {
  const other = new Client(base);
  for (const [name, value] of client.jar) other.jar.set(name, value);
  return other;
}

describe.skipIf(skipReason !== null)(`three gateways on one PostgreSQL and one Redis${skipReason === null ? '' : ` — SKIPPED: ${skipReason}`}`, () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let upstream: RelayUpstream;
  let proxy: Proxy;
  const gateways: GatewayProcess[] = [];
  const db = (): Db => handle.db;
  /** Root signed in through the proxy. */
  let root: Client;

  beforeAll(async () => {
    database = await createPostgres();
    upstream = await startRelayUpstream();
    if (database.database.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const redis = new URL(redisUrl);
    redis.pathname = `/${redisDbIndex}`;
    const env = {
      SQL_DSN: database.database.dsn,
      REDIS_CONN_STRING: redis.toString(),
      SYNC_FREQUENCY: String(syncSeconds),
      SESSION_SECRET: sessionSecret,
      CHANNEL_TEST_RUN_STALE_SECONDS: String(staleSeconds),
      GLOBAL_API_RATE_LIMIT: '0',
      GLOBAL_WEB_RATE_LIMIT: '0',
    };
    const ports = await Promise.all([0, 1, 2].map(() => freePort()));
    for (const port of ports) gateways.push(new GatewayProcess(port, env));
    // The first start compiles the server (cached for the next ones), then the other two start together.
    await gateways[0]!.start(100_000);
    await Promise.all(gateways.slice(1).map((g) => g.start(60_000)));
    proxy = await startProxy(gateways);
    handle = openDatabase({ database: database.database });
    await setRelayOptions(db(), { AutomaticDisableChannelEnabled: 'true', ChannelDisableThreshold: '0' });
    root = new Client(proxy.url);
    const login = await root.login('root', '123456', { 'x-test-ip': randomIp() });
    expect(login.body.success, login.text).toBe(true);
  }, 180_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(gateways.map((g) => g.stop('SIGTERM')));
    await handle?.close();
    await upstream?.close();
    await database?.dispose();
  }, 60_000);

  it('sessions: signed in on every instance after one login; a logout on one is a logout on all', async () => {
    const ip = randomIp();
    const browser = new Client(proxy.url);
    expect((await browser.login('root', '123456', { 'x-test-ip': ip })).body.success).toBe(true);
    const from = proxy.served.length;
    for (let i = 0; i < 6; i += 1) {
      const self = await browser.get('/api/user/self', { headers: { 'x-test-ip': ip } });
      expect(self.body, self.text).toMatchObject({ success: true, data: { username: 'root' } });
    }
    expect(new Set(proxy.served.slice(from))).toEqual(new Set([0, 1, 2]));
    for (const gateway of gateways) expect((await sameBrowser(browser, gateway.url).get('/api/user/self')).body.success).toBe(true);

    const direct = gateways.map((g) => sameBrowser(browser, g.url));
    expect((await direct[1]!.get('/api/user/logout')).body.success).toBe(true);
    for (const client of direct) {
      const self = await client.get('/api/user/self');
      expect(self.status, self.text).toBe(401);
    }
  });

  it('rate limits: the critical limit (20 per window per IP) is counted once across the three instances', async () => {
    const ip = randomIp();
    const anonymous = new Client(proxy.url);
    const from = proxy.served.length;
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) statuses.push((await anonymous.login('nobody-here', 'wrong', { 'x-test-ip': ip })).status);
    expect(new Set(proxy.served.slice(from))).toEqual(new Set([0, 1, 2]));
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Each instance alone would still allow 13 more: the count is shared.
    for (const gateway of gateways) {
      const res = await fetch(`${gateway.url}/api/user/login`, { method: 'POST', headers: { 'x-forwarded-for': ip, 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(429);
    }
  });

  it('options: a change on one instance is used by every instance within 1 s (cached options, Redis invalidation)', async () => {
    const tokens = await Promise.all(
      gateways.map(async (_, i) => {
        const userId = await createRelayUser(db(), { username: `opt${i}`, quota: 10_000_000 });
        return createRelayToken(db(), { userId, name: `opt${i}`, remainQuota: 5_000_000 });
      }),
    );
    const channel = await createRelayChannel(db(), { key: 'opt-channel', baseUrl: upstream.url, models: model });
    /** The rate in the newest consume log of `tokenName` (`倍率：<model ratio> × …`). */
    const lastRatio = async (tokenName: string, count: number): Promise<string | undefined> => {
      const deadline = Date.now() + 5000;
      for (;;) {
        const rows = await db().selectFrom('logs').select(['content']).where('type', '=', 2).where('token_name', '=', tokenName).orderBy('id', 'desc').execute();
        if (rows.length >= count) return /倍率：([\d.]+)/.exec(rows[0]?.content ?? '')?.[1];
        if (Date.now() > deadline) throw new Error(`no consume log #${count} of ${tokenName}`);
        await sleep(10);
      }
    };
    try {
      // The fill and the check below must fall between two SYNC_FREQUENCY reloads.
      await clearOfSyncReload(10_000);
      // Every instance has the options in memory now.
      for (const [i, gateway] of gateways.entries()) {
        expect(await chat(gateway.url, tokens[i]!.key)).toBe(200);
        expect(await lastRatio(tokens[i]!.name, 1)).toBe(testModelRatio[model]!.toFixed(2));
      }
      // The options really are cached: a change written behind the gateways' backs (plain SQL, no
      // announcement) is not used before SYNC_FREQUENCY.
      await setOption(db(), 'ModelRatio', JSON.stringify({ ...testModelRatio, [model]: 2 }));
      for (const [i, gateway] of gateways.entries()) {
        expect(await chat(gateway.url, tokens[i]!.key)).toBe(200);
        expect(await lastRatio(tokens[i]!.name, 2)).toBe(testModelRatio[model]!.toFixed(2));
      }
      const changed = JSON.stringify({ ...testModelRatio, [model]: 3 });
      const put = await root.request('PUT', '/api/option/', { body: { key: 'ModelRatio', value: changed }, headers: { 'x-test-ip': randomIp() } });
      expect(put.body, put.text).toMatchObject({ success: true });
      const changedAt = performance.now();
      const seenAfter = await Promise.all(
        gateways.map(async (gateway, i) => {
          for (let n = 3; ; n += 1) {
            const sentAt = performance.now();
            expect(await chat(gateway.url, tokens[i]!.key)).toBe(200);
            if ((await lastRatio(tokens[i]!.name, n)) === '3.00') return sentAt - changedAt;
            if (performance.now() - changedAt > 5000) throw new Error(`instance ${i} still bills the old ratio after 5 s`);
          }
        }),
      );
      console.log(`[scale-out] option change first used after ${seenAfter.map((ms) => `${Math.round(ms)} ms`).join(', ')} on the three instances`);
      for (const ms of seenAfter) expect(ms).toBeLessThanOrEqual(1000);
    } finally {
      // Put the ratio back and take the channel out, even after a failure (the next tests use the same model).
      await setOption(db(), 'ModelRatio', JSON.stringify(testModelRatio));
      await root.request('PUT', '/api/option/', { body: { key: 'ModelRatio', value: JSON.stringify(testModelRatio) }, headers: { 'x-test-ip': randomIp() } });
      await db().updateTable('channels').set({ status: 2 }).where('id', '=', channel).execute();
      await db().updateTable('abilities').set({ enabled: false }).where('channel_id', '=', channel).execute();
      await root.request('PUT', '/api/channel/', { body: { id: channel, status: 2 }, headers: { 'x-test-ip': randomIp() } });
    }
  });

  it('automatic disabling on one instance takes the channel out of every instance’s selection', async () => {
    const userId = await createRelayUser(db(), { username: 'disable-user', quota: 10_000_000 });
    const token = await createRelayToken(db(), { userId, name: 'disable-token', remainQuota: 5_000_000 });
    const failing = await createRelayChannel(db(), { key: 'sk-failing', baseUrl: upstream.url, models: model, priority: 10 });
    const backup = await createRelayChannel(db(), { key: 'sk-backup', baseUrl: upstream.url, models: model, priority: 0 });
    // Tell the instances about the new channels (as the console's channel routes do).
    await root.request('PUT', '/api/channel/', { body: { id: backup, priority: 0 }, headers: { 'x-test-ip': randomIp() } });
    // Each instance has picked (and keeps) the top-priority channel.
    for (const gateway of gateways) expect(await chat(gateway.url, token.key)).toBe(200);
    expect(upstream.requestsFor('sk-failing')).toHaveLength(3);
    upstream.behave('sk-failing', { kind: 'status', status: 401 });
    expect(await chat(gateways[0]!.url, token.key)).toBe(401);
    const deadline = Date.now() + 5000;
    while ((await db().selectFrom('channels').select('status').where('id', '=', failing).executeTakeFirstOrThrow()).status !== 3) {
      if (Date.now() > deadline) throw new Error('the channel was not disabled');
      await sleep(20);
    }
    await sleep(200);
    for (const gateway of gateways.slice(1)) for (let i = 0; i < 3; i += 1) expect(await chat(gateway.url, token.key)).toBe(200);
    expect(upstream.requestsFor('sk-failing')).toHaveLength(4);
    expect(upstream.requestsFor('sk-backup')).toHaveLength(6);
    await root.request('PUT', '/api/channel/', { body: { id: backup, status: 2 }, headers: { 'x-test-ip': randomIp() } });
  });

  it('a token disabled, exhausted or deleted, a user banned, anywhere: refused by every instance on the next request', async () => {
    const userId = await createRelayUser(db(), { username: 'revoke-user', quota: 10_000_000 });
    const token = await createRelayToken(db(), { userId, name: 'revoke-token', remainQuota: 5_000_000 });
    const channel = await createRelayChannel(db(), { key: 'sk-revoke', baseUrl: upstream.url, models: model, priority: 20 });
    // Tell the instances about the new channel (as the console's channel routes do).
    await root.request('PUT', '/api/channel/', { body: { id: channel, priority: 20 }, headers: { 'x-test-ip': randomIp() } });
    let answered = 0;
    const everyInstance = async (status: number): Promise<void> => {
      for (const gateway of gateways) expect(await chat(gateway.url, token.key)).toBe(status);
      if (status !== 200) return;
      // Each answered request is settled after its answer (its consume log is written in the
      // settlement): the next change waits for them, or a settlement giving back the unused part of
      // its reservation could land after the test set the token's remain to 0.
      answered += gateways.length;
      const deadline = Date.now() + 10_000;
      for (;;) {
        const logs = await db().selectFrom('logs').select('id').where('type', '=', 2).where('token_name', '=', 'revoke-token').execute();
        if (logs.length >= answered) return;
        if (Date.now() > deadline) throw new Error(`${logs.length} of ${answered} requests settled after 10 s`);
        await sleep(20);
      }
    };
    try {
      await everyInstance(200);
      await db().updateTable('tokens').set({ status: 2 }).where('id', '=', token.id).execute();
      await everyInstance(401);
      await db().updateTable('tokens').set({ status: 1 }).where('id', '=', token.id).execute();
      await everyInstance(200);
      await db().updateTable('users').set({ status: 2 }).where('id', '=', userId).execute();
      await everyInstance(403);
      await db().updateTable('users').set({ status: 1 }).where('id', '=', userId).execute();
      await everyInstance(200);
      await db().updateTable('tokens').set({ remain_quota: 0 }).where('id', '=', token.id).execute();
      await everyInstance(401);
      await db().deleteFrom('tokens').where('id', '=', token.id).execute();
      await everyInstance(401);
    } finally {
      // Its channel out of the selection, even after a failure (the next tests use the same model).
      await root.request('PUT', '/api/channel/', { body: { id: channel, status: 2 }, headers: { 'x-test-ip': randomIp() } });
    }
  });

  it('quota: 1,000 relay requests spread over the three instances reconcile exactly with the consume logs', async () => {
    const channel = await createRelayChannel(db(), { key: 'sk-quota', baseUrl: upstream.url, models: model, priority: 20 });
    await root.request('PUT', '/api/channel/', { body: { id: channel, priority: 20 }, headers: { 'x-test-ip': randomIp() } });
    const start = 50_000_000;
    const users = await Promise.all([0, 1, 2, 3].map((i) => createRelayUser(db(), { username: `quota${i}`, quota: start })));
    const tokens = await Promise.all(users.map((userId, i) => createRelayToken(db(), { userId, name: `quota-token-${i}`, remainQuota: start / 2 })));
    const from = proxy.served.length;
    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 24 }, async () => {
        for (let i = next++; i < 1000; i = next++) statuses.push(await chat(proxy.url, tokens[i % tokens.length]!.key, `request ${i}`));
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1000);
    const per = [0, 1, 2].map((b) => proxy.served.slice(from).filter((s) => s === b).length);
    expect(per.every((n) => n >= 330)).toBe(true);

    const reconcile = async () => {
      const logs = await db().selectFrom('logs').select(['user_id', 'token_name', 'quota', 'channel_id']).where('type', '=', 2).where('channel_id', '=', channel).execute();
      const userRows = await db().selectFrom('users').select(['id', 'quota', 'used_quota', 'request_count']).where('id', 'in', users).execute();
      const tokenRows = await db().selectFrom('tokens').select(['name', 'remain_quota', 'used_quota']).where('id', 'in', tokens.map((t) => t.id)).execute();
      const channelRow = await db().selectFrom('channels').select('used_quota').where('id', '=', channel).executeTakeFirstOrThrow();
      const sum = (rows: typeof logs) => rows.reduce((total, r) => total + Number(r.quota), 0);
      return {
        logs: logs.length,
        users: userRows.map((u) => {
          const spent = sum(logs.filter((l) => l.user_id === u.id));
          return { quota: Number(u.quota) === start - spent, used: Number(u.used_quota) === spent, requests: Number(u.request_count) };
        }),
        tokens: tokenRows.map((t) => {
          const spent = sum(logs.filter((l) => l.token_name === t.name));
          return { remain: Number(t.remain_quota) === start / 2 - spent, used: Number(t.used_quota) === spent };
        }),
        channel: Number(channelRow.used_quota) === sum(logs),
        positive: sum(logs) > 0,
      };
    };
    const expected = {
      logs: 1000,
      users: users.map(() => ({ quota: true, used: true, requests: 250 })),
      tokens: tokens.map(() => ({ remain: true, used: true })),
      channel: true,
      positive: true,
    };
    const deadline = Date.now() + 10_000;
    let state = await reconcile();
    while (JSON.stringify(state) !== JSON.stringify(expected) && Date.now() < deadline) {
      await sleep(100);
      state = await reconcile();
    }
    expect(state).toEqual(expected);
    await root.request('PUT', '/api/channel/', { body: { id: channel, status: 2 }, headers: { 'x-test-ip': randomIp() } });
  }, 180_000);

  it('channel test runs: followed and cancelled from other instances, one at a time cluster-wide, interrupted when the executor dies', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      upstream.behave(`sk-run-${i}`, { kind: 'slow', ms: 400 });
      ids.push(await createRelayChannel(db(), { key: `sk-run-${i}`, baseUrl: upstream.url, models: model, status: 2 }));
    }
    const on = gateways.map((g) => sameBrowser(root, g.url));
    const started = runOf(await on[0]!.post('/api/channel/test_run', { ids }));
    expect(started).toMatchObject({ status: 'running', total: 5, channel_ids: ids });
    // Another instance refuses a second run, whatever starts it.
    expect((await on[1]!.post('/api/channel/test_run', { scope: 'all' })).body).toEqual({ success: false, message: '测试已在运行中' });
    expect((await on[2]!.get('/api/channel/test?scope=all')).body).toEqual({ success: false, message: '测试已在运行中' });
    // Follow it live from instance 2 with the after cursor.
    const seen: ChannelTestRun['results'] = [];
    const progress: number[] = [];
    for (;;) {
      const run = runOf(await on[1]!.get(`/api/channel/test_run/${started.id}?after=${seen.length}`));
      seen.push(...run.results);
      progress.push(run.done);
      if (run.status !== 'running') break;
      await sleep(100);
    }
    expect(progress.some((done) => done > 0 && done < 5)).toBe(true);
    const final = runOf(await on[2]!.get(`/api/channel/test_run/${started.id}`));
    expect(final).toMatchObject({ status: 'finished', done: 5 });
    expect(seen).toEqual(final.results);
    expect(runOf(await on[1]!.get('/api/channel/test_run'))).toEqual(final);

    // Cancelled from another instance than the one executing it.
    const second = runOf(await on[0]!.post('/api/channel/test_run', { ids }));
    await sleep(500);
    const cancelledAt = performance.now();
    const cancelled = runOf(await on[1]!.request('DELETE', `/api/channel/test_run/${second.id}`));
    expect(performance.now() - cancelledAt).toBeLessThan(2500);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.done).toBeLessThan(5);
    expect(cancelled.interrupted).toBeUndefined();
    expect(runOf(await on[2]!.get(`/api/channel/test_run/${second.id}`))).toEqual(cancelled);

    // The executor dies mid-run: refused until its heartbeat is stale, then it is interrupted and a new run starts.
    const third = runOf(await on[2]!.post('/api/channel/test_run', { ids }));
    await sleep(300);
    await gateways[2]!.stop('SIGKILL');
    const killedAt = Date.now();
    expect((await on[0]!.post('/api/channel/test_run', { ids: [ids[0]!] })).body).toEqual({ success: false, message: '测试已在运行中' });
    let fourth: ChannelTestRun | undefined;
    while (fourth === undefined) {
      const reply = await on[0]!.post('/api/channel/test_run', { ids: [ids[0]!] });
      if (reply.body.success === true) fourth = runOf(reply);
      else if (Date.now() - killedAt > (staleSeconds + 5) * 1000) throw new Error(`no new run after the executor died: ${reply.text}`);
      else await sleep(250);
    }
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(staleSeconds * 1000 - 1000);
    const interrupted = runOf(await on[1]!.get(`/api/channel/test_run/${third.id}`));
    expect(interrupted).toMatchObject({ status: 'cancelled', interrupted: true });
    expect(interrupted.done).toBeLessThan(5);
    const last = runOf(await on[1]!.request('DELETE', `/api/channel/test_run/${fourth.id}`));
    expect(last.status === 'cancelled' || last.status === 'finished').toBe(true);
  }, 120_000);
});

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address() as AddressInfo;
      probe.close(() => resolve(address.port));
    });
  });
}
