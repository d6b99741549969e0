import * as t from 'io-ts';

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
