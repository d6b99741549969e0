import { sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../schema';

/**
 * Our own table for channel tags (server/services/channelTags.ts). one-api's `channels` table is
 * left exactly as it is, so one-api can still open and use the database (it ignores this table).
 * - `oa_channel_tags`: one row per (channel, tag); the index on `tag` serves the filter, the tag
 *   list and the edit by tag.
 */
export const channelTagsTables = ['oa_channel_tags'] as const;

/** The index on `tag` (the primary key already serves lookups by channel). */
export const channelTagsIndex = 'idx_oa_channel_tags_tag';

type Db = Kysely<Database>;

const ddl = (dialect: Dialect): readonly string[] => {
  const big = dialect === 'sqlite' ? 'integer' : 'bigint';
  const noRowid = dialect === 'sqlite' ? ' without rowid' : '';
  return [
    `create table if not exists oa_channel_tags (channel_id ${big} not null, tag text not null,
      primary key (channel_id, tag))${noRowid}`,
    `create index if not exists ${channelTagsIndex} on oa_channel_tags (tag)`,
  ];
};

/** Creates the channel tag table (and its index) when missing; returns the tables created. */
export async function ensureChannelTags(db: Db, dialect: Dialect, tables: Set<string>): Promise<string[]> {
  const created = channelTagsTables.filter((name) => !tables.has(name));
  if (created.length === 0) return [];
  for (const statement of ddl(dialect)) await sql.raw(statement).execute(db);
  return created;
}
