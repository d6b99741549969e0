/**
 * `npm start` runs this (through scripts/start.mjs, which builds the console first when needed):
 * reads the configuration, opens the database (SQLite file, or PostgreSQL with SQL_DSN), runs
 * the idempotent migrations and the first-start bootstrap, and serves API and console on PORT.
 */
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { loadConfig } from './config';
import { bootstrap } from './db/bootstrap';
import { openDatabase } from './db/connect';
import { migrate } from './db/migrate';
import { createServerApp } from './http/server';
import { resolveDeps } from './http/api';
import { settlementsDone } from './relay/billing';
import { scheduleChannelTests, stopBatchTests } from './services/channelTest';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

async function main(): Promise<void> {
  // The console compares its build version with the server's: both come from package.json.
  const config = loadConfig({ VERSION: `v${version}`, ...process.env });
  for (const warning of config.warnings) console.warn(`warning: ${warning}`);
  const database = openDatabase(config);
  await migrate(database.db, database.dialect);
  const report = await bootstrap(database.db, database.dialect, config);
  if (report.rootCreated) console.log('First start: created the root user (root / 123456). Change its password.');
  const deps = resolveDeps({ db: database.db, dialect: database.dialect, config });
  const app = createServerApp(deps, 'dist');
  const stopSchedule =
    config.channelTestFrequencyMinutes > 0 ? scheduleChannelTests(deps, config.channelTestFrequencyMinutes * 60_000) : () => undefined;
  const server = serve({ fetch: app.fetch, port: config.port }, (info) => {
    const where = config.database.kind === 'sqlite' ? `SQLite ${config.database.path}` : 'PostgreSQL';
    console.log(`Gateway listening on http://localhost:${info.port} (${where})`);
  });
  const stop = (): void => {
    server.close();
    stopSchedule();
    // A background channel-test run is aborted, and the billing of answered relay requests
    // finished, before the database closes.
    void stopBatchTests(database.db)
      .then(() => settlementsDone(database.db))
      .then(() => database.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
