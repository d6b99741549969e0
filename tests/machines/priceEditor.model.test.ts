import { describe, expect, it } from 'vitest';
import type { AnyEventObject, SnapshotFrom } from 'xstate';
import { failure } from '../../src/domain/apiError';
import type { OptionEntry } from '../../src/domain/option';
import { isMessageKey, renderMessage } from '../../src/i18n';
import {
  changesOf,
  firstProblem,
  priceEditorMachine,
  selectHasChanges,
  selectIsLoading,
  selectIsSaved,
  selectIsSaving,
  selectLoadFailed,
  selectProblemCount,
  selectSaveError,
  selectShownModels,
  type PriceEditorEvent,
  type SavePriceOptionInput,
} from '../../src/machines/priceEditor';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { controlled } from './support/stubs';
import { journey as walk, pathOf, replay, replayPath } from './support/replay';

type Snap = SnapshotFrom<typeof priceEditorMachine>;
type Ev<T extends PriceEditorEvent['type']> = Extract<PriceEditorEvent, { type: T }>;

const entries: OptionEntry[] = [
  { key: 'ModelRatio', value: '{"gpt-4o":2.5,"openrouter/auto":-500000}' },
  { key: 'CompletionRatio', value: '{"gpt-4o":4}' },
  { key: 'GroupRatio', value: '{"default":1,"vip":0.5}' },
  { key: 'QuotaPerUnit', value: '500000' },
  { key: 'DisplayInCurrencyEnabled', value: 'true' },
];
const loaded = doneActor('listOptions', entries);
const loadRefused = errorActor('listOptions', failure('listOptions', '无权进行此操作'));
const stored = doneActor('saveOption');
const serverMessage = 'ModelRatio 必须是 JSON 对象，值为非负数（gpt-4o 不是）';
const refused = errorActor('saveOption', failure('saveOption', serverMessage));

// rows after loading: m0 gpt-4o ($5 in, $20 out), m1 openrouter/auto; groups g0 default, g1 vip
const price = (id: string, field: 'input' | 'output', value: string): Ev<'price.change'> => ({ type: 'price.change', id, field, value });
const cheaper = price('m0', 'input', '6');
const negative = price('m0', 'input', '-1');
const output = price('m0', 'output', '30');
const addModel = { type: 'model.add' } as const;
const nameNew = { type: 'model.rename', id: 'n1', value: 'gpt-new' } as const;
const removeAuto = { type: 'model.remove', id: 'm1' } as const;
const rename = { type: 'model.rename', id: 'm0', value: 'gpt-4o-2' } as const;
const addGroup = { type: 'group.add' } as const;
const removeVip = { type: 'group.remove', id: 'g1' } as const;
const renameVip = { type: 'group.rename', id: 'g1', value: 'svip' } as const;
const multiplier = { type: 'multiplier.change', id: 'g0', value: '2' } as const;
const badMultiplier = { type: 'multiplier.change', id: 'g0', value: 'abc' } as const;
const toggleModels = { type: 'mode.toggle', table: 'models' } as const;
const toggleGroups = { type: 'mode.toggle', table: 'groups' } as const;
const brokenJson = { type: 'json.change', key: 'ModelRatio', value: '{"gpt-4":' } as const;
const groupJson = { type: 'json.change', key: 'GroupRatio', value: '{"default":1,"svip":3}' } as const;
const search = { type: 'search.change', value: 'GPT' } as const;
const save = { type: 'prices.save' } as const;
const retry = { type: 'options.retry' } as const;

const fixtures: EventFixtures<typeof priceEditorMachine> = {
  'options.retry': [retry],
  'search.change': [search],
  'model.add': [addModel],
  'model.remove': [removeAuto],
  'model.rename': [rename, nameNew],
  'price.change': [cheaper, negative, output],
  'group.add': [addGroup],
  'group.remove': [removeVip],
  'group.rename': [renameVip],
  'multiplier.change': [multiplier, badMultiplier],
  'mode.toggle': [toggleModels, toggleGroups],
  'json.change': [brokenJson, groupJson],
  'prices.save': [save],
};
const internal = [loaded, loadRefused, stored, refused];
/** States told apart by what matters (the value, the modes, problems, changes, the queue): the edits themselves are many. */
const serializeState = (s: Snap) =>
  JSON.stringify([s.value, s.context.modes, firstProblem(s.context) !== null, changesOf(s.context).length, s.context.queue.length]);
const model = { fixtures, internal, serializeState };

const journey = (events: readonly AnyEventObject[]): Snap => walk(priceEditorMachine, undefined, events);
/**
 * The coarse serialisation merges states whose edits differ, so a traversed path's snapshots are
 * those of its first visits: each path is walked again, event by event, before it is checked.
 */
const rewalk = (p: { readonly steps: readonly { readonly event: AnyEventObject }[] }) =>
  pathOf(
    priceEditorMachine,
    undefined,
    p.steps.slice(1).map((step) => step.event),
  );
const realShortest = () => shortestPaths(priceEditorMachine, model).map(rewalk).filter(isRealistic);

/** The input the (unstarted) save actor of a snapshot was created with. */
const saveInput = (s: Snap): SavePriceOptionInput | undefined => {
  const child = (s.children as Record<string, { getSnapshot(): { input?: unknown } } | undefined>).saveOption;
  return child?.getSnapshot().input as SavePriceOptionInput | undefined;
};

describe('priceEditor model', () => {
  it('loads, then shows the tables with nothing changed', () => {
    expect(selectIsLoading(journey([]))).toBe(true);
    const s = journey([loaded]);
    expect(s.value).toEqual({ open: 'editing' });
    expect(s.context.models.map((r) => [r.name, r.input, r.output])).toEqual([
      ['gpt-4o', '5', '20'],
      ['openrouter/auto', '-1000000', '-1000000'],
    ]);
    expect(selectHasChanges(s)).toBe(false);
    expect(selectProblemCount(s)).toBe(0);
  });

  it('reaches every state', () => {
    const paths = realShortest();
    expect(unreachedStates(priceEditorMachine, paths as never)).toEqual([]);
    const saving = paths.find((p) => p.state.matches('saving'))!;
    expect(describePath(saving)).toMatch(/^xstate\.init → xstate\.done\.actor\.listOptions → .+ → prices\.save$/);
  });

  it('keeps its invariants on every simple path', () => {
    // simple paths multiply fast: a few edits, the save and the answers are enough for the invariants
    const few: EventFixtures<typeof priceEditorMachine> = {
      'options.retry': [retry],
      'search.change': [],
      'model.add': [],
      'model.remove': [],
      'model.rename': [],
      'price.change': [cheaper, negative],
      'group.add': [],
      'group.remove': [],
      'group.rename': [],
      'multiplier.change': [],
      'mode.toggle': [toggleModels],
      'json.change': [],
      'prices.save': [save],
    };
    const paths = simplePaths(priceEditorMachine, { fixtures: few, internal, serializeState }).map(rewalk).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(10);
    for (const p of paths) {
      const snaps = snapshotsOf(p);
      for (const [i, s] of snaps.entries()) {
        expect(s.status).toBe('active');
        expect((s.children as Record<string, unknown>).saveOption !== undefined).toBe(s.matches('saving'));
        expect(selectIsSaving(s)).toBe(s.matches('saving'));
        expect(selectLoadFailed(s)).toBe(s.matches('loadFailed'));
        expect(selectIsSaved(s)).toBe(s.matches({ open: 'saved' }));
        expect(selectSaveError(s) !== null).toBe(s.matches({ open: 'saveFailed' }));
        if (i === 0) continue;
        const prev = snaps[i - 1]!;
        const e = p.steps[i]!.event;
        // a save starts only from a page without problems, with changes, sending exactly them
        if (s.matches('saving') && !prev.matches('saving')) {
          expect(e).toEqual(save);
          expect(firstProblem(prev.context)).toBeNull();
          expect(s.context.queue).toEqual(changesOf(prev.context));
          expect(saveInput(s)).toEqual({ key: s.context.queue[0]![0], value: s.context.queue[0]![1] });
        }
        // a save refused for problems changes nothing
        if (e.type === 'prices.save' && firstProblem(prev.context) !== null) {
          expect(s.context).toEqual(prev.context);
          expect(s.matches('saving')).toBe(false);
        }
        // the baseline moves only with the server's answer
        if (JSON.stringify(s.context.baseline) !== JSON.stringify(prev.context.baseline)) {
          expect([loaded.type, stored.type]).toContain(e.type);
        }
        // after everything is stored, nothing is left to save
        if (s.matches({ open: 'saved' }) && !prev.matches({ open: 'saved' })) expect(changesOf(s.context)).toEqual([]);
      }
    }
  });

  describe('pinned journeys', () => {
    it('a typed input price is saved as its ModelRatio; the output follows; saved, nothing left', () => {
      const busy = journey([loaded, cheaper, save]);
      expect(busy.value).toBe('saving');
      expect(busy.context.models[0]!.output).toBe('24');
      expect(saveInput(busy)).toEqual({ key: 'ModelRatio', value: '{\n  "gpt-4o": 3,\n  "openrouter/auto": -500000\n}' });
      const done = journey([loaded, cheaper, save, stored]);
      expect(done.value).toEqual({ open: 'saved' });
      expect(selectHasChanges(done)).toBe(false);
      expect(done.context.models[0]).toMatchObject({ name: 'gpt-4o', input: '6', output: '24' });
    });

    it('a typed output price saves ModelRatio, then CompletionRatio, one after the other', () => {
      const s = journey([loaded, cheaper, output, save]);
      expect(s.context.queue.map(([k]) => k)).toEqual(['ModelRatio', 'CompletionRatio']);
      const second = journey([loaded, cheaper, output, save, stored]);
      expect(second.value).toBe('saving');
      expect(saveInput(second)).toEqual({ key: 'CompletionRatio', value: '{\n  "gpt-4o": 5\n}' });
      expect(journey([loaded, cheaper, output, save, stored, stored]).value).toEqual({ open: 'saved' });
    });

    it('a negative price marks its cell and saves nothing', () => {
      const s = journey([loaded, negative, save]);
      expect(s.value).toEqual({ open: 'editing' });
      expect(renderMessage('zh', firstProblem(s.context)!)).toBe('gpt-4o 的输入价格不能为负数');
      expect(s.context.queue).toEqual([]);
    });

    it('a failure keeps the edits and says why; the next edit clears the message', () => {
      const s = journey([loaded, cheaper, save, refused]);
      expect(s.value).toEqual({ open: 'saveFailed' });
      expect(renderMessage('zh', selectSaveError(s)!)).toBe(serverMessage);
      expect(selectHasChanges(s)).toBe(true);
      expect(selectSaveError(journey([loaded, cheaper, save, refused, output]))).toBeNull();
    });

    it('JSON mode keeps table edits and back; broken JSON cannot go back to the table', () => {
      const json = journey([loaded, cheaper, toggleModels]);
      expect(json.context.modes.models).toBe('json');
      expect(JSON.parse(json.context.json.ModelRatio)).toEqual({ 'gpt-4o': 3, 'openrouter/auto': -500000 });
      const table = journey([loaded, cheaper, toggleModels, toggleModels]);
      expect(table.context.modes.models).toBe('table');
      expect(table.context.models[0]).toMatchObject({ name: 'gpt-4o', input: '6', output: '24' });
      const stuck = journey([loaded, toggleModels, brokenJson, toggleModels]);
      expect(stuck.context.modes.models).toBe('json');
      expect(renderMessage('zh', firstProblem(stuck.context)!)).toBe('模型倍率不是合法的 JSON 字符串');
      // a table with problems cannot become JSON
      expect(journey([loaded, negative, toggleModels]).context.modes.models).toBe('table');
    });

    it('group edits: rename, multiplier, removal, JSON', () => {
      const s = journey([loaded, renameVip, multiplier, save]);
      expect(saveInput(s)).toEqual({ key: 'GroupRatio', value: '{\n  "default": 2,\n  "svip": 0.5\n}' });
      expect(journey([loaded, removeVip, save]).context.queue).toEqual([['GroupRatio', '{\n  "default": 1\n}']]);
      expect(journey([loaded, toggleGroups, groupJson, save]).context.queue).toEqual([['GroupRatio', groupJson.value]]);
      expect(journey([loaded, badMultiplier, save]).value).toEqual({ open: 'editing' });
    });

    it('an added model needs a name and both prices; search keeps it in view', () => {
      const s = journey([loaded, addModel, save]);
      expect(s.value).toEqual({ open: 'editing' });
      expect(Object.keys(firstProblem(s.context) ?? {})).not.toHaveLength(0);
      const named = journey([loaded, addModel, nameNew, price('n1', 'input', '1'), price('n1', 'output', '2'), search, save]);
      expect(selectShownModels(named).map((r) => r.name)).toEqual(['gpt-new', 'gpt-4o']);
      expect(named.context.queue.map(([k]) => k)).toEqual(['ModelRatio', 'CompletionRatio']);
      expect(JSON.parse(named.context.queue[0]![1])).toEqual({ 'gpt-new': 0.5, 'gpt-4o': 2.5, 'openrouter/auto': -500000 });
    });

    it('nothing changed: save does nothing; a failed load offers a retry', () => {
      expect(journey([loaded, save]).value).toEqual({ open: 'editing' });
      expect(journey([loadRefused]).value).toBe('loadFailed');
      expect(journey([loadRefused, retry]).value).toBe('loading');
    });
  });

  describe('replay on a real actor with stub actors', () => {
    const stubs = () => ({ listOptions: controlled<OptionEntry[], void>(), saveOption: controlled<void, SavePriceOptionInput>() });
    const chosen = [
      ...realShortest().filter((p) => p.steps.length > 1),
      pathOf(priceEditorMachine, undefined, [loaded, negative, save, cheaper, output, save, stored, refused, rename, save, stored]),
    ];
    it.each(chosen.map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      expect(isRealistic(p)).toBe(true);
      await replayPath({ machine: priceEditorMachine, stubs: stubs() }, p);
    });

    it('sends the changed options through saveOption and says the result', async () => {
      const s = stubs();
      const { emitted } = await replay({ machine: priceEditorMachine, stubs: s }, [loaded, negative, save, cheaper, save, stored]);
      expect(s.saveOption.calls).toEqual([{ key: 'ModelRatio', value: '{\n  "gpt-4o": 3,\n  "openrouter/auto": -500000\n}' }]);
      expect(emitted.map((e) => e.level)).toEqual(['error', 'success']);
      expect(renderMessage('zh', emitted[0]!.message)).toBe('gpt-4o 的输入价格不能为负数');
      for (const e of emitted) if ('key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });

  it('has no named delays (nothing to time)', () => {
    expect(Object.keys(priceEditorMachine.implementations.delays)).toEqual([]);
  });
});
