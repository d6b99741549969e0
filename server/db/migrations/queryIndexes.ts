import { sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../schema';

/**
 * Our own query indexes on one-api's tables, for the console's lists, searches and stats
 * (`queryIndexes`), and the indexes of earlier versions that they make useless (`redundantIndexes`).
 */

type Db = Kysely<Database>;

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
export async function createQueryIndexes(db: Db, dialect: Dialect, present: Set<string>) {
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
