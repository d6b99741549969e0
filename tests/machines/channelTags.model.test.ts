import { describe, expect, it } from 'vitest';
import type { AnyEventObject, SnapshotFrom } from 'xstate';
import { failure } from '../../src/domain/apiError';
import type { ChannelTagCount } from '../../src/domain/channel';
import { isMessageKey, renderMessage } from '../../src/i18n';
import {
  channelTagsMachine,
  checkTagEdit,
  emptyTagEditDraft,
  selectIsLoadingTags,
  selectTagCounts,
  selectTagEditCount,
  selectTagEditDraft,
  selectTagEditProblem,
  selectTagEditStep,
  type ChannelTagsEvent,
  type UpdateChannelsByTagInput,
} from '../../src/machines/channelTags';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { journey as walk, pathOf, replay, replayPath } from './support/replay';
import { controlled } from './support/stubs';

/*
 * The channel tags machine (src/machines/channelTags): the tag list with counts (for the filter
 * and the dialog) and the edit-by-tag dialog (choose a tag and fields, confirm with the number of
 * channels, save, toast, `channels.tagEdited`, counts read again). Every state is reached, the
 * rules hold on every step of bounded simple paths, journeys are pinned, paths replay on a real actor.
 */

type Snap = SnapshotFrom<typeof channelTagsMachine>;
type Ev<T extends ChannelTagsEvent['type']> = Extract<ChannelTagsEvent, { type: T }>;

const counts: ChannelTagCount[] = [
  { tag: 'team-a', count: 2 },
  { tag: 'team-b', count: 1 },
];
const open: Ev<'tagEdit.open'> = { type: 'tagEdit.open' };
const openB: Ev<'tagEdit.open'> = { type: 'tagEdit.open', tag: 'team-b' };
const chooseB: Ev<'tagEdit.tag'> = { type: 'tagEdit.tag', tag: 'team-b' };
const disable: Ev<'tagEdit.field'> = { type: 'tagEdit.field', field: 'status', on: true };
const priorityOn: Ev<'tagEdit.field'> = { type: 'tagEdit.field', field: 'priority', on: true };
const priorityOff: Ev<'tagEdit.field'> = { type: 'tagEdit.field', field: 'priority', on: false };
const priority5: Ev<'tagEdit.value'> = { type: 'tagEdit.value', field: 'priority', value: ' 5 ' };
const priorityBad: Ev<'tagEdit.value'> = { type: 'tagEdit.value', field: 'priority', value: 'x' };
const submit = { type: 'tagEdit.submit' } as const;
const confirm = { type: 'tagEdit.confirm' } as const;
const back = { type: 'tagEdit.back' } as const;
const cancel = { type: 'tagEdit.cancel' } as const;
const reload = { type: 'tags.reload' } as const;

const fixtures: EventFixtures<typeof channelTagsMachine> = {
  'tags.reload': [reload],
  'tagEdit.open': [open, openB],
  'tagEdit.tag': [chooseB],
  'tagEdit.field': [disable, priorityOn, priorityOff],
  'tagEdit.value': [priority5, priorityBad],
  'tagEdit.submit': [submit],
  'tagEdit.confirm': [confirm],
  'tagEdit.back': [back],
  'tagEdit.cancel': [cancel],
};
const listed = doneActor('fetchTags', counts);
const listFailed = errorActor('fetchTags', failure('fetchTags', '无权进行此操作，权限不足'));
const saved = doneActor('updateChannelsByTag', 2);
const saveFailed = errorActor('updateChannelsByTag', failure('updateChannelsByTag', 'status: expected 1 (enable) or 2 (disable)'));
const internal = [listed, listFailed, saved, saveFailed];

const journey = (events: readonly AnyEventObject[]): Snap => walk(channelTagsMachine, undefined as never, events);
const saveInput = (s: Snap): UpdateChannelsByTagInput | undefined =>
  (s.children as Record<string, { getSnapshot(): { input?: unknown } } | undefined>).updateChannelsByTag?.getSnapshot().input as
    | UpdateChannelsByTagInput
    | undefined;

describe('checkTagEdit', () => {
  it('needs a tag and a field; checks numbers, models and group; sends only the chosen fields', () => {
    expect(checkTagEdit(emptyTagEditDraft)).toEqual({ problem: { key: 'channels.tagEdit.needTag' } });
    expect(checkTagEdit({ ...emptyTagEditDraft, tag: 'a' })).toEqual({ problem: { key: 'channels.tagEdit.needField' } });
    const d = { ...emptyTagEditDraft, tag: ' a ' };
    expect(checkTagEdit({ ...d, fields: ['priority'], priority: 'abc' })).toEqual({ problem: { key: 'channels.tagEdit.needPriority' } });
    expect(checkTagEdit({ ...d, fields: ['weight'], weight: '' })).toEqual({ problem: { key: 'channels.tagEdit.needWeight' } });
    expect(checkTagEdit({ ...d, fields: ['models'], models: ' , ' })).toEqual({ problem: { key: 'channels.bulk.value.needModel' } });
    expect(checkTagEdit({ ...d, fields: ['group'], group: '' })).toEqual({ problem: { key: 'channels.bulk.value.needGroup' } });
    expect(checkTagEdit({ ...d, fields: ['priority', 'weight', 'models', 'group', 'status'], priority: '-3', weight: '2', models: ' m1,m2 ', group: 'vip', status: '1', })).toEqual({
      edit: { tag: 'a', priority: -3, weight: 2, models: 'm1,m2', group: 'vip', status: 1 },
    });
    expect(checkTagEdit({ ...d, fields: ['status'], priority: 'ignored' })).toEqual({ edit: { tag: 'a', status: 2 } });
    for (const key of ['channels.tagEdit.needTag', 'channels.tagEdit.needField', 'channels.tagEdit.needPriority', 'channels.tagEdit.needWeight']) {
      expect(isMessageKey(key), key).toBe(true);
    }
  });
});

describe('channelTags model', () => {
  const model = { fixtures, internal, limit: 200_000 };
  const realShortest = () => shortestPaths(channelTagsMachine, model).filter(isRealistic);

  it('starts loading the tag list with the dialog closed', () => {
    const s = journey([]);
    expect(s.value).toEqual({ list: 'loading', edit: 'closed' });
    expect(selectIsLoadingTags(s)).toBe(true);
    expect(selectTagEditStep(s)).toBe('closed');
  });

  it('reaches every state', () => {
    const paths = realShortest();
    expect(unreachedStates(channelTagsMachine, paths)).toEqual([]);
    const saving = paths.find((p) => p.state.matches({ edit: 'saving' }))!;
    expect(describePath(saving)).toMatch(/tagEdit.open → tagEdit.field → tagEdit.submit → tagEdit.confirm$/);
  });

  it('keeps its rules on every step of bounded simple paths', { timeout: 60_000 }, () => {
    const few: EventFixtures<typeof channelTagsMachine> = {
      ...fixtures,
      'tagEdit.open': [open],
      'tagEdit.tag': [],
      'tagEdit.field': [disable],
      'tagEdit.value': [],
      'tagEdit.back': [],
      'tags.reload': [],
    };
    // states told apart by value, tag list and draft (the problem is derived from the draft)
    const serializeState = (s: Snap) => JSON.stringify([s.value, s.context.tags.length, s.context.draft]);
    const paths = simplePaths(channelTagsMachine, { fixtures: few, internal: [listed, saved], serializeState, limit: 200_000 }).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(20);
    for (const p of paths) {
      const snaps = snapshotsOf(p);
      for (const [i, s] of snaps.entries()) {
        expect(s.status).toBe('active');
        const saving = s.matches({ edit: 'saving' });
        expect((s.children as Record<string, unknown>).updateChannelsByTag !== undefined).toBe(saving);
        expect(s.hasTag('busy')).toBe(saving);
        // only a valid draft is confirmed or saved, and the request is the checked draft
        if (s.matches({ edit: 'confirming' }) || saving) expect('edit' in checkTagEdit(selectTagEditDraft(s))).toBe(true);
        if (i === 0) continue;
        const prev = snaps[i - 1]!;
        const e = p.steps[i]!.event;
        if (saving && !prev.matches({ edit: 'saving' })) {
          expect(prev.matches({ edit: 'confirming' })).toBe(true);
          expect(e).toEqual(confirm);
          const checked = checkTagEdit(selectTagEditDraft(prev));
          expect(saveInput(s)).toEqual('edit' in checked ? { edit: checked.edit } : undefined);
        }
        if (s.matches({ edit: 'confirming' }) && !prev.matches({ edit: 'confirming' })) expect(e).toEqual(submit);
        // the list changes only with the server's answer
        if (JSON.stringify(selectTagCounts(s)) !== JSON.stringify(selectTagCounts(prev))) expect(e.type).toBe(listed.type);
        // a save done reads the counts again (unless they are still being read)
        if (e.type === saved.type && prev.matches({ list: 'ready' })) expect(s.matches({ list: 'loading' })).toBe(true);
        // so does opening the dialog: its confirmation counts the channels as they are now
        if (e.type === 'tagEdit.open' && prev.matches({ edit: 'closed' }) && !prev.matches({ list: 'loading' })) {
          expect(s.matches({ list: 'loading', edit: 'editing' })).toBe(true);
        }
      }
    }
  });

  describe('pinned journeys', () => {
    it('open on the first tag, disable, confirm with its count, saved: closed, counts read again', () => {
      const editing = journey([listed, open, disable]);
      expect(selectTagEditDraft(editing)).toMatchObject({ tag: 'team-a', fields: ['status'], status: '2' });
      const asking = journey([listed, open, disable, submit]);
      expect(selectTagEditStep(asking)).toBe('confirming');
      expect(selectTagEditCount(asking)).toBe(2);
      const busy = journey([listed, open, disable, submit, confirm]);
      expect(saveInput(busy)).toEqual({ edit: { tag: 'team-a', status: 2 } });
      const done = journey([listed, open, disable, submit, confirm, saved]);
      expect(done.value).toEqual({ list: 'loading', edit: 'closed' });
    });
    it('opening the dialog reads the counts again: the confirmation says how many carry the tag now', () => {
      expect(journey([listed, open]).value).toEqual({ list: 'loading', edit: 'editing' });
      const grown = doneActor('fetchTags', [{ tag: 'team-a', count: 5 }, { tag: 'team-b', count: 1 }]);
      const asking = journey([listed, open, grown, disable, submit]);
      expect(selectTagEditStep(asking)).toBe('confirming');
      expect(selectTagEditCount(asking)).toBe(5);
    });
    it('a refused draft stays open with its reason, cleared by the next change', () => {
      const s = journey([listed, open, priorityOn, priorityBad, submit]);
      expect(selectTagEditStep(s)).toBe('editing');
      expect(selectTagEditProblem(s)).toEqual({ key: 'channels.tagEdit.needPriority' });
      const fixed = journey([listed, open, priorityOn, priorityBad, submit, priority5]);
      expect(selectTagEditProblem(fixed)).toBeNull();
      expect(selectTagEditStep(journey([listed, open, priorityOn, priorityBad, submit, priority5, submit]))).toBe('confirming');
    });
    it('a chosen tag and fields turned off', () => {
      const s = journey([listed, openB, priorityOn, disable, priorityOff]);
      expect(selectTagEditDraft(s)).toMatchObject({ tag: 'team-b', fields: ['status'] });
      expect(selectTagEditDraft(journey([listed, open, chooseB])).tag).toBe('team-b');
      expect(selectTagEditCount(journey([listed, open, chooseB]))).toBe(1);
    });
    it('back returns to the draft; cancel closes', () => {
      expect(selectTagEditStep(journey([listed, open, disable, submit, back]))).toBe('editing');
      expect(selectTagEditStep(journey([listed, open, disable, submit, cancel]))).toBe('closed');
      expect(selectTagEditStep(journey([listed, open, cancel]))).toBe('closed');
    });
    it('a failed save returns to the draft as it was', () => {
      const s = journey([listed, open, disable, submit, confirm, saveFailed]);
      expect(selectTagEditStep(s)).toBe('editing');
      expect(selectTagEditDraft(s)).toMatchObject({ tag: 'team-a', fields: ['status'] });
    });
    it('a failed list can be read again', () => {
      expect(journey([listFailed]).value).toEqual({ list: 'failed', edit: 'closed' });
      expect(journey([listFailed, reload]).value).toEqual({ list: 'loading', edit: 'closed' });
      expect(selectTagCounts(journey([listed]))).toEqual(counts);
    });
    it('with no tags the dialog opens without a tag and asks for one', () => {
      const s = journey([doneActor('fetchTags', []), open, disable, submit]);
      expect(selectTagEditProblem(s)).toEqual({ key: 'channels.tagEdit.needTag' });
    });
  });

  describe('replay on a real actor with stub actors', () => {
    const stubs = () => ({
      fetchTags: controlled<readonly ChannelTagCount[], unknown>(),
      updateChannelsByTag: controlled<number, UpdateChannelsByTagInput>(),
    });
    // the shortest path to each state value (one replay per state, not per context)
    const byValue = new Map<string, ReturnType<typeof realShortest>[number]>();
    for (const p of realShortest()) {
      const key = JSON.stringify(p.state.value);
      const seen = byValue.get(key);
      if (p.steps.length > 1 && (seen === undefined || p.steps.length < seen.steps.length)) byValue.set(key, p);
    }
    const chosen = [
      ...byValue.values(),
      pathOf(channelTagsMachine, undefined as never, [listed, open, priorityOn, priorityBad, submit, priority5, submit, back, disable, submit, confirm, saveFailed, submit, confirm, saved]),
    ];
    it.each(chosen.map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      expect(isRealistic(p)).toBe(true);
      await replayPath({ machine: channelTagsMachine, stubs: stubs() }, p);
    });

    it('says how many channels changed and announces the edit', async () => {
      const s = stubs();
      const run = await replay({ machine: channelTagsMachine, stubs: s }, [listed, open, disable, submit, confirm, saved]);
      expect(s.updateChannelsByTag.calls).toEqual([{ edit: { tag: 'team-a', status: 2 } }]);
      expect(run.emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'channels.tagEdit.done', params: { tag: 'team-a', count: 2 } } },
        { type: 'channels.tagEdited', tag: 'team-a', count: 2 },
      ]);
      const message = (run.emitted[0] as { message: Parameters<typeof renderMessage>[1] }).message;
      expect(renderMessage('zh', message)).toBe('已修改带有标签「team-a」的 2 个渠道');
      expect(renderMessage('en', message)).toBe('Changed 2 channels tagged “team-a”');
    });

    it("shows the server's refusal as an error toast", async () => {
      const run = await replay({ machine: channelTagsMachine, stubs: stubs() }, [listed, open, disable, submit, confirm, saveFailed]);
      expect(run.emitted.map((e) => e.type)).toEqual(['notify']);
      expect(run.emitted[0]).toMatchObject({ level: 'error' });
    });
  });
});
