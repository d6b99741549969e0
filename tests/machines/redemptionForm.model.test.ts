import { describe, expect, it } from 'vitest';
import { type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import type { Redemption } from '../../src/domain/redemption';
import { isMessageKey } from '../../src/i18n';
import {
  checkRedemptionForm,
  keysFileName,
  keysText,
  redemptionFormMachine,
  redemptionPayloadOf,
  selectCreatedKeys,
  selectForm,
  selectIsBusy,
  selectIsCopying,
  selectIsDownloading,
  selectIsEdit,
  selectIsLoading,
  selectIsSaving,
  selectKeysFile,
  selectLoadFailed,
  selectProblem,
  type DownloadKeysInput,
  type RedemptionFormInput,
  type SaveRedemptionInput,
} from '../../src/machines/redemptionForm';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { replay as replayOn, journey as walk, follows } from './support/replay';

type Snap = SnapshotFrom<typeof redemptionFormMachine>;

const code: Redemption = {
  id: 7,
  name: 'promo',
  key: '0f3c9a7e1b2d4c5f8a9b0c1d2e3f4a5b',
  status: 1,
  quota: 250000,
  created_time: 1_763_900_000,
  redeemed_time: 0,
};
const keys = ['0f3c9a7e1b2d4c5f8a9b0c1d2e3f4a5b', '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b'];

const fixtures: EventFixtures<typeof redemptionFormMachine> = {
  'field.change': [
    { type: 'field.change', field: 'name', value: 'promo' },
    { type: 'field.change', field: 'count', value: '101' },
  ],
  'form.submit': [{ type: 'form.submit' }],
  'form.retry': [{ type: 'form.retry' }],
  'keys.copy': [{ type: 'keys.copy' }],
  'keys.download': [{ type: 'keys.download' }],
  'form.again': [{ type: 'form.again' }],
};
const loaded = doneActor('loadRedemption', code);
const loadFailed = errorActor('loadRedemption', failure('loadRedemption', 'record not found'));
const created = doneActor('saveRedemption', keys);
const updated = doneActor('saveRedemption', []);
const refused = errorActor('saveRedemption', failure('saveRedemption', '兑换码名称长度必须在1-20之间'));
const downloaded = doneActor('downloadKeys');
const downloadFailed = errorActor('downloadKeys', new Error('cannot download a file here'));
const copied = doneActor('copyText');
const copyFailed = errorActor('copyText', new Error('denied'));
const internal = [loaded, loadFailed, created, refused, downloaded, downloadFailed, copied, copyFailed];
const createInput: RedemptionFormInput = { id: null };
const editInput: RedemptionFormInput = { id: 7 };
const createModel = { fixtures, internal, input: createInput };
const editModel = { fixtures, internal: [loaded, loadFailed, updated, refused], input: editInput };

const realShortest = (input: RedemptionFormInput) =>
  shortestPaths(redemptionFormMachine, input.id === null ? createModel : editModel).filter(isRealistic);

function journey(input: RedemptionFormInput, events: readonly AnyEventObject[]): Snap {
  return walk(redemptionFormMachine, input, events);
}
const change = (field: 'name' | 'quota' | 'count', value: string) => ({ type: 'field.change', field, value });
const submit = { type: 'form.submit' };

describe('redemptionForm model', () => {
  it('reaches every state (create and edit together)', () => {
    const paths = [...realShortest(createInput), ...realShortest(editInput)];
    // eventless choices of the form machine, never at rest: `starting` (loading or editing) and the
    // record region's `choosing`; the record being the only region, its `done` ends loading at once
    // the 401 recovery (awaitingSession, resaving, left) is the generic form machine's: with a session
    // and its sign-in dialog it is walked in form.model.test.ts
    expect(unreachedStates(redemptionFormMachine, paths)).toEqual(['starting', 'loading.redemption.choosing', 'loading.redemption.done', 'awaitingSession', 'resaving', 'left']);
  });

  it('keeps its invariants on every simple path', () => {
    for (const model of [createModel, editModel]) {
      const paths = simplePaths(redemptionFormMachine, model).filter(isRealistic);
      expect(paths.length).toBeGreaterThan(0);
      for (const p of paths) {
        for (const s of snapshotsOf(p)) {
          const children = Object.keys(s.children);
          expect(children.length).toBeLessThanOrEqual(1);
          if (s.matches('loading')) expect(children).toEqual(['loadRedemption']);
          if (s.matches('saving')) expect(children).toEqual(['saveRedemption']);
          if (s.matches({ created: 'downloading' })) expect(children).toEqual(['downloadKeys']);
          if (s.matches({ created: 'copying' })) expect(children).toEqual(['copyText']);
          // edit never loads with a null id, create never loads at all
          expect(selectIsEdit(s)).toBe(model.input.id !== null);
          if (!selectIsEdit(s)) expect(s.matches('loading') || s.matches('loadFailed')).toBe(false);
          // only a create shows keys, and only after the save
          if (selectIsEdit(s)) expect(s.matches('created')).toBe(false);
          expect(selectCreatedKeys(s).length > 0).toBe(s.matches('created'));
          expect(selectKeysFile(s)).toBe(s.matches('created') ? 'promo.txt' : '');
          expect(selectIsBusy(s)).toBe(
            s.matches('loading') || s.matches('saving') || s.matches({ created: 'downloading' }) || s.matches({ created: 'copying' }),
          );
          expect(selectIsLoading(s)).toBe(s.matches('loading'));
          expect(selectIsSaving(s)).toBe(s.matches('saving'));
          expect(selectLoadFailed(s)).toBe(s.matches('loadFailed'));
          expect(selectIsCopying(s)).toBe(s.matches({ created: 'copying' }));
          expect(selectIsDownloading(s)).toBe(s.matches({ created: 'downloading' }));
          // a save only starts from a valid form
          if (s.matches('saving')) expect(checkRedemptionForm(selectForm(s), selectIsEdit(s))).toBeNull();
          // a problem is only ever the current form's
          const problem = selectProblem(s);
          if (problem !== null) expect(checkRedemptionForm(selectForm(s), selectIsEdit(s))?.field).toBe(problem.field);
          expect(s.status).toBe('active');
        }
      }
    }
  });

  describe('pinned journeys', () => {
    it('create starts from the defaults: quota 100000, count 1', () => {
      const s = journey(createInput, []);
      expect(s.value).toBe('editing');
      expect(selectForm(s)).toEqual({ name: '', quota: '100000', count: '1' });
    });
    it('an empty name is refused with the spec message and nothing is sent', () => {
      const s = journey(createInput, [submit]);
      expect(s.value).toBe('editing');
      expect(selectProblem(s)).toEqual({ field: 'name', message: { key: 'validation.redemption.nameRequired' } });
      // typing clears it
      expect(selectProblem(journey(createInput, [submit, change('name', 'p')]))).toBeNull();
    });
    it('more than 100 codes or a broken quota are refused', () => {
      expect(selectProblem(journey(createInput, [change('name', 'p'), change('count', '101'), submit]))?.field).toBe('count');
      expect(selectProblem(journey(createInput, [change('name', 'p'), change('count', '0'), submit]))?.field).toBe('count');
      expect(selectProblem(journey(createInput, [change('name', 'p'), change('quota', '1.5'), submit]))?.field).toBe('quota');
    });
    it('a quota of -100 (or 0) is refused before sending, naming the field and the range', () => {
      const s = journey(createInput, [change('name', 'p'), change('quota', '-100'), submit]);
      expect(s.matches('editing')).toBe(true);
      expect(selectProblem(s)).toEqual({ field: 'quota', message: { key: 'number.range', params: { min: 1, max: 1_000_000_000_000_000, field: 'number.field.redemptionQuota' } } });
      expect(selectProblem(journey(createInput, [change('name', 'p'), change('quota', '0'), submit]))?.field).toBe('quota');
    });
    it('create, download, copy, then another batch', () => {
      let s = journey(createInput, [change('name', 'promo'), change('count', '2'), submit, created]);
      expect(s.matches({ created: 'downloading' })).toBe(true);
      expect(selectCreatedKeys(s)).toEqual(keys);
      s = journey(createInput, [change('name', 'promo'), submit, created, downloaded, { type: 'keys.copy' }, copyFailed]);
      expect(s.matches({ created: 'shown' })).toBe(true);
      s = journey(createInput, [change('name', 'promo'), submit, created, downloaded, { type: 'form.again' }]);
      expect(s.value).toBe('editing');
      expect(selectForm(s)).toEqual({ name: '', quota: '100000', count: '1' });
    });
    it('edit loads the code, sends name and quota only', () => {
      const s = journey(editInput, [loaded, change('name', 'renamed')]);
      expect(selectForm(s)).toEqual({ name: 'renamed', quota: '250000', count: '1' });
      expect(redemptionPayloadOf(selectForm(s), true)).toEqual({ name: 'renamed', quota: 250000 });
      expect(journey(editInput, [loaded, submit, updated]).value).toBe('editing');
    });
    it('a failed load can be retried; a refused save keeps the form', () => {
      expect(journey(editInput, [loadFailed]).value).toBe('loadFailed');
      expect(journey(editInput, [loadFailed, { type: 'form.retry' }, loaded]).value).toBe('editing');
      const s = journey(createInput, [change('name', 'a-name-that-is-far-too-long'), submit, refused]);
      expect(s.value).toBe('editing');
      expect(selectForm(s).name).toBe('a-name-that-is-far-too-long');
    });
  });

  it('names the file after the batch and writes one key per line', () => {
    expect(keysFileName('promo')).toBe('promo.txt');
    expect(keysText(keys)).toBe(`${keys[0]}\n${keys[1]}\n`);
    expect(redemptionPayloadOf({ name: ' promo ', quota: '100000', count: '10' }, false)).toEqual({ name: 'promo', quota: 100000, count: 10 });
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(input: RedemptionFormInput, events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      const load = controlled<Redemption, { id: number }>();
      const save = controlled<readonly string[], SaveRedemptionInput>();
      const download = controlled<void, DownloadKeysInput>();
      const copy = controlled<void, { text: string }>();
      const stubs = { loadRedemption: load, saveRedemption: save, downloadKeys: download, copyText: copy };
      return { ...(await replayOn({ machine: redemptionFormMachine, input, stubs }, events, check)), load, save, download, copy };
    }

    for (const input of [createInput, editInput]) {
      it.each(realShortest(input).filter((p) => p.steps.length > 1).map((p) => [describePath(p), p] as const))(
        `${input.id === null ? 'create' : 'edit'}: %s`,
        async (_, p) => {
          await replay(
            input,
            p.steps.map((s) => s.event),
            follows(p),
          );
        },
      );
    }

    it('creates, says so, downloads <name>.txt with one key per line, copies them all', async () => {
      const { emitted, save, download, copy } = await replay(createInput, [
        change('name', 'promo'),
        change('count', '2'),
        submit,
        created,
        downloaded,
        { type: 'keys.copy' },
        copied,
      ]);
      expect(save.calls).toEqual([{ id: null, payload: { name: 'promo', quota: 100000, count: 2 } }]);
      expect(download.calls).toEqual([{ name: 'promo.txt', text: `${keys.join('\n')}\n` }]);
      expect(copy.calls).toEqual([{ text: keys.join('\n') }]);
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'redemptions.form.created' } },
        { type: 'notify', level: 'success', message: { key: 'redemptions.copied' } },
      ]);
    });
    it('an edit saves name and quota, says so and goes back to the list', async () => {
      const { emitted, save, load } = await replay(editInput, [loaded, change('quota', '500'), submit, updated]);
      expect(load.calls).toEqual([{ id: 7 }]);
      expect(save.calls).toEqual([{ id: 7, payload: { name: 'promo', quota: 500 } }]);
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'redemptions.form.updated' } },
        { type: 'navigate', to: '/redemption', replace: false },
      ]);
    });
    it("the name rule warns; a refusal shows the server's message; a failed load the catalogue one", async () => {
      expect((await replay(createInput, [submit])).emitted).toEqual([
        { type: 'notify', level: 'warning', message: { key: 'validation.redemption.nameRequired' } },
      ]);
      expect((await replay(createInput, [change('name', 'x'), submit, refused])).emitted).toEqual([
        { type: 'notify', level: 'error', message: { text: '兑换码名称长度必须在1-20之间' } },
      ]);
      const { emitted } = await replay(editInput, [errorActor('loadRedemption', httpError('loadRedemption', 500, 'Internal Server Error'))]);
      expect(emitted).toEqual([{ type: 'notify', level: 'error', message: { key: 'error.internal' } }]);
    });
    it('every key it emits is in the catalogue', async () => {
      const runs = await Promise.all([
        replay(createInput, [submit, change('name', 'x'), change('count', '101'), submit]),
        replay(createInput, [change('name', 'x'), submit, created, downloaded, { type: 'keys.copy' }, copyFailed, { type: 'keys.copy' }, copied]),
        replay(editInput, [loaded, submit, updated]),
      ]);
      for (const { emitted } of runs)
        for (const e of emitted) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });
});
