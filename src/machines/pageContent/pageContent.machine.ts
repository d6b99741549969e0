import { assign, emit, fromPromise, setup } from 'xstate';
import { describeApiError, type ApiError } from '../../domain/apiError';
import { notify, type Message, type NotifyEvent } from '../../domain/message';

/** Which admin-written page: `/` (HomePageContent plus the Notice) or `/about` (About). */
export type PageKind = 'home' | 'about';

/** The localStorage keys one-api keeps the last rendered copies under (contract §5.2). */
export type CachedContentKey = 'home_page_content' | 'about';

export const cachedContentKey = (kind: PageKind): CachedContentKey => (kind === 'home' ? 'home_page_content' : 'about');

export interface PageContentInput {
  readonly kind: PageKind;
}

/** Input of `readCachedContent`. */
export interface ReadCachedContentInput {
  readonly key: CachedContentKey;
}
/** Input of `writeCachedContent`. */
export interface WriteCachedContentInput {
  readonly key: CachedContentKey;
  readonly value: string;
}
/** Input of `fetchContent`. */
export interface FetchContentInput {
  readonly kind: PageKind;
}
/** Input of `writeSeenNotice`. */
export interface WriteSeenNoticeInput {
  readonly notice: string;
}

export interface PageContentContext {
  readonly kind: PageKind;
  /**
   * What the page shows: the cached copy while loading, then the server's value. Null while
   * nothing is known (no cached copy yet, or the load failed without one).
   */
  readonly content: string | null;
  /** True once `content` is the server's value rather than the cached copy. */
  readonly fresh: boolean;
  /** The notice shown last time (localStorage `notice`), home only. */
  readonly seenNotice: string | null;
  /** A new notice to show on the home page (Markdown) until it is dismissed. */
  readonly notice: string | null;
  /** Why the last content load failed, while failed. */
  readonly error: Message | null;
}

export type PageContentEvent =
  /** The content load failed: try again. */
  | { readonly type: 'content.retry' }
  /** The person closed the notice. */
  | { readonly type: 'notice.dismiss' };

export type PageContentEmitted = NotifyEvent;

/** Only this prefix makes the content a framed page (contract §5.4: `http://` stays Markdown). */
export const framedContentPrefix = 'https://';

/** How a page's content is shown (contract §5.4). `pending`: nothing to show yet. */
export type ContentKind = 'pending' | 'empty' | 'url' | 'markdown';

export function classifyContent(content: string | null, loading: boolean): ContentKind {
  if (content === null) return loading ? 'pending' : 'empty';
  const trimmed = content.trim();
  if (trimmed === '') return 'empty';
  return trimmed.startsWith(framedContentPrefix) ? 'url' : 'markdown';
}

/**
 * The admin-written pages (spec §2 `/` and `/about`; contract §2.2.2 and §5.4), input `{ kind }`.
 *
 * Two parallel regions:
 * - `content`: `loading` (tag `busy`) first reads the cached copy one-api keeps in localStorage
 *   (`home_page_content` / `about`) and shows it at once, then fetches the server's value;
 *   `ready` shows the server's value and stores it as the new cached copy; `failed` notifies the
 *   error (describeApiError), keeps the cached copy on show and waits for `content.retry`.
 * - `notice` (home only; `off` for about): reads the last notice shown (localStorage `notice`),
 *   fetches `/api/notice`; a non-empty notice that differs from the last one is `showing` (and
 *   stored at once as seen, so each notice appears once) until `notice.dismiss`. A failed
 *   notice load notifies its error.
 *
 * Actors to provide (src/main.tsx; every placeholder throws "<name> not provided"):
 * - `readCachedContent`: promise, input `{ key: 'home_page_content' | 'about' }`, output
 *   `string | null` — `fromPromise(async ({ input }) => readLocal(input.key))`.
 * - `writeCachedContent`: promise, input `{ key: 'home_page_content' | 'about'; value: string }`,
 *   output `void` — `fromPromise(async ({ input }) => { writeLocal(input.key, input.value); })`.
 * - `fetchContent`: promise, input `{ kind: 'home' | 'about' }`, output `string`, rejecting with
 *   the ApiError — `fromApi(({ kind }) => kind === 'home' ? api.status.getHomePageContent()
 *   : api.status.getAbout())`.
 * - `readSeenNotice`: promise, input `undefined`, output `string | null` —
 *   `fromPromise(async () => readLocal('notice'))`.
 * - `fetchNotice`: promise, input `undefined`, output `string`, rejecting with the ApiError —
 *   `fromApi(() => api.status.getNotice())`.
 * - `writeSeenNotice`: promise, input `{ notice: string }`, output `void` —
 *   `fromPromise(async ({ input }) => { writeLocal('notice', input.notice); })`.
 */
export const pageContentMachine = setup({
  types: {
    context: {} as PageContentContext,
    input: {} as PageContentInput,
    events: {} as PageContentEvent,
    emitted: {} as PageContentEmitted,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    readCachedContent: fromPromise<string | null, ReadCachedContentInput>(() => {
      throw new Error('readCachedContent not provided');
    }),
    writeCachedContent: fromPromise<void, WriteCachedContentInput>(() => {
      throw new Error('writeCachedContent not provided');
    }),
    fetchContent: fromPromise<string, FetchContentInput>(() => {
      throw new Error('fetchContent not provided');
    }),
    readSeenNotice: fromPromise<string | null>(() => {
      throw new Error('readSeenNotice not provided');
    }),
    fetchNotice: fromPromise<string>(() => {
      throw new Error('fetchNotice not provided');
    }),
    writeSeenNotice: fromPromise<void, WriteSeenNoticeInput>(() => {
      throw new Error('writeSeenNotice not provided');
    }),
  },
  guards: {
    isHome: ({ context }) => context.kind === 'home',
    isNewNotice: ({ context }, params: { notice: string }) =>
      params.notice.trim() !== '' && params.notice !== context.seenNotice,
  },
  actions: {
    // A blank cached copy is no copy: the page waits for the server rather than flash the default.
    takeCachedCopy: assign({
      content: (_, params: { cached: string | null }) =>
        params.cached === null || params.cached.trim() === '' ? null : params.cached,
    }),
    takeContent: assign({
      content: (_, params: { content: string }) => params.content,
      fresh: true,
      error: null,
    }),
    recordFailure: assign({ error: (_, params: { error: unknown }) => describeApiError(params.error as ApiError).message }),
    clearFailure: assign({ error: null }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeApiError(params.error as ApiError);
      return notify(d.level, d.message);
    }),
    takeSeenNotice: assign({ seenNotice: (_, params: { seen: string | null }) => params.seen }),
    takeNotice: assign({ notice: (_, params: { notice: string }) => params.notice }),
    dropNotice: assign({ notice: null }),
  },
}).createMachine({
  id: 'pageContent',
  context: ({ input }) => ({
    kind: input.kind,
    content: null,
    fresh: false,
    seenNotice: null,
    notice: null,
    error: null,
  }),
  type: 'parallel',
  states: {
    content: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          initial: 'readingCache',
          states: {
            readingCache: {
              invoke: {
                id: 'readCachedContent',
                src: 'readCachedContent',
                input: ({ context }) => ({ key: cachedContentKey(context.kind) }),
                onDone: {
                  target: 'fetching',
                  actions: { type: 'takeCachedCopy', params: ({ event }) => ({ cached: event.output }) },
                },
                // An unreadable storage only means there is no cached copy.
                onError: { target: 'fetching' },
              },
            },
            fetching: {
              invoke: {
                id: 'fetchContent',
                src: 'fetchContent',
                input: ({ context }) => ({ kind: context.kind }),
                onDone: {
                  target: '#pageContent.content.ready',
                  actions: { type: 'takeContent', params: ({ event }) => ({ content: event.output }) },
                },
                onError: {
                  target: '#pageContent.content.failed',
                  actions: [
                    { type: 'recordFailure', params: ({ event }) => ({ error: event.error }) },
                    { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
                  ],
                },
              },
            },
          },
        },
        ready: {
          invoke: {
            id: 'writeCachedContent',
            src: 'writeCachedContent',
            input: ({ context }) => ({ key: cachedContentKey(context.kind), value: context.content ?? '' }),
            // A refused write (quota, privacy mode) only means no instant copy next time.
            onError: { description: 'The cached copy is a convenience: a refused write changes nothing.' },
          },
        },
        failed: {
          tags: ['error'],
          on: {
            'content.retry': { target: 'loading.fetching', actions: 'clearFailure' },
          },
        },
      },
    },
    notice: {
      initial: 'checking',
      states: {
        checking: {
          always: [{ guard: 'isHome', target: 'readingSeen' }, { target: 'off' }],
        },
        readingSeen: {
          invoke: {
            id: 'readSeenNotice',
            src: 'readSeenNotice',
            input: () => undefined,
            onDone: {
              target: 'fetching',
              actions: { type: 'takeSeenNotice', params: ({ event }) => ({ seen: event.output }) },
            },
            onError: { target: 'fetching' },
          },
        },
        fetching: {
          invoke: {
            id: 'fetchNotice',
            src: 'fetchNotice',
            input: () => undefined,
            onDone: [
              {
                guard: { type: 'isNewNotice', params: ({ event }) => ({ notice: event.output }) },
                target: 'showing',
                actions: { type: 'takeNotice', params: ({ event }) => ({ notice: event.output }) },
              },
              { target: 'off' },
            ],
            onError: {
              target: 'off',
              actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        showing: {
          invoke: {
            id: 'writeSeenNotice',
            src: 'writeSeenNotice',
            input: ({ context }) => ({ notice: context.notice ?? '' }),
            onError: { description: 'A refused write only means the notice shows again next time.' },
          },
          on: {
            'notice.dismiss': { target: 'off', actions: 'dropNotice' },
          },
        },
        off: {},
      },
    },
  },
});
