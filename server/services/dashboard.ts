import * as E from 'fp-ts/Either';
import { sql, type Kysely } from 'kysely';
import { logTypeConsume, roleAdmin } from '../../src/domain/constants';
import type { Database } from '../db/schema';

/**
 * `GET /api/user/dashboard` (contract §2.4.8, extended): consume logs per (day, model) over a
 * window. Without parameters one-api's window (the last 7 UTC days) and the caller's logs. Optional:
 * `start_timestamp`/`end_timestamp` (inclusive, both or neither, at most 366 days), `utc_offset`
 * (minutes east of UTC: the days are the caller's local days) and, for admins, `user_id` (0 = all).
 * The days are integer buckets computed by the database, formatted here, so both dialects agree.
 */

type Db = Kysely<Database>;

/** Seconds per day. */
export const daySeconds = 86_400;
/** Longest accepted range (days). */
export const maxRangeDays = 366;
/** Accepted `utc_offset` (minutes). */
export const utcOffsetBounds = { min: -720, max: 840 } as const;

/** Validation failures: which message the route answers. */
export type DashboardRefusal = 'invalid_parameter' | 'invalid_range' | 'forbidden';

/** A validated request: the inclusive window, the offset in seconds and whose logs (null = everyone's). */
export interface DashboardRequest {
  readonly start: number;
  readonly end: number;
  readonly offsetSeconds: number;
  readonly userId: number | null;
}

/** One row of the answer (PascalCase keys, as one-api's). */
export interface DashboardRow {
  readonly Day: string;
  readonly ModelName: string;
  readonly RequestCount: number;
  readonly Quota: number;
  readonly PromptTokens: number;
  readonly CompletionTokens: number;
}

/** A strict decimal integer parameter: absent → undefined; unparsable → null. */
function intParam(raw: string | undefined): number | undefined | null {
  if (raw === undefined || raw === '') return undefined;
  if (!/^[+-]?\d+$/.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : null;
}

/** The caller, as the decision needs it. */
export interface DashboardCaller {
  readonly id: number;
  readonly role: number;
}

/** Validates the query parameters of a dashboard request made by `caller` at `nowSeconds`. */
export function dashboardRequest(
  query: Readonly<Record<string, string | undefined>>,
  caller: DashboardCaller,
  nowSeconds: number,
): E.Either<DashboardRefusal, DashboardRequest> {
  const start = intParam(query.start_timestamp);
  const end = intParam(query.end_timestamp);
  const offset = intParam(query.utc_offset);
  const userId = intParam(query.user_id);
  if (start === null || end === null || offset === null || userId === null) return E.left('invalid_parameter');
  if (offset !== undefined && (offset < utcOffsetBounds.min || offset > utcOffsetBounds.max)) return E.left('invalid_parameter');
  if (userId !== undefined && userId < 0) return E.left('invalid_parameter');
  if (userId !== undefined && userId !== caller.id && caller.role < roleAdmin) return E.left('forbidden');
  const offsetSeconds = (offset ?? 0) * 60;
  let window: { start: number; end: number };
  if (start === undefined && end === undefined) {
    // The last 7 local days (UTC days without an offset: one-api's window).
    const local = nowSeconds + offsetSeconds;
    const todayStart = local - (((local % daySeconds) + daySeconds) % daySeconds) - offsetSeconds;
    window = { start: todayStart - 6 * daySeconds, end: todayStart + daySeconds - 1 };
  } else {
    if (start === undefined || end === undefined || start < 0 || end < start || end - start > maxRangeDays * daySeconds) {
      return E.left('invalid_range');
    }
    window = { start, end };
  }
  const who = userId === undefined ? caller.id : userId === 0 ? null : userId;
  return E.right({ ...window, offsetSeconds, userId: who });
}

/** `YYYY-MM-DD` of day number `n` (days since 1970-01-01). */
const dayText = (n: number): string => new Date(n * daySeconds * 1000).toISOString().slice(0, 10);

/** The consume logs of `r` per (local day, model), ordered by day then model. */
export async function dashboardRows(db: Db, r: DashboardRequest): Promise<DashboardRow[]> {
  // floor((created_at + offset) / 86400) with integer division: created_at >= start >= 0 and
  // offset > -86400, so the dividend plus one day is positive and truncation is the floor.
  const shift = sql.lit(r.offsetSeconds + daySeconds);
  const day = sql<number>`(created_at + ${shift}) / ${sql.lit(daySeconds)} - 1`;
  let query = db
    .selectFrom('logs')
    .select([
      day.as('day'),
      'model_name',
      sql<number>`count(1)`.as('request_count'),
      sql<number>`coalesce(sum(quota), 0)`.as('quota'),
      sql<number>`coalesce(sum(prompt_tokens), 0)`.as('prompt_tokens'),
      sql<number>`coalesce(sum(completion_tokens), 0)`.as('completion_tokens'),
    ])
    .where('type', '=', logTypeConsume)
    .where('created_at', '>=', r.start)
    .where('created_at', '<=', r.end);
  if (r.userId !== null) query = query.where('user_id', '=', r.userId);
  const rows = await query.groupBy([day, 'model_name']).orderBy(day).orderBy('model_name').execute();
  return rows.map((row) => ({
    Day: dayText(Number(row.day)),
    ModelName: row.model_name,
    RequestCount: Number(row.request_count),
    Quota: Number(row.quota),
    PromptTokens: Number(row.prompt_tokens),
    CompletionTokens: Number(row.completion_tokens),
  }));
}
