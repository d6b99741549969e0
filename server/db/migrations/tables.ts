import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { ColumnSpec, Database, Dialect, TableSpec } from '../schema';

/**
 * The migration of one-api's tables (`tableSpecs`): what the catalogue holds (tables, columns,
 * indexes), then the missing tables created, the missing columns added and the missing indexes
 * created. Nothing is ever dropped, renamed or retyped.
 */

type Db = Kysely<Database>;

/** Names of the tables present in the current schema. */
export async function existingTables(db: Db, dialect: Dialect): Promise<Set<string>> {
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
export async function existingIndexes(db: Db, dialect: Dialect): Promise<Set<string>> {
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
export async function createTable(db: Db, dialect: Dialect, spec: TableSpec): Promise<void> {
  let builder = db.schema.createTable(spec.name).ifNotExists();
  for (const column of spec.columns) {
    builder = builder.addColumn(column.name, sql.raw(column[dialect]), columnModifiers(column, dialect, false));
  }
  if (spec.primaryKey) builder = builder.addPrimaryKeyConstraint(`${spec.name}_pkey`, [...spec.primaryKey] as never);
  await builder.execute();
}

/** Adds the columns of `spec` missing from an existing table; returns `table.column` names. */
export async function addMissingColumns(db: Db, dialect: Dialect, spec: TableSpec): Promise<string[]> {
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
export async function createMissingIndexes(db: Db, spec: TableSpec, present: Set<string>) {
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
