/**
 * The real gateway for end-to-end tests: a fresh SQLite file, migrations, bootstrap, the API
 * and the console built once into a temp folder, all on one loopback port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { build } from 'vite';
import { chromium, type Browser } from 'playwright';
import { loadConfig } from '../../../server/config';
import { bootstrap } from '../../../server/db/bootstrap';
import { openDatabase, type DatabaseHandle } from '../../../server/db/connect';
import { migrate } from '../../../server/db/migrate';
import { createServerApp } from '../../../server/http/server';
import { chromiumArgs } from '../../../vitest.config';

export interface GatewayUnderTest {
  readonly url: string;
  readonly browser: Browser;
  readonly database: DatabaseHandle;
  readonly close: () => Promise<void>;
}

export async function startGateway(): Promise<GatewayUnderTest> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-e2e-'));
  const dist = join(dir, 'dist');
  await build({ logLevel: 'silent', build: { outDir: dist, emptyOutDir: true } });
  const config = loadConfig({ SQLITE_PATH: join(dir, 'one-api.db'), SESSION_SECRET: 'e2e-secret', VERSION: 'v0.1.0' });
  const database = openDatabase(config);
  await migrate(database.db, database.dialect);
  await bootstrap(database.db, database.dialect, config);
  const app = createServerApp({ db: database.db, dialect: database.dialect, config }, dist);
  const server = await new Promise<{ server: ServerType; port: number }>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve({ server: s, port: info.port }));
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
  return {
    url: `http://127.0.0.1:${server.port}`,
    browser,
    database,
    close: async () => {
      await browser.close();
      server.server.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
