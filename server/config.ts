import { randomBytes } from 'node:crypto';
import { defaultTrustedProxies, parseNetwork, type TrustedProxies } from './http/clientIp';
import { normaliseOrigin } from './http/origin';

/**
 * The server configuration, read once from environment variables with one-api's names
 * (contract §3.3, §3.7). `loadConfig` does no I/O: it never logs (warnings are returned in
 * `warnings` for the caller to print) and it throws `ConfigError` on values it cannot use.
 */

/** Where the data lives: SQLite file or PostgreSQL connection string. */
export type DatabaseConfig =
  | {
      readonly kind: 'sqlite';
      readonly path: string;
      readonly busyTimeoutMs: number;
      /** Relay settlements on their own thread and connection (default true; `SQLITE_SETTLEMENT_THREAD=false` keeps them on the main thread). */
      readonly settlementThread?: boolean;
    }
  | {
      readonly kind: 'postgres';
      readonly dsn: string;
      /** Most connections of the pool (`SQL_MAX_OPEN_CONNS`, 1..1000; unset: 10). */
      readonly maxConnections?: number;
    };

export interface Config {
  /** Listen port (`PORT`, default 3000). */
  readonly port: number;
  readonly database: DatabaseConfig;
  /** Cookie signing key (`SESSION_SECRET`); random per start when unset. */
  readonly sessionSecret: string;
  /** True when `sessionSecret` was generated because `SESSION_SECRET` was unset. */
  readonly sessionSecretGenerated: boolean;
  /** Key of the bootstrap token with id 1 (`INITIAL_ROOT_TOKEN`), or null. */
  readonly initialRootToken: string | null;
  /** Access token of the bootstrap root user (`INITIAL_ROOT_ACCESS_TOKEN`), or null. */
  readonly initialRootAccessToken: string | null;
  /** Default of the `Theme` option (`THEME`, default `default`). */
  readonly theme: string;
  /** `DEBUG=true`: verbose logs; one-api also disables rate limits with it. */
  readonly debug: boolean;
  /** Global API rate limit per 180 s (`GLOBAL_API_RATE_LIMIT`, 480; 0 = off). */
  readonly globalApiRateLimit: number;
  /** Global web rate limit per 180 s (`GLOBAL_WEB_RATE_LIMIT`, 240; 0 = off). */
  readonly globalWebRateLimit: number;
  /** Critical rate limit per window (login, register, ...): 20, fixed in one-api (no env); tests override it. */
  readonly criticalRateLimit: number;
  /** Rate-limit windows in ms: 180 s (API, web) and 1200 s (critical), fixed in one-api; tests override them. */
  readonly rateLimitWindowsMs: { readonly globalApi: number; readonly globalWeb: number; readonly critical: number };
  /** Redis for shared rate limits (`REDIS_CONN_STRING`); null unless `SYNC_FREQUENCY` is also set, as in one-api. */
  readonly redisConnString: string | null;
  /**
   * `SYNC_FREQUENCY` (seconds, one-api's default 600): with Redis, how long a process may keep
   * options and channel selections in memory when no invalidation message arrived (the fallback
   * to Redis pub/sub, as one-api's periodic sync).
   */
  readonly syncFrequencySeconds: number;
  /** `CHANNEL_TEST_RUN_STALE_SECONDS` (15, 2..3600): a running batch test whose executor sent no heartbeat for this long counts as interrupted. */
  readonly channelTestRunStaleMs: number;
  /** Build version shown by `/api/status` (`VERSION`, ours; default `v0.0.0` as an unversioned one-api build). */
  readonly version: string;
  /** Human-readable warnings the caller should log at start-up. */
  readonly warnings: readonly string[];
  /** OAuth provider base URLs (`GITHUB_OAUTH_BASE_URL`, `GITHUB_API_BASE_URL`, `LARK_BASE_URL`, `LARK_PASSPORT_BASE_URL`; overridable for tests). */
  readonly oauthUrls: { readonly githubOAuth: string; readonly githubApi: string; readonly lark: string; readonly larkPassport: string };
  /** Cloudflare Turnstile siteverify endpoint (`TURNSTILE_VERIFY_URL`, ours; overridable for tests). */
  readonly turnstileVerifyUrl: string;
  /** `TRUSTED_ORIGINS`: other origins whose pages may use the session cookie on /api (normalised `scheme://host[:port]`). */
  readonly trustedOrigins: readonly string[];
  /** Seconds slept between channels in batch channel tests and balance updates (`POLLING_INTERVAL`, 0). */
  readonly pollingIntervalSeconds: number;
  /** The user message of a channel test (`TEST_PROMPT`). */
  readonly testPrompt: string;
  /** Minutes between automatic test-all runs (`CHANNEL_TEST_FREQUENCY`); 0 = none. */
  readonly channelTestFrequencyMinutes: number;
  /** Upstream timeout of relay requests in ms (`RELAY_TIMEOUT`, seconds; 0 = none, as in one-api). */
  readonly relayTimeoutMs: number;
  /** PostgreSQL: how long a gateway counts as running without renewing its lease (`RELAY_LEASE_SECONDS`, 30, 3..3600; renewed every third of it). */
  readonly relayLeaseMs: number;
  /** `ENFORCE_INCLUDE_USAGE=true`: always re-serialise OpenAI requests, forcing `stream_options.include_usage`. */
  readonly enforceIncludeUsage: boolean;
  /** `RELAY_MAX_COMPLETION_TOKENS` (16384): completion tokens billed at most when a request sets no max_tokens. */
  readonly relayMaxCompletionTokens: number;
  /** `RELAY_MAX_PROMPT_TOKENS`: prompts counted above this are refused (413) before anything is reserved (2,000,000). */
  readonly relayMaxPromptTokens: number;
  /** `RELAY_CLIENT_STALL_TIMEOUT` (seconds, 300; 0 = none): a stream client that takes nothing for this long is disconnected. */
  readonly relayClientStallMs: number;
  /** `TRUSTED_PROXIES`: the peers whose `X-Forwarded-For` / `X-Real-IP` name the client (`*`: every peer, as one-api). */
  readonly trustedProxies: TrustedProxies;
}

/** An environment variable holds a value the server cannot use. */
export class ConfigError extends Error {
  /** Builds the error for variable `name`. */
  constructor(name: string, detail: string) {
    super(`${name}: ${detail}`);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

/** The trimmed value of `name`, or undefined when unset or blank. */
const read = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/** A non-negative integer variable within `max`, or `fallback` when unset. */
const readInt = (env: Env, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number => {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) throw new ConfigError(name, `expected an integer 0..${max}, got "${raw}"`);
  return Number(raw);
};

/** one-api's boolean parsing of environment flags: only `true` (any case) is true. */
const readFlag = (env: Env, name: string): boolean => read(env, name)?.toLowerCase() === 'true';

/** `TRUSTED_PROXIES`: `*`, or a comma list of networks (`10.0.0.0/8`) and addresses; unset: loopback only. */
const readTrustedProxies = (env: Env): TrustedProxies => {
  const raw = read(env, 'TRUSTED_PROXIES');
  if (raw === undefined) return defaultTrustedProxies;
  if (raw === '*') return 'all';
  const entries = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const bad = entries.find((entry) => parseNetwork(entry) === null);
  if (bad !== undefined) throw new ConfigError('TRUSTED_PROXIES', `"${bad}" is not an address or a network (e.g. 10.0.0.0/8); use * to trust every peer`);
  return entries;
};

/** SQLite unless `SQL_DSN` is a PostgreSQL URL; MySQL DSNs are refused (not supported). */
const readDatabase = (env: Env): DatabaseConfig => {
  const dsn = read(env, 'SQL_DSN');
  if (dsn === undefined) {
    return {
      kind: 'sqlite',
      path: read(env, 'SQLITE_PATH') ?? './data/one-api.db',
      busyTimeoutMs: readInt(env, 'SQLITE_BUSY_TIMEOUT', 3000),
      settlementThread: read(env, 'SQLITE_SETTLEMENT_THREAD')?.toLowerCase() !== 'false',
    };
  }
  if (/^postgres(ql)?:\/\//i.test(dsn)) {
    const pool = read(env, 'SQL_MAX_OPEN_CONNS') === undefined ? undefined : readInt(env, 'SQL_MAX_OPEN_CONNS', 10, 1000);
    if (pool === 0) throw new ConfigError('SQL_MAX_OPEN_CONNS', 'expected an integer 1..1000, got "0"');
    return pool === undefined ? { kind: 'postgres', dsn } : { kind: 'postgres', dsn, maxConnections: pool };
  }
  throw new ConfigError('SQL_DSN', 'only PostgreSQL (postgres://...) is supported; unset it to use SQLite');
};

/** `TRUSTED_ORIGINS`: a comma list of `http(s)://host[:port]` origins (no path), normalised; unset: none. */
const readTrustedOrigins = (env: Env): readonly string[] => {
  const entries = (read(env, 'TRUSTED_ORIGINS') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const origins = entries.map((entry) => {
    const origin = normaliseOrigin(entry);
    if (origin === null) throw new ConfigError('TRUSTED_ORIGINS', `"${entry}" is not an origin: expected http(s)://host[:port] without a path, e.g. https://console.example.com`);
    return origin;
  });
  return [...new Set(origins)];
};

/** Reads the configuration from `env` (default `process.env`). */
export function loadConfig(env: Env = process.env): Config {
  const warnings: string[] = [];
  const secret = read(env, 'SESSION_SECRET');
  if (secret === undefined) {
    warnings.push('SESSION_SECRET is not set: a random secret is used, sessions end when the server restarts and two-factor secrets are stored unencrypted');
  }
  const rootAccessToken = read(env, 'INITIAL_ROOT_ACCESS_TOKEN');
  if (rootAccessToken !== undefined && rootAccessToken.length > 32) {
    throw new ConfigError('INITIAL_ROOT_ACCESS_TOKEN', 'at most 32 characters (column access_token is char(32))');
  }
  const rootToken = read(env, 'INITIAL_ROOT_TOKEN');
  if (rootToken !== undefined && rootToken.length > 48) {
    throw new ConfigError('INITIAL_ROOT_TOKEN', 'at most 48 characters (column tokens.key is char(48))');
  }
  let redisConnString = read(env, 'REDIS_CONN_STRING') ?? null;
  if (redisConnString !== null && read(env, 'SYNC_FREQUENCY') === undefined) {
    warnings.push('REDIS_CONN_STRING is set but SYNC_FREQUENCY is not: Redis is disabled (as in one-api)');
    redisConnString = null;
  }
  return {
    port: readInt(env, 'PORT', 3000, 65535),
    database: readDatabase(env),
    sessionSecret: secret ?? randomBytes(32).toString('hex'),
    sessionSecretGenerated: secret === undefined,
    initialRootToken: rootToken ?? null,
    initialRootAccessToken: rootAccessToken ?? null,
    theme: read(env, 'THEME') ?? 'default',
    debug: readFlag(env, 'DEBUG'),
    globalApiRateLimit: readInt(env, 'GLOBAL_API_RATE_LIMIT', 480),
    globalWebRateLimit: readInt(env, 'GLOBAL_WEB_RATE_LIMIT', 240),
    criticalRateLimit: 20,
    rateLimitWindowsMs: { globalApi: 180_000, globalWeb: 180_000, critical: 1_200_000 },
    redisConnString,
    syncFrequencySeconds: Math.max(1, readInt(env, 'SYNC_FREQUENCY', 600, 86_400)),
    channelTestRunStaleMs: Math.max(2, readInt(env, 'CHANNEL_TEST_RUN_STALE_SECONDS', 15, 3600)) * 1000,
    version: read(env, 'VERSION') ?? 'v0.0.0',
    warnings,
    oauthUrls: {
      githubOAuth: (read(env, 'GITHUB_OAUTH_BASE_URL') ?? 'https://github.com').replace(/\/+$/, ''),
      githubApi: (read(env, 'GITHUB_API_BASE_URL') ?? 'https://api.github.com').replace(/\/+$/, ''),
      lark: (read(env, 'LARK_BASE_URL') ?? 'https://open.feishu.cn').replace(/\/+$/, ''),
      larkPassport: (read(env, 'LARK_PASSPORT_BASE_URL') ?? 'https://passport.feishu.cn').replace(/\/+$/, ''),
    },
    turnstileVerifyUrl: read(env, 'TURNSTILE_VERIFY_URL') ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    trustedOrigins: readTrustedOrigins(env),
    pollingIntervalSeconds: readInt(env, 'POLLING_INTERVAL', 0),
    testPrompt: read(env, 'TEST_PROMPT') ?? 'Output only your specific model name with no additional text.',
    channelTestFrequencyMinutes: readInt(env, 'CHANNEL_TEST_FREQUENCY', 0),
    relayTimeoutMs: readInt(env, 'RELAY_TIMEOUT', 0, 86_400) * 1000,
    relayLeaseMs: Math.max(3, readInt(env, 'RELAY_LEASE_SECONDS', 30, 3600)) * 1000,
    enforceIncludeUsage: readFlag(env, 'ENFORCE_INCLUDE_USAGE'),
    relayMaxCompletionTokens: readInt(env, 'RELAY_MAX_COMPLETION_TOKENS', 16_384, 1_073_741_823),
    relayMaxPromptTokens: readInt(env, 'RELAY_MAX_PROMPT_TOKENS', 2_000_000),
    relayClientStallMs: readInt(env, 'RELAY_CLIENT_STALL_TIMEOUT', 300, 86_400) * 1000,
    trustedProxies: readTrustedProxies(env),
  };
}
