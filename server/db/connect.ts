import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config';
import { changeMarksTable } from './migrations/changeMarks';
import type { Database, Dialect } from './schema';

/** An open database: the typed query builder, its dialect and a way to close it. */
export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** Closes the connection (SQLite file / PostgreSQL pool). */
  close(): Promise<void>;
}

/** SQLite declared types that hold booleans (GORM writes Go bools as `numeric`). */
const booleanDeclaredTypes = new Set(['numeric', 'boolean', 'bool']);

/** SQLite cannot bind booleans: send them as 1/0, as one-api's driver does. */
const toSqliteParam = (value: unknown): unknown => (typeof value === 'boolean' ? (value ? 1 : 0) : value);

/** The names of result columns whose declared type is boolean-like. */
function booleanResultColumns(statement: BetterSqlite3.Statement): readonly string[] {
  if (!statement.reader) return [];
  return statement
    .columns()
    .filter((c) => c.type !== null && booleanDeclaredTypes.has(c.type.toLowerCase()))
    .map((c) => c.name);
}

/** Turns 0/1 back into false/true in the boolean columns of one row. */
function fixBooleans(row: unknown, columns: readonly string[]): unknown {
  if (columns.length === 0 || row === null || typeof row !== 'object') return row;
  const record = row as Record<string, unknown>;
  for (const name of columns) {
    const value = record[name];
    if (typeof value === 'number' || typeof value === 'bigint') record[name] = Number(value) !== 0;
  }
  return record;
}

/** Wraps one prepared statement with the boolean mapping in both directions. */
function wrapStatement(statement: BetterSqlite3.Statement): SqliteStatement {
  const columns = booleanResultColumns(statement);
  const params = (p: ReadonlyArray<unknown>) => p.map(toSqliteParam);
  return {
    reader: statement.reader,
    all: (p) => statement.all(...params(p)).map((row) => fixBooleans(row, columns)),
    run: (p) => statement.run(...params(p)),
    *iterate(p) {
      for (const row of statement.iterate(...params(p))) yield fixBooleans(row, columns);
    },
  };
}

/**
 * Tells whether the rows of a table may have changed since an earlier reading, cheaply enough to
 * ask on every relay request, so that a few read-mostly rows (the relay's options; the token and
 * user rows, channel tiers) can be kept in memory. SQLite only: the migrations add triggers that
 * give the mark's row in `oa_change_marks` a new random value on every write that counts, by this
 * connection, the settlement worker's or another process's (`ensureChangeMarks` in
 * migrations/changeMarks.ts, which lists the marks and what each watches). SQLite's own `data_version` cannot tell which
 * table another connection wrote, and the settlement worker commits all the time. PostgreSQL has
 * no such cheap signal: no watcher, callers read the rows.
 */
export interface ChangeWatch {
  /**
   * A value that differs from every earlier one once `table` may have been written (by anyone);
   * undefined when the table is not watched (or not migrated yet): read the rows.
   */
  generation(table: string): string | undefined;
}

const changeWatches = new WeakMap<Kysely<Database>, ChangeWatch>();

/** Runs a statement at once on a SQLite connection and returns its rows, none for a statement without result (cached as `prepare`'s). */
export type SyncRunner = (sql: string, parameters: readonly unknown[]) => unknown[];
const syncRunners = new WeakMap<Kysely<Database>, SyncRunner>();

/**
 * The synchronous runner of `db` (SQLite), or undefined (PostgreSQL). Reading without yielding
 * lets a caller combine the rows with in-memory state that other requests change meanwhile.
 */
export const syncRunnerOf = (db: Kysely<Database>): SyncRunner | undefined => syncRunners.get(db);

/** A SQLite file database's path and busy timeout, for the settlement thread's connection; undefined for PostgreSQL, `:memory:` or with that thread turned off. */
export interface SettlementFile {
  readonly path: string;
  readonly busyTimeoutMs: number;
}
const settlementFiles = new WeakMap<Kysely<Database>, SettlementFile>();
export const settlementFileOf = (db: Kysely<Database>): SettlementFile | undefined => settlementFiles.get(db);

/** Work to finish before a database handle closes its connection (e.g. a worker thread's connection), in order. */
const closeHooks = new WeakMap<Kysely<Database>, Array<() => Promise<void>>>();
/** Runs `hook` when `db`'s handle closes, before its connection does. */
export function beforeClose(db: Kysely<Database>, hook: () => Promise<void>): void {
  const hooks = closeHooks.get(db) ?? [];
  hooks.push(hook);
  closeHooks.set(db, hooks);
}
/** Closes `db` once the `beforeClose` hooks ran. */
async function closeWithHooks(db: Kysely<Database>): Promise<void> {
  const hooks = closeHooks.get(db) ?? [];
  closeHooks.delete(db);
  for (const hook of hooks) await hook();
  await db.destroy();
}

/** The change watch of `db` (SQLite), or undefined (PostgreSQL, or a database opened elsewhere). */
export const changeWatchOf = (db: Kysely<Database>): ChangeWatch | undefined => changeWatches.get(db);

/** Prepared statements kept per connection (distinct SQL texts; `IN (...)` lists vary in length). */
const statementCacheSize = 256;

/**
 * `prepare` with a cache by SQL text: Kysely prepares every query afresh, and on the relay's hot
 * path preparing cost more than running. A cached statement still iterating (a streamed read) is
 * not shared: the caller gets a fresh one. Least recently used texts are dropped first.
 */
function cachedPrepare(sqlite: BetterSqlite3.Database): (text: string) => SqliteStatement {
  const cache = new Map<string, { readonly raw: BetterSqlite3.Statement; readonly wrapped: SqliteStatement }>();
  return (text) => {
    // The query builder opens transactions with a deferred `begin`. With a second connection
    // writing (the settlement worker), a deferred transaction that read first could not write
    // afterwards (SQLITE_BUSY_SNAPSHOT, no retry); `begin immediate` takes the write lock at once,
    // waiting up to the busy timeout, and its reads see the latest commit.
    const query = text === 'begin' ? 'begin immediate' : text;
    // A schema change may alter what `select *` returns: forget every statement prepared before it.
    if (/^\s*(alter|create|drop)\b/i.test(query)) {
      cache.clear();
      return wrapStatement(sqlite.prepare(query));
    }
    const hit = cache.get(query);
    if (hit !== undefined && !hit.raw.busy) {
      cache.delete(query);
      cache.set(query, hit);
      return hit.wrapped;
    }
    const raw = sqlite.prepare(query);
    const wrapped = wrapStatement(raw);
    if (hit === undefined) {
      if (cache.size >= statementCacheSize) {
        const oldest = cache.keys().next();
        if (oldest.done !== true) cache.delete(oldest.value);
      }
      cache.set(query, { raw, wrapped });
    }
    return wrapped;
  };
}

/** Opens a SQLite file (creating its folder): WAL, no foreign keys (one-api has none), busy timeout. */
function openSqlite(path: string, busyTimeoutMs: number, settlementThread: boolean): DatabaseHandle {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path, { timeout: busyTimeoutMs });
  sqlite.pragma('journal_mode = WAL');
  // With WAL, NORMAL syncs at checkpoints instead of at every commit: the database stays
  // consistent after a crash, and only the last commits may be lost on power failure. FULL made
  // each relay request wait for two disk flushes (bench/relay).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = OFF');
  // 64 MB of page cache instead of SQLite's 2 MB: the logs table and its six indexes outgrow 2 MB
  // within a few thousand requests, and each consume-log insert then re-read index pages.
  sqlite.pragma('cache_size = -65536');
  // Temporary files in memory. A statement that fires triggers (the consume-log insert updates
  // three rollups) keeps a statement journal, which SQLite moves to a new file in /var/tmp once it
  // outgrows 64 KB: the insert crossed that, and every relay request created, wrote and unlinked a
  // file (about 0.3 ms of its latency).
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
  const database: SqliteDatabase = {
    close: () => sqlite.close(),
    prepare: cachedPrepare(sqlite),
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  syncRunners.set(db, (query, parameters) => {
    const statement = database.prepare(query);
    if (statement.reader) return statement.all(parameters);
    statement.run(parameters);
    return [];
  });
  let markOf: BetterSqlite3.Statement | undefined;
  changeWatches.set(db, {
    generation: (table) => {
      try {
        markOf ??= sqlite.prepare(`select mark from ${changeMarksTable} where name = ?`).pluck();
        const mark = markOf.get(table) as number | bigint | undefined;
        return mark === undefined ? undefined : String(mark);
      } catch {
        // Not migrated yet (no marks table): nothing is kept in memory.
        return undefined;
      }
    },
  });
  if (settlementThread && path !== ':memory:' && path !== '') settlementFiles.set(db, { path, busyTimeoutMs });
  return { db, dialect: 'sqlite', close: () => closeWithHooks(db) };
}

/** pg type ids parsed as JS numbers instead of strings: int8 (bigint, count) and numeric (decimal). */
const numericTypeIds: ReadonlySet<number> = new Set([20, 1700]);

/** Parses a 64-bit integer or decimal column value. */
const parseNumber = (value: string): number => Number(value);

/** pg type parsers: 64-bit integers and decimals become numbers (quota values fit in a double). */
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: (id, format) =>
    numericTypeIds.has(id) && format !== 'binary' ? parseNumber : (pg.types.getTypeParser(id, format) as unknown),
};

/** Connections of a PostgreSQL pool unless `SQL_MAX_OPEN_CONNS` says otherwise. */
export const defaultPoolSize = 10;

/** Opens a PostgreSQL pool of at most `max` connections for `dsn`. */
function openPostgres(dsn: string, max = defaultPoolSize): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: dsn, types: pgTypes, max });
  // An idle client that loses its connection (server restart, terminated backend) emits 'error'
  // on the pool; unhandled, that would end the process. The pool drops the client and opens a
  // new one on the next query, so a warning is all that is needed.
  pool.on('error', (error) => {
    console.warn(`[db] idle PostgreSQL connection lost: ${error.message}`);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => closeWithHooks(db) };
}

/** Opens the configured database (SQLite by default, PostgreSQL when `SQL_DSN` says so). */
export function openDatabase(config: { readonly database: DatabaseConfig }): DatabaseHandle {
  const target = config.database;
  return target.kind === 'sqlite' ? openSqlite(target.path, target.busyTimeoutMs, target.settlementThread ?? true) : openPostgres(target.dsn, target.maxConnections);
}
