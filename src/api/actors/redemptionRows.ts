import * as TE from 'fp-ts/TaskEither';
import { pipe } from 'fp-ts/function';
import { fromPromise, type PromiseActorLogic } from 'xstate';
import { refusedError, type ApiError } from '../../domain/apiError';
import { canToggleRedemption, nextRedemptionStatus, redemptionStatusDisabled, redemptionStatusUnused } from '../../domain/constants';
import { msg, type Message } from '../../domain/message';
import type { Redemption, RedemptionPayload } from '../../domain/redemption';
import type { ExportRowsInput, RowActionInput, RowActionOutcome } from '../../domain/rowAction';
import type { RedemptionApi } from '../redemptionApi';
import { copyText } from './browser/clipboard';
import { downloadText } from './browser/downloads';

/*
 * The redemption list's actions (row and bulk) and exports, for the composition root. Action
 * names are those of src/machines/redemptionList (`toggle`, `enable`, `disable`, `delete`;
 * exports `copy` and `download`).
 */

type Outcome = RowActionOutcome<Redemption>;

/** A used code keeps its status: the server would let it be re-enabled (contract §6 #36). */
const usedCodeRefused = (): TE.TaskEither<ApiError, Outcome> =>
  TE.left(refusedError('redemption.setStatus', msg('error.refused.redemptionUsed')));

const setStatus = (api: RedemptionApi, row: Redemption, status: number): TE.TaskEither<ApiError, Outcome> => {
  if (!canToggleRedemption(row.status)) return usedCodeRefused();
  return pipe(
    api.setStatus({ id: row.id, status }),
    TE.map((updated): Outcome => ({ row: updated, message: msg('common.success') })),
  );
};

/** action name → API call(s) → what changed in the row. */
export const redemptionRowAction =
  (api: RedemptionApi) =>
  ({ action, row }: RowActionInput<Redemption>): TE.TaskEither<ApiError, Outcome> => {
    switch (action) {
      case 'toggle':
        return setStatus(api, row, nextRedemptionStatus(row.status));
      case 'enable':
        return setStatus(api, row, redemptionStatusUnused);
      case 'disable':
        return setStatus(api, row, redemptionStatusDisabled);
      case 'delete':
        return pipe(
          api.remove(row.id),
          TE.map((): Outcome => ({ removed: true, message: msg('common.success') })),
        );
      default:
        return TE.left(refusedError('redemption.action', msg('error.refused.unknownAction', { action })));
    }
  };

/** The selected codes' keys, one per line. */
export const keysOf = (rows: readonly Redemption[]): string => `${rows.map((r) => r.key).join('\n')}\n`;

/** The file the list's selected keys download to. */
export const redemptionListFileName = 'redemptions.txt';

/**
 * `exportRows` of the redemption list: `copy` puts the selected keys on the clipboard (one per
 * line), `download` saves them as `redemptions.txt`.
 */
export const redemptionExportActor: PromiseActorLogic<Message | null, ExportRowsInput<Redemption>> = fromPromise(
  async ({ input }) => {
    const text = keysOf(input.rows);
    if (input.format === 'download') {
      downloadText(redemptionListFileName, text);
      return msg('redemptions.downloadedMany', { count: input.rows.length, file: redemptionListFileName });
    }
    await copyText(text);
    return msg('redemptions.copiedMany', { count: input.rows.length });
  },
);

/** `saveRedemption` of the form: create (the generated keys) or update (no keys). */
export const saveRedemption =
  (api: RedemptionApi) =>
  ({ id, payload }: { readonly id: number | null; readonly payload: RedemptionPayload }): TE.TaskEither<ApiError, readonly string[]> =>
    id === null
      ? api.create(payload)
      : pipe(
          api.update({ ...payload, id }),
          TE.map((): readonly string[] => []),
        );
