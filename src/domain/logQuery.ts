import { logTypeAll, logTypes } from './constants';
import { defaultLogRange, parseDateTime, toDateTimeLocal } from './format';
import type { LogFilter } from './log';

/**
 * The log page's filters (spec "Log page", §6, §9; contract §2.10): kept as the log table's
 * server parameters (`p.<name>` in the address), turned into the query of
 * `GET /api/log/` (admin) or `/api/log/self/` (everyone else), of the stat call and of the export.
 */

/** Whose logs: every user's (admin, role >= 10) or the caller's own. */
export type LogScope = 'admin' | 'self';

/** The fixed table parameter that says whose logs the table lists (not kept in the address). */
export const logScopeParam = 'scope';

/** The server parameters of the log table, named as the API names them. */
export const logParamKeys = ['type', 'username', 'token_name', 'model_name', 'start_timestamp', 'end_timestamp', 'channel'] as const;
export type LogParamKey = (typeof logParamKeys)[number];

/** The scope a table's parameters name (`self` unless they say `admin`). */
export const logScopeOf = (params: Readonly<Record<string, string>> | undefined): LogScope =>
  params?.[logScopeParam] === 'admin' ? 'admin' : 'self';

const wholeNumber = (text: string | undefined): number | undefined =>
  text !== undefined && /^\d{1,12}$/.test(text) ? Number(text) : undefined;

const textOf = (text: string | undefined): string | undefined => {
  const value = text?.trim() ?? '';
  return value === '' ? undefined : value;
};

/**
 * The API filter of the table's parameters. Self logs drop `username` and `channel` (the server
 * ignores them there); numbers that are not whole non-negative numbers and type 0 (all) are left out.
 */
export function logFilterOf(params: Readonly<Record<string, string>> | undefined, scope: LogScope): LogFilter {
  const p = params ?? {};
  const type = wholeNumber(p.type);
  const channel = wholeNumber(p.channel);
  const filter: { -readonly [K in keyof LogFilter]: LogFilter[K] } = {};
  if (type !== undefined && type !== logTypeAll) filter.type = type;
  const token = textOf(p.token_name);
  if (token !== undefined) filter.token_name = token;
  const model = textOf(p.model_name);
  if (model !== undefined) filter.model_name = model;
  const start = wholeNumber(p.start_timestamp);
  if (start !== undefined && start > 0) filter.start_timestamp = start;
  const end = wholeNumber(p.end_timestamp);
  if (end !== undefined && end > 0) filter.end_timestamp = end;
  if (scope === 'admin') {
    const username = textOf(p.username);
    if (username !== undefined) filter.username = username;
    if (channel !== undefined && channel > 0) filter.channel = channel;
  }
  return filter;
}

/** The filter form's fields, as the inputs hold them (datetime-local text for the times). */
export interface LogFilterForm {
  readonly token_name: string;
  readonly model_name: string;
  /** 'YYYY-MM-DDTHH:mm' or '' (from 0). */
  readonly start: string;
  /** 'YYYY-MM-DDTHH:mm' or '' (no end). */
  readonly end: string;
  /** A log type number as text ('0' = all). */
  readonly type: string;
  readonly channel: string;
  readonly username: string;
}

/**
 * The form of the current parameters. Without times the form shows the default range (spec §9):
 * start empty (0), end one hour after `nowSeconds`.
 */
export function logFormOf(params: Readonly<Record<string, string>> | undefined, nowSeconds: number, offsetMinutes?: number): LogFilterForm {
  const p = params ?? {};
  const start = wholeNumber(p.start_timestamp);
  const end = wholeNumber(p.end_timestamp);
  const type = wholeNumber(p.type);
  return {
    token_name: p.token_name ?? '',
    model_name: p.model_name ?? '',
    start: start !== undefined && start > 0 ? toDateTimeLocal(start, offsetMinutes) : '',
    end: toDateTimeLocal(end !== undefined && end > 0 ? end : defaultLogRange(nowSeconds).end, offsetMinutes),
    type: type !== undefined && logTypes.some((t) => t.value === type) ? String(type) : String(logTypeAll),
    channel: p.channel ?? '',
    username: p.username ?? '',
  };
}

/**
 * The table parameters of a submitted form: times as Unix seconds (an unreadable time is left
 * out), type 0 and empty fields left out; `username` and `channel` only for admins.
 */
export function logParamsOf(form: LogFilterForm, scope: LogScope, offsetMinutes?: number): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  const put = (key: LogParamKey, value: string | number | null | undefined) => {
    const text = value === null || value === undefined ? '' : String(value).trim();
    if (text !== '') out[key] = text;
  };
  put('token_name', form.token_name);
  put('model_name', form.model_name);
  const start = form.start.trim() === '' ? null : parseDateTime(form.start, offsetMinutes);
  if (start !== null && start > 0) put('start_timestamp', start);
  const end = form.end.trim() === '' ? null : parseDateTime(form.end, offsetMinutes);
  if (end !== null && end > 0) put('end_timestamp', end);
  if (form.type !== String(logTypeAll)) put('type', wholeNumber(form.type.trim()));
  if (scope === 'admin') {
    put('username', form.username);
    put('channel', wholeNumber(form.channel.trim()));
  }
  return out;
}

/**
 * Self logs all carry id 0 (contract §2.1.5): the rows of server page `page` get ids
 * `page × size + index + 1`, unique over the pages of one list. Admin rows keep their ids.
 */
export function numberLogRows<R extends { readonly id: number }>(rows: readonly R[], page: number, size: number, scope: LogScope): readonly R[] {
  if (scope === 'admin') return rows;
  return rows.map((row, index) => ({ ...row, id: page * size + index + 1 }));
}

/** The file name used when the export answer has none. */
export const logExportFallbackName = 'logs.csv';
