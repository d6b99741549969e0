import * as TE from 'fp-ts/TaskEither';
import { pipe } from 'fp-ts/function';
import type { ApiError } from '../../domain/apiError';
import { pageSize } from '../../domain/constants';
import type { Log } from '../../domain/log';
import { logFilterOf, logScopeOf, numberLogRows, type LogScope } from '../../domain/logQuery';
import type { LogFilter } from '../../domain/log';
import type { FetchPageInput } from '../../domain/rowAction';
import type { DownloadedFile } from '../download';
import type { LogApi } from '../logApi';

/*
 * What the log page's machines call, for the composition root (src/machines/logList).
 */

/**
 * `fetchPage` of the log table: the scope parameter picks `/api/log/` (admin) or
 * `/api/log/self/`; the other parameters are the filters. Self rows (all id 0) are numbered.
 */
export const fetchLogPage =
  (api: LogApi) =>
  (input: FetchPageInput): TE.TaskEither<ApiError, readonly Log[]> =>
    pipe(requestLogPage(api)(input), TE.map(logRowsOf(input)));

/** The request of `fetchLogPage`: the server's rows as they are. */
export const requestLogPage =
  (api: LogApi) =>
  ({ page, params }: FetchPageInput): TE.TaskEither<ApiError, readonly Log[]> => {
    const scope = logScopeOf(params);
    const filter = logFilterOf(params, scope);
    return scope === 'admin' ? api.list(page, filter) : api.listSelf(page, filter);
  };

/** The rows `fetchLogPage` answers from the server's: self rows (all id 0) numbered. */
export const logRowsOf =
  ({ page, params }: FetchPageInput) =>
  (rows: readonly Log[]): readonly Log[] =>
    numberLogRows(rows, page, pageSize, logScopeOf(params));

/** `fetchLogStat`: the consumed quota for the filters. */
export const fetchLogStat =
  (api: LogApi) =>
  ({ filter, scope }: { readonly filter: LogFilter; readonly scope: LogScope }): TE.TaskEither<ApiError, number> =>
    pipe(
      scope === 'admin' ? api.stat(filter) : api.statSelf(filter),
      TE.map((stat) => stat.quota),
    );

/** `downloadLogs`: fetches the CSV export and hands it to `save` (an anchor download); answers the file name. */
export const downloadLogs =
  (api: LogApi, save: (file: DownloadedFile) => void) =>
  ({ filter, scope }: { readonly filter: LogFilter; readonly scope: LogScope }): TE.TaskEither<ApiError, string> =>
    pipe(
      api.exportCsv(filter, scope),
      TE.map((file) => {
        save(file);
        return file.name;
      }),
    );
