/**
 * `npm start` runs this (scripts/start.mjs bundles it into dist-server/main.mjs and builds the console when needed, then runs it with plain Node):
 * reads the configuration, opens the database (SQLite file, or PostgreSQL with SQL_DSN), runs
 * the idempotent migrations and the first-start bootstrap, and serves API and console on PORT.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { loadConfig } from './config';
import { bootstrap } from './db/bootstrap';
import { openDatabase } from './db/connect';
import { migrate } from './db/migrate';
import { createServerApp } from './http/server';
import { resolveDeps } from './http/api';
import { settlementsDone } from './relay/billing';
import { reservationsClosed, stopReserving } from './relay/reservations';
import { startSettlements } from './relay/settlementBridge';
import { startRelayLedger } from './relay/reservationLedger';
import { scheduleChannelTests, stopBatchTests } from './services/channelTest';
import { startClusterSync } from './services/clusterSync';

/** How long a shutdown waits for the relay requests in flight. */
const shutdownGraceMs = 25_000;

/**
 * Connections the kernel may hold for the server before it accepts them (the kernel caps it at
 * net.core.somaxconn). Node's default, 511, overflowed when thousands of clients connected within
 * seconds while the event loop was busy (bench/relay, many-streams scenario): the connections
 * dropped came back after the clients' SYN retries, 1, 3, 7… seconds later, or were reset.
 */
const listenBacklog = 4096;

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
  // With Redis: options and channel selections are cached, and changes are announced to the other gateways.
  const stopSync = startClusterSync(database.db, config);
  startSettlements(deps);
  const app = createServerApp(deps, 'dist');
  const stopSchedule =
    config.channelTestFrequencyMinutes > 0 ? scheduleChannelTests(deps, config.channelTestFrequencyMinutes * 60_000) : () => Promise.resolve();
  const server = createAdaptorServer({ fetch: app.fetch });
  server.listen({ port: config.port, backlog: listenBacklog }, () => {
    const info = server.address() as AddressInfo;
    const where = config.database.kind === 'sqlite' ? `SQLite ${config.database.path}` : 'PostgreSQL';
    console.log(`Gateway listening on http://localhost:${info.port} (${where})`);
    // PostgreSQL: give back what gateways gone (this one's previous run on this port included)
    // had reserved and never settled; then keep this gateway's lease.
    startRelayLedger(database.db, database.dialect, info.port, config.relayLeaseMs).then(
      (back) => {
        if (back.reservations > 0) console.warn(`Gave back ${back.reservations} unsettled relay reservation(s) of stopped gateways (${back.quota} quota).`);
      },
      (error: unknown) => console.error(`[relay] recovery of unsettled reservations failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  });
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.close();
    // Keep-alive clients would go on sending requests on their open connections: each one is
    // closed as soon as it is between requests.
    const closeIdle = setInterval(() => {
      if ('closeIdleConnections' in server) server.closeIdleConnections();
    }, 50);
    // A background channel-test run is aborted, the relay requests in flight finish (up to
    // shutdownGraceMs), and the billing of answered relay requests is done, before the database
    // closes; closing gives back what is still reserved (PostgreSQL).
    void stopSchedule()
      .then(() => stopBatchTests(database.db))
      .then(() => reservationsClosed(database.db, shutdownGraceMs))
      .then(() => {
        // Requests that had not reserved yet are refused from now on; the last ones being
        // reserved are waited for.
        stopReserving(database.db);
        return reservationsClosed(database.db, shutdownGraceMs);
      })
      .then(() => {
        clearInterval(closeIdle);
        return settlementsDone(database.db);
      })
      .then(() => stopSync())
      .then(() => database.close())
      .then(() => {
        console.log('Gateway stopped.');
        process.exit(0);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
