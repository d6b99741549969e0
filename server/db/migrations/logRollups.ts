import { sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../schema';

/**
 * The hourly rollups of the consume logs (`rollupTables`), the triggers on `logs` that keep them
 * exact, and their backfill; server/services/log.ts reads them for the log stats.
 */

type Db = Kysely<Database>;

/** Seconds per rollup bucket. */
export const rollupBucketSeconds = 3600;
/** The bucket of rows whose `created_at` is NULL (below every real bucket; such rows match no time filter). */
export const rollupNullBucket = '-4611686018427387904';

/**
 * Hourly rollups of the consume logs (type 2) behind `GET /api/log/stat` and `/api/log/self/stat`:
 * sums of `quota` and row counts per hour, overall, per model and per (user, username, model).
 * Database triggers on `logs` keep them exact whoever writes the logs (one-api too). `token_name`
 * and `channel_id` are not rolled up: nearly every log has its own (token, channel) pair, so such a
 * rollup would be as large as `logs`; those filters are summed from `logs` directly.
 */
export const rollupTables = [
  { name: 'oa_log_quota_hourly', keys: [] },
  { name: 'oa_log_quota_hourly_model', keys: ['model_name'] },
  { name: 'oa_log_quota_hourly_user', keys: ['user_id', 'username', 'model_name'] },
] as const;
/** The triggers on `logs` that maintain `rollupTables`. */
export const rollupTriggers = ['oa_logs_quota_insert', 'oa_logs_quota_delete', 'oa_logs_quota_update_old', 'oa_logs_quota_update_new'] as const;
/** Secondary indexes of the rollups (their primary keys serve the other lookups). */
export const rollupIndexes = [{ name: 'idx_oa_log_quota_hourly_user_username', on: 'oa_log_quota_hourly_user (username, bucket)' }] as const;

/** The rollup key value of a `logs` column reference (`new.x`, `old.x` or `x`); NULLs become the zero value. */
function rollupKey(key: string, row: string): string {
  if (key === 'user_id') return `coalesce(${row}user_id, 0)`;
  return `coalesce(${row}${key}, '')`;
}

/** The bucket of `created_at`: floor(created_at / 3600), without overflow, NULL → `rollupNullBucket`. */
function bucketOf(row: string): string {
  const c = `${row}created_at`;
  const n = rollupBucketSeconds;
  return `coalesce(case when ${c} >= 0 then ${c} / ${n} else (${c} + 1) / ${n} - 1 end, ${rollupNullBucket})`;
}

/** DDL of one rollup table. */
function rollupTableDdl(dialect: Dialect, table: (typeof rollupTables)[number]): string {
  const int = dialect === 'sqlite' ? 'integer' : 'bigint';
  const cols = table.keys.map((k) => `${k} ${k === 'user_id' ? int : 'text'} not null`);
  // On SQLite the rows live in the primary key (without rowid): the bucket-range sums read one b-tree.
  const pk = [...table.keys.slice(0, 1), 'bucket', ...table.keys.slice(1)];
  return `create table ${table.name} (bucket ${int} not null, ${[...cols, `quota ${int} not null`, `count ${int} not null`].join(', ')},` +
    ` primary key (${pk.join(', ')}))${dialect === 'sqlite' ? ' without rowid' : ''}`;
}

/** Statements adding (`sign` 1) or removing (-1) the row `row` (`new.` / `old.`) to/from every rollup. */
function rollupApply(row: string, sign: 1 | -1): string[] {
  return rollupTables.flatMap((t) => {
    const keys = ['bucket', ...t.keys];
    const values = [bucketOf(row), ...t.keys.map((k) => rollupKey(k, row))];
    const quota = `coalesce(${row}quota, 0)`;
    if (sign === 1) {
      return [
        `insert into ${t.name} (${keys.join(', ')}, quota, count) values (${values.join(', ')}, ${quota}, 1)` +
          ` on conflict (${keys.join(', ')}) do update set quota = ${t.name}.quota + excluded.quota, count = ${t.name}.count + 1`,
      ];
    }
    const where = keys.map((k, i) => `${k} = ${values[i]}`).join(' and ');
    return [
      `update ${t.name} set quota = quota - ${quota}, count = count - 1 where ${where}`,
      `delete from ${t.name} where ${where} and count <= 0`,
    ];
  });
}

/** The backfill of one rollup from the existing logs, in one statement. */
function rollupBackfill(table: (typeof rollupTables)[number]): string {
  const keys = ['bucket', ...table.keys];
  const exprs = [bucketOf(''), ...table.keys.map((k) => rollupKey(k, ''))];
  return `insert into ${table.name} (${keys.join(', ')}, quota, count) select ${exprs.join(', ')}, coalesce(sum(quota), 0), count(*)` +
    ` from logs where type = 2 group by ${exprs.join(', ')}`;
}

/** The trigger DDL of `dialect`; statements run in order. */
function rollupTriggerDdl(dialect: Dialect): string[] {
  const changed = 'type, created_at, quota, user_id, username, model_name';
  if (dialect === 'sqlite') {
    const trigger = (name: string, event: string, when: string, body: string[]) =>
      `create trigger if not exists ${name} after ${event} on logs for each row when ${when} begin ${body.map((s) => `${s};`).join(' ')} end`;
    return [
      trigger('oa_logs_quota_insert', 'insert', 'new.type = 2', rollupApply('new.', 1)),
      trigger('oa_logs_quota_delete', 'delete', 'old.type = 2', rollupApply('old.', -1)),
      trigger('oa_logs_quota_update_old', `update of ${changed}`, 'old.type = 2', rollupApply('old.', -1)),
      trigger('oa_logs_quota_update_new', `update of ${changed}`, 'new.type = 2', rollupApply('new.', 1)),
    ];
  }
  const fn = (name: string, body: string[]) =>
    `create or replace function ${name}() returns trigger language plpgsql as $$ begin ${body.map((s) => `${s};`).join(' ')} return null; end $$`;
  const trigger = (name: string, event: string, when: string) =>
    `create or replace trigger ${name} after ${event} on logs for each row when (${when}) execute function ${name}()`;
  return [
    fn('oa_logs_quota_insert', rollupApply('new.', 1)),
    fn('oa_logs_quota_delete', rollupApply('old.', -1)),
    fn('oa_logs_quota_update_old', rollupApply('old.', -1)),
    fn('oa_logs_quota_update_new', rollupApply('new.', 1)),
    trigger('oa_logs_quota_insert', 'insert', 'new.type = 2'),
    trigger('oa_logs_quota_delete', 'delete', 'old.type = 2'),
    trigger('oa_logs_quota_update_old', `update of ${changed}`, 'old.type = 2'),
    trigger('oa_logs_quota_update_new', `update of ${changed}`, 'new.type = 2'),
  ];
}

/** Names of the rollup triggers present on `logs`. */
async function existingTriggers(db: Db, dialect: Dialect): Promise<Set<string>> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'trigger' and tbl_name = 'logs'`
      : sql<{ name: string }>`select t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
          join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relname = 'logs'`;
  const { rows } = await query.execute(db);
  return new Set(rows.map((r) => r.name));
}

/**
 * Creates the rollups, their triggers and their backfill when any of them is missing (a rollup
 * without its triggers could be stale, so it is rebuilt from `logs`); returns the tables created.
 * Runs in one transaction: on PostgreSQL `create trigger` locks `logs` against writers until the
 * backfill commits, so no concurrent insert is missed or counted twice; on SQLite the caller holds
 * the write lock.
 */
export async function ensureRollups(db: Db, dialect: Dialect, tables: Set<string>): Promise<string[]> {
  const triggers = await existingTriggers(db, dialect);
  if (rollupTables.every((t) => tables.has(t.name)) && rollupTriggers.every((t) => triggers.has(t))) return [];
  const run = async () => {
    for (const t of rollupTables) await sql.raw(`drop table if exists ${t.name}`).execute(db);
    for (const t of rollupTables) await sql.raw(rollupTableDdl(dialect, t)).execute(db);
    for (const i of rollupIndexes) await sql.raw(`create index ${i.name} on ${i.on}`).execute(db);
    for (const ddl of rollupTriggerDdl(dialect)) await sql.raw(ddl).execute(db);
    for (const t of rollupTables) await sql.raw(rollupBackfill(t)).execute(db);
  };
  if (dialect === 'sqlite') {
    await run();
  } else {
    await sql`begin`.execute(db);
    try {
      await run();
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  }
  return rollupTables.map((t) => t.name);
}
