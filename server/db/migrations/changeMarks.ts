import { sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../schema';

/**
 * SQLite's change marks (`changeMarksTable`): a row per watched table that triggers give a new
 * random mark on every write, which lets the gateway keep such a table's rows in memory
 * (ChangeWatch, connect.ts), and the settlement thread's mark (`settlementsMark`).
 */

type Db = Kysely<Database>;

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
export async function ensureChangeMarks(db: Db, dialect: Dialect, tables: Set<string>): Promise<string[]> {
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
