import * as TE from 'fp-ts/TaskEither';
import { pipe } from 'fp-ts/function';
import { failure, type ApiError } from '../../domain/apiError';
import { nextTokenStatus, tokenStatusDisabled, tokenStatusEnabled } from '../../domain/constants';
import { msg } from '../../domain/message';
import type { FetchPageInput, RowActionInput, RowActionOutcome } from '../../domain/rowAction';
import type { Token } from '../../domain/token';
import type { TokenApi, TokenOrder } from '../tokenApi';

/*
 * The token list's actions (row and bulk), for the composition root. Action names are those of
 * src/machines/tokenList (`toggle`, `enable`, `disable`, `delete`).
 */

type Outcome = RowActionOutcome<Token>;

/** The server orders of the token list (contract §1.8); anything else is the default. */
export const tokenOrderOf = (order: string): TokenOrder => (order === 'remain_quota' || order === 'used_quota' ? order : '');

/** `fetchPage` of the token list: `GET /api/token/?p=&order=`. */
export const fetchTokenPage =
  (api: TokenApi) =>
  ({ page, order }: FetchPageInput): TE.TaskEither<ApiError, readonly Token[]> =>
    api.list(page, tokenOrderOf(order));

/** `PUT /api/token/?status_only=true`: the server's token replaces the row (its refusal is its message). */
const setStatus = (api: TokenApi, row: Token, status: number): TE.TaskEither<ApiError, Outcome> =>
  pipe(
    api.setStatus({ id: row.id, status }),
    TE.map((updated): Outcome => ({ row: updated, message: msg('common.success') })),
  );

/** action name → API call → what changed in the row. */
export const tokenRowAction =
  (api: TokenApi) =>
  ({ action, row }: RowActionInput<Token>): TE.TaskEither<ApiError, Outcome> => {
    switch (action) {
      case 'toggle':
        return setStatus(api, row, nextTokenStatus(row.status));
      case 'enable':
        return setStatus(api, row, tokenStatusEnabled);
      case 'disable':
        return setStatus(api, row, tokenStatusDisabled);
      case 'delete':
        return pipe(
          api.remove(row.id),
          TE.map((): Outcome => ({ removed: true, message: msg('common.success') })),
        );
      default:
        return TE.left(failure('token.action', `unknown action ${action}`));
    }
  };
