import { createUserApi } from '../api/userApi';
import { apiActors } from '../api/actors/fromApi';
import { createTransactionIdActor, loadSelfActor, redeemCodeActor } from '../api/actors/account';
import { openWindow } from '../api/actors/browser/windows';
import { followSession } from '../machines/sessionWatch/sessionWatch';
import type { topUpMachine } from '../machines/topUp';
import { implement, implementArea } from '../views/app/machineRegistry';
import type { WiringRoot } from './root';

/** The top-up page: redeem a code or open the top-up link. */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ user: createUserApi(c) }));
  return implementArea('topup', [
    implement<typeof topUpMachine>('topUp', {
      actors: { loadSelf: loadSelfActor(fromApi), redeemCode: redeemCodeActor(fromApi), createTransactionId: createTransactionIdActor, followSession },
      actions: { openWindow: (_, { url }) => openWindow(url) },
    }),
  ]);
};
