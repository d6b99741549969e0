import { createRedemptionApi } from '../api/redemptionApi';
import { apiActors } from '../api/actors/fromApi';
import { copyTextActor } from '../api/actors/browser/clipboard';
import { downloadTextActor } from '../api/actors/browser/downloads';
import { redemptionExportActor, redemptionRowAction, saveRedemption } from '../api/actors/redemptionRows';
import type { Redemption } from '../domain/redemption';
import type { FetchPageInput, SearchRowsInput } from '../domain/rowAction';
import type { redemptionFormMachine } from '../machines/redemptionForm';
import type { redemptionKeyCopyMachine, redemptionTableMachine } from '../machines/redemptionList';
import { awaitSession } from '../machines/sessionWatch/awaitSession';
import { implement, implementArea } from '../views/app/machineRegistry';
import { asListed, startWithFirstPage } from './firstPage';
import type { WiringRoot } from './root';

/** The redemption list (table, key copies) and the redemption form. */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ redemption: createRedemptionApi(c) }));
  return implementArea('redemption', [
    implement<typeof redemptionTableMachine, 'redemptionTable'>('redemptionTable', {
      actors: {
        fetchPage: fromApi<readonly Redemption[], FetchPageInput>((api) => ({ page }) => api.redemption.list(page)),
        searchRows: fromApi<readonly Redemption[], SearchRowsInput>((api) => ({ keyword }) => api.redemption.search(keyword)),
        runRowAction: fromApi((api) => redemptionRowAction(api.redemption)),
        exportRows: redemptionExportActor,
      },
    }, startWithFirstPage<Redemption>(client, (c, { page }) => createRedemptionApi(c).list(page), asListed)),
    implement<typeof redemptionKeyCopyMachine, 'redemptionKeyCopy'>('redemptionKeyCopy', { actors: { copyText: copyTextActor } }),
    implement<typeof redemptionFormMachine>('redemptionForm', {
      actors: {
        loadRedemption: fromApi((api) => ({ id }: { readonly id: number }) => api.redemption.get(id)),
        saveRedemption: fromApi((api) => saveRedemption(api.redemption)),
        downloadKeys: downloadTextActor,
        copyText: copyTextActor,
        awaitSession,
      },
    }),
  ]);
};
