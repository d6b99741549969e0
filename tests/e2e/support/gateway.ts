/**
 * The real gateway for end-to-end tests: a fresh SQLite file, migrations, bootstrap, the API
 * and the console (built once per run by globalSetup.ts) all on one loopback port, and Debian's
 * Chromium driven by Playwright.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright';
import { loadConfig, type Config, type Env } from '../../../server/config';
import { bootstrap } from '../../../server/db/bootstrap';
import { openDatabase, type DatabaseHandle } from '../../../server/db/connect';
import { migrate } from '../../../server/db/migrate';
import { createServerApp } from '../../../server/http/server';
import { Client } from '../../server/support/http';
import { chromiumArgs } from '../../../vitest.config';

export interface GatewayOptions {
  /** Extra environment for the server (SMTP is an option; OAuth base URLs are env). */
  readonly env?: Env;
  /** Fields set after reading the environment (e.g. rate limits). */
  readonly config?: Partial<Config>;
}

export interface GatewayUnderTest {
  readonly url: string;
  readonly browser: Browser;
  readonly database: DatabaseHandle;
  readonly config: Config;
  /** A fresh browser context (its pages work with AxeBuilder) with a desktop window by default. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** An HTTP client (cookie jar) for this gateway, logged in as root (default password). */
  root(): Promise<Client>;
  readonly close: () => Promise<void>;
}

/** The console build the e2e globalSetup made for this run. */
export function consoleDist(): string {
  return inject('consoleDist');
}

/** Launches Debian's Chromium with the project's flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
}

export async function startGateway(options: GatewayOptions = {}): Promise<GatewayUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-e2e-'));
  // The rate limits keep their defaults: the global web limit counts pages, not the hashed chunks
  // a cold browser loads (server/http/server.ts), so the walks stay far below it.
  const env = { SQLITE_PATH: join(dir, 'one-api.db'), SESSION_SECRET: 'e2e-secret', VERSION: 'v0.1.0' };
  const config: Config = {
    ...loadConfig({ ...env, ...options.env }),
    ...options.config,
  };
  const database = openDatabase(config);
  await migrate(database.db, database.dialect);
  await bootstrap(database.db, database.dialect, config);
  const app = createServerApp({ db: database.db, dialect: database.dialect, config }, consoleDist());
  const server = await new Promise<{ server: ServerType; port: number }>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve({ server: s, port: info.port }));
  });
  const browser = await launchChromium();
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    browser,
    database,
    config,
    newContext: (contextOptions) => browser.newContext({ viewport: { width: 1280, height: 800 }, ...contextOptions }),
    root: async () => {
      const client = new Client(url);
      const reply = await client.login('root', '123456');
      if (reply.body?.success !== true) throw new Error(`root login failed: ${reply.text}`);
      return client;
    },
    close: async () => {
      await browser.close();
      server.server.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Sets options through the API as root (`PUT /api/option/`), failing on the first refusal. */
export async function setOptions(root: Client, values: Readonly<Record<string, string>>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const reply = await root.request('PUT', '/api/option/', { body: { key, value } });
    if (reply.body?.success !== true) throw new Error(`option ${key}: ${reply.text}`);
  }
}
