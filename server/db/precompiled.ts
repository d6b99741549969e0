import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import { syncRunnerOf } from './connect';
import type { Database } from './schema';

/**
 * Statements built and compiled once per dialect, then run with new arguments: for the relay's
 * hot path, where Kysely's building and compiling (immutable operation trees, a visitor pass)
 * cost as much CPU as SQLite running the statement.
 *
 * The builder is called once per dialect with one placeholder object per argument in place of
 * the values; the compiled parameter list then says where each argument goes (an argument may
 * appear several times, or not at all). Constant values written into the builder stay as they
 * were compiled. Only pass arguments where the builder uses them as values (`where`, `set`,
 * `values`, expression operands): an argument that changes the SQL text (a column name, an
 * `in` list's length, a `$if`) must stay a built query.
 */

type Db = Kysely<Database>;

/** Stands in for argument `index` while the statement is compiled. */
class Slot {
  constructor(readonly index: number) {}
}

/** The compiled text and, per parameter, either an argument index or a constant. */
interface Template {
  readonly sql: string;
  /** Slot entries stand for arguments; anything else is a constant compiled into the statement. */
  readonly parameters: readonly unknown[];
}

/** A statement compiled once per dialect. */
export interface Precompiled<A extends readonly unknown[], R> {
  /** Runs on `db` (the database or an open transaction) with `args` in place of the placeholders. */
  execute(db: Db, ...args: A): Promise<QueryResult<R>>;
  /** The rows of `execute`. */
  rows(db: Db, ...args: A): Promise<R[]>;
  /** The first row of `execute`, or undefined. */
  first(db: Db, ...args: A): Promise<R | undefined>;
  /** The rows changed by an update, insert or delete. */
  affected(db: Db, ...args: A): Promise<number>;
  /**
   * SQLite only: runs at once (no await between it and what follows) and returns the first row
   * (undefined for a statement without result); throws on PostgreSQL. Inside a transaction, pass
   * the database: the statement runs on the one connection, within that transaction.
   */
  firstNow(db: Db, ...args: A): R | undefined;
  /**
   * A read for the relay's hot path: on SQLite it runs at once instead of queueing for the
   * connection behind the query builder's promise chain (about 0.1 ms of CPU per relay request),
   * so it may see the uncommitted rows of a transaction another request has open on the one
   * connection; on PostgreSQL it is `rows`. Only for rows where that cannot matter.
   */
  readRows(db: Db, ...args: A): Promise<R[]>;
  /** The compiled text on `db`'s dialect and where each parameter comes from (for another connection, e.g. a worker thread's). */
  compiled(db: Db): CompiledTemplate;
}

/** A statement's text and, per parameter, the argument it takes or the constant compiled in. */
export interface CompiledTemplate {
  readonly sql: string;
  readonly parameters: ReadonlyArray<{ readonly arg: number } | { readonly value: unknown }>;
}

/**
 * Compiles `build(db, ...args)` once per dialect (the first time it runs on one) with
 * placeholders for its `arity` arguments.
 */
export function precompile<A extends readonly unknown[], R>(arity: A['length'], build: (db: Db, ...args: A) => Compilable<R>): Precompiled<A, R> {
  // Keyed by the dialect adapter, which a database shares with its transactions.
  const templates = new WeakMap<object, Template>();
  const templateOf = (db: Db): Template => {
    const adapter = db.getExecutor().adapter;
    const known = templates.get(adapter);
    if (known !== undefined) return known;
    const slots = Array.from({ length: arity }, (_, i) => new Slot(i));
    const compiled = build(db, ...(slots as unknown as A)).compile();
    const template: Template = { sql: compiled.sql, parameters: compiled.parameters };
    templates.set(adapter, template);
    return template;
  };
  const parametersOf = (template: Template, args: A): unknown[] => template.parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
  const execute = (db: Db, ...args: A): Promise<QueryResult<R>> => {
    const template = templateOf(db);
    const parameters = parametersOf(template, args);
    return db.executeQuery<R>(CompiledQuery.raw(template.sql, parameters));
  };
  return {
    execute,
    compiled: (db) => {
      const template = templateOf(db);
      return { sql: template.sql, parameters: template.parameters.map((p) => (p instanceof Slot ? { arg: p.index } : { value: p })) };
    },
    firstNow: (db, ...args) => {
      const run = syncRunnerOf(db);
      if (run === undefined) throw new Error('firstNow: not a SQLite database');
      const template = templateOf(db);
      return run(template.sql, parametersOf(template, args))[0] as R | undefined;
    },
    readRows: async (db, ...args) => {
      const run = syncRunnerOf(db);
      if (run === undefined) return (await execute(db, ...args)).rows;
      const template = templateOf(db);
      return run(template.sql, parametersOf(template, args)) as R[];
    },
    rows: async (db, ...args) => (await execute(db, ...args)).rows,
    first: async (db, ...args) => (await execute(db, ...args)).rows[0],
    affected: async (db, ...args) => Number((await execute(db, ...args)).numAffectedRows ?? 0n),
  };
}
