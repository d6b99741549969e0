import { randomInt } from 'node:crypto';
import { Hono } from 'hono';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../server/config';
import { clientIp, defaultTrustedProxies, proxyTrust } from '../../server/http/clientIp';
import {
  MemoryRateLimitStore,
  RedisRateLimitStore,
  createRateLimiters,
  keyExpirationMs,
  type RateLimitStore,
} from '../../server/http/rateLimit';
import { Client } from './support/http';
import { startApi, type RunningApi } from './support/server';
import { setupSuite } from './support/suite';
import { dbTargets, type TestDatabase } from './support/targets';

/** Rate limits (contract §1.5): stores, client IP, middleware, and the limits over real HTTP. */

const sec = 1000;
const t0 = 1_750_000_000_000;

/** A random documentation-range IP so runs sharing one Redis never collide. */
const randomIp = (): string => `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** Calls `store.hit` `n` times at `now` and returns how many were allowed. */
async function hits(store: RateLimitStore, key: string, n: number, limit: number, windowMs: number, now: number): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < n; i += 1) if (await store.hit(key, limit, windowMs, now)) allowed += 1;
  return allowed;
}

describe('rate-limit configuration (contract §1.5, §3.7)', () => {
  it("uses one-api's fixed defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      globalApiRateLimit: 480,
      globalWebRateLimit: 240,
      criticalRateLimit: 20,
      rateLimitWindowsMs: { globalApi: 180_000, globalWeb: 180_000, critical: 1_200_000 },
      redisConnString: null,
    });
  });

  it('enables Redis only when SYNC_FREQUENCY is set too, warning otherwise', () => {
    expect(loadConfig({ REDIS_CONN_STRING: 'redis://r:6379/0', SYNC_FREQUENCY: '60' }).redisConnString).toBe('redis://r:6379/0');
    const without = loadConfig({ REDIS_CONN_STRING: 'redis://r:6379/0', SESSION_SECRET: 's' });
    expect(without.redisConnString).toBeNull();
    expect(without.warnings.join('\n')).toMatch(/SYNC_FREQUENCY/);
  });
});

describe('clientIp (gin ClientIP)', () => {
  const all = proxyTrust('all');
  const byDefault = proxyTrust(defaultTrustedProxies);

  it('uses the socket address without proxy headers, printing IPv4-mapped addresses as IPv4', () => {
    for (const trust of [all, byDefault]) {
      expect(clientIp(undefined, undefined, '203.0.113.7', trust)).toBe('203.0.113.7');
      expect(clientIp(undefined, undefined, '::ffff:127.0.0.1', trust)).toBe('127.0.0.1');
      expect(clientIp(undefined, undefined, '::1', trust)).toBe('::1');
    }
  });

  it('every peer trusted (TRUSTED_PROXIES=*, one-api): the leftmost X-Forwarded-For entry when every entry is an IP', () => {
    expect(clientIp('1.2.3.4', undefined, '127.0.0.1', all)).toBe('1.2.3.4');
    expect(clientIp(' 1.2.3.4 , 10.0.0.1,10.0.0.2', undefined, '127.0.0.1', all)).toBe('1.2.3.4');
    expect(clientIp('2001:db8::1, 10.0.0.1', undefined, '127.0.0.1', all)).toBe('2001:db8::1');
    expect(clientIp('10.9.9.9, 1.2.3.4', undefined, '203.0.113.7', all)).toBe('10.9.9.9');
  });

  it('falls back to X-Real-IP, then the socket, when a header holds a non-IP entry', () => {
    for (const trust of [all, byDefault]) {
      expect(clientIp('unknown, 127.0.0.2', '5.6.7.8', '127.0.0.1', trust)).toBe('5.6.7.8');
      expect(clientIp('1.2.3.4, garbage', undefined, '127.0.0.1', trust)).toBe('127.0.0.1');
      expect(clientIp('', 'nope', '127.0.0.1', trust)).toBe('127.0.0.1');
    }
  });

  it('by default believes only loopback peers, and reads the header up to the first address that is not a proxy', () => {
    // A client on the internet naming its own address is not believed.
    expect(clientIp('10.1.2.3', '10.1.2.3', '203.0.113.7', byDefault)).toBe('203.0.113.7');
    expect(clientIp('10.1.2.3', undefined, '::ffff:203.0.113.7', byDefault)).toBe('203.0.113.7');
    // Nor is a client on the LAN or in a neighbouring container (private ranges are not proxies by default).
    expect(clientIp('1.2.3.4, 10.0.0.1', undefined, '172.17.0.1', byDefault)).toBe('172.17.0.1');
    expect(clientIp('1.2.3.4', undefined, '192.168.1.1', byDefault)).toBe('192.168.1.1');
    expect(clientIp('2001:db8::1', undefined, 'fd00::1', byDefault)).toBe('fd00::1');
    expect(clientIp(undefined, '8.8.4.4', '10.0.0.1', byDefault)).toBe('10.0.0.1');
    // Behind a reverse proxy on the same host: the address it appended, not what the client wrote before it.
    expect(clientIp('10.9.9.9, 1.2.3.4', undefined, '127.0.0.1', byDefault)).toBe('1.2.3.4');
    expect(clientIp('2001:db8::1', undefined, '::1', byDefault)).toBe('2001:db8::1');
    expect(clientIp(undefined, '8.8.4.4', '127.0.0.1', byDefault)).toBe('8.8.4.4');
    expect(clientIp(undefined, '8.8.4.4', '8.8.8.8', byDefault)).toBe('8.8.8.8');
  });

  it('a configured list: addresses and networks, IPv4 and IPv6', () => {
    const trust = proxyTrust(['203.0.113.0/24', '2001:db8::7']);
    expect(clientIp('1.2.3.4', undefined, '203.0.113.200', trust)).toBe('1.2.3.4');
    expect(clientIp('1.2.3.4', undefined, '2001:db8::7', trust)).toBe('1.2.3.4');
    expect(clientIp('1.2.3.4', undefined, '2001:db8::8', trust)).toBe('2001:db8::8');
    expect(clientIp('1.2.3.4', undefined, '127.0.0.1', trust)).toBe('127.0.0.1');
  });

  it('answers "" when the socket address is unknown (gin: unparsable RemoteAddr)', () => {
    expect(clientIp('1.2.3.4', undefined, '', all)).toBe('');
  });

  it('TRUSTED_PROXIES: unset = loopback only, * = every peer, a list is checked', () => {
    expect(loadConfig({}).trustedProxies).toEqual(defaultTrustedProxies);
    expect(defaultTrustedProxies).toEqual(['127.0.0.0/8', '::1/128']);
    expect(loadConfig({ TRUSTED_PROXIES: '*' }).trustedProxies).toBe('all');
    expect(loadConfig({ TRUSTED_PROXIES: ' 10.0.0.1, 2001:db8::/32 ,' }).trustedProxies).toEqual(['10.0.0.1', '2001:db8::/32']);
    for (const bad of ['nope', '10.0.0.0/33', '10.0.0.0/', '::1/129', '10.0.0.1, *']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUSTED_PROXIES: 'nope' })).toThrow(/TRUSTED_PROXIES: "nope" is not an address or a network/);
  });
});

describe('MemoryRateLimitStore (fake clock)', () => {
  it('allows exactly N requests in the window and does not record refused ones', async () => {
    const store = new MemoryRateLimitStore();
    expect(await hits(store, 'k', 5, 3, 10 * sec, t0)).toBe(3);
    // Refused requests were not recorded: the window opens D after the first request.
    expect(await store.hit('k', 3, 10 * sec, t0 + 10 * sec - 1)).toBe(false);
    expect(await store.hit('k', 3, 10 * sec, t0 + 10 * sec)).toBe(true);
  });

  it('slides: each recorded request frees one slot exactly D after it was made', async () => {
    const store = new MemoryRateLimitStore();
    const w = 10 * sec;
    expect(await store.hit('k', 3, w, t0)).toBe(true);
    expect(await store.hit('k', 3, w, t0 + 2 * sec)).toBe(true);
    expect(await store.hit('k', 3, w, t0 + 4 * sec)).toBe(true);
    expect(await store.hit('k', 3, w, t0 + 9 * sec)).toBe(false);
    expect(await store.hit('k', 3, w, t0 + 10 * sec)).toBe(true); // t0 slot freed
    expect(await store.hit('k', 3, w, t0 + 11 * sec)).toBe(false); // next frees at t0+12
    expect(await store.hit('k', 3, w, t0 + 12 * sec)).toBe(true);
    expect(await store.hit('k', 3, w, t0 + 13 * sec)).toBe(false);
    // After a full window of silence the whole quota is back.
    expect(await hits(store, 'k', 4, 3, w, t0 + 30 * sec)).toBe(3);
  });

  it('keeps keys (client IPs, limiters) apart', async () => {
    const store = new MemoryRateLimitStore();
    expect(await hits(store, 'rateLimit:CT1.1.1.1', 3, 2, sec, t0)).toBe(2);
    expect(await hits(store, 'rateLimit:CT2.2.2.2', 3, 2, sec, t0)).toBe(2);
    expect(await hits(store, 'rateLimit:GA1.1.1.1', 3, 2, sec, t0)).toBe(2);
  });

  it('honours a lowered limit at once', async () => {
    const store = new MemoryRateLimitStore();
    expect(await hits(store, 'k', 5, 5, 10 * sec, t0)).toBe(5);
    expect(await store.hit('k', 2, 10 * sec, t0 + sec)).toBe(false);
    expect(await store.hit('k', 2, 10 * sec, t0 + 10 * sec)).toBe(true);
  });

  it('forgets keys unused for 20 minutes', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('old', 3, sec, t0); // first sweep (nothing to drop) at t0
    await store.hit('recent', 3, sec, t0 + keyExpirationMs - 1);
    expect(store.size).toBe(2);
    await store.hit('new', 3, sec, t0 + keyExpirationMs); // sweep: 'old' unused for 20 min
    expect(store.size).toBe(2);
    await store.hit('new', 3, sec, t0 + 2 * keyExpirationMs - 1); // no sweep yet
    expect(store.size).toBe(2);
    await store.hit('new', 3, sec, t0 + 2 * keyExpirationMs); // sweep: 'recent' dropped, 'new' just used
    expect(store.size).toBe(1);
  });
});

/** A bare Hono app with the three limiters of `config` in front of 200 handlers. */
function limitedApp(config: Config, store: RateLimitStore, now: () => number): Hono {
  const limits = createRateLimiters(config, store, now);
  const app = new Hono();
  app.use('/api/*', limits.globalApi);
  app.post('/api/user/login', limits.critical, (c) => c.json({ success: true, message: '' }));
  app.get('/api/status', (c) => c.json({ success: true, message: '' }));
  app.get('/', limits.globalWeb, (c) => c.text('console'));
  return app;
}

const cfg = (env: Record<string, string>, overrides: Partial<Config> = {}): Config => ({ ...loadConfig(env), ...overrides });
const from = (ip: string) => ({ headers: { 'X-Forwarded-For': ip } });
/** What @hono/node-server passes as `c.env`: the socket peer is needed for the client IP. */
const socket = { incoming: { socket: { remoteAddress: '::ffff:127.0.0.1' } } };

describe('rate-limit middleware', () => {
  it('answers 429 with an empty body once a limiter is exhausted', async () => {
    const app = limitedApp(cfg({ GLOBAL_API_RATE_LIMIT: '2' }), new MemoryRateLimitStore(), () => t0);
    expect((await app.request('/api/status', from('1.1.1.1'), socket)).status).toBe(200);
    expect((await app.request('/api/status', from('1.1.1.1'), socket)).status).toBe(200);
    const refused = await app.request('/api/status', from('1.1.1.1'), socket);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toBe('');
    expect(refused.headers.get('content-type')).toBeNull();
    // Another client IP has its own window.
    expect((await app.request('/api/status', from('2.2.2.2'), socket)).status).toBe(200);
  });

  it('keys on the socket peer when it is not a trusted proxy: a client cannot dodge the limit with X-Forwarded-For', async () => {
    const app = limitedApp(cfg({ GLOBAL_API_RATE_LIMIT: '2', TRUSTED_PROXIES: '192.0.2.1' }), new MemoryRateLimitStore(), () => t0);
    expect((await app.request('/api/status', from('1.1.1.1'), socket)).status).toBe(200);
    expect((await app.request('/api/status', from('2.2.2.2'), socket)).status).toBe(200);
    expect((await app.request('/api/status', from('3.3.3.3'), socket)).status).toBe(429);
  });

  it('counts critical routes in both the critical and the global API limiter', async () => {
    let now = t0;
    const config = cfg({ GLOBAL_API_RATE_LIMIT: '5' }, { criticalRateLimit: 2, rateLimitWindowsMs: { globalApi: 100 * sec, globalWeb: 100 * sec, critical: 50 * sec } });
    const app = limitedApp(config, new MemoryRateLimitStore(), () => now);
    const login = () => app.request('/api/user/login', { method: 'POST', ...from('1.1.1.1') }, socket);
    expect((await login()).status).toBe(200);
    expect((await login()).status).toBe(200);
    expect((await login()).status).toBe(429); // CT full (GA counted it: 3 of 5)
    expect((await app.request('/api/status', from('1.1.1.1'), socket)).status).toBe(200); // GA 4
    now += 50 * sec; // the critical window expired, the API one did not
    expect((await login()).status).toBe(200); // GA 5
    expect((await login()).status).toBe(429); // GA full
    expect((await app.request('/api/status', from('1.1.1.1'), socket)).status).toBe(429);
  });

  it('applies the global web limit with its own count', async () => {
    const app = limitedApp(cfg({ GLOBAL_WEB_RATE_LIMIT: '1', GLOBAL_API_RATE_LIMIT: '1' }), new MemoryRateLimitStore(), () => t0);
    expect((await app.request('/', from('1.1.1.1'), socket)).status).toBe(200);
    expect((await app.request('/', from('1.1.1.1'), socket)).status).toBe(429);
    expect((await app.request('/api/status', from('1.1.1.1'), socket)).status).toBe(200);
  });

  it('is off for N = 0 and entirely off with DEBUG=true', async () => {
    const zero = limitedApp(cfg({ GLOBAL_API_RATE_LIMIT: '0' }), new MemoryRateLimitStore(), () => t0);
    const debug = limitedApp(cfg({ GLOBAL_API_RATE_LIMIT: '1', GLOBAL_WEB_RATE_LIMIT: '1', DEBUG: 'true' }, { criticalRateLimit: 1 }), new MemoryRateLimitStore(), () => t0);
    for (let i = 0; i < 5; i += 1) {
      expect((await zero.request('/api/status', undefined, socket)).status).toBe(200);
      expect((await debug.request('/api/user/login', { method: 'POST' }, socket)).status).toBe(200);
      expect((await debug.request('/', undefined, socket)).status).toBe(200);
    }
  });

  it('answers 500 with an empty body when the store fails (Redis down)', async () => {
    const store = new RedisRateLimitStore(new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null }));
    try {
      const app = limitedApp(cfg({ GLOBAL_API_RATE_LIMIT: '5' }), store, () => t0);
      const res = await app.request('/api/status', undefined, socket);
      expect(res.status).toBe(500);
      expect(await res.text()).toBe('');
    } finally {
      await store.close();
    }
  });
});

const sqlite = dbTargets.find((t) => t.kind === 'sqlite');
if (sqlite === undefined) throw new Error('no SQLite target');

for (const target of dbTargets) {
  describe.skipIf(target.skipReason !== null)(`critical rate limit over real HTTP — ${target.label}`, () => {
    // Wide enough that the slow (bcrypt) logins of a busy machine all fall inside one window.
    const windowMs = 5000;
    const suite = setupSuite(target, {
      config: { criticalRateLimit: 3, rateLimitWindowsMs: { globalApi: 180 * sec, globalWeb: 180 * sec, critical: windowMs } },
    });

    it('answers 429 with an empty body on the 4th login, per client IP, until the window expires', async () => {
      const client = suite.client();
      const ip = { 'X-Forwarded-For': '192.0.2.10' };
      const start = Date.now();
      // the server timed the first login between `start` and its answer: the window ends by firstAnswered + windowMs
      let firstAnswered = 0;
      for (let i = 0; i < 3; i += 1) {
        const reply = await client.login('root', 'wrong-password', ip);
        if (i === 0) firstAnswered = Date.now();
        expect(reply.status).toBe(200);
        expect(reply.body.success).toBe(false);
      }
      const refused = await client.login('root', '123456', ip);
      expect(refused.status).toBe(429);
      expect(refused.text).toBe('');
      expect(refused.headers.get('X-Oneapi-Request-Id')).toMatch(/^\d+$/);
      expect(refused.setCookies).toEqual([]); // the login did not happen
      // Another client IP, and non-critical routes, are unaffected.
      expect((await client.login('root', '123456', { 'X-Forwarded-For': '192.0.2.11' })).body.success).toBe(true);
      expect((await client.get('/api/status', { headers: ip })).status).toBe(200);
      // Still refused inside the window; allowed again once it has passed.
      expect((await client.login('root', '123456', ip)).status).toBe(429);
      expect(Date.now() - start).toBeLessThan(windowMs); // the refusals above were inside the window
      await new Promise((resolve) => setTimeout(resolve, firstAnswered + windowMs + 50 - Date.now()));
      const again = await client.login('root', '123456', ip);
      expect(again.status).toBe(200);
      expect(again.body.success).toBe(true);
    });

    it('guards every route the contract marks Crit (and only with its method)', async () => {
      const client = suite.client();
      const routes: [string, string, unknown?][] = [
        ['POST', '/api/user/register', { username: 'x', password: 'y' }],
        ['GET', '/api/verification?email=a@example.com'],
        ['GET', '/api/reset_password?email=a@example.com'],
        ['POST', '/api/user/reset', { email: 'a@example.com', token: 'x' }],
        ['GET', '/api/oauth/state'],
        ['GET', '/api/oauth/github?code=x&state=y'],
        ['GET', '/api/oauth/email/bind?email=a@example.com&code=1'],
      ];
      for (const [index, [method, path, body]] of routes.entries()) {
        const headers = { 'X-Forwarded-For': `192.0.2.${100 + index}` };
        for (let i = 0; i < 3; i += 1) expect((await client.request(method, path, { body, headers })).status, `${method} ${path}`).not.toBe(429);
        const refused = await client.request(method, path, { body, headers });
        expect(refused.status, `${method} ${path}`).toBe(429);
        expect(refused.text).toBe('');
      }
      // Non-critical routes of the same IP, and other methods on a critical path, are not counted.
      const headers = { 'X-Forwarded-For': '192.0.2.100' };
      for (let i = 0; i < 5; i += 1) {
        expect((await client.request('GET', '/api/user/self', { headers })).status).not.toBe(429);
        expect((await client.request('GET', '/api/user/login', { headers })).status).not.toBe(429);
      }
    });
  });
}

/** Null when Redis answers at 127.0.0.1:6379 (or TEST_REDIS_URL), else why not. */
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
async function probeRedis(): Promise<string | null> {
  const probe = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let cause = '';
  probe.on('error', (error: Error) => {
    cause = error.message;
  });
  try {
    await probe.connect();
    await probe.ping();
    return null;
  } catch (error) {
    return `Redis unreachable at ${redisUrl}: ${cause || (error as Error).message || String(error)}`;
  } finally {
    probe.disconnect();
  }
}
const redisSkip = await probeRedis();
const redisLabel = redisSkip === null ? 'Redis' : `SKIPPED — ${redisSkip}`;

describe.skipIf(redisSkip !== null)(`RedisRateLimitStore — ${redisLabel}`, () => {
  let admin: Redis;
  const keys: string[] = [];
  const key = (): string => {
    const k = `rateLimit:TEST${randomIp()}:${randomInt(0, 1e9)}`;
    keys.push(k);
    return k;
  };
  beforeAll(() => {
    admin = new Redis(redisUrl);
  });
  afterAll(async () => {
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  it('allows exactly N, slides the window, and sets a 20-minute expiry', async () => {
    const store = new RedisRateLimitStore(redisUrl);
    try {
      const k = key();
      const w = 10 * sec;
      expect(await hits(store, k, 5, 3, w, t0)).toBe(3);
      expect(await admin.llen(k)).toBe(3);
      const ttl = await admin.pttl(k);
      expect(ttl).toBeGreaterThan(keyExpirationMs - 5 * sec);
      expect(ttl).toBeLessThanOrEqual(keyExpirationMs);
      expect(await store.hit(k, 3, w, t0 + w - 1)).toBe(false);
      expect(await store.hit(k, 3, w, t0 + w)).toBe(true);
      expect(await store.hit(k, 3, w, t0 + w + 1)).toBe(true); // the three t0 slots free together
      expect(await store.hit(k, 3, w, t0 + w + 2)).toBe(true);
      expect(await store.hit(k, 3, w, t0 + w + 3)).toBe(false); // last three are t0+w..t0+w+2
      expect(await admin.llen(k)).toBe(3); // trimmed to N
      const other = key();
      expect(await hits(store, other, 4, 3, w, t0)).toBe(3); // keys are independent
    } finally {
      await store.close();
    }
  });

  it('never lets more than N through 50 parallel hits from two connections', async () => {
    const a = new RedisRateLimitStore(redisUrl);
    const b = new RedisRateLimitStore(redisUrl);
    try {
      const k = key();
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).hit(k, 10, 60 * sec, Date.now())));
      expect(results.filter(Boolean)).toHaveLength(10);
      expect(await admin.llen(k)).toBe(10);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe.skipIf(redisSkip !== null)(`two servers sharing one Redis — ${redisLabel}`, () => {
  const servers: RunningApi[] = [];
  const dbs: TestDatabase[] = [];
  const ips: string[] = [];
  const newIp = (): string => {
    const ip = randomIp();
    ips.push(ip);
    return ip;
  };
  beforeAll(async () => {
    for (let i = 0; i < 2; i += 1) {
      const db = await sqlite.create();
      dbs.push(db);
      servers.push(
        await startApi(db.database, {
          env: { REDIS_CONN_STRING: redisUrl, SYNC_FREQUENCY: '60', GLOBAL_API_RATE_LIMIT: '10' },
          config: { criticalRateLimit: 3 },
        }),
      );
    }
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const db of dbs) await db.dispose();
    const admin = new Redis(redisUrl);
    const keys = ips.flatMap((ip) => ['GA', 'CT'].map((p) => `rateLimit:${p}${ip}`));
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  it('sees one shared critical count across both instances', async () => {
    expect(servers.every((s) => s.config.redisConnString === redisUrl)).toBe(true);
    const [one, two] = servers.map((s) => new Client(s.url));
    if (one === undefined || two === undefined) throw new Error('servers not started');
    const ip = { 'X-Forwarded-For': newIp() };
    expect((await one.login('root', 'wrong', ip)).status).toBe(200);
    expect((await two.login('root', 'wrong', ip)).status).toBe(200);
    expect((await one.login('root', 'wrong', ip)).status).toBe(200);
    const refused = await two.login('root', '123456', ip);
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('');
    expect((await one.login('root', '123456', ip)).status).toBe(429);
  });

  it('lets exactly N of 50 parallel requests through across both instances', async () => {
    const [one, two] = servers.map((s) => new Client(s.url));
    if (one === undefined || two === undefined) throw new Error('servers not started');
    const headers = { 'X-Forwarded-For': newIp() };
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? one : two).get('/api/status', { headers })));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  });
});
