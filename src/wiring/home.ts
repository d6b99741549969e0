import { fromPromise } from 'xstate';
import { createStatusApi } from '../api/statusApi';
import { apiActors } from '../api/actors/fromApi';
import { readLocal, writeLocal } from '../api/actors/browser/storage';
import type { FetchContentInput, pageContentMachine } from '../machines/pageContent';
import { implement, implementArea } from '../views/app/machineRegistry';
import type { WiringRoot } from './root';

/** The home and about pages: the server's content, cached, and the notice. */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ status: createStatusApi(c) }));
  return implementArea('home', [
    implement<typeof pageContentMachine>('pageContent', {
      actors: {
        readCachedContent: fromPromise(({ input }) => Promise.resolve(readLocal(input.key))),
        writeCachedContent: fromPromise(({ input }) => {
          writeLocal(input.key, input.value);
          return Promise.resolve();
        }),
        fetchContent: fromApi((api) => ({ kind }: FetchContentInput) =>
          kind === 'home' ? api.status.getHomePageContent() : api.status.getAbout(),
        ),
        readSeenNotice: fromPromise(() => Promise.resolve(readLocal('notice'))),
        fetchNotice: fromApi((api) => () => api.status.getNotice()),
        writeSeenNotice: fromPromise(({ input }) => {
          writeLocal('notice', input.notice);
          return Promise.resolve();
        }),
      },
    }),
  ]);
};
