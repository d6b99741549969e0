import { afterEach, describe, expect, it, vi } from 'vitest';
import * as E from 'fp-ts/Either';
import * as TE from 'fp-ts/TaskEither';
import { createActor, initialTransition, transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { listAllChannels, testChannelActor } from '../../src/api/actors/channelTests';
import { failure, httpError, networkError, type ApiError } from '../../src/domain/apiError';
import type { Channel, ChannelTestResult, ChannelTestRun, ChannelTestRunRequest, ChannelTestRunResult } from '../../src/domain/channel';
import { isMessageKey } from '../../src/i18n';
import {
  channelTestMachine,
  channelsToTest,
  maxPollFailures,
  selectCanCancel,
  selectCanDismiss,
  selectCanRetryFailed,
  selectCanStart,
  selectFailedCount,
  selectFailedIds,
  selectIsCancelling,
  selectIsPreparing,
  selectIsRunning,
  selectPassedCount,
  selectPollFailed,
  selectProgressPercent,
  selectResults,
  selectRun,
  type CancelTestRunInput,
  type ChannelTestOutcome,
  type FetchTestRunInput,
  type TestChannelInput,
} from '../../src/machines/channelTest';
import { afterDelay, canOccur, describePath, doneActor, errorActor, shortestPaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as walk, follows } from './support/replay';

type Snap = SnapshotFrom<typeof channelTestMachine>;

// ------------------------------------------------------------------------------------------
// A server run over channels 7 and 5: 7 passes, 5 fails (and is disabled automatically).

const r7: ChannelTestRunResult = {
  index: 0,
  channel_id: 7,
  success: true,
  message: 'I am gpt-3.5-turbo',
  time: 0.81,
  model: 'gpt-3.5-turbo',
  status: 1,
  response_time: 810,
  test_time: 1760000001,
};
const r5: ChannelTestRunResult = {
  index: 1,
  channel_id: 5,
  success: false,
  message: 'http status code: 401, error message: Incorrect API key provided',
  time: 0.214,
  model: 'gpt-3.5-turbo',
  status: 3,
  response_time: 214,
  test_time: 1760000002,
};
const run = (over: Partial<ChannelTestRun>): ChannelTestRun => ({
  id: 3,
  scope: 'all',
  status: 'running',
  total: 2,
  done: 0,
  started_at: 1760000000,
  finished_at: 0,
  channel_ids: [7, 5],
  results: [],
  ...over,
});
const started = run({});
const progress = run({ done: 1, results: [r7] });
/** A poll with after=1 only carries the new result; one with after=0 carries both (the machine keeps each once). */
const finished = run({ status: 'finished', done: 2, finished_at: 1760000003, results: [r7, r5] });
const cancelled = run({ status: 'cancelled', done: 1, finished_at: 1760000003, results: [r7] });
const cancelPending = run({ done: 1, results: [r7] });
const retryRun: ChannelTestRun = run({ id: 4, scope: 'ids', total: 1, channel_ids: [5] });

const notFound = httpError('GET /api/channel/test_run', 404, 'Invalid URL (GET /api/channel/test_run)');
const alreadyRunning = failure('POST /api/channel/test_run', '测试已在运行中');
const offline = networkError('GET /api/channel/test_run/3', 'Failed to fetch');

// ------------------------------------------------------------------------------------------
// one-api (no test-run resource): three channels, two of them disabled.

const channel = (id: number, status: number, models: string): Channel => ({ id, type: 1, name: `ch${id}`, status, models, group: 'default' });
const channels: Channel[] = [channel(7, 1, 'gpt-4o,gpt-3.5-turbo'), channel(5, 3, 'gpt-4o-mini'), channel(4, 2, '')];
const passes: ChannelTestOutcome = { success: true, message: 'hello', time: 1.5, model: '', test_time: 1760000100 };
const fails: ChannelTestOutcome = {
  success: false,
  message: 'http status code: 401, error message: Incorrect API key provided',
  time: 0,
  model: '',
  test_time: 1760000101,
};

const fixtures: EventFixtures<typeof channelTestMachine> = {
  'test.start': [
    { type: 'test.start', scope: 'all' },
    { type: 'test.start', scope: 'disabled' },
  ],
  'test.retryFailed': [{ type: 'test.retryFailed' }],
  'test.cancel': [{ type: 'test.cancel' }],
  'test.dismiss': [{ type: 'test.dismiss' }],
};
const poll = afterDelay('pollInterval', 'channelTest', 'running.waiting');
const server = [
  doneActor('fetchCurrentRun', null),
  doneActor('fetchCurrentRun', progress),
  errorActor('fetchCurrentRun', notFound),
  doneActor('startTestRun', started),
  errorActor('startTestRun', alreadyRunning),
  doneActor('fetchTestRun', progress),
  doneActor('fetchTestRun', finished),
  errorActor('fetchTestRun', offline),
  doneActor('cancelTestRun', cancelled),
  errorActor('cancelTestRun', failure('DELETE /api/channel/test_run/3', '测试任务不存在')),
  poll,
];
const local = [
  errorActor('startTestRun', notFound),
  doneActor('listAllChannels', channels),
  errorActor('listAllChannels', offline),
  doneActor('testChannel', passes),
  doneActor('testChannel', fails),
];
const model = { fixtures, internal: [...server, ...local] };

const realShortest = () => shortestPaths(channelTestMachine, model).filter(isRealistic);

function journey(events: readonly AnyEventObject[]): Snap {
  return walk(channelTestMachine, undefined, events);
}
const startAll = { type: 'test.start', scope: 'all' };
const startDisabled = { type: 'test.start', scope: 'disabled' };
const cancel = { type: 'test.cancel' };
const retryFailed = { type: 'test.retryFailed' };
const dismiss = { type: 'test.dismiss' };
const nothingRunning = doneActor('fetchCurrentRun', null);
const oneApi = errorActor('fetchCurrentRun', notFound);

function checkInvariants(s: Snap) {
  const { run, results, failed, mode } = s.context;
  const ids = Object.keys(results).map(Number);
  if (run !== null) {
    expect(run.done).toBeGreaterThanOrEqual(0);
    expect(run.done).toBeLessThanOrEqual(run.total);
    // a local run knows exactly what it tested
    if (mode === 'local') expect(ids.length).toBe(run.done);
  } else {
    expect(ids).toEqual([]);
  }
  // failed ⊆ results, each a failure, and every failure is listed
  for (const id of failed) expect(results[id]?.success).toBe(false);
  expect([...failed].sort()).toEqual(ids.filter((id) => results[id]!.success === false).sort());
  expect(selectFailedCount(s) + selectPassedCount(s)).toBe(ids.length);
  expect(s.context.pollErrors).toBeLessThanOrEqual(maxPollFailures);
  expect(selectProgressPercent(s)).toBeGreaterThanOrEqual(0);
  expect(selectProgressPercent(s)).toBeLessThanOrEqual(100);
  // running exactly in the running states, with a run known once past the start
  expect(selectIsRunning(s)).toBe(s.matches('running') || s.matches('local'));
  if (s.matches('running') || s.matches({ local: 'testing' }) || s.matches('ended') || s.matches('failed')) expect(run).not.toBeNull();
  if (s.matches('running') || s.matches({ local: 'testing' })) expect(run?.status).toBe('running');
  if (s.matches('ended')) expect(run?.status).not.toBe('running');
  if (s.matches('idle')) expect(run).toBeNull();
  // the buttons
  expect(selectCanStart(s)).toBe(s.matches('idle') || s.matches('ended') || s.matches('failed'));
  expect(selectCanRetryFailed(s)).toBe(s.matches('ended') && failed.length > 0);
  expect(selectCanDismiss(s)).toBe(s.matches('ended') || s.matches('failed'));
  if (selectCanCancel(s)) expect(selectIsRunning(s)).toBe(true);
  if (selectIsCancelling(s)) expect(selectCanCancel(s)).toBe(false);
  expect(selectPollFailed(s)).toBe(s.matches('failed'));
  // one call at a time
  expect(Object.keys(s.children).length).toBeLessThanOrEqual(1);
  expect(s.status).toBe('active');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('channelTest model', () => {
  it('reaches every state', () => {
    expect(unreachedStates(channelTestMachine, realShortest())).toEqual([]);
  });

  /*
   * The machine loops (poll, retry, dismiss and start again), so its simple paths grow
   * exponentially: every simple path of up to `depth` steps is walked instead, with each half of
   * the machine fed its own events, and every reachable snapshot is checked as well.
   */
  function boundedSimplePaths(events: readonly AnyEventObject[], depth: number): Snap[][] {
    const out: Snap[][] = [];
    const key = (s: Snap) => JSON.stringify([s.value, s.context]);
    const walk = (path: Snap[], seen: Set<string>) => {
      out.push(path);
      if (path.length > depth) return;
      const last = path[path.length - 1]!;
      for (const e of events) {
        if (!canOccur(last, e)) continue;
        const [next] = transition(channelTestMachine, last, e as never);
        const k = key(next);
        if (seen.has(k)) continue;
        walk([...path, next], new Set(seen).add(k));
      }
    };
    const [first] = initialTransition(channelTestMachine);
    walk([first], new Set([key(first)]));
    return out;
  }
  const serverEvents = [...Object.values(fixtures).flat(), ...server];
  const localEvents = [
    ...Object.values(fixtures).flat(),
    oneApi,
    doneActor('listAllChannels', channels),
    errorActor('listAllChannels', offline),
    doneActor('testChannel', passes),
    doneActor('testChannel', fails),
  ];
  it.each([
    ['server, up to 7 steps', serverEvents, 7],
    ['local, up to 8 steps', localEvents, 8],
  ] as const)('keeps its invariants on every bounded simple path (%s)', (_, events, depth) => {
    const paths = boundedSimplePaths(events, depth);
    expect(paths.length).toBeGreaterThan(100);
    for (const p of paths) for (const s of p) checkInvariants(s);
  });

  it('keeps its invariants in every reachable state', () => {
    const paths = realShortest();
    expect(paths.length).toBeGreaterThan(30);
    for (const p of paths) checkInvariants(p.state);
  });

  describe('pinned journeys', () => {
    it('start → poll ×3 → finished: the counts, the failed ids, 100 %', () => {
      const s = journey([
        nothingRunning,
        startAll,
        doneActor('startTestRun', started),
        poll,
        doneActor('fetchTestRun', started),
        poll,
        doneActor('fetchTestRun', progress),
        poll,
        doneActor('fetchTestRun', run({ status: 'finished', done: 2, results: [r5] })),
      ]);
      expect(s.value).toBe('ended');
      expect(selectRun(s)).toEqual({ id: 3, scope: 'all', status: 'finished', total: 2, done: 2 });
      expect(selectResults(s)).toEqual({ 7: r7, 5: r5 });
      expect(selectFailedIds(s)).toEqual([5]);
      expect(selectPassedCount(s)).toBe(1);
      expect(selectProgressPercent(s)).toBe(100);
      expect(selectCanRetryFailed(s)).toBe(true);
      expect(s.context.received).toBe(2);
    });
    it('a poll repeating a result keeps it once', () => {
      const s = journey([nothingRunning, startAll, doneActor('startTestRun', started), poll, doneActor('fetchTestRun', progress), poll, doneActor('fetchTestRun', finished)]);
      expect(Object.keys(selectResults(s))).toHaveLength(2);
      expect(selectPassedCount(s)).toBe(1);
    });
    it('cancel: the cancelled run ends the panel with what was tested', () => {
      const waiting = journey([nothingRunning, startAll, doneActor('startTestRun', started), poll, doneActor('fetchTestRun', progress)]);
      expect(waiting.value).toEqual({ running: 'waiting' });
      expect(selectCanCancel(waiting)).toBe(true);
      const cancelling = transition(channelTestMachine, waiting, cancel as never)[0];
      expect(cancelling.value).toEqual({ running: 'cancelling' });
      expect(selectIsCancelling(cancelling)).toBe(true);
      const s = transition(channelTestMachine, cancelling, doneActor('cancelTestRun', cancelled) as never)[0];
      expect(s.value).toBe('ended');
      expect(selectRun(s)?.status).toBe('cancelled');
      expect(selectProgressPercent(s)).toBe(50);
    });
    it('cancel answered while the last test finishes: polling goes on until the run ends', () => {
      const s = journey([nothingRunning, startAll, doneActor('startTestRun', started), cancel, doneActor('cancelTestRun', cancelPending)]);
      expect(s.value).toEqual({ running: 'waiting' });
      expect(selectIsCancelling(s)).toBe(true);
      expect(selectCanCancel(s)).toBe(false);
      expect(journey([nothingRunning, startAll, doneActor('startTestRun', started), cancel, doneActor('cancelTestRun', cancelPending), poll, doneActor('fetchTestRun', cancelled)]).value).toBe('ended');
    });
    it('retry failed starts a run of the failed ids', () => {
      const ended = journey([nothingRunning, startAll, doneActor('startTestRun', started), poll, doneActor('fetchTestRun', finished)]);
      const s = transition(channelTestMachine, ended, retryFailed as never)[0];
      expect(s.value).toBe('starting');
      expect(s.context.request).toEqual({ ids: [5] });
      expect(selectRun(s)).toBeNull();
      const next = transition(channelTestMachine, s, doneActor('startTestRun', retryRun) as never)[0];
      expect(selectRun(next)).toEqual({ id: 4, scope: 'ids', status: 'running', total: 1, done: 0 });
    });
    it('attaches to a run already going at start', () => {
      const s = journey([doneActor('fetchCurrentRun', progress)]);
      expect(s.value).toEqual({ running: 'waiting' });
      expect(selectRun(s)).toEqual({ id: 3, scope: 'all', status: 'running', total: 2, done: 1 });
      expect(s.context.received).toBe(1);
      // a finished last run is not shown
      expect(journey([doneActor('fetchCurrentRun', finished)]).value).toBe('idle');
    });
    it("'测试已在运行中': says so and follows the run that is going", () => {
      const s = journey([nothingRunning, startAll, errorActor('startTestRun', alreadyRunning)]);
      expect(s.value).toBe('checking');
      expect(journey([nothingRunning, startAll, errorActor('startTestRun', alreadyRunning), doneActor('fetchCurrentRun', progress)]).value).toEqual({
        running: 'waiting',
      });
    });
    it('404 → the page tests every channel itself and finishes', () => {
      let s = journey([oneApi, startAll]);
      expect(s.context.mode).toBe('local');
      expect(s.value).toEqual({ local: 'listing' });
      expect(selectIsPreparing(s)).toBe(true);
      s = transition(channelTestMachine, s, doneActor('listAllChannels', channels) as never)[0];
      expect(selectRun(s)).toEqual({ id: 0, scope: 'all', status: 'running', total: 3, done: 0 });
      for (const outcome of [passes, fails, passes]) s = transition(channelTestMachine, s, doneActor('testChannel', outcome) as never)[0];
      expect(s.value).toBe('ended');
      expect(selectRun(s)).toEqual({ id: 0, scope: 'all', status: 'finished', total: 3, done: 3 });
      expect(selectResults(s)[7]).toEqual({
        index: 0,
        channel_id: 7,
        success: true,
        message: 'hello',
        time: 1.5,
        model: 'gpt-3.5-turbo',
        status: 1,
        response_time: 1500,
        test_time: 1760000100,
      });
      expect(selectResults(s)[5]).toMatchObject({ index: 1, success: false, response_time: 0, time: 0, status: 3, model: 'gpt-4o-mini' });
      expect(selectFailedIds(s)).toEqual([5]);
      // retry failed stays local and asks for the failed ids
      const retry = transition(channelTestMachine, s, retryFailed as never)[0];
      expect(retry.value).toEqual({ local: 'listing' });
      expect(retry.context.request).toEqual({ ids: [5] });
    });
    it('a 404 on start (no check answered) also falls back', () => {
      expect(journey([nothingRunning, startDisabled, errorActor('startTestRun', notFound)]).value).toEqual({ local: 'listing' });
    });
    it('local cancel stops after the current test', () => {
      let s = journey([oneApi, startAll, doneActor('listAllChannels', channels), doneActor('testChannel', passes), cancel]);
      expect(s.value).toEqual({ local: 'testing' });
      expect(selectIsCancelling(s)).toBe(true);
      s = transition(channelTestMachine, s, doneActor('testChannel', fails) as never)[0];
      expect(s.value).toBe('ended');
      expect(selectRun(s)).toMatchObject({ status: 'cancelled', done: 2, total: 3 });
    });
    it('local: "test disabled" with no disabled channel ends at once', () => {
      const s = journey([oneApi, startDisabled, doneActor('listAllChannels', [channel(1, 1, 'gpt-4o')])]);
      expect(s.value).toBe('ended');
      expect(selectRun(s)).toMatchObject({ scope: 'disabled', status: 'finished', total: 0, done: 0 });
      expect(selectProgressPercent(s)).toBe(100);
    });
    it(`${maxPollFailures} failed polls in a row → failed; a success in between resets the count`, () => {
      const base = [nothingRunning, startAll, doneActor('startTestRun', started)];
      const fail = [poll, errorActor('fetchTestRun', offline)];
      expect(journey([...base, ...fail, ...fail]).value).toEqual({ running: 'waiting' });
      expect(journey([...base, ...fail, ...fail, ...fail]).value).toBe('failed');
      expect(journey([...base, ...fail, ...fail, poll, doneActor('fetchTestRun', progress), ...fail, ...fail]).value).toEqual({ running: 'waiting' });
      const lost = journey([...base, ...fail, ...fail, ...fail]);
      expect(selectRun(lost)?.status).toBe('running');
      expect(journey([...base, ...fail, ...fail, ...fail, dismiss]).value).toBe('idle');
    });
    it('dismiss clears the panel', () => {
      const s = journey([nothingRunning, startAll, doneActor('startTestRun', started), poll, doneActor('fetchTestRun', finished), dismiss]);
      expect(s.value).toBe('idle');
      expect(selectRun(s)).toBeNull();
      expect(selectResults(s)).toEqual({});
    });
  });

  it('picks channels and models the way one-api tests them', () => {
    expect(channelsToTest(channels, { scope: 'all' }).map((c) => c.id)).toEqual([7, 5, 4]);
    expect(channelsToTest(channels, { scope: 'disabled' }).map((c) => c.id)).toEqual([5, 4]);
    expect(channelsToTest(channels, { ids: [4, 99, 7] }).map((c) => c.id)).toEqual([4, 7]);
  });

  describe('replay on a real actor with stub actors', () => {
    function stubs() {
      return {
        fetchCurrentRun: controlled<ChannelTestRun | null, unknown>(),
        startTestRun: controlled<ChannelTestRun, ChannelTestRunRequest>(),
        fetchTestRun: controlled<ChannelTestRun, FetchTestRunInput>(),
        cancelTestRun: controlled<ChannelTestRun, CancelTestRunInput>(),
        listAllChannels: controlled<Channel[], unknown>(),
        testChannel: controlled<ChannelTestOutcome, TestChannelInput>(),
      };
    }

    async function replay(events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      vi.useFakeTimers();
      const st = stubs();
      const play = async (e: AnyEventObject) => {
        if (e.type !== poll.type) return false;
        await vi.advanceTimersByTimeAsync(1000);
        return true;
      };
      const settle = () => vi.advanceTimersByTimeAsync(0);
      return { ...(await replayOn({ machine: channelTestMachine, stubs: st, play, settle }, events, check)), st };
    }

    it.each(realShortest().filter((p) => p.steps.length > 1).map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      await replay(
        p.steps.map((s) => s.event),
        follows(p),
      );
    });

    it('server run: the calls, one test.result per new result, started and summary toasts', async () => {
      const { emitted, st, snapshot } = await replay([
        nothingRunning,
        startAll,
        doneActor('startTestRun', started),
        poll,
        doneActor('fetchTestRun', progress),
        poll,
        doneActor('fetchTestRun', finished),
      ]);
      expect(snapshot.value).toBe('ended');
      expect(st.startTestRun.calls).toEqual([{ scope: 'all' }]);
      expect(st.fetchTestRun.calls).toEqual([
        { id: 3, after: 0 },
        { id: 3, after: 1 },
      ]);
      expect(emitted).toEqual([
        { type: 'notify', level: 'info', message: { key: 'channelTest.started', params: { total: 2 } } },
        { type: 'test.result', result: r7 },
        { type: 'test.result', result: r5 },
        { type: 'notify', level: 'warning', message: { key: 'channelTest.finished', params: { ok: 1, failed: 1 } } },
      ]);
    });

    it('retry failed sends {ids}; cancel sends the run id', async () => {
      const { st } = await replay([
        nothingRunning,
        startAll,
        doneActor('startTestRun', started),
        poll,
        doneActor('fetchTestRun', finished),
        retryFailed,
        doneActor('startTestRun', retryRun),
        cancel,
        doneActor('cancelTestRun', run({ id: 4, scope: 'ids', status: 'cancelled', total: 1, channel_ids: [5] })),
      ]);
      expect(st.startTestRun.calls).toEqual([{ scope: 'all' }, { ids: [5] }]);
      expect(st.cancelTestRun.calls).toEqual([{ id: 4 }]);
    });

    it("attaching emits the results so far; '测试已在运行中' is shown as the server says it", async () => {
      const attached = await replay([doneActor('fetchCurrentRun', progress)]);
      expect(attached.emitted).toEqual([{ type: 'test.result', result: r7 }]);
      const refused = await replay([nothingRunning, startAll, errorActor('startTestRun', alreadyRunning)]);
      expect(refused.emitted).toEqual([{ type: 'notify', level: 'error', message: { text: '测试已在运行中' } }]);
      expect(refused.st.fetchCurrentRun.calls).toHaveLength(2);
    });

    it('404 → local: lists, tests each channel with the default model, emits each result, finishes', async () => {
      const { emitted, st, snapshot } = await replay([
        oneApi,
        startAll,
        doneActor('listAllChannels', channels),
        doneActor('testChannel', passes),
        doneActor('testChannel', fails),
        errorActor('testChannel', new Error('boom')),
      ]);
      expect(snapshot.value).toBe('ended');
      expect(st.startTestRun.calls).toEqual([]);
      expect(st.testChannel.calls).toEqual([
        { id: 7, model: '' },
        { id: 5, model: '' },
        { id: 4, model: '' },
      ]);
      const results = emitted.filter((e) => e.type === 'test.result').map((e) => e.result);
      expect(results.map((r) => [r.channel_id, r.success, r.index])).toEqual([
        [7, true, 0],
        [5, false, 1],
        [4, false, 2],
      ]);
      expect(results[2]!.message).toBe('boom');
      expect(emitted.at(-1)).toEqual({
        type: 'notify',
        level: 'warning',
        message: { key: 'channelTest.finished', params: { ok: 1, failed: 2 } },
      });
    });

    it(`${maxPollFailures} failed polls → failed, with a toast`, async () => {
      const fail = [poll, errorActor('fetchTestRun', offline)];
      const { snapshot, emitted, st } = await replay([nothingRunning, startAll, doneActor('startTestRun', started), ...fail, ...fail, ...fail]);
      expect(snapshot.value).toBe('failed');
      expect(st.fetchTestRun.calls).toHaveLength(maxPollFailures);
      expect(emitted.at(-1)).toEqual({ type: 'notify', level: 'error', message: { key: 'channelTest.pollFailed' } });
    });

    it('pollInterval: the next poll leaves exactly 1000 ms after the last answer', async () => {
      vi.useFakeTimers();
      const st = stubs();
      const actor = createActor(
        channelTestMachine.provide({ actors: { fetchCurrentRun: st.fetchCurrentRun.logic, fetchTestRun: st.fetchTestRun.logic } }),
      ).start();
      st.fetchCurrentRun.resolve(progress);
      await vi.advanceTimersByTimeAsync(0);
      await vi.advanceTimersByTimeAsync(999);
      expect(st.fetchTestRun.calls).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(st.fetchTestRun.calls).toEqual([{ id: 3, after: 1 }]);
      st.fetchTestRun.reject(offline);
      await vi.advanceTimersByTimeAsync(999);
      expect(st.fetchTestRun.calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      // a failed poll is retried with the same delay and the same cursor
      expect(st.fetchTestRun.calls).toEqual([
        { id: 3, after: 1 },
        { id: 3, after: 1 },
      ]);
      actor.stop();
    });

    it('every key it emits is in the catalogue', async () => {
      const runs = [
        await replay([nothingRunning, startAll, doneActor('startTestRun', started), cancel, doneActor('cancelTestRun', cancelled)]),
        await replay([nothingRunning, startAll, doneActor('startTestRun', started), poll, doneActor('fetchTestRun', finished)]),
        await replay([nothingRunning, startAll, doneActor('startTestRun', started), ...[1, 2, 3].flatMap(() => [poll, errorActor('fetchTestRun', offline)])]),
      ];
      const keys = runs.flatMap((r) => r.emitted).flatMap((e) => (e.type === 'notify' && 'key' in e.message ? [e.message.key] : []));
      expect(keys).toEqual(expect.arrayContaining(['channelTest.started', 'channelTest.cancelled', 'channelTest.finished', 'channelTest.pollFailed']));
      for (const k of keys) expect(isMessageKey(k), k).toBe(true);
    });
  });
});

describe('channel test composition helpers (one-api fallback)', () => {
  it('listAllChannels reads pages until a short one', async () => {
    const pages = [Array.from({ length: 10 }, (_, i) => channel(i + 1, 1, '')), [channel(11, 1, '')]];
    const asked: number[] = [];
    const list = (p: number) => {
      asked.push(p);
      return TE.right(pages[p] ?? []);
    };
    const all = await listAllChannels(list)();
    expect(E.isRight(all) && all.right.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(asked).toEqual([0, 1]);
    const err: ApiError = offline;
    expect(await listAllChannels(() => TE.left(err))()).toEqual(E.left(err));
  });

  it('testChannelActor turns a refused test into a failed outcome, a success into time and model', async () => {
    const answer = (r: E.Either<ApiError, ChannelTestResult>) => () => () => Promise.resolve(r);
    const run1 = async (r: E.Either<ApiError, ChannelTestResult>) => {
      const actor = createActor(testChannelActor(answer(r), () => 1760000100500), { input: { id: 7, model: '' } });
      const done = new Promise((resolve) => actor.subscribe({ complete: () => resolve(actor.getSnapshot().output) }));
      actor.start();
      return done;
    };
    expect(await run1(E.right({ success: true, message: 'hi', time: 0.81, modelName: '' }))).toEqual({
      success: true,
      message: 'hi',
      time: 0.81,
      model: '',
      test_time: 1760000100,
    });
    expect(await run1(E.left(failure('GET /api/channel/test/7', 'invalid api key')))).toEqual({
      success: false,
      message: 'invalid api key',
      time: 0,
      model: '',
      test_time: 1760000100,
    });
  });
});
