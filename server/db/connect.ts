import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config';
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
 * ask on every relay request, so that a few read-mostly rows (the relay's options) can be kept in
 * memory. SQLite only: its `data_version` changes when another connection (another process)
 * commits, and the statements of this connection that write the table are counted as they are
 * prepared to run. PostgreSQL has no such cheap signal: no watcher, callers read the rows.
 */
export interface ChangeWatch {
  /** A value that differs from every earlier one once `table` may have been written (by anyone). */
  generation(table: string): string;
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

/** The change watch of `db` (SQLite), or undefined (PostgreSQL, or a database opened elsewhere). */
export const changeWatchOf = (db: Kysely<Database>): ChangeWatch | undefined => changeWatches.get(db);

/**
 * The tables a statement may write: every name after insert into / update / delete from /
 * replace into / alter, drop or create table anywhere in its text (a CTE, a trigger body). A
 * false match (a word in a literal, `do update set`) only costs a needless re-read.
 */
function writtenTables(query: string): readonly string[] {
  const found = query.matchAll(
    /\b(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from|alter\s+table|drop\s+table(?:\s+if\s+exists)?|create\s+table(?:\s+if\s+not\s+exists)?)\s+(?:"?main"?\.)?"?(\w+)"?/gi,
  );
  return [...new Set([...found].map((m) => (m[1] ?? '').toLowerCase()))];
}

/** Prepared statements kept per connection (distinct SQL texts; `IN (...)` lists vary in length). */
const statementCacheSize = 256;

/**
 * `prepare` with a cache by SQL text: Kysely prepares every query afresh, and on the relay's hot
 * path preparing cost more than running. A cached statement still iterating (a streamed read) is
 * not shared: the caller gets a fresh one. Least recently used texts are dropped first.
 */
function cachedPrepare(sqlite: BetterSqlite3.Database, onWrite: (table: string) => void): (query: string) => SqliteStatement {
  const cache = new Map<string, { readonly raw: BetterSqlite3.Statement; readonly wrapped: SqliteStatement }>();
  /** The tables each SQL text seen may write; texts repeat, so the regex runs once per text. */
  const targets = new Map<string, readonly string[]>();
  return (query) => {
    let tables = targets.get(query);
    if (tables === undefined) {
      tables = writtenTables(query);
      if (targets.size >= statementCacheSize * 4) targets.clear();
      targets.set(query, tables);
    }
    // Counted when prepared, i.e. before it runs: a reader that looks after the write sees a new generation.
    for (const table of tables) onWrite(table);
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
function openSqlite(path: string, busyTimeoutMs: number): DatabaseHandle {
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
  const ownWrites = new Map<string, number>();
  const database: SqliteDatabase = {
    close: () => sqlite.close(),
    prepare: cachedPrepare(sqlite, (table) => ownWrites.set(table, (ownWrites.get(table) ?? 0) + 1)),
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  syncRunners.set(db, (query, parameters) => {
    const statement = database.prepare(query);
    if (statement.reader) return statement.all(parameters);
    statement.run(parameters);
    return [];
  });
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  changeWatches.set(db, { generation: (table) => `${String(dataVersion.get())}:${ownWrites.get(table) ?? 0}` });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
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

/** Opens a PostgreSQL pool for `dsn`. */
function openPostgres(dsn: string): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: dsn, types: pgTypes, max: 10 });
  // An idle client that loses its connection (server restart, terminated backend) emits 'error'
  // on the pool; unhandled, that would end the process. The pool drops the client and opens a
  // new one on the next query, so a warning is all that is needed.
  pool.on('error', (error) => {
    console.warn(`[db] idle PostgreSQL connection lost: ${error.message}`);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/** Opens the configured database (SQLite by default, PostgreSQL when `SQL_DSN` says so). */
export function openDatabase(config: { readonly database: DatabaseConfig }): DatabaseHandle {
  const target = config.database;
  return target.kind === 'sqlite' ? openSqlite(target.path, target.busyTimeoutMs) : openPostgres(target.dsn);
}
