import { sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../schema';

/**
 * SQLite's change marks (`changeMarksTable`): a row per mark (options, tokens, users, channels)
 * that triggers give a new random value on every write that counts to its tables, which lets the
 * gateway keep their rows in memory (ChangeWatch, connect.ts), and the settlement thread's mark
 * (`settlementsMark`).
 */

type Db = Kysely<Database>;

/**
 * SQLite: one row per mark, its `mark` set to a new random value by triggers on every write that
 * counts to its tables (`watched` below); and the row `settlementsMark`, the id up to which the settlement thread
 * has committed every relay settlement (server/relay/settlementWorker.mjs).
 */
export const changeMarksTable = 'oa_change_marks';
export const settlementsMark = 'settlements';
/**
 * What `changeMarksTable` watches: per mark (the name ChangeWatch asks for), the tables whose
 * writes give it a new value, and for updates the columns that count (null: any). The relay keeps
 * the rows behind each mark in memory while it is unchanged (options: relaySettings.ts; tokens and
 * users: relay/callerCache.ts; channels and abilities: the top tiers of relay/select.ts). The
 * balances every settlement writes (a token's `remain_quota` and `used_quota`, a user's `quota`,
 * `used_quota` and `request_count`, a channel's `used_quota`) and the bookkeeping the channel tests
 * and balance updates write are left out, or nothing would stay kept; a token's `remain_quota`
 * counts when it crosses 0 (the relay refuses an exhausted token by that figure).
 */
const watched: ReadonlyArray<{ readonly mark: string; readonly table: string; readonly columns: readonly string[] | null; readonly when?: string; readonly suffix?: string }> = [
  { mark: 'options', table: 'options', columns: null },
  {
    mark: 'tokens',
    table: 'tokens',
    columns: ['id', 'user_id', 'key', 'status', 'name', 'created_time', 'expired_time', 'unlimited_quota', 'models', 'subnet'],
  },
  { mark: 'tokens', table: 'tokens', columns: ['remain_quota'], when: '(old.remain_quota <= 0) is not (new.remain_quota <= 0)', suffix: 'exhausted' },
  {
    mark: 'users',
    table: 'users',
    columns: ['id', 'username', 'password', 'display_name', 'role', 'status', 'email', 'github_id', 'wechat_id', 'lark_id', 'oidc_id', 'access_token', 'group', 'aff_code', 'inviter_id'],
  },
  {
    mark: 'channels',
    table: 'channels',
    columns: ['id', 'type', 'key', 'status', 'name', 'weight', 'base_url', 'other', 'models', 'group', 'model_mapping', 'priority', 'config', 'system_prompt'],
  },
  { mark: 'channels', table: 'abilities', columns: null },
];
const markEvents = ['insert', 'update', 'delete'] as const;
/** The marks ChangeWatch can be asked for. */
export const changeMarkNames = [...new Set(watched.map((w) => w.mark))];
/** The triggers of one watched table: its writes (inserts, deletes and updates of the columns that count). */
const triggersOf = (w: (typeof watched)[number]): ReadonlyArray<{ readonly name: string; readonly sql: string }> =>
  (w.suffix !== undefined ? (['update'] as const) : markEvents).map((event) => {
    const name = w.suffix !== undefined ? `oa_${w.table}_mark_${w.suffix}` : `oa_${w.table}_mark_${event}`;
    const on = event === 'update' && w.columns !== null ? `update of ${w.columns.map((c) => `"${c}"`).join(', ')}` : event;
    const when = w.when === undefined ? '' : ` when ${w.when}`;
    return {
      name,
      sql: `create trigger if not exists ${name} after ${on} on ${w.table} for each row${when} begin update ${changeMarksTable} set mark = random() where name = '${w.mark}'; end`,
    };
  });
/** The triggers that maintain `changeMarksTable`. */
export const changeMarkTriggers = watched.flatMap((w) => triggersOf(w).map((t) => t.name));

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
  for (const mark of changeMarkNames) await sql.raw(`insert or ignore into ${changeMarksTable} (name, mark) values ('${mark}', random())`).execute(db);
  for (const w of watched) for (const trigger of triggersOf(w)) await sql.raw(trigger.sql).execute(db);
  return created;
}
