import * as E from 'fp-ts/Either';
import type { Kysely, Transaction } from 'kysely';
import {
  ChannelTagEdit,
  channelTagEditFields,
  channelTagProblem,
  maxTagLength,
  maxTagsPerChannel,
  normalizeChannelTags,
  type ChannelTagCount,
  type ChannelTagProblem,
} from '../../src/domain/channel';
import type { Database } from '../db/schema';

/**
 * Channel tags (not in one-api), kept in `oa_channel_tags` so that one-api's `channels` table stays
 * as one-api expects: validation with messages naming the field, reads for the channel JSON, the
 * tag list with counts, and the writes (always inside the caller's transaction).
 */

type Db = Kysely<Database>;
type Tx = Transaction<Database>;

/** Rows per IN (...) list. */
const chunk = 500;

/** The readable reason of a tag problem. */
const problemText = (problem: ChannelTagProblem): string => {
  switch (problem) {
    case 'empty':
      return 'a tag cannot be empty';
    case 'tooLong':
      return `a tag is at most ${String(maxTagLength)} characters`;
    case 'comma':
      return 'a tag cannot contain a comma';
    case 'control':
      return 'a tag cannot contain control characters';
  }
};

/**
 * The `tags` member of a channel body: absent (undefined: unchanged) or an array of strings,
 * each trimmed, 1–32 characters, no commas; at most 16 distinct. Left = a message naming the field.
 */
export function readTagsField(body: unknown): E.Either<string, readonly string[] | undefined> {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('tags' in body)) return E.right(undefined);
  const raw: unknown = (body).tags;
  if (raw === undefined || raw === null) return E.right(undefined);
  if (!Array.isArray(raw) || !raw.every((tag): tag is string => typeof tag === 'string')) {
    return E.left('tags: expected an array of strings');
  }
  const result = normalizeChannelTags(raw);
  if ('tags' in result) return E.right(result.tags);
  const { refusal } = result;
  if (refusal.problem === 'tooMany') {
    return E.left(`tags: at most ${String(maxTagsPerChannel)} tags per channel (got ${String(refusal.count)})`);
  }
  return E.left(`tags[${String(refusal.index)}]: ${problemText(refusal.problem)}`);
}

/** The tags of each channel in `ids` (channels without tags are absent), each list sorted. */
export async function tagsOf(db: Db | Tx, ids: readonly number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  for (let i = 0; i < ids.length; i += chunk) {
    const part = ids.slice(i, i + chunk);
    if (part.length === 0) continue;
    const rows = await db
      .selectFrom('oa_channel_tags')
      .select(['channel_id', 'tag'])
      .where('channel_id', 'in', part)
      .orderBy('channel_id')
      .orderBy('tag')
      .execute();
    for (const row of rows) {
      const list = out.get(row.channel_id);
      if (list === undefined) out.set(row.channel_id, [row.tag]);
      else list.push(row.tag);
    }
  }
  return out;
}

/** Replaces the tags of `channelId`. */
export async function replaceTags(tx: Tx, channelId: number, tags: readonly string[]): Promise<void> {
  await tx.deleteFrom('oa_channel_tags').where('channel_id', '=', channelId).execute();
  if (tags.length === 0) return;
  await tx
    .insertInto('oa_channel_tags')
    .values(tags.map((tag) => ({ channel_id: channelId, tag })))
    .execute();
}

/** Deletes the tags of deleted channels. */
export async function deleteTagsOf(tx: Tx, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += chunk) {
    const part = ids.slice(i, i + chunk);
    if (part.length > 0) await tx.deleteFrom('oa_channel_tags').where('channel_id', 'in', part).execute();
  }
}

/** `GET /api/channel/tags`: every tag in use with how many channels carry it, by tag. */
export async function listTagCounts(db: Db): Promise<ChannelTagCount[]> {
  const rows = await db
    .selectFrom('oa_channel_tags')
    .innerJoin('channels', 'channels.id', 'oa_channel_tags.channel_id')
    .select((eb) => ['oa_channel_tags.tag as tag', eb.fn.countAll<number | string | bigint>().as('count')])
    .groupBy('oa_channel_tags.tag')
    .orderBy('oa_channel_tags.tag')
    .execute();
  return rows.map((row) => ({ tag: row.tag, count: Number(row.count) }));
}

/** The ids of the channels carrying `tag`, ascending. */
export async function channelIdsWithTag(db: Db | Tx, tag: string): Promise<number[]> {
  const rows = await db
    .selectFrom('oa_channel_tags')
    .innerJoin('channels', 'channels.id', 'oa_channel_tags.channel_id')
    .select('oa_channel_tags.channel_id as id')
    .where('oa_channel_tags.tag', '=', tag)
    .orderBy('oa_channel_tags.channel_id')
    .execute();
  return rows.map((row) => row.id);
}

/** A tag given as a filter or an edit target: trimmed; Left = a message naming `field`. */
export function readTag(raw: string, field: string): E.Either<string, string> {
  const problem = channelTagProblem(raw);
  return problem === null ? E.right(raw.trim()) : E.left(`${field}: ${problemText(problem)}`);
}

/** What an edit by tag sets, validated. */
export interface TagEdit {
  readonly tag: string;
  readonly priority?: number;
  readonly weight?: number;
  readonly models?: string;
  readonly group?: string;
  readonly status?: number;
}

/**
 * Decodes and checks the body of `PUT /api/channel/tag`. Left = one message naming the field:
 * unknown fields, a bad tag, a status other than 1 or 2, or nothing to change; priority, weight,
 * models and group go through `checkShared`, the check a channel write makes of the same fields
 * (server/services/channelFields.ts), so both routes refuse the same values with the same words.
 */
export function readTagEdit(value: unknown, checkShared: (record: Readonly<Record<string, unknown>>) => string | null): E.Either<string, TagEdit> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return E.left('invalid tag edit: expected a JSON object {tag, priority?, weight?, models?, group?, status?}');
  }
  const known = new Set<string>(['tag', ...channelTagEditFields]);
  const unknown = Object.keys(value).find((key) => !known.has(key));
  if (unknown !== undefined) return E.left(`${unknown}: unknown field (expected tag, ${channelTagEditFields.join(', ')})`);
  const record = value as Record<string, unknown>;
  if (typeof record.tag !== 'string') return E.left('tag: expected a string');
  const shared = checkShared(record);
  if (shared !== null) return E.left(shared);
  if (record.status !== undefined && record.status !== null && typeof record.status !== 'number') return E.left('status: expected a number');
  const cleaned = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null));
  const decoded = ChannelTagEdit.decode(cleaned);
  if (E.isLeft(decoded)) return E.left('tag: expected a string');
  const body = decoded.right;
  const tag = readTag(body.tag, 'tag');
  if (E.isLeft(tag)) return tag;
  if (body.status !== undefined && body.status !== 1 && body.status !== 2) {
    return E.left('status: expected 1 (enable) or 2 (disable)');
  }
  if (channelTagEditFields.every((key) => body[key] === undefined)) {
    return E.left(`nothing to change: give at least one of ${channelTagEditFields.join(', ')}`);
  }
  return E.right({ ...body, tag: tag.right });
}

/** Comma list items, trimmed, without empty ones. */
const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** The models or group as they are stored: items trimmed and each once, joined by commas. */
export const joinList = (text: string): string => [...new Set(splitList(text))].join(',');
