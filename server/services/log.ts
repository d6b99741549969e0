import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import * as t from 'io-ts';
import { logTypeConsume, pageSize } from '../../src/domain/constants';
import { rollupBucketSeconds, rollupNullBucket } from '../db/migrations/logRollups';
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

/** Applies the non-zero filters (`type` only when `withType`); the list, the stat and the export share it. */
export function applyFilter<O>(
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

/** Pages of all logs from this offset on skip ids in the primary key rather than whole rows. */
const deepOffset = 1_000;

/** Time windows holding at most this many logs are paged within their id range (see `listLogs`). */
const narrowWindow = 20_000;

/**
 * The id range of the logs in the time window of `f` when the window holds at most `narrowWindow`
 * logs, else null. Read from the `created_at` index alone (bounded by the limit).
 */
async function windowIds(db: Db, f: LogFilter): Promise<{ lo: number; hi: number } | null> {
  let inner = db.selectFrom('logs').select('id');
  if (f.startTimestamp !== 0) inner = inner.where('created_at', '>=', f.startTimestamp);
  if (f.endTimestamp !== 0) inner = inner.where('created_at', '<=', f.endTimestamp);
  const row = await db
    .selectFrom(inner.limit(narrowWindow + 1).as('w'))
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min('w.id').as('lo'), eb.fn.max('w.id').as('hi')])
    .executeTakeFirst();
  if (row === undefined || Number(row.n) > narrowWindow) return null;
  return row.lo === null || row.hi === null ? { lo: 1, hi: 0 } : { lo: Number(row.lo), hi: Number(row.hi) };
}

/**
 * One page (`id` desc, 10 rows from `page × 10`) of the logs matching `f`. A narrow time window with
 * no other selective filter is read as an id range (every log of the window has its id between the
 * window's smallest and largest id), so the newest-first scan starts at the window, not at the newest log.
 */
export async function listLogs(db: Db, f: LogFilter, page: number): Promise<LogRow[]> {
  if (!isSatisfiable(f)) return [];
  let query = applyFilter(db.selectFrom('logs').selectAll(), f, true);
  const timeOnly = f.userId === undefined && f.username === '' && f.tokenName === '' && f.modelName === '' && f.channel === 0;
  if (timeOnly && (f.startTimestamp !== 0 || f.endTimestamp !== 0)) {
    const ids = await windowIds(db, f);
    if (ids !== null) query = query.where('id', '>=', ids.lo).where('id', '<=', ids.hi);
  }
  const offset = page * pageSize;
  const unfiltered = timeOnly && f.type === 0 && f.startTimestamp === 0 && f.endTimestamp === 0;
  if (unfiltered && offset >= deepOffset) {
    // A deep page of all logs: skip `offset` ids in the primary key alone, then read 10 rows.
    const ids = db.selectFrom('logs').select('id').orderBy('id', 'desc').limit(pageSize).offset(offset);
    return db.selectFrom('logs').selectAll().where('id', 'in', ids).orderBy('id', 'desc').execute();
  }
  return query.orderBy('id', 'desc').limit(pageSize).offset(offset).execute();
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

/** floor(a / b) on integers, exact for any safe integer. */
const floorDiv = (a: number, b: number): number => Number((BigInt(a) - (((BigInt(a) % BigInt(b)) + BigInt(b)) % BigInt(b))) / BigInt(b));

/**
 * Sum of `quota` over the consume logs (type 2) matching `f`; `f.type` is ignored, as in one-api.
 * Whole hours inside the time range come from the trigger-maintained rollups (server/db/migrations/logRollups.ts),
 * the partial hours at either end from `logs`, so the answer equals `sumUsedQuotaPlain`. Filters
 * the rollups do not keep (`token_name`, `channel`) use the plain sum.
 */
export async function sumUsedQuota(db: Db, f: LogFilter): Promise<number> {
  if (!isSatisfiable(f)) return 0;
  const absurd = (t: number) => Math.abs(t) > 1e15; // beyond any clock: keep the bucket arithmetic exact
  if (f.tokenName !== '' || f.channel !== 0 || absurd(f.startTimestamp) || absurd(f.endTimestamp)) return sumUsedQuotaPlain(db, f);
  const byUser = f.userId !== undefined || f.username !== '';
  const table = byUser ? 'oa_log_quota_hourly_user' : f.modelName !== '' ? 'oa_log_quota_hourly_model' : 'oa_log_quota_hourly';
  const conds: RawBuilder<unknown>[] = [];
  if (f.userId !== undefined) conds.push(sql`user_id = ${f.userId}`);
  if (f.username !== '') conds.push(sql`username = ${f.username}`);
  if (f.modelName !== '') conds.push(sql`model_name = ${f.modelName}`);
  const n = rollupBucketSeconds;
  const hasStart = f.startTimestamp !== 0;
  const hasEnd = f.endTimestamp !== 0;
  // Whole buckets [lo, hi]: every second of them lies inside the range.
  const lo = hasStart ? -floorDiv(-f.startTimestamp, n) : null; // ceiling division
  const hi = hasEnd ? floorDiv(f.endTimestamp + 1, n) - 1 : null;
  if (lo !== null && hi !== null && lo > hi) return sumUsedQuotaPlain(db, f);
  if (lo !== null) conds.push(sql`bucket >= ${lo}`);
  else if (hasEnd) conds.push(sql`bucket > ${sql.raw(rollupNullBucket)}`);
  if (hi !== null) conds.push(sql`bucket <= ${hi}`);
  const where = conds.length === 0 ? sql`` : sql`where ${sql.join(conds, sql` and `)}`;
  const parts: RawBuilder<unknown>[] = [sql`(select coalesce(sum(quota), 0) from ${sql.table(table)} ${where})`];
  // The partial buckets at the ends, from the logs themselves.
  const edge = (start: number, end: number) => {
    const query = applyFilter(db.selectFrom('logs'), { ...f, startTimestamp: 0, endTimestamp: 0 }, false)
      .where('type', '=', logTypeConsume)
      .where('created_at', '>=', start)
      .where('created_at', '<=', end)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('quota'));
    parts.push(sql`(${query})`);
  };
  if (lo !== null && f.startTimestamp < lo * n) edge(f.startTimestamp, lo * n - 1);
  if (hi !== null && f.endTimestamp > hi * n + n - 1) edge(hi * n + n, f.endTimestamp);
  const { rows } = await sql<{ quota: number | string }>`select ${sql.join(parts, sql` + `)} as quota`.execute(db);
  return Number(rows[0]?.quota ?? 0);
}

/**
 * The plain `SUM(quota)` over `logs`: what `sumUsedQuota` must equal (the rollups' test oracle),
 * and its answer for the filters the rollups do not keep.
 */
export async function sumUsedQuotaPlain(db: Db, f: LogFilter): Promise<number> {
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
