import * as TE from 'fp-ts/TaskEither';
import { pipe } from 'fp-ts/function';
import { refusedError, type ApiError } from '../../domain/apiError';
import { nextTokenStatus, tokenStatusDisabled, tokenStatusEnabled } from '../../domain/constants';
import { msg } from '../../domain/message';
import { secondsText } from '../../domain/format';
import { chatRequestFor, pickTestModel, replyPreview, type ChatCompletion, type RelayModelList } from '../../domain/relay';
import type { FetchPageInput, RowActionInput, RowActionOutcome } from '../../domain/rowAction';
import type { Token } from '../../domain/token';
import type { RelayApi } from '../relayApi';
import type { TokenApi, TokenOrder } from '../tokenApi';

/*
 * The token list's actions (row and bulk), for the composition root. Action names are those of
 * src/machines/tokenList (`toggle`, `enable`, `disable`, `delete`, `test`).
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

/** Milliseconds from an arbitrary origin (the test's stopwatch; tests pass a fake one). */
export type Clock = () => number;
const monotonic: Clock = () => performance.now();

/**
 * `test`: the token's own key against the relay. `GET /v1/models` picks the model (the first of
 * the token's restriction, else the first listed) and proves the key; one short non-streaming
 * `POST /v1/chat/completions` answers. The toast says the model, the seconds the completion took
 * and the start of the reply; any refusal is the relay's own message (a disabled token's 401).
 * The row itself does not change (its used quota shows after the next reload).
 */
export const testToken = (relay: RelayApi, row: Token, clock: Clock = monotonic): TE.TaskEither<ApiError, Outcome> =>
  pipe(
    relay.listModels(row.key),
    TE.chain((list: RelayModelList) => {
      const model = pickTestModel(row.models, list.data);
      return pipe(
        TE.rightIO(clock),
        TE.chain((started) =>
          pipe(
            relay.chat(row.key, chatRequestFor(model)),
            TE.map((completion: ChatCompletion): Outcome => {
              const reply = replyPreview(completion);
              const params = { name: row.name, model, seconds: secondsText(clock() - started), reply };
              return { message: msg(reply === '' ? 'tokens.test.successEmpty' : 'tokens.test.success', params) };
            }),
          ),
        ),
      );
    }),
  );

/** action name → API call → what changed in the row. `relay` serves `test`. */
export const tokenRowAction =
  (api: TokenApi, relay: RelayApi, clock: Clock = monotonic) =>
  ({ action, row }: RowActionInput<Token>): TE.TaskEither<ApiError, Outcome> => {
    switch (action) {
      case 'test':
        return testToken(relay, row, clock);
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
        return TE.left(refusedError('token.action', msg('error.refused.unknownAction', { action })));
    }
  };
