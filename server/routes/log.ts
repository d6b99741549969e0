import { Hono, type Context } from 'hono';
import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { adminAuth, currentUser, userAuth } from '../http/auth';
import { fail, localize, ok } from '../http/envelope';
import type { AppEnv } from '../http/env';
import { decodeQuery, pageIndex } from '../http/validate';
import {
  deleteLogsBefore,
  filterOf,
  listLogs,
  LogDeleteQuery,
  logJson,
  LogQuery,
  LogSearchQuery,
  searchAllLogs,
  searchUserLogs,
  sumUsedQuota,
} from '../services/log';
import { exportFileName, exportLogsCsv, LogExportQuery, type ExportVariant } from '../services/logExport';

/**
 * Log endpoints (contract §2.10), mounted at /api/log. Admin routes see every row; the self
 * routes only the caller's, and — as in one-api — answer `id: 0` on every row (§6 #33, kept:
 * harmless and observable). The self stat is restricted by `user_id` rather than one-api's
 * username match, so a user who takes over a renamed user's old name does not see that user's
 * spending.
 */

type Ctx = Context<AppEnv>;

/** Decodes the query with `codec`, or answers the i18n `invalid_parameter` error. */
function withQuery<A>(c: Ctx, codec: t.Decoder<unknown, A>, run: (q: A) => Promise<Response>): Promise<Response> {
  const decoded = decodeQuery(c, codec);
  return E.isLeft(decoded) ? Promise.resolve(fail(c, localize(c, 'invalid_parameter'))) : run(decoded.right);
}

/** `GET /api/log/` (admin): one page of every log, filtered. */
const listAll = (c: Ctx) =>
  withQuery(c, LogQuery, async (q) => {
    const rows = await listLogs(c.get('deps').db, filterOf(q, null), pageIndex(c));
    return ok(c, rows.map((row) => logJson(row)));
  });

/** `GET /api/log/self/` (user): one page of the caller's logs (no username/channel filter), ids hidden. */
const listSelf = (c: Ctx) =>
  withQuery(c, LogQuery, async (q) => {
    const rows = await listLogs(c.get('deps').db, filterOf(q, { userId: currentUser(c).id }), pageIndex(c));
    return ok(c, rows.map((row) => logJson(row, true)));
  });

/** `GET /api/log/search?keyword=` (admin). */
const searchAll = (c: Ctx) =>
  withQuery(c, LogSearchQuery, async (q) => {
    const rows = await searchAllLogs(c.get('deps').db, q.keyword);
    return ok(c, rows.map((row) => logJson(row)));
  });

/** `GET /api/log/self/search?keyword=` (user): by type only, ids hidden. */
const searchSelf = (c: Ctx) =>
  withQuery(c, LogSearchQuery, async (q) => {
    const rows = await searchUserLogs(c.get('deps').db, currentUser(c).id, q.keyword);
    return ok(c, rows.map((row) => logJson(row, true)));
  });

/** `GET /api/log/stat` (admin): `{quota}` summed over consume logs; `type` ignored. */
const statAll = (c: Ctx) =>
  withQuery(c, LogQuery, async (q) => ok(c, { quota: await sumUsedQuota(c.get('deps').db, filterOf(q, null)) }));

/** `GET /api/log/self/stat` (user): the caller's consume sum; `username` comes from the caller, `channel` is honoured. */
const statSelf = (c: Ctx) =>
  withQuery(c, LogQuery, async (q) => {
    const filter = { ...filterOf(q, null), username: '', userId: currentUser(c).id };
    return ok(c, { quota: await sumUsedQuota(c.get('deps').db, filter) });
  });

/** `DELETE /api/log/?target_timestamp=` (admin): deletes logs older than the target; data = count. */
const deleteOld = (c: Ctx) =>
  withQuery(c, LogDeleteQuery, async (q) => {
    if (q.target_timestamp === 0) return fail(c, 'target timestamp is required');
    return ok(c, await deleteLogsBefore(c.get('deps').db, q.target_timestamp));
  });

/**
 * `GET /api/log/export` (admin) and `/api/log/self/export` (user): the whole filtered list as a
 * streamed CSV file (services/logExport.ts). Bad filters answer the JSON envelope before anything
 * is streamed; the self file has the caller's rows only, without ids and channels.
 */
const exportLogs = (variant: ExportVariant) => (c: Ctx) =>
  withQuery(c, LogExportQuery, (q) => {
    const { db, now } = c.get('deps');
    const filter = filterOf(q, variant === 'self' ? { userId: currentUser(c).id } : null);
    const body = exportLogsCsv(db, filter, variant);
    return Promise.resolve(
      c.body(body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${exportFileName(now())}"`,
        'Cache-Control': 'no-store',
      }),
    );
  });

/** Routes mounted at /api/log. */
export function logRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get('/', adminAuth, listAll);
  app.delete('/', adminAuth, deleteOld);
  app.get('/stat', adminAuth, statAll);
  app.get('/search', adminAuth, searchAll);
  app.get('/export', adminAuth, exportLogs('admin'));
  app.get('/self', userAuth, listSelf);
  app.get('/self/stat', userAuth, statSelf);
  app.get('/self/search', userAuth, searchSelf);
  app.get('/self/export', userAuth, exportLogs('self'));
  return app;
}
