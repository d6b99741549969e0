import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import { isMessageKey } from '../../src/i18n';
import {
  cachedContentKey,
  classifyContent,
  pageContentMachine,
  selectCanRetry,
  selectContent,
  selectContentKind,
  selectError,
  selectIsBusy,
  selectIsCachedCopy,
  selectNotice,
  selectPhase,
  type FetchContentInput,
  type PageContentInput,
  type PageKind,
  type ReadCachedContentInput,
  type WriteCachedContentInput,
  type WriteSeenNoticeInput,
} from '../../src/machines/pageContent';
import {
  describePath,
  doneActor,
  errorActor,
  shortestPaths,
  simplePaths,
  unreachedStates,
  type EventFixtures,
} from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { journey as walk } from './support/replay';
import { replay as replayOn } from './support/replay';

type Snap = SnapshotFrom<typeof pageContentMachine>;

const cachedCopy = '# 旧的首页\n\n上次看到的内容';
const serverMarkdown = '# 欢迎使用\n\n**新的**首页内容';
const serverUrl = 'https://example.com/home';
const seenNotice = '旧公告';
const newNotice = '**维护通知**：今晚 23:00 升级';
const serverDown = httpError('getHomePageContent', 500, 'Internal Server Error');
const noticeRefused = failure('getNotice', '服务器繁忙');

/** The machine's own events, every one with a fixture. */
const fixtures: EventFixtures<typeof pageContentMachine> = {
  'content.retry': [{ type: 'content.retry' }],
  'notice.dismiss': [{ type: 'notice.dismiss' }],
};

const cacheMiss = doneActor('readCachedContent', null);
const cacheHit = doneActor('readCachedContent', cachedCopy);
const cacheBlank = doneActor('readCachedContent', '  ');
const cacheBroken = errorActor('readCachedContent', new Error('SecurityError: storage is disabled'));
const gotMarkdown = doneActor('fetchContent', serverMarkdown);
const gotUrl = doneActor('fetchContent', serverUrl);
const gotEmpty = doneActor('fetchContent', '');
const fetchFailed = errorActor('fetchContent', serverDown);
const seenNone = doneActor('readSeenNotice', null);
const seenOld = doneActor('readSeenNotice', seenNotice);
const seenBroken = errorActor('readSeenNotice', new Error('SecurityError: storage is disabled'));
const noticeNew = doneActor('fetchNotice', newNotice);
const noticeSame = doneActor('fetchNotice', seenNotice);
const noticeEmpty = doneActor('fetchNotice', '');
const noticeFailed = errorActor('fetchNotice', noticeRefused);
const writeRefused = errorActor('writeCachedContent', new Error('QuotaExceededError'));
const seenWriteRefused = errorActor('writeSeenNotice', new Error('QuotaExceededError'));
const retry = { type: 'content.retry' } as const;
const dismiss = { type: 'notice.dismiss' } as const;

const internal = [
  cacheMiss,
  cacheHit,
  cacheBlank,
  cacheBroken,
  gotMarkdown,
  gotUrl,
  gotEmpty,
  fetchFailed,
  seenNone,
  seenOld,
  seenBroken,
  noticeNew,
  noticeSame,
  noticeEmpty,
  noticeFailed,
  writeRefused,
  seenWriteRefused,
];
const model = (kind: PageKind) => ({ fixtures, internal, input: { kind } satisfies PageContentInput });
/** A smaller set for the simple paths of the parallel chart (the interleavings multiply). */
const modelForSimple = (kind: PageKind) => ({
  fixtures,
  internal: [cacheMiss, cacheHit, gotMarkdown, gotEmpty, fetchFailed, seenOld, noticeNew, noticeSame, noticeFailed, writeRefused],
  input: { kind } satisfies PageContentInput,
});

function journey(kind: PageKind, events: readonly AnyEventObject[]): Snap {
  return walk(pageContentMachine, { kind }, events);
}
const realShortest = (kind: PageKind) => shortestPaths(pageContentMachine, model(kind)).filter(isRealistic);

afterEach(() => {
  vi.useRealTimers();
});

describe('classifyContent (contract §5.4)', () => {
  it.each([
    [null, true, 'pending'],
    [null, false, 'empty'],
    ['', false, 'empty'],
    ['  \n', true, 'empty'],
    ['https://example.com/about', false, 'url'],
    ['  https://example.com/about\n', false, 'url'],
    ['http://example.com/about', false, 'markdown'],
    ['# 关于', false, 'markdown'],
    ['see https://example.com', false, 'markdown'],
  ] as const)('%j (loading %s) -> %s', (content, loading, kind) => {
    expect(classifyContent(content, loading)).toBe(kind);
  });
  it('caches home and about under one-api\'s keys', () => {
    expect(cachedContentKey('home')).toBe('home_page_content');
    expect(cachedContentKey('about')).toBe('about');
  });
});

describe.each(['home', 'about'] as const)('pageContent model (%s)', (kind) => {
  it('reaches every state', () => {
    const paths = realShortest(kind);
    const unreached = unreachedStates(pageContentMachine, paths);
    // `notice.checking` is transient (it decides by kind on entry); about never shows a notice
    expect(unreached).toEqual(
      kind === 'home'
        ? ['notice.checking']
        : ['notice.checking', 'notice.readingSeen', 'notice.fetching', 'notice.showing'],
    );
    expect(paths.map(describePath)).toContain(
      'xstate.init → xstate.done.actor.readCachedContent → xstate.error.actor.fetchContent',
    );
  });

  it('keeps its invariants on every simple path', () => {
    const paths = simplePaths(pageContentMachine, modelForSimple(kind)).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(kind === 'home' ? 100 : 5);
    for (const p of paths) {
      let cached: string | null = null;
      for (const [i, s] of snapshotsOf(p).entries()) {
        const event = p.steps[i]!.event as AnyEventObject & { output?: unknown };
        if (event.type === 'xstate.done.actor.readCachedContent') cached = event.output as string | null;
        expect(s.status).toBe('active');
        expect(s.context.kind).toBe(kind);
        // busy exactly while the content loads; an error exactly while failed
        expect(selectIsBusy(s)).toBe(s.matches({ content: 'loading' }));
        expect(selectPhase(s) === 'failed').toBe(selectError(s) !== null);
        expect(s.hasTag('error')).toBe(selectPhase(s) === 'failed');
        expect(selectCanRetry(s)).toBe(selectPhase(s) === 'failed');
        // the server's value is on show exactly when ready
        expect(s.context.fresh).toBe(selectPhase(s) === 'ready');
        // until then, the cached copy (if any) is on show, and it survives a failure
        if (selectPhase(s) !== 'ready' && cached !== null) expect(selectContent(s)).toBe(cached);
        if (selectPhase(s) === 'failed' && cached === null) expect(selectContentKind(s)).toBe('empty');
        expect(selectContentKind(s) === 'pending').toBe(selectIsBusy(s) && s.context.content === null);
        expect(selectIsCachedCopy(s)).toBe(selectIsBusy(s) && s.context.content !== null);
        // a notice is on show only on the home page, only a new one, only until dismissed
        const notice = selectNotice(s);
        if (notice !== null) {
          expect(kind).toBe('home');
          expect(notice).not.toBe(s.context.seenNotice);
          expect(notice.trim()).not.toBe('');
        }
        expect(notice !== null).toBe(s.matches({ notice: 'showing' }));
        if (kind === 'about') expect(s.matches({ notice: 'off' })).toBe(true);
        // each request runs only in its own state
        const running = Object.keys(s.children).sort();
        expect(running.includes('fetchContent')).toBe(s.matches({ content: { loading: 'fetching' } }));
        expect(running.includes('readCachedContent')).toBe(s.matches({ content: { loading: 'readingCache' } }));
        expect(running.includes('writeCachedContent')).toBe(s.matches({ content: 'ready' }));
        expect(running.includes('fetchNotice')).toBe(s.matches({ notice: 'fetching' }));
        expect(running.includes('writeSeenNotice')).toBe(s.matches({ notice: 'showing' }));
      }
    }
  });
});

describe('pinned journeys', () => {
  it('home: the cached copy shows at once, then the server value replaces it', () => {
    const loading = journey('home', [cacheHit]);
    expect(selectPhase(loading)).toBe('loading');
    expect(selectContent(loading)).toBe(cachedCopy);
    expect(selectContentKind(loading)).toBe('markdown');
    expect(selectIsCachedCopy(loading)).toBe(true);
    const s = journey('home', [cacheHit, gotMarkdown]);
    expect(selectPhase(s)).toBe('ready');
    expect(selectContent(s)).toBe(serverMarkdown);
    expect(selectIsCachedCopy(s)).toBe(false);
  });
  it('home: nothing cached shows a spinner until the server answers', () => {
    expect(selectContentKind(journey('home', [cacheMiss]))).toBe('pending');
    expect(selectContentKind(journey('home', [cacheBlank]))).toBe('pending');
    expect(selectContentKind(journey('home', [cacheBroken]))).toBe('pending');
  });
  it('home: an https:// value is framed; an empty one is the default home', () => {
    expect(selectContentKind(journey('home', [cacheMiss, gotUrl]))).toBe('url');
    expect(selectContent(journey('home', [cacheMiss, gotUrl]))).toBe(serverUrl);
    expect(selectContentKind(journey('home', [cacheHit, gotEmpty]))).toBe('empty');
  });
  it('home: a failure keeps the cached copy and offers a retry that fetches again', () => {
    const failed = journey('home', [cacheHit, fetchFailed]);
    expect(selectPhase(failed)).toBe('failed');
    expect(selectContent(failed)).toBe(cachedCopy);
    expect(selectError(failed)).toEqual({ key: 'error.internal' });
    const again = journey('home', [cacheHit, fetchFailed, retry]);
    expect(again.matches({ content: { loading: 'fetching' } })).toBe(true);
    expect(selectError(again)).toBeNull();
    expect(selectContent(again)).toBe(cachedCopy);
    expect(selectPhase(journey('home', [cacheHit, fetchFailed, retry, gotMarkdown]))).toBe('ready');
  });
  it('home: a new notice shows until dismissed; the same or an empty one never shows', () => {
    const shown = journey('home', [seenOld, noticeNew]);
    expect(selectNotice(shown)).toBe(newNotice);
    expect(selectNotice(journey('home', [seenOld, noticeNew, dismiss]))).toBeNull();
    expect(selectNotice(journey('home', [seenOld, noticeSame]))).toBeNull();
    expect(selectNotice(journey('home', [seenNone, noticeEmpty]))).toBeNull();
    expect(selectNotice(journey('home', [seenNone, doneActor('fetchNotice', '  ')]))).toBeNull();
    expect(selectNotice(journey('home', [seenBroken, noticeSame]))).toBe(seenNotice);
  });
  it('home: the notice and the content load independently', () => {
    const s = journey('home', [seenOld, cacheMiss, noticeNew, fetchFailed]);
    expect(selectNotice(s)).toBe(newNotice);
    expect(selectPhase(s)).toBe('failed');
    const t = journey('home', [cacheMiss, gotMarkdown, seenOld, noticeFailed]);
    expect(selectPhase(t)).toBe('ready');
    expect(selectNotice(t)).toBeNull();
  });
  it('about: no notice is ever fetched', () => {
    const s = journey('about', []);
    expect(s.matches({ notice: 'off' })).toBe(true);
    expect(Object.keys(s.children)).toEqual(['readCachedContent']);
    expect(selectContent(journey('about', [cacheMiss, gotMarkdown]))).toBe(serverMarkdown);
  });
  it('a refused storage write changes nothing', () => {
    const ready = journey('about', [cacheMiss, gotMarkdown]);
    const after = journey('about', [cacheMiss, gotMarkdown, writeRefused]);
    expect(after.status).toBe('active');
    expect(after.value).toEqual(ready.value);
    expect(after.context).toEqual(ready.context);
    const showing = journey('home', [seenNone, noticeNew, seenWriteRefused]);
    expect(showing.status).toBe('active');
    expect(selectNotice(showing)).toBe(newNotice);
  });
});

describe('replay on a real actor with stub actors', () => {
  type Settle = { resolve: (v: unknown) => void; reject: (e: unknown) => void };
  const settleable = ['readCachedContent', 'fetchContent', 'readSeenNotice', 'fetchNotice'] as const;

  /**
   * Plays the path on a real actor: each read or fetch is a stub promise settled when the
   * path's done/error event for it comes; the writes are recorded and resolve at once (their
   * done events change nothing, so no path carries them).
   */
  async function replay(kind: PageKind, events: readonly AnyEventObject[], check?: (step: number, s: Snap) => void) {
    vi.useFakeTimers();
    const pending = new Map<string, Settle>();
    const calls: { id: string; input: unknown }[] = [];
    /** A stub that records its calls in one list and is settled by invoke id; settling one that does not run fails. */
    const stub = <O, I>(id: string) => ({
      logic: fromPromise<O, I>(({ input }) => {
        calls.push({ id, input });
        return new Promise<O>((resolve, reject) => {
          pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        });
      }),
      resolve: (output: unknown) => take(id).resolve(output),
      reject: (error: unknown) => take(id).reject(error),
    });
    const take = (id: string): Settle => {
      const settle = pending.get(id);
      expect(settle, `${id} is running`).toBeDefined();
      pending.delete(id);
      return settle!;
    };
    const writes: { id: string; input: unknown }[] = [];
    const recordWrite = <I>(id: string) =>
      fromPromise<void, I>(({ input }) => {
        writes.push({ id, input });
        return Promise.resolve();
      });
    const machine = pageContentMachine.provide({
      actors: {
        writeCachedContent: recordWrite<WriteCachedContentInput>('writeCachedContent'),
        writeSeenNotice: recordWrite<WriteSeenNoticeInput>('writeSeenNotice'),
      },
    });
    const stubs = {
      readCachedContent: stub<string | null, ReadCachedContentInput>('readCachedContent'),
      fetchContent: stub<string, FetchContentInput>('fetchContent'),
      readSeenNotice: stub<string | null, unknown>('readSeenNotice'),
      fetchNotice: stub<string, unknown>('fetchNotice'),
    };
    const settle = () => vi.advanceTimersByTimeAsync(0);
    const run = await replayOn({ machine, input: { kind }, stubs, settle }, events, check);
    return { ...run, calls, writes };
  }

  describe.each(['home', 'about'] as const)('%s', (kind) => {
    /** Paths whose generated events all settle a stubbed read or fetch (write results change nothing). */
    const replayable = (e: AnyEventObject) =>
      e.type === 'xstate.init' ||
      !e.type.startsWith('xstate.') ||
      settleable.some((id) => e.type.endsWith(`.actor.${id}`));
    const chosen = realShortest(kind).filter((p) => p.steps.length > 1 && p.steps.every((s) => replayable(s.event)));
    it('has paths to replay', () => {
      expect(chosen.length).toBeGreaterThan(5);
    });
    it.each(chosen.map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      const { calls } = await replay(
        kind,
        p.steps.map((s) => s.event),
        (i, s) => {
          expect(s.value).toEqual(p.steps[i]!.state.value);
          expect(s.context).toEqual(p.steps[i]!.state.context);
          expect(s.status).toEqual(p.steps[i]!.state.status);
        },
      );
      for (const c of calls) {
        if (c.id === 'readCachedContent') expect(c.input).toEqual({ key: cachedContentKey(kind) });
        if (c.id === 'fetchContent') expect(c.input).toEqual({ kind });
      }
      if (kind === 'about') expect(calls.map((c) => c.id)).not.toContain('fetchNotice');
    });
  });

  it('home: stores the server value as the new cached copy and the new notice as seen', async () => {
    const { writes, emitted } = await replay('home', [{ type: 'xstate.init' }, cacheHit, seenOld, gotUrl, noticeNew]);
    expect(writes).toEqual([
      { id: 'writeCachedContent', input: { key: 'home_page_content', value: serverUrl } },
      { id: 'writeSeenNotice', input: { notice: newNotice } },
    ]);
    expect(emitted).toEqual([]);
  });

  it('about: an empty value is stored too (the next visit shows the default at once)', async () => {
    const { writes } = await replay('about', [{ type: 'xstate.init' }, cacheHit, gotEmpty]);
    expect(writes).toEqual([{ id: 'writeCachedContent', input: { key: 'about', value: '' } }]);
  });

  it('failures are notified with the error catalogue, and nothing is stored', async () => {
    const { emitted, writes, snapshot } = await replay('home', [
      { type: 'xstate.init' },
      cacheHit,
      seenNone,
      fetchFailed,
      noticeFailed,
    ]);
    expect(emitted).toEqual([
      { type: 'notify', level: 'error', message: { key: 'error.internal' } },
      { type: 'notify', level: 'error', message: { text: '服务器繁忙' } },
    ]);
    expect(writes).toEqual([]);
    expect(selectContent(snapshot)).toBe(cachedCopy);
    const keys = emitted.flatMap((e) => ('key' in e.message ? [e.message.key] : []));
    expect(keys.filter((k) => !isMessageKey(k))).toEqual([]);
  });

  it('retry fetches once more and does not re-read the cache', async () => {
    const { calls, snapshot } = await replay('about', [{ type: 'xstate.init' }, cacheMiss, fetchFailed, retry, gotMarkdown]);
    expect(calls.filter((c) => c.id === 'fetchContent')).toHaveLength(2);
    expect(calls.filter((c) => c.id === 'readCachedContent')).toHaveLength(1);
    expect(selectPhase(snapshot)).toBe('ready');
  });
});
