import { fromPromise } from 'xstate';
import { createUserApi } from '../api/userApi';
import { apiActors } from '../api/actors/fromApi';
import { fetchUserPage, saveUser, searchUserRows, userRowAction } from '../api/actors/userRows';
import type { Message } from '../domain/message';
import type { ExportRowsInput, FetchPageInput, SearchRowsInput } from '../domain/rowAction';
import type { User } from '../domain/user';
import type { profileEditMachine } from '../machines/profileEdit';
import { awaitSession } from '../machines/sessionWatch/awaitSession';
import type { userFormMachine } from '../machines/userForm';
import type { userTableMachine } from '../machines/userList';
import { implement, implementArea } from '../views/app/machineRegistry';
import { asListed, startWithFirstPage } from './firstPage';
import type { WiringRoot } from './root';

/** The user list and form (admins), and the viewer's own profile page. */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ user: createUserApi(c) }));
  return implementArea('user', [
    implement<typeof userTableMachine, 'userTable'>('userTable', {
      actors: {
        fetchPage: fromApi<readonly User[], FetchPageInput>((api) => fetchUserPage(api.user)),
        searchRows: fromApi<readonly User[], SearchRowsInput>((api) => searchUserRows(api.user)),
        runRowAction: fromApi((api) => userRowAction(api.user)),
        exportRows: fromPromise<Message | null, ExportRowsInput<User>>(() => Promise.resolve(null)),
      },
    }, startWithFirstPage<User>(client, (c, input) => fetchUserPage(createUserApi(c))(input), asListed)),
    implement<typeof userFormMachine>('userForm', {
      actors: {
        loadUser: fromApi((api) => ({ id }: { readonly id: number }) => api.user.getUser(id)),
        loadGroups: fromApi<readonly string[], unknown>((api) => () => api.user.listGroups()),
        saveUser: fromApi((api) => saveUser(api.user)),
        awaitSession,
      },
    }),
    implement<typeof profileEditMachine>('profileEdit', {
      actors: { loadSelf: fromApi((api) => () => api.user.getSelf()), saveSelf: fromApi((api) => api.user.updateSelf), awaitSession },
    }),
  ]);
};
