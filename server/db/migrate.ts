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

/** Runs every migration step on one connection. */
async function migrateOn(db: Db, dialect: Dialect): Promise<MigrationReport> {
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
    warnings.push(...result.warnings);
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
export async function migrate(db: Db, dialect: Dialect): Promise<MigrationReport> {
  return withStartupLock(db, dialect, (conn) => migrateOn(conn, dialect));
}
