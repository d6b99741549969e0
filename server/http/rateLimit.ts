import type { MiddlewareHandler } from 'hono';
import { Redis } from 'ioredis';
import type { Config } from '../config';
import { requestIp } from './clientIp';

/**
 * one-api's rate limiters (contract §1.5): per client IP, sliding window — a request passes
 * when fewer than N requests are recorded for the key, or when the oldest of the last N
 * recorded requests is at least D old; a refused request is not recorded. Over the limit →
 * HTTP 429 with an empty body; a storage (Redis) failure → HTTP 500 with an empty body.
 * N = 0 disables a limiter, `DEBUG=true` disables all of them.
 *
 * Two stores behind `RateLimitStore`: process memory (default) and Redis (`REDIS_CONN_STRING`),
 * where one Lua script does the whole check-and-record so instances sharing a Redis share
 * the counts without a read-modify-write race. Keys are `rateLimit:<prefix><ip>` as in one-api.
 */

/** Keys expire 20 minutes after their last use (one-api's `RateLimitKeyExpirationDuration`), or after the window when longer. */
export const keyExpirationMs = 20 * 60 * 1000;

/** Records one request for `key` when the window allows it. */
export interface RateLimitStore {
  /** True (and the request is recorded) when fewer than `limit` requests of `key` fall in the last `windowMs` before `now`. */
  hit(key: string, limit: number, windowMs: number, now: number): Promise<boolean>;
  /** Releases connections (Redis); the memory store just forgets. */
  close(): Promise<void>;
}

/** The in-process store: per key the last `limit` request times, oldest first. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, number[]>();
  private lastSweep: number | null = null;

  /** The number of keys currently held (for tests of the expiry sweep). */
  get size(): number {
    return this.windows.size;
  }

  hit(key: string, limit: number, windowMs: number, now: number): Promise<boolean> {
    this.sweep(now);
    let times = this.windows.get(key);
    if (times === undefined) {
      times = [];
      this.windows.set(key, times);
    }
    // Entries beyond `limit` (the limit was lowered) never matter: keep the newest `limit`.
    if (times.length > limit) times.splice(0, times.length - limit);
    const oldest = times[0];
    if (times.length < limit) {
      times.push(now);
      return Promise.resolve(true);
    }
    if (oldest !== undefined && now - oldest >= windowMs) {
      times.shift();
      times.push(now);
      return Promise.resolve(true);
    }
    return Promise.resolve(false);
  }

  /** Drops keys unused for `keyExpirationMs` (at most once per that period), so memory stays bounded. */
  private sweep(now: number): void {
    if (this.lastSweep !== null && now - this.lastSweep < keyExpirationMs) return;
    this.lastSweep = now;
    for (const [key, times] of this.windows) {
      const newest = times.at(-1);
      if (newest === undefined || now - newest >= keyExpirationMs) this.windows.delete(key);
    }
  }

  close(): Promise<void> {
    this.windows.clear();
    return Promise.resolve();
  }
}

/**
 * KEYS[1] = list of request times (epoch ms), newest first. ARGV = limit, window ms, now ms,
 * expiry ms. Returns 1 when allowed (and recorded), 0 when refused. Atomic: Redis runs a
 * script without interleaving other commands.
 */
const hitScript = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local ttl = tonumber(ARGV[4])
local len = redis.call('LLEN', key)
if len >= limit then
  local oldest = tonumber(redis.call('LINDEX', key, limit - 1))
  if oldest ~= nil and now - oldest < window then
    redis.call('PEXPIRE', key, ttl)
    return 0
  end
end
redis.call('LPUSH', key, now)
redis.call('LTRIM', key, 0, limit - 1)
redis.call('PEXPIRE', key, ttl)
return 1
`;

/** The shared store: one Redis list per key, checked and updated by one Lua script. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  /** Connects lazily to `connection` (a `redis://` URL as one-api's `REDIS_CONN_STRING`); a given client is owned (closed by `close`). */
  constructor(connection: string | Redis) {
    this.redis =
      typeof connection === 'string'
        ? new Redis(connection, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3000, commandTimeout: 3000 })
        : connection;
    // Without a listener ioredis reports every reconnect failure as an unhandled error event.
    let lastLog = 0;
    this.redis.on('error', (error: Error) => {
      if (Date.now() - lastLog < 60_000) return;
      lastLog = Date.now();
      console.error('[rate-limit] Redis:', error.message);
    });
  }

  async hit(key: string, limit: number, windowMs: number, now: number): Promise<boolean> {
    const ttl = Math.max(keyExpirationMs, windowMs);
    const result = await this.redis.eval(hitScript, 1, key, limit, windowMs, Math.floor(now), ttl);
    return result === 1;
  }

  async close(): Promise<void> {
    if (this.redis.status === 'wait' || this.redis.status === 'end') {
      this.redis.disconnect();
      return;
    }
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** The store the configuration asks for: Redis when `REDIS_CONN_STRING` (and `SYNC_FREQUENCY`) are set, else memory. */
export function createRateLimitStore(config: Config): RateLimitStore {
  return config.redisConnString === null ? new MemoryRateLimitStore() : new RedisRateLimitStore(config.redisConnString);
}

/** One limiter: its key prefix, N and window. */
export interface LimiterRule {
  readonly prefix: string;
  readonly limit: number;
  readonly windowMs: number;
}

/** A middleware enforcing `rule` on `store`; a pass-through when the limiter is disabled. */
export function rateLimit(
  store: RateLimitStore,
  rule: LimiterRule,
  enabled: boolean,
  config: Pick<Config, 'trustedProxies'>,
  now: () => number = Date.now,
): MiddlewareHandler {
  if (!enabled || rule.limit <= 0) return async (_c, next) => next();
  return async (c, next) => {
    const ip = requestIp(c, config);
    let allowed: boolean;
    try {
      allowed = await store.hit(`rateLimit:${rule.prefix}${ip}`, rule.limit, rule.windowMs, now());
    } catch (error) {
      console.error('[rate-limit] store failure:', error instanceof Error ? error.message : error);
      return c.body(null, 500);
    }
    if (!allowed) return c.body(null, 429);
    await next();
  };
}

/** The three limiters one-api mounts (Global API, Global Web, Critical), sharing one store. */
export interface RateLimiters {
  readonly store: RateLimitStore;
  /** `GA`: every /api route and /dashboard/billing/*. */
  readonly globalApi: MiddlewareHandler;
  /** `GW`: the web fallback (static console, SPA page, unknown paths). */
  readonly globalWeb: MiddlewareHandler;
  /** `CT`: login, register, verification, reset_password, user/reset, /api/oauth/*. */
  readonly critical: MiddlewareHandler;
}

/** Builds the limiters of `config` on `store` (default: the store the configuration asks for). */
export function createRateLimiters(config: Config, store: RateLimitStore = createRateLimitStore(config), now: () => number = Date.now): RateLimiters {
  const enabled = !config.debug;
  const windows = config.rateLimitWindowsMs;
  return {
    store,
    globalApi: rateLimit(store, { prefix: 'GA', limit: config.globalApiRateLimit, windowMs: windows.globalApi }, enabled, config, now),
    globalWeb: rateLimit(store, { prefix: 'GW', limit: config.globalWebRateLimit, windowMs: windows.globalWeb }, enabled, config, now),
    critical: rateLimit(store, { prefix: 'CT', limit: config.criticalRateLimit, windowMs: windows.critical }, enabled, config, now),
  };
}

/** The routes one-api guards with the critical limiter (contract §2.0 "Crit"), by method. */
export const criticalRoutes: readonly (readonly [method: 'GET' | 'POST', path: string])[] = [
  ['POST', '/api/user/login'],
  ['POST', '/api/user/login/2fa'],
  ['POST', '/api/user/register'],
  ['GET', '/api/verification'],
  ['GET', '/api/reset_password'],
  ['POST', '/api/user/reset'],
  ['GET', '/api/oauth/*'],
];
