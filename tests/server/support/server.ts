import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { loadConfig, type Config, type DatabaseConfig, type Env } from '../../../server/config';
import { openDatabase, type DatabaseHandle } from '../../../server/db/connect';
import { migrate } from '../../../server/db/migrate';
import { bootstrap } from '../../../server/db/bootstrap';
import { createServerApp } from '../../../server/http/server';
import { createRateLimitStore } from '../../../server/http/rateLimit';
import { settlementsDone } from '../../../server/relay/billing';
import { stopBatchTests } from '../../../server/services/channelTest';

/** A real HTTP server around `createServerApp` (API and /v1 relay, no console), listening on 127.0.0.1 with a random port. */
export interface RunningApi {
  readonly url: string;
  readonly handle: DatabaseHandle;
  readonly config: Config;
  /** Closes the HTTP server and the database. */
  stop(): Promise<void>;
}

export const testSecret = 'test-session-secret';

/**
 * The test configuration: fixed SESSION_SECRET unless `env` says otherwise; rate limits off
 * (suites send hundreds of requests from one IP) unless `env` or `overrides` set them.
 */
export const testConfig = (database: DatabaseConfig, env: Env = {}, overrides: Partial<Config> = {}): Config => ({
  ...loadConfig({ SESSION_SECRET: testSecret, GLOBAL_API_RATE_LIMIT: '0', GLOBAL_WEB_RATE_LIMIT: '0', ...env }),
  criticalRateLimit: 0,
  ...overrides,
  database,
});

export interface StartOptions {
  readonly env?: Env;
  /** Fields set after reading `env` (e.g. rate-limit counts and windows). */
  readonly config?: Partial<Config>;
  readonly now?: () => number;
  /** Run migrate + bootstrap first (default true). */
  readonly prepare?: boolean;
}

/** Opens the database, prepares it and serves the API over real HTTP. */
export async function startApi(database: DatabaseConfig, options: StartOptions = {}): Promise<RunningApi> {
  const config = testConfig(database, options.env, options.config);
  const handle = openDatabase(config);
  if (options.prepare ?? true) {
    await migrate(handle.db, handle.dialect);
    await bootstrap(handle.db, handle.dialect, config);
  }
  const rateLimitStore = createRateLimitStore(config);
  const app = createServerApp({ db: handle.db, dialect: handle.dialect, config, now: options.now }, null, rateLimitStore);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    handle,
    config,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopBatchTests(handle.db);
      await settlementsDone(handle.db);
      await rateLimitStore.close();
      await handle.close();
    },
  };
}
