import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import { isMessageKey } from '../../src/i18n';
import {
  channelListActionsMachine,
  channelTableMachine,
  checkBulkValue,
  selectBulkValuePrompt,
  selectChannelNames,
  selectGroupOptions,
  selectIsConfirmingDeleteDisabled,
  selectIsDeletingDisabled,
  selectIsLoadingGroups,
  selectNoticeShown,
  selectShowDetail,
  selectTypeOptions,
  type ChannelListActionsEmitted,
  type ChannelListPrefs,
} from '../../src/machines/channelList';
import { defaultTableQuery } from '../../src/domain/tableQuery';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { journey as walk } from './support/replay';

/*
 * The channel list's own workflows (detail mode, notice, delete disabled, bulk values) as a
 * model: every state reached, invariants on bounded simple paths, a few journeys pinned, and
 * chosen paths replayed on a real actor with stub actors.
 */

const machine = channelListActionsMachine.provide({ actions: { storeShowDetail: () => undefined, storeNoticeDismissed: () => undefined } });
type Snap = SnapshotFrom<typeof machine>;

const fixtures: EventFixtures<typeof channelListActionsMachine> = {
  'detail.toggle': [{ type: 'detail.toggle' }],
  'notice.dismiss': [{ type: 'notice.dismiss' }],
  'deleteDisabled.request': [{ type: 'deleteDisabled.request' }],
  'deleteDisabled.accept': [{ type: 'deleteDisabled.accept' }],
  'deleteDisabled.cancel': [{ type: 'deleteDisabled.cancel' }],
  'bulkValue.open': [
    { type: 'bulkValue.open', action: 'priority' },
    { type: 'bulkValue.open', action: 'setGroup' },
  ],
  'bulkValue.input': [
    { type: 'bulkValue.input', value: '5' },
    { type: 'bulkValue.input', value: '' },
  ],
  'bulkValue.submit': [{ type: 'bulkValue.submit' }],
  'bulkValue.cancel': [{ type: 'bulkValue.cancel' }],
};
const prefsLoaded = doneActor('loadListPrefs', { showDetail: true, noticeDismissed: false } satisfies ChannelListPrefs);
const prefsFailed = errorActor('loadListPrefs', new Error('storage refused'));
const deleted = doneActor('deleteDisabledChannels', 3);
const deleteFailed = errorActor('deleteDisabledChannels', httpError('DELETE /api/channel/disabled', 500, 'Internal Server Error'));
const groupsLoaded = doneActor('fetchGroups', ['default', 'vip']);
const groupsFailed = errorActor('fetchGroups', failure('GET /api/group/', '无权进行此操作'));
const internal = [prefsLoaded, prefsFailed, deleted, deleteFailed, groupsLoaded, groupsFailed];
const model = { fixtures, internal, limit: 5000 };

/** Paths small enough to explore: one region busy at a time is enough to cover every combination that matters. */
const serializeState = (s: Snap) => JSON.stringify([s.value, s.context.showDetail, s.context.noticeDismissed, s.context.prompt]);

function journey(events: readonly AnyEventObject[]): Snap {
  return walk(machine, undefined, events);
}

describe('channelListActions model', () => {
  it('reaches every state', () => {
    const paths = shortestPaths(machine, { ...model, serializeState });
    expect(unreachedStates(machine, paths)).toEqual([]);
  });

  it('keeps its invariants on every simple path of each region', () => {
    // The regions are independent: their simple paths are explored one region at a time (their
    // interleavings would only multiply the same snapshots).
    const regions: Partial<EventFixtures<typeof channelListActionsMachine>>[] = [
      { 'detail.toggle': fixtures['detail.toggle'], 'notice.dismiss': fixtures['notice.dismiss'] },
      {
        'deleteDisabled.request': fixtures['deleteDisabled.request'],
        'deleteDisabled.accept': fixtures['deleteDisabled.accept'],
        'deleteDisabled.cancel': fixtures['deleteDisabled.cancel'],
      },
      {
        'bulkValue.open': fixtures['bulkValue.open'],
        'bulkValue.input': [{ type: 'bulkValue.input', value: '5' }],
        'bulkValue.submit': fixtures['bulkValue.submit'],
        'bulkValue.cancel': fixtures['bulkValue.cancel'],
      },
    ];
    let count = 0;
    for (const region of regions) {
      const paths = simplePaths(machine, {
        fixtures: region as EventFixtures<typeof channelListActionsMachine>,
        internal,
        serializeState,
        limit: 5000,
      });
      count += paths.length;
      for (const p of paths) {
        for (const step of [p.state, ...p.steps.map((x) => x.state)]) {
          const s = step;
          // the prompt exists exactly while the bulkValue region is open
          expect(s.context.prompt === null, describePath(p)).toBe(s.matches({ bulkValue: 'closed' }));
          expect(selectBulkValuePrompt(s) === null).toBe(s.matches({ bulkValue: 'closed' }));
          // the notice never shows before the stored choice is read
          if (s.matches({ prefs: 'loading' })) expect(selectNoticeShown(s)).toBe(false);
          expect(selectIsDeletingDisabled(s)).toBe(s.hasTag('busy'));
          // every problem is a catalogue key
          const problem = s.context.prompt?.problem;
          if (problem && 'key' in problem) expect(isMessageKey(problem.key)).toBe(true);
        }
      }
    }
    expect(count).toBeGreaterThan(10);
  });

  it('journeys: detail toggle, notice, delete disabled, bulk values', () => {
    let s = journey([prefsLoaded, { type: 'detail.toggle' }]);
    expect(selectShowDetail(s)).toBe(false);
    s = journey([prefsLoaded, { type: 'notice.dismiss' }]);
    expect(selectNoticeShown(s)).toBe(false);
    s = journey([prefsFailed]);
    expect(selectNoticeShown(s)).toBe(true);
    expect(selectShowDetail(s)).toBe(false);

    s = journey([{ type: 'deleteDisabled.request' }]);
    expect(selectIsConfirmingDeleteDisabled(s)).toBe(true);
    s = journey([{ type: 'deleteDisabled.request' }, { type: 'deleteDisabled.cancel' }]);
    expect(s.matches({ deleteDisabled: 'idle' })).toBe(true);
    s = journey([{ type: 'deleteDisabled.request' }, { type: 'deleteDisabled.accept' }]);
    expect(selectIsDeletingDisabled(s)).toBe(true);
    // nothing happens while deleting
    s = transition(machine, s, { type: 'deleteDisabled.request' })[0];
    expect(selectIsDeletingDisabled(s)).toBe(true);

    s = journey([{ type: 'bulkValue.open', action: 'priority' }, { type: 'bulkValue.input', value: 'x' }, { type: 'bulkValue.submit' }]);
    expect(selectBulkValuePrompt(s)?.problem).toEqual({ key: 'channels.bulk.value.needNumber' });
    s = journey([{ type: 'bulkValue.open', action: 'setGroup' }]);
    expect(selectIsLoadingGroups(s)).toBe(true);
    s = journey([{ type: 'bulkValue.open', action: 'setGroup' }, groupsLoaded, { type: 'bulkValue.input', value: 'vip' }]);
    expect(s.context.groups).toEqual(['default', 'vip']);
    expect(selectBulkValuePrompt(s)).toEqual({ action: 'setGroup', value: 'vip', problem: null });
  });

  it('replays on a real actor: prefs stored, deleted count announced, value chosen', async () => {
    const storeShowDetail = vi.fn();
    const storeNoticeDismissed = vi.fn();
    const actor = createActor(
      channelListActionsMachine.provide({
        actors: {
          loadListPrefs: fromPromise<ChannelListPrefs>(() => Promise.resolve({ showDetail: true, noticeDismissed: true })),
          deleteDisabledChannels: fromPromise<number>(() => Promise.resolve(2)),
          fetchGroups: fromPromise<readonly string[]>(() => Promise.resolve(['default', 'vip'])),
        },
        actions: { storeShowDetail: (_, params) => {
            storeShowDetail(params);
          }, storeNoticeDismissed },
      }),
    );
    const emitted: ChannelListActionsEmitted[] = [];
    actor.on('*', (e) => emitted.push(e));
    actor.start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ prefs: 'ready' })).toBe(true));
    expect(selectShowDetail(actor.getSnapshot())).toBe(true);
    expect(selectNoticeShown(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'detail.toggle' });
    expect(storeShowDetail).toHaveBeenCalledWith({ show: false });

    actor.send({ type: 'deleteDisabled.request' });
    actor.send({ type: 'deleteDisabled.accept' });
    await vi.waitFor(() => expect(emitted).toContainEqual({ type: 'channels.deleted', count: 2 }));
    expect(emitted).toContainEqual({ type: 'notify', level: 'success', message: { key: 'channels.deleteDisabled.done', params: { count: 2 } } });

    actor.send({ type: 'bulkValue.open', action: 'setGroup' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ bulkValue: 'prompting' })).toBe(true));
    actor.send({ type: 'bulkValue.input', value: ' vip ' });
    actor.send({ type: 'bulkValue.submit' });
    expect(emitted).toContainEqual({ type: 'bulk.valueChosen', action: 'setGroup', value: 'vip' });
    expect(actor.getSnapshot().matches({ bulkValue: 'closed' })).toBe(true);

    actor.send({ type: 'bulkValue.open', action: 'priority' });
    actor.send({ type: 'bulkValue.input', value: '7.9' });
    actor.send({ type: 'bulkValue.submit' });
    expect(emitted).toContainEqual({ type: 'bulk.valueChosen', action: 'priority', value: '7' });
    actor.stop();
  });

  it('a failed delete says why and goes back', async () => {
    const actor = createActor(
      channelListActionsMachine.provide({
        actors: {
          loadListPrefs: fromPromise<ChannelListPrefs>(() => Promise.resolve({ showDetail: false, noticeDismissed: false })),
          deleteDisabledChannels: fromPromise<number>(async () => {
            await Promise.resolve();
            throw failure('DELETE /api/channel/disabled', '数据库错误');
          }),
          fetchGroups: fromPromise<readonly string[]>(() => Promise.resolve([])),
        },
      }),
    );
    const emitted: ChannelListActionsEmitted[] = [];
    actor.on('*', (e) => emitted.push(e));
    actor.start();
    actor.send({ type: 'deleteDisabled.request' });
    actor.send({ type: 'deleteDisabled.accept' });
    await vi.waitFor(() => expect(emitted).toContainEqual({ type: 'notify', level: 'error', message: { text: '数据库错误' } }));
    expect(actor.getSnapshot().matches({ deleteDisabled: 'idle' })).toBe(true);
    actor.stop();
  });
});

describe('channel list machine helpers', () => {
  it('bulk values', () => {
    expect(checkBulkValue('priority', ' 5 ')).toEqual({ value: '5' });
    expect(checkBulkValue('addModel', 'a,b')).toEqual({ problem: { key: 'channels.bulk.value.oneModel' } });
    expect(checkBulkValue('removeModel', '')).toEqual({ problem: { key: 'channels.bulk.value.needModel' } });
    expect(checkBulkValue('setGroup', '')).toEqual({ problem: { key: 'channels.bulk.value.needGroup' } });
    expect(checkBulkValue('setGroup', 'a,b')).toEqual({ problem: { key: 'channels.bulk.value.oneGroup' } });
  });

  it('table selectors: names, group and type options of the loaded rows', () => {
    const rows = [
      { id: 2, type: 8, name: 'b', status: 1, models: 'x', group: 'vip,default' },
      { id: 1, type: 1, name: 'a', status: 2, models: 'x', group: '' },
    ];
    const snap = channelTableMachine.resolveState({
      value: { ready: 'idle' },
      context: {
        rows,
        shown: rows,
        query: defaultTableQuery,
        draft: '',
        pagesLoaded: 1,
        exhausted: true,
        target: { kind: 'page', page: 0 },
        selectAllAfterLoad: false,
        selected: [],
        busy: {},
        pending: null,
        bulk: null,
        exportFormat: '',
      },
    });
    expect(selectChannelNames(snap)).toEqual({ 1: 'a', 2: 'b' });
    expect(selectGroupOptions(snap)).toEqual(['default', 'vip']);
    expect(selectTypeOptions(snap)).toEqual([1, 8]);
  });
});
