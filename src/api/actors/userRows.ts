import * as TE from 'fp-ts/TaskEither';
import { pipe } from 'fp-ts/function';
import { refusedError, type ApiError } from '../../domain/apiError';
import { msg } from '../../domain/message';
import type { FetchPageInput, RowActionInput, RowActionOutcome, SearchRowsInput } from '../../domain/rowAction';
import { UserManageAction, type User, type UserCreatePayload, type UserUpdatePayload } from '../../domain/user';
import type { UserApi } from '../userApi';

/*
 * What acts on the rows of the user list and saves the user form, for the composition root.
 * The action names are those of src/machines/userList (one-api's manage actions).
 */

type Outcome = RowActionOutcome<User>;

/** A soft-deleted user (contract §1.4: status 3); the list endpoint leaves them out, the search does not. */
const statusDeleted = 3;

/**
 * action name → `POST /api/user/manage` → the row change: the answer's role and status replace
 * the row's (spec §4); a deleted user leaves the list. Says '操作成功完成！'.
 */
export const userRowAction =
  (api: UserApi) =>
  ({ action, row }: RowActionInput<User>): TE.TaskEither<ApiError, Outcome> => {
    if (!UserManageAction.is(action)) return TE.left(refusedError('user.manage', msg('error.refused.unknownAction', { action })));
    return pipe(
      api.manageUser(row.username, action),
      TE.map(
        (managed): Outcome =>
          action === 'delete' || managed.status === statusDeleted
            ? { removed: true, message: msg('common.success') }
            : { patch: { role: managed.role, status: managed.status }, message: msg('common.success') },
      ),
    );
  };

/** `searchRows` of the user list: the server's matches without deleted users (spec §2: deleted rows are hidden). */
export const searchUserRows =
  (api: UserApi) =>
  ({ keyword }: SearchRowsInput): TE.TaskEither<ApiError, readonly User[]> =>
    pipe(
      api.searchUsers(keyword),
      TE.map((users) => users.filter((u) => u.status !== statusDeleted)),
    );

/** `saveUser` of the user form: create (POST /api/user/) or update (PUT /api/user/). */
export const saveUser =
  (api: UserApi) =>
  (input: { readonly kind: 'create'; readonly payload: UserCreatePayload } | { readonly kind: 'update'; readonly payload: UserUpdatePayload }): TE.TaskEither<ApiError, void> =>
    input.kind === 'create' ? api.createUser(input.payload) : api.updateUser(input.payload);

/** `fetchPage` of the user table: `GET /api/user/?p=&order=`, in the server order asked (or the default one). */
export const fetchUserPage =
  (api: UserApi) =>
  ({ page, order }: FetchPageInput): TE.TaskEither<ApiError, readonly User[]> =>
    api.listUsers(page, order === 'quota' || order === 'used_quota' || order === 'request_count' ? order : '');
