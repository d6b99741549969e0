import { createUserApi } from '../api/userApi';
import { apiActors } from '../api/actors/fromApi';
import { loadDashboard, searchDashboardUsers } from '../api/actors/dashboard';
import type { dashboardMachine } from '../machines/dashboard';
import { implement, implementArea } from '../views/app/machineRegistry';
import type { WiringRoot } from './root';

/** The dashboard: the viewer's (or, for admins, any user's) usage. */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ user: createUserApi(c) }));
  return implementArea('dashboard', [
    implement<typeof dashboardMachine>('dashboard', {
      actors: { loadDashboard: fromApi((api) => loadDashboard(api.user)), searchUsers: fromApi((api) => searchDashboardUsers(api.user)) },
    }),
  ]);
};
