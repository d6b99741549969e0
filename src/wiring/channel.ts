import { pipe } from 'fp-ts/function';
import * as TE from 'fp-ts/TaskEither';
import { fromPromise } from 'xstate';
import { createChannelApi } from '../api/channelApi';
import { createStatusApi } from '../api/statusApi';
import { createUserApi } from '../api/userApi';
import { apiActors } from '../api/actors/fromApi';
import { readLocal, writeLocal } from '../api/actors/browser/storage';
import { channelRowAction } from '../api/actors/channelRows';
import { listAllChannels, testChannelActor } from '../api/actors/channelTests';
import type { ChannelRow, ChannelTagCount } from '../domain/channel';
import type { Message } from '../domain/message';
import type { ExportRowsInput, FetchPageInput, SearchRowsInput } from '../domain/rowAction';
import type { channelFormMachine, SaveChannelInput } from '../machines/channelForm';
import type { channelListActionsMachine, channelTableMachine } from '../machines/channelList';
import type { channelTagsMachine, UpdateChannelsByTagInput } from '../machines/channelTags';
import type { channelTestMachine } from '../machines/channelTest';
import { awaitSession } from '../machines/sessionWatch/awaitSession';
import { implement, implementArea } from '../views/app/machineRegistry';
import { asListed, startWithFirstPage } from './firstPage';
import type { WiringRoot } from './root';

/** The channel list (table, actions, tags, tests) and the channel form. */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ channel: createChannelApi(c), user: createUserApi(c), status: createStatusApi(c) }));
  return implementArea('channel', [
    implement<typeof channelTableMachine, 'channelTable'>('channelTable', {
      actors: {
        fetchPage: fromApi<readonly ChannelRow[], FetchPageInput>((api) => ({ page }) => api.channel.list(page)),
        searchRows: fromApi<readonly ChannelRow[], SearchRowsInput>((api) => ({ keyword }) => api.channel.search(keyword)),
        runRowAction: fromApi((api) => channelRowAction(api.channel)),
        exportRows: fromPromise<Message | null, ExportRowsInput<ChannelRow>>(() => Promise.resolve(null)),
      },
    }, startWithFirstPage<ChannelRow>(client, (c, { page }) => createChannelApi(c).list(page), asListed)),
    implement<typeof channelListActionsMachine>('channelListActions', {
      actors: {
        loadListPrefs: fromPromise(() =>
          Promise.resolve({ showDetail: readLocal('show_detail') === 'true', noticeDismissed: readLocal('prompt-channel-notice') === 'true' }),
        ),
        deleteDisabledChannels: fromApi((api) => () => api.channel.removeDisabled()),
        fetchGroups: fromApi<readonly string[], unknown>((api) => () => api.user.listGroups()),
      },
      actions: {
        storeShowDetail: (_, { show }) => void writeLocal('show_detail', String(show)),
        storeNoticeDismissed: () => void writeLocal('prompt-channel-notice', 'true'),
      },
    }),
    implement<typeof channelTagsMachine>('channelTags', {
      actors: {
        fetchTags: fromApi<readonly ChannelTagCount[], unknown>((api) => () => api.channel.tags()),
        updateChannelsByTag: fromApi((api) => ({ edit }: UpdateChannelsByTagInput) => api.channel.updateByTag(edit)),
      },
    }),
    implement<typeof channelFormMachine>('channelForm', {
      actors: {
        loadChannel: fromApi((api) => ({ id }: { readonly id: number }) => api.channel.get(id)),
        loadGroups: fromApi<readonly string[], unknown>((api) => () => api.user.listGroups()),
        loadTypeModels: fromApi((api) => () => api.status.getModels()),
        loadCatalogue: fromApi<readonly string[], unknown>((api) => () => pipe(api.channel.catalogue(), TE.map((c) => c.data.map((m) => m.id)))),
        saveChannel: fromApi((api) => ({ id, payload }: SaveChannelInput) =>
          id === null ? api.channel.create(payload) : pipe(api.channel.update({ ...payload, id }), TE.map(() => undefined)),
        ),
        awaitSession,
      },
    }),
    implement<typeof channelTestMachine>('channelTest', {
      actors: {
        fetchCurrentRun: fromApi((api) => () => api.channel.currentTestRun()),
        startTestRun: fromApi((api) => api.channel.startTestRun),
        fetchTestRun: fromApi((api) => ({ id, after }) => api.channel.getTestRun(id, after)),
        cancelTestRun: fromApi((api) => ({ id }) => api.channel.cancelTestRun(id)),
        listAllChannels: fromApi((api) => () => listAllChannels(api.channel.list)),
        testChannel: testChannelActor((id, model, signal) => createChannelApi(client.withSignal(signal)).test(id, model)),
      },
    }),
  ]);
};
