import { pipe } from 'fp-ts/function';
import * as TE from 'fp-ts/TaskEither';
import { fromPromise } from 'xstate';
import { createRelayApi } from '../api/relayApi';
import { createTokenApi } from '../api/tokenApi';
import { createUserApi } from '../api/userApi';
import { apiActors } from '../api/actors/fromApi';
import { copyTextActor } from '../api/actors/browser/clipboard';
import { fetchTokenPage, tokenRowAction } from '../api/actors/tokenRows';
import type { Message } from '../domain/message';
import type { ExportRowsInput, FetchPageInput, SearchRowsInput } from '../domain/rowAction';
import type { Token } from '../domain/token';
import { awaitSession } from '../machines/sessionWatch/awaitSession';
import type { SaveTokenInput, tokenFormMachine } from '../machines/tokenForm';
import type { tokenKeyCopyMachine, tokenTableMachine } from '../machines/tokenList';
import { implement, implementArea } from '../views/app/machineRegistry';
import { asListed, startWithFirstPage } from './firstPage';
import type { WiringRoot } from './root';

/** The token list (table, key copies) and the token form. */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ token: createTokenApi(c), relay: createRelayApi(c), user: createUserApi(c) }));
  return implementArea('token', [
    implement<typeof tokenTableMachine, 'tokenTable'>('tokenTable', {
      actors: {
        fetchPage: fromApi<readonly Token[], FetchPageInput>((api) => fetchTokenPage(api.token)),
        searchRows: fromApi<readonly Token[], SearchRowsInput>((api) => ({ keyword }) => api.token.search(keyword)),
        runRowAction: fromApi((api) => tokenRowAction(api.token, api.relay)),
        exportRows: fromPromise<Message | null, ExportRowsInput<Token>>(() => Promise.resolve(null)),
      },
    }, startWithFirstPage<Token>(client, (c, input) => fetchTokenPage(createTokenApi(c))(input), asListed)),
    implement<typeof tokenKeyCopyMachine, 'tokenKeyCopy'>('tokenKeyCopy', { actors: { copyText: copyTextActor } }),
    implement<typeof tokenFormMachine>('tokenForm', {
      actors: {
        loadToken: fromApi((api) => ({ id }: { readonly id: number }) => api.token.get(id)),
        loadAvailableModels: fromApi<readonly string[], unknown>((api) => () => api.user.getAvailableModels()),
        saveToken: fromApi<void, SaveTokenInput>((api) => ({ id, payload }) =>
          pipe(id === null ? api.token.create(payload) : api.token.update({ ...payload, id }), TE.map(() => undefined)),
        ),
        awaitSession,
      },
    }),
  ]);
};
