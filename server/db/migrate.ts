import { sql, type Kysely } from 'kysely';
import { ensureChannelTags } from './migrations/channelTags';
import { ensureChangeMarks } from './migrations/changeMarks';
import { ensureRollups } from './migrations/logRollups';
import { createQueryIndexes } from './migrations/queryIndexes';
import { ensureRelayLedger } from './migrations/relayLedger';
import { ensureTestRuns } from './migrations/testRuns';
import { ensureTwoFactor } from './migrations/twoFactor';
import { addMissingColumns, createMissingIndexes, createTable, existingIndexes, existingTables } from './migrations/tables';
import { tableSpecs, type Database, type Dialect } from './schema';

/**
 * Idempotent start-up migrations: create missing tables, add missing columns, create missing
 * indexes. Nothing is ever dropped, renamed or retyped, so a database created by one-api keeps
 * its data, its column types and its indexes, and one-api can keep using it.
 *
 * This module runs the steps (server/db/migrations/: one-api's tables, the log rollups, SQLite's
 * change marks, PostgreSQL's relay ledger, our query indexes) under the start-up lock, which
 * serialises concurrent server starts.
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
  createdTables.push(...(await ensureTwoFactor(db, dialect, tables)));
  createdTables.push(...(await ensureTestRuns(db, dialect, tables)));
  createdTables.push(...(await ensureChannelTags(db, dialect, tables)));
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
