import * as t from 'io-ts';
import { logTypeConsume, logTypeTest } from './constants';

/** A usage log row (contract §2.1.5). `channel` is the JSON name of `channel_id`. */
export const Log = t.intersection([
  t.type({
    id: t.number,
    created_at: t.number,
    type: t.number,
    content: t.string,
    username: t.string,
    token_name: t.string,
    model_name: t.string,
    quota: t.number,
    prompt_tokens: t.number,
    completion_tokens: t.number,
  }),
  t.partial({
    user_id: t.number,
    channel: t.number,
    request_id: t.string,
    elapsed_time: t.number,
    is_stream: t.boolean,
    system_prompt_reset: t.boolean,
  }),
]);
export type Log = t.TypeOf<typeof Log>;

export const LogStat = t.type({ quota: t.number });
export type LogStat = t.TypeOf<typeof LogStat>;

/** Filters of `GET /api/log/` (admin) and `/api/log/self/` (no username/channel). */
export interface LogFilter {
  readonly type?: number;
  readonly username?: string;
  readonly token_name?: string;
  readonly model_name?: string;
  readonly start_timestamp?: number;
  readonly end_timestamp?: number;
  readonly channel?: number;
}

/** Decimals of a log's quota in currency: the rows and the total consumed quota alike. */
export const logQuotaDecimals = 6;

/** Which of a row's figures apply to its type (the others are shown as "does not apply"). */
export interface LogRowFields {
  readonly tokens: boolean;
  readonly quota: boolean;
  readonly elapsed: boolean;
  readonly stream: boolean;
}

/**
 * Consume and test rows are requests: tokens, quota, elapsed time and stream apply (the last two
 * when the row carries them). Every other row (top-up, manage, system, unknown) is a note: only its
 * quota can apply, and only when it carries one (a top-up by API records the amount; a redemption's
 * top-up row and most notes carry 0 and say the amount in their content).
 */
export function logRowFields(log: Pick<Log, 'type' | 'quota' | 'elapsed_time' | 'is_stream'>): LogRowFields {
  if (log.type === logTypeConsume || log.type === logTypeTest) {
    return { tokens: true, quota: true, elapsed: log.elapsed_time !== undefined, stream: log.is_stream !== undefined };
  }
  return { tokens: false, quota: log.quota !== 0, elapsed: false, stream: false };
}
