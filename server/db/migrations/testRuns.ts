import { sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../schema';

/**
 * Our own tables for batch channel test runs (server/services/channelTest.ts), so that a run
 * started on one gateway can be followed and cancelled from any other sharing the database, and
 * only one runs at a time across all of them. one-api ignores them.
 * - `oa_channel_test_runs`: one row per run. At most one row is `running` (a partial unique
 *   index): starting a run is inserting that row. The executing gateway renews `heartbeat_at`
 *   (epoch ms) while it works and reads `cancel_requested`; a running row whose heartbeat is older
 *   than CHANNEL_TEST_RUN_STALE_SECONDS is ended as interrupted by the next gateway that looks.
 * - `oa_channel_test_run_results`: one row per tested channel, `idx` 0, 1, 2… per run.
 */
export const testRunTables = ['oa_channel_test_runs', 'oa_channel_test_run_results'] as const;
/** The index that lets one run at a time be `running`. */
export const oneRunningIndex = 'oa_channel_test_runs_one_running';

type Db = Kysely<Database>;

const ddl = (dialect: Dialect): readonly string[] => {
  const big = dialect === 'sqlite' ? 'integer' : 'bigint';
  const id = dialect === 'sqlite' ? 'integer primary key autoincrement' : 'bigserial primary key';
  const noRowid = dialect === 'sqlite' ? ' without rowid' : '';
  return [
    `create table if not exists oa_channel_test_runs (id ${id}, scope text not null, status text not null,
      started_at ${big} not null, finished_at ${big} not null default 0, channel_ids text not null default '[]',
      executor text not null, heartbeat_at ${big} not null, cancel_requested ${big} not null default 0,
      interrupted ${big} not null default 0)`,
    `create unique index if not exists ${oneRunningIndex} on oa_channel_test_runs (status) where status = 'running'`,
    `create table if not exists oa_channel_test_run_results (run_id ${big} not null, idx ${big} not null,
      channel_id ${big} not null, success ${big} not null, message text not null, model text not null,
      status ${big} not null, response_time ${big} not null, test_time ${big} not null,
      primary key (run_id, idx))${noRowid}`,
  ];
};

/** Creates the test-run tables that are missing; returns the tables created. */
export async function ensureTestRuns(db: Db, dialect: Dialect, tables: Set<string>): Promise<string[]> {
  const created = testRunTables.filter((name) => !tables.has(name));
  if (created.length === 0) return [];
  for (const statement of ddl(dialect)) await sql.raw(statement).execute(db);
  return created;
}
