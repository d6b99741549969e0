import { sql, type Kysely, type ColumnDefinitionBuilder } from 'kysely';
import { tableSpecs, type ColumnSpec, type Database, type Dialect, type TableSpec } from './schema';

/**
 * Idempotent start-up migrations: create missing tables, add missing columns, create missing
 * indexes. Nothing is ever dropped, renamed or retyped, so a database created by one-api keeps
 * its data, its column types and its indexes, and one-api can keep using it.
 */

/** What one run changed; an up-to-date database gives empty lists. */
export interface MigrationReport {
  readonly createdTables: readonly string[];
  readonly addedColumns: readonly string[];
  readonly createdIndexes: readonly string[];
  /** Indexes that could not be created (e.g. duplicate values in old data); the server still starts. */
  readonly warnings: readonly string[];
}

type Db = Kysely<Database>;

/** Arbitrary constant key of the PostgreSQL advisory lock that serialises concurrent migrations. */
const pgLockKey = 7_031_994_215;

/** Names of the tables present in the current schema. */
async function existingTables(db: Db, dialect: Dialect): Promise<Set<string>> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table'`
      : sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`;
  const { rows } = await query.execute(db);
  return new Set(rows.map((r) => r.name));
}

/** Names of the columns of `table`. */
async function existingColumns(db: Db, dialect: Dialect, table: string): Promise<Set<string>> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from pragma_table_info(${table})`
      : sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table}`;
  const { rows } = await query.execute(db);
  return new Set(rows.map((r) => r.name));
}

/** Names of all indexes in the current schema. */
async function existingIndexes(db: Db, dialect: Dialect): Promise<Set<string>> {
  const query =
    dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'index'`
      : sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`;
  const { rows } = await query.execute(db);
  return new Set(rows.map((r) => r.name));
}

/** Applies the constraints of `spec` to a column definition (`adding`: ALTER TABLE ADD on an existing table). */
function columnModifiers(spec: ColumnSpec, dialect: Dialect, adding: boolean) {
  return (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder => {
    let b = c;
    if (spec.autoId) b = dialect === 'sqlite' ? b.primaryKey().autoIncrement() : b.primaryKey();
    if (spec.primaryKey) b = b.primaryKey();
    // SQLite cannot ADD a NOT NULL column without default, nor a UNIQUE one (indexes cover uniqueness).
    if (spec.notNull && !(adding && spec.default === undefined)) b = b.notNull();
    if (spec.unique && !(adding && dialect === 'sqlite')) b = b.unique();
    if (spec.default !== undefined) b = b.defaultTo(sql.raw(spec.default));
    return b;
  };
}

/** Creates one table with all its columns. */
async function createTable(db: Db, dialect: Dialect, spec: TableSpec): Promise<void> {
  let builder = db.schema.createTable(spec.name).ifNotExists();
  for (const column of spec.columns) {
    builder = builder.addColumn(column.name, sql.raw(column[dialect]), columnModifiers(column, dialect, false));
  }
  if (spec.primaryKey) builder = builder.addPrimaryKeyConstraint(`${spec.name}_pkey`, [...spec.primaryKey] as never);
  await builder.execute();
}

/** Adds the columns of `spec` missing from an existing table; returns `table.column` names. */
async function addMissingColumns(db: Db, dialect: Dialect, spec: TableSpec): Promise<string[]> {
  const present = await existingColumns(db, dialect, spec.name);
  const added: string[] = [];
  for (const column of spec.columns.filter((c) => !present.has(c.name))) {
    await db.schema
      .alterTable(spec.name)
      .addColumn(column.name, sql.raw(column[dialect]), columnModifiers(column, dialect, true))
      .execute();
    added.push(`${spec.name}.${column.name}`);
  }
  return added;
}

/** Creates the missing indexes of `spec`; failures become warnings. */
async function createMissingIndexes(db: Db, spec: TableSpec, present: Set<string>) {
  const created: string[] = [];
  const warnings: string[] = [];
  for (const index of spec.indexes.filter((i) => !present.has(i.name))) {
    let builder = db.schema.createIndex(index.name).ifNotExists().on(spec.name).columns([...index.columns]);
    if (index.unique) builder = builder.unique();
    try {
      await builder.execute();
      created.push(index.name);
    } catch (error) {
      warnings.push(`index ${index.name} on ${spec.name} not created: ${(error as Error).message}`);
    }
  }
  return { created, warnings };
}

/**
 * Our own query indexes (not one-api's; prefixed `idx_oa_` so they never clash with GORM's names),
 * for the console's list, search and stat queries on large tables (bench/api measures them).
 * SQLite's LIKE ignores ASCII case, so its prefix-LIKE indexes use `collate nocase`; PostgreSQL's
 * LIKE uses `text_pattern_ops`, which serves prefix LIKE under any database collation.
 */
export const queryIndexes: readonly { readonly name: string; readonly sqlite: string | null; readonly postgres: string }[] = [
  // logs: newest-first pages per filter (SQLite appends the rowid = id to every index).
  { name: 'idx_oa_logs_type_id', sqlite: 'logs (type)', postgres: 'logs (type, id)' },
  { name: 'idx_oa_logs_username_id', sqlite: 'logs (username)', postgres: 'logs (username, id)' },
  // On SQLite one-api's own idx_logs_user_id, idx_logs_model_name and idx_logs_token_name are these
  // three already (see `redundantIndexes`).
  { name: 'idx_oa_logs_user_id_id', sqlite: null, postgres: 'logs (user_id, id)' },
  { name: 'idx_oa_logs_model_name_id', sqlite: null, postgres: 'logs (model_name, id)' },
  { name: 'idx_oa_logs_token_name_id', sqlite: null, postgres: 'logs (token_name, id)' },
  // logs: ids of a time window read from the index alone (SQLite's idx_created_at_type already ends with the rowid).
  { name: 'idx_oa_logs_created_at_id', sqlite: null, postgres: 'logs (created_at, id)' },
  // logs: consume sums (covering: the filter columns, then quota). On SQLite the usage indexes
  // below serve these sums too (same leading columns, quota included): see `redundantIndexes`.
  { name: 'idx_oa_logs_type_created_at_quota', sqlite: null, postgres: 'logs (type, created_at, quota)' },
  { name: 'idx_oa_logs_user_type_created_at_quota', sqlite: null, postgres: 'logs (user_id, type, created_at, quota)' },
  // logs: the dashboard's per-day, per-model usage (covering: filter columns, then the grouped and summed ones).
  {
    name: 'idx_oa_logs_user_type_created_at_usage',
    sqlite: 'logs (user_id, type, created_at, model_name, quota, prompt_tokens, completion_tokens)',
    postgres: 'logs (user_id, type, created_at, model_name, quota, prompt_tokens, completion_tokens)',
  },
  {
    name: 'idx_oa_logs_type_created_at_usage',
    sqlite: 'logs (type, created_at, model_name, quota, prompt_tokens, completion_tokens)',
    postgres: 'logs (type, created_at, model_name, quota, prompt_tokens, completion_tokens)',
  },
  // users, tokens, channels: prefix searches and per-owner pages.
  { name: 'idx_oa_users_username_prefix', sqlite: 'users (username collate nocase)', postgres: 'users (username text_pattern_ops)' },
  { name: 'idx_oa_users_email_prefix', sqlite: 'users (email collate nocase)', postgres: 'users (email text_pattern_ops)' },
  { name: 'idx_oa_users_display_name_prefix', sqlite: 'users (display_name collate nocase)', postgres: 'users (display_name text_pattern_ops)' },
  { name: 'idx_oa_tokens_user_id_id', sqlite: 'tokens (user_id)', postgres: 'tokens (user_id, id)' },
  { name: 'idx_oa_tokens_user_id_name_prefix', sqlite: 'tokens (user_id, name collate nocase)', postgres: 'tokens (user_id, name text_pattern_ops)' },
  { name: 'idx_oa_channels_name_prefix', sqlite: 'channels (name collate nocase)', postgres: 'channels (name text_pattern_ops)' },
];

/**
 * Indexes earlier versions created that another index makes useless, dropped when present: each
 * one only cost a page write per consume log (the relay's settlement writes every page it
 * changes to the WAL). On SQLite an index on (x) holds (x, rowid), so the first three equal
 * one-api's idx_logs_user_id, idx_logs_model_name and idx_logs_token_name, which `tableSpecs`
 * keeps; the two quota indexes are prefixes of the usage indexes, which hold quota as well.
 */
export const redundantIndexes: Readonly<Record<Dialect, readonly { readonly name: string; readonly twin: string; readonly columns: string }[]>> = {
  // `columns`: what the earlier version indexed (logs table).
  sqlite: [
    { name: 'idx_oa_logs_user_id_id', twin: 'idx_logs_user_id', columns: 'user_id' },
    { name: 'idx_oa_logs_model_name_id', twin: 'idx_logs_model_name', columns: 'model_name' },
    { name: 'idx_oa_logs_token_name_id', twin: 'idx_logs_token_name', columns: 'token_name' },
    { name: 'idx_oa_logs_type_created_at_quota', twin: 'idx_oa_logs_type_created_at_usage', columns: 'type, created_at, quota' },
    { name: 'idx_oa_logs_user_type_created_at_quota', twin: 'idx_oa_logs_user_type_created_at_usage', columns: 'user_id, type, created_at, quota' },
  ],
  postgres: [],
};

/** The `queryIndexes` that `dialect` gets. */
export const queryIndexesOf = (dialect: Dialect) => queryIndexes.filter((i) => i[dialect] !== null);

/** Creates the missing `queryIndexes`; failures become warnings. */
async function createQueryIndexes(db: Db, dialect: Dialect, present: Set<string>) {
  const created: string[] = [];
  const warnings: string[] = [];
  for (const { name, twin } of redundantIndexes[dialect]) {
    if (present.has(name) && present.has(twin)) await sql.raw(`drop index if exists ${name}`).execute(db);
  }
  for (const index of queryIndexesOf(dialect).filter((i) => !present.has(i.name))) {
    try {
      await sql.raw(`create index if not exists ${index.name} on ${index[dialect] ?? ''}`).execute(db);
      created.push(index.name);
    } catch (error) {
      warnings.push(`index ${index.name} not created: ${(error as Error).message}`);
    }
  }
  // SQLite plans without statistics unless told: give its planner row counts per index
  // (sampled, so fast on large tables) so that it prefers the selective index of a filter. A sample
  // of 10,000 entries per index (~0.2 s on 1M logs) is needed: 1,000 misjudged username vs type ranges.
  if (dialect === 'sqlite' && created.length > 0) {
    await sql`pragma analysis_limit = 10000`.execute(db);
    await sql`analyze`.execute(db);
  }
  return { created, warnings };
}

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
async function ensureRollups(db: Db, dialect: Dialect, tables: Set<string>): Promise<string[]> {
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

/**
 * SQLite: one row per watched table, its `mark` set to a new random value by triggers on every
 * write to that table; and the row `settlementsMark`, the id up to which the settlement thread
 * has committed every relay settlement (server/relay/settlementWorker.mjs).
 */
export const changeMarksTable = 'oa_change_marks';
export const settlementsMark = 'settlements';
/** The tables whose writes `changeMarksTable` records (the relay keeps their rows in memory; see ChangeWatch). */
const markedTables = ['options'] as const;
const markEvents = ['insert', 'update', 'delete'] as const;
/** The triggers that maintain `changeMarksTable`. */
export const changeMarkTriggers = markedTables.flatMap((table) => markEvents.map((event) => `oa_${table}_mark_${event}`));

/**
 * SQLite: creates `changeMarksTable`, its rows and the triggers that give a table's row a new
 * random mark on every insert, update or delete, by any connection or process (a random value,
 * not a counter: a rolled-back write must not let a later write show the same mark). Returns
 * the tables created.
 */
async function ensureChangeMarks(db: Db, dialect: Dialect, tables: Set<string>): Promise<string[]> {
  if (dialect !== 'sqlite') return [];
  const created = tables.has(changeMarksTable) ? [] : [changeMarksTable];
  await sql.raw(`create table if not exists ${changeMarksTable} (name text primary key, mark integer not null) without rowid`).execute(db);
  await sql.raw(`insert or ignore into ${changeMarksTable} (name, mark) values ('${settlementsMark}', 0)`).execute(db);
  for (const table of markedTables) {
    await sql.raw(`insert or ignore into ${changeMarksTable} (name, mark) values ('${table}', random())`).execute(db);
    for (const event of markEvents) {
      await sql
        .raw(
          `create trigger if not exists oa_${table}_mark_${event} after ${event} on ${table} for each row ` +
            `begin update ${changeMarksTable} set mark = random() where name = '${table}'; end`,
        )
        .execute(db);
    }
  }
  return created;
}

/**
 * PostgreSQL: the durable relay reservations (server/relay/reservationLedger.ts). Several gateways
 * may share the database, so a reservation taken from a user and a token is written, in the same
 * statement as the taking, with the gateway that took it; a gateway's lease row says whether it
 * still runs. `oa_relay_reserve` takes and records a reservation in one round trip (rows locked
 * users → tokens, as everywhere); `oa_relay_refund` gives one back once. SQLite needs none of this
 * (one gateway owns the file; reservations are held in its memory and nothing is written before
 * the settlement).
 */
export const relayLedgerTables = ['oa_relay_instances', 'oa_relay_reservations'] as const;

const relayLedgerDdl: readonly string[] = [
  `create table if not exists oa_relay_instances (id text primary key, host text not null, port integer not null,
    pid integer not null, started_at bigint not null, renewed_at bigint not null, lease_until bigint not null)`,
  `create table if not exists oa_relay_reservations (id bigserial primary key, instance_id text not null,
    user_id bigint not null, token_id bigint not null, amount bigint not null, created_at bigint not null)`,
  // The happy path is two conditional updates and the insert (no `for update` first: a row lock
  // is one more WAL record per row). A token too short takes back what the user update took,
  // in the same statement, so nothing of it shows.
  `create or replace function oa_relay_reserve(p_amount bigint, p_user bigint, p_token bigint, p_instance text)
    returns table (r_outcome text, r_quota bigint, r_email text, r_unlimited boolean, r_id bigint)
    language plpgsql as $$
    declare
      v_quota bigint; v_email text; v_unlimited boolean; v_id bigint;
    begin
      update users u set quota = u.quota - p_amount where u.id = p_user and u.quota >= p_amount
        returning u.quota, u.email into v_quota, v_email;
      if not found then
        return query select 'user'::text, null::bigint, null::text, null::boolean, null::bigint;
        return;
      end if;
      update tokens t set remain_quota = t.remain_quota - p_amount, used_quota = t.used_quota + p_amount
        where t.id = p_token and (t.unlimited_quota = true or t.remain_quota >= p_amount)
        returning t.unlimited_quota into v_unlimited;
      if not found then
        update users u set quota = u.quota + p_amount where u.id = p_user;
        return query select 'token'::text, null::bigint, null::text, null::boolean, null::bigint;
        return;
      end if;
      insert into oa_relay_reservations (instance_id, user_id, token_id, amount, created_at)
        values (p_instance, p_user, p_token, p_amount, (extract(epoch from clock_timestamp()) * 1000)::bigint)
        returning id into v_id;
      return query select 'ok'::text, v_quota, v_email, coalesce(v_unlimited, false), v_id;
    end $$`,
  `create or replace function oa_relay_refund(p_id bigint) returns bigint language plpgsql as $$
    declare
      v_user bigint; v_token bigint; v_amount bigint;
    begin
      delete from oa_relay_reservations r where r.id = p_id returning r.user_id, r.token_id, r.amount into v_user, v_token, v_amount;
      if not found then
        return null;
      end if;
      update users u set quota = u.quota + v_amount where u.id = v_user;
      update tokens t set remain_quota = t.remain_quota + v_amount, used_quota = t.used_quota - v_amount where t.id = v_token;
      return v_amount;
    end $$`,
];

/** PostgreSQL: creates the relay's reservation tables and functions (functions replaced on every start); returns the tables created. */
async function ensureRelayLedger(db: Db, dialect: Dialect, tables: Set<string>): Promise<string[]> {
  if (dialect !== 'postgres') return [];
  for (const ddl of relayLedgerDdl) await sql.raw(ddl).execute(db);
  return relayLedgerTables.filter((t) => !tables.has(t));
}

/** Options of `migrate`. */
export interface MigrateOptions {
  /** Create the `queryIndexes` too (default true; false only for before/after measurements). */
  readonly queryIndexes?: boolean;
}

/** Runs every migration step on one connection. */
async function migrateOn(db: Db, dialect: Dialect, options: MigrateOptions): Promise<MigrationReport> {
  const tables = await existingTables(db, dialect);
  const createdTables: string[] = [];
  const addedColumns: string[] = [];
  for (const spec of tableSpecs) {
    if (tables.has(spec.name)) {
      addedColumns.push(...(await addMissingColumns(db, dialect, spec)));
    } else {
      await createTable(db, dialect, spec);
      createdTables.push(spec.name);
    }
  }
  const indexes = await existingIndexes(db, dialect);
  const createdIndexes: string[] = [];
  const warnings: string[] = [];
  for (const spec of tableSpecs) {
    const result = await createMissingIndexes(db, spec, indexes);
    createdIndexes.push(...result.created);
    for (const name of result.created) indexes.add(name);
    warnings.push(...result.warnings);
  }
  createdTables.push(...(await ensureRollups(db, dialect, tables)));
  createdTables.push(...(await ensureChangeMarks(db, dialect, tables)));
  createdTables.push(...(await ensureRelayLedger(db, dialect, tables)));
  if (options.queryIndexes ?? true) {
    const query = await createQueryIndexes(db, dialect, indexes);
    createdIndexes.push(...query.created);
    warnings.push(...query.warnings);
  }
  return { createdTables, addedColumns, createdIndexes, warnings };
}

/** Runs `fn` inside one write transaction (`begin immediate`), which serialises SQLite writers across processes. */
async function withSqliteWriteLock<T>(db: Db, fn: (db: Db) => Promise<T>): Promise<T> {
  await sql`begin immediate`.execute(db);
  try {
    const result = await fn(db);
    await sql`commit`.execute(db);
    return result;
  } catch (error) {
    await sql`rollback`.execute(db);
    throw error;
  }
}

/**
 * Runs `fn` so that concurrent server starts serialise: a PostgreSQL advisory lock held on one
 * connection, or a SQLite write transaction. Only for start-up work (no other queries may run meanwhile on SQLite).
 */
export async function withStartupLock<T>(db: Db, dialect: Dialect, fn: (db: Db) => Promise<T>): Promise<T> {
  if (dialect === 'sqlite') return withSqliteWriteLock(db, fn);
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${pgLockKey})`.execute(conn);
    try {
      return await fn(conn);
    } finally {
      await sql`select pg_advisory_unlock(${pgLockKey})`.execute(conn);
    }
  });
}

/** Brings the schema up to date; safe to run at every start and concurrently. */
export async function migrate(db: Db, dialect: Dialect, options: MigrateOptions = {}): Promise<MigrationReport> {
  return withStartupLock(db, dialect, (conn) => migrateOn(conn, dialect, options));
}
