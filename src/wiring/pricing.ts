import { createUserApi } from '../api/userApi';
import { apiActors } from '../api/actors/fromApi';
import type { pricingMachine } from '../machines/pricing';
import { implement, implementArea } from '../views/app/machineRegistry';
import type { WiringRoot } from './root';

/** The pricing page: the models the viewer may use and their prices. */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ user: createUserApi(c) }));
  return implementArea('pricing', [
    implement<typeof pricingMachine>('pricing', { actors: { loadPricing: fromApi((api) => () => api.user.getPricing()) } }),
  ]);
};
