import * as t from 'io-ts';
import type { TaskEither } from 'fp-ts/TaskEither';
import type { ApiError } from '../domain/apiError';
import { Log, LogStat, type LogFilter } from '../domain/log';
import { logExportFallbackName, type LogScope } from '../domain/logQuery';
import { readData, type ApiClient, type Query } from './client';
import { download, type DownloadedFile } from './download';
import { listOf } from './lists';

/** Usage logs (spec §7 "Logs", contract §2.10). Unset filter fields are not sent. */
export interface LogApi {
  /** GET /api/log/?p=&type=&username=&token_name=&model_name=&start_timestamp=&end_timestamp=&channel= (admin). */
  readonly list: (page: number, filter: LogFilter) => TaskEither<ApiError, Log[]>;
  /** GET /api/log/self/?p=&type=&token_name=&model_name=&start_timestamp=&end_timestamp= (no username, channel). */
  readonly listSelf: (page: number, filter: LogFilter) => TaskEither<ApiError, Log[]>;
  /** GET /api/log/search?keyword= (admin; up to 100 rows). */
  readonly search: (keyword: string) => TaskEither<ApiError, Log[]>;
  /** GET /api/log/self/search?keyword= (the keyword is a log type). */
  readonly searchSelf: (keyword: string) => TaskEither<ApiError, Log[]>;
  /** GET /api/log/stat with the admin filters: consumed quota. */
  readonly stat: (filter: LogFilter) => TaskEither<ApiError, LogStat>;
  /** GET /api/log/self/stat with the self filters. */
  readonly statSelf: (filter: LogFilter) => TaskEither<ApiError, LogStat>;
  /** DELETE /api/log/?target_timestamp= (unix seconds, admin): how many rows were cleared. */
  readonly clear: (targetTimestamp: number) => TaskEither<ApiError, number>;
  /**
   * GET /api/log/export (admin) or /api/log/self/export with the list's filters (no `p`): the
   * whole filtered result as a CSV file (text/csv). An envelope answer is a Failure with its message.
   */
  readonly exportCsv: (filter: LogFilter, scope: LogScope) => TaskEither<ApiError, DownloadedFile>;
}

const logStatOnly = t.exact(LogStat);

const adminFilter = (filter: LogFilter): Query => ({
  type: filter.type,
  username: filter.username,
  token_name: filter.token_name,
  model_name: filter.model_name,
  start_timestamp: filter.start_timestamp,
  end_timestamp: filter.end_timestamp,
  channel: filter.channel,
});

const selfFilter = (filter: LogFilter): Query => ({
  type: filter.type,
  token_name: filter.token_name,
  model_name: filter.model_name,
  start_timestamp: filter.start_timestamp,
  end_timestamp: filter.end_timestamp,
});

export const createLogApi = (client: ApiClient): LogApi => ({
  list: (page, filter) =>
    client.request({ method: 'GET', path: '/api/log/', query: { p: page, ...adminFilter(filter) }, read: readData(listOf(Log)) }),
  listSelf: (page, filter) =>
    client.request({
      method: 'GET',
      path: '/api/log/self/',
      query: { p: page, ...selfFilter(filter) },
      read: readData(listOf(Log)),
    }),
  search: (keyword) =>
    client.request({ method: 'GET', path: '/api/log/search', query: { keyword }, read: readData(listOf(Log)) }),
  searchSelf: (keyword) =>
    client.request({ method: 'GET', path: '/api/log/self/search', query: { keyword }, read: readData(listOf(Log)) }),
  stat: (filter) => client.request({ method: 'GET', path: '/api/log/stat', query: adminFilter(filter), read: readData(logStatOnly) }),
  statSelf: (filter) =>
    client.request({ method: 'GET', path: '/api/log/self/stat', query: selfFilter(filter), read: readData(logStatOnly) }),
  exportCsv: (filter, scope) =>
    download(client, {
      path: scope === 'admin' ? '/api/log/export' : '/api/log/self/export',
      query: scope === 'admin' ? adminFilter(filter) : selfFilter(filter),
      accept: 'text/csv',
      fallbackName: logExportFallbackName,
    }),
  clear: (targetTimestamp) =>
    client.request({
      method: 'DELETE',
      path: '/api/log/',
      query: { target_timestamp: targetTimestamp },
      read: readData(t.number),
    }),
});

