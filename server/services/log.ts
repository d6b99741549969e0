import type { Kysely, SelectQueryBuilder } from 'kysely';
import * as t from 'io-ts';
import { logTypeConsume, pageSize } from '../../src/domain/constants';
import type { Database, LogRow } from '../db/schema';

/**
 * The `logs` table as the log endpoints read it (contract §2.10, §2.1.5): filters, paging
 * (`id` desc, 10 per page), searches (capped at 100 = `MaxRecentItems`), consume sums and
 * deletion by age. Query parameters are parsed like Go's `strconv.Atoi`/`ParseInt` with the
 * error ignored: anything unparsable is 0, which means "no filter".
 */

type Db = Kysely<Database>;

/** one-api's `MaxRecentItems`: the cap of the log searches. */
export const maxRecentItems = 100;

/** Go's `strconv.ParseInt(s, 10, 64)` with the error ignored, clamped to the safe-integer range. */
export function goInt(raw: string): number {
  if (!/^[+-]?\d+$/.test(raw)) return 0;
  const n = Number(raw);
  if (n > Number.MAX_SAFE_INTEGER) return Number.MAX_SAFE_INTEGER;
  if (n < -Number.MAX_SAFE_INTEGER) return -Number.MAX_SAFE_INTEGER;
  return n;
}

/** A query parameter read as a Go integer: missing or unparsable → 0 (never fails on a string). */
export const QueryInt = new t.Type<number, string, unknown>(
  'QueryInt',
  (u): u is number => typeof u === 'number',
  (u, c) => (u === undefined ? t.success(0) : typeof u === 'string' ? t.success(goInt(u)) : t.failure(u, c)),
  (n) => String(n),
);

/** A query parameter read as a string: missing → ''. */
export const QueryString = new t.Type<string, string, unknown>(
  'QueryString',
  (u): u is string => typeof u === 'string',
  (u, c) => (u === undefined ? t.success('') : typeof u === 'string' ? t.success(u) : t.failure(u, c)),
  (s) => s,
);

/** Filters of `GET /api/log/` and `/api/log/stat` (the self routes use a subset). */
export const LogQuery = t.type({
  type: QueryInt,
  start_timestamp: QueryInt,
  end_timestamp: QueryInt,
  username: QueryString,
  token_name: QueryString,
  model_name: QueryString,
  channel: QueryInt,
});
export type LogQuery = t.TypeOf<typeof LogQuery>;

/** `?keyword=` of the search routes. */
export const LogSearchQuery = t.type({ keyword: QueryString });

/** `?target_timestamp=` of `DELETE /api/log/`. */
export const LogDeleteQuery = t.type({ target_timestamp: QueryInt });

/** The filters one query applies; `userId` restricts to one user's rows. */
export interface LogFilter {
  readonly type: number;
  readonly startTimestamp: number;
  readonly endTimestamp: number;
  readonly username: string;
  readonly tokenName: string;
  readonly modelName: string;
  readonly channel: number;
  readonly userId?: number;
}

/** The filter of a decoded query; `self` drops `username` and `channel` (the self list ignores them). */
export const filterOf = (q: LogQuery, self: { readonly userId: number } | null): LogFilter => ({
  type: q.type,
  startTimestamp: q.start_timestamp,
  endTimestamp: q.end_timestamp,
  username: self === null ? q.username : '',
  tokenName: q.token_name,
  modelName: q.model_name,
  channel: self === null ? q.channel : 0,
  ...(self === null ? {} : { userId: self.userId }),
});

/** Whether a text filter can match a row at all (PostgreSQL text cannot hold NUL). */
const matchable = (value: string): boolean => !value.includes('\u0000');

/** Whether every text filter can match; when not, the answer is empty without asking the database. */
export const isSatisfiable = (f: LogFilter): boolean =>
  matchable(f.username) && matchable(f.tokenName) && matchable(f.modelName);

/** Applies the non-zero filters (`type` only when `withType`). */
function applyFilter<O>(
  query: SelectQueryBuilder<Database, 'logs', O>,
  f: LogFilter,
  withType: boolean,
): SelectQueryBuilder<Database, 'logs', O> {
  let q = query;
  if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
  if (withType && f.type !== 0) q = q.where('type', '=', f.type);
  if (f.modelName !== '') q = q.where('model_name', '=', f.modelName);
  if (f.username !== '') q = q.where('username', '=', f.username);
  if (f.tokenName !== '') q = q.where('token_name', '=', f.tokenName);
  if (f.startTimestamp !== 0) q = q.where('created_at', '>=', f.startTimestamp);
  if (f.endTimestamp !== 0) q = q.where('created_at', '<=', f.endTimestamp);
  if (f.channel !== 0) q = q.where('channel_id', '=', f.channel);
  return q;
}

/** The 16-field Log JSON of contract §2.1.5 (NULL columns as zero values); `hideId` gives `id: 0`. */
export function logJson(row: LogRow, hideId = false) {
  return {
    id: hideId ? 0 : row.id,
    user_id: row.user_id ?? 0,
    created_at: row.created_at ?? 0,
    type: row.type ?? 0,
    content: row.content ?? '',
    username: row.username ?? '',
    token_name: row.token_name ?? '',
    model_name: row.model_name ?? '',
    quota: row.quota ?? 0,
    prompt_tokens: row.prompt_tokens ?? 0,
    completion_tokens: row.completion_tokens ?? 0,
    channel: row.channel_id ?? 0,
    request_id: row.request_id ?? '',
    elapsed_time: row.elapsed_time ?? 0,
    is_stream: row.is_stream ?? false,
    system_prompt_reset: row.system_prompt_reset ?? false,
  };
}
export type LogJson = ReturnType<typeof logJson>;

/** One page (`id` desc, 10 rows from `page × 10`) of the logs matching `f`. */
export async function listLogs(db: Db, f: LogFilter, page: number): Promise<LogRow[]> {
  if (!isSatisfiable(f)) return [];
  const query = applyFilter(db.selectFrom('logs').selectAll(), f, true);
  return query.orderBy('id', 'desc').limit(pageSize).offset(page * pageSize).execute();
}

/** The integer a search keyword names, or null (a non-integer keyword cannot equal `type`). */
const keywordType = (keyword: string): number | null =>
  /^[+-]?\d+$/.test(keyword) && Number.isSafeInteger(Number(keyword)) ? Number(keyword) : null;

/** Admin search: the 100 newest logs with `type = keyword` or `content LIKE 'keyword%'`. */
export async function searchAllLogs(db: Db, keyword: string): Promise<LogRow[]> {
  if (!matchable(keyword)) return [];
  const type = keywordType(keyword);
  return db
    .selectFrom('logs')
    .selectAll()
    .where((eb) => {
      const byContent = eb('content', 'like', `${keyword}%`);
      return type === null ? byContent : eb.or([eb('type', '=', type), byContent]);
    })
    .orderBy('id', 'desc')
    .limit(maxRecentItems)
    .execute();
}

/** Self search: the caller's 100 newest logs whose `type` equals the keyword (no content search). */
export async function searchUserLogs(db: Db, userId: number, keyword: string): Promise<LogRow[]> {
  const type = keywordType(keyword);
  if (type === null) return [];
  return db
    .selectFrom('logs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .orderBy('id', 'desc')
    .limit(maxRecentItems)
    .execute();
}

/** Sum of `quota` over the consume logs (type 2) matching `f`; `f.type` is ignored, as in one-api. */
export async function sumUsedQuota(db: Db, f: LogFilter): Promise<number> {
  if (!isSatisfiable(f)) return 0;
  const query = applyFilter(db.selectFrom('logs'), f, false)
    .where('type', '=', logTypeConsume)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('quota'));
  const row = await query.executeTakeFirst();
  return Number(row?.quota ?? 0);
}

/** Deletes every log with `created_at < target`; returns how many went. */
export async function deleteLogsBefore(db: Db, target: number): Promise<number> {
  const result = await db.deleteFrom('logs').where('created_at', '<', target).executeTakeFirst();
  return Number(result.numDeletedRows);
}
