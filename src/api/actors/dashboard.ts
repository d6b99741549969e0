import * as TE from 'fp-ts/TaskEither';
import { pipe } from 'fp-ts/function';
import type { ApiError } from '../../domain/apiError';
import type { AccountQuota, DashboardQuery, DashboardRow } from '../../domain/dashboard';
import type { User } from '../../domain/user';
import type { UserApi } from '../userApi';

/*
 * What loads the usage dashboard, for the composition root: the rows of the range and the
 * viewed user's remaining and used quota side by side (src/machines/dashboard).
 */

const quotaOf = (user: User): AccountQuota => ({ quota: user.quota ?? 0, usedQuota: user.used_quota ?? 0 });

/**
 * `loadDashboard`: GET /api/user/dashboard with the query, and GET /api/user/self ('self') or
 * GET /api/user/:id (a user id) for the quota cards. The rows decide success; a quota the caller
 * may not read (e.g. another admin's) leaves the cards empty instead of failing the page.
 */
export const loadDashboard =
  (api: Pick<UserApi, 'getDashboard' | 'getSelf' | 'getUser'>) =>
  ({
    query,
    account,
  }: {
    readonly query: DashboardQuery;
    readonly account: 'self' | number | null;
  }): TE.TaskEither<ApiError, { readonly rows: readonly DashboardRow[]; readonly account: AccountQuota | null }> => {
    const accountTask: TE.TaskEither<ApiError, AccountQuota | null> =
      account === null
        ? TE.right(null)
        : pipe(
            account === 'self' ? api.getSelf() : api.getUser(account),
            TE.map(quotaOf),
            TE.orElse(() => TE.right<ApiError, AccountQuota | null>(null)),
          );
    return pipe(TE.Do, TE.apS('rows', api.getDashboard(query)), TE.apS('account', accountTask));
  };

/** `searchUsers` of the dashboard's user picker: id, username and display name of the matches. */
export const searchDashboardUsers =
  (api: Pick<UserApi, 'searchUsers'>) =>
  ({ keyword }: { readonly keyword: string }): TE.TaskEither<ApiError, readonly { readonly id: number; readonly username: string; readonly display_name: string }[]> =>
    pipe(
      api.searchUsers(keyword),
      TE.map((users) => users.map(({ id, username, display_name }) => ({ id, username, display_name }))),
    );
