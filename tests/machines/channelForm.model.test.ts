import { describe, expect, it } from 'vitest';
import { transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { failure, httpError, networkError } from '../../src/domain/apiError';
import type { Channel, ChannelTypeModels } from '../../src/domain/channel';
import { checkChannelForm, emptyChannelForm, validateChannelForm } from '../../src/domain/channelForm';
import { canBatchCreate } from '../../src/domain/channelTypes';
import { isMessageKey } from '../../src/i18n';
import {
  channelFormMachine,
  isEditingChannel,
  selectCanBatch,
  selectCanSubmit,
  selectForm,
  selectIsBusy,
  selectIsClone,
  selectIsEdit,
  selectIsLoading,
  selectIsSaving,
  selectLoadFailed,
  selectProblem,
  type ChannelFormInput,
  type SaveChannelInput,
} from '../../src/machines/channelForm';
import { controlled } from './support/stubs';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { replay as replayOn, journey as walk } from './support/replay';

type Snap = SnapshotFrom<typeof channelFormMachine>;

const typeModels: ChannelTypeModels = {
  '1': ['gpt-4o', 'gpt-4o-mini'],
  '14': ['claude-3-haiku'],
  '33': ['claude-3-haiku'],
  '34': [],
  '43': null,
};
const catalogue = ['gpt-4o', 'gpt-4o-mini', 'claude-3-haiku', 'gpt-4o'];
const groups = ['default', 'vip', 'svip'];
const stored: Channel = {
  id: 7,
  type: 14,
  name: 'anthropic-main',
  status: 1,
  key: '',
  models: 'claude-3-haiku',
  group: 'default,vip',
  base_url: '',
  other: '',
  model_mapping: '',
  system_prompt: null,
  config: '',
};

const fixtures: EventFixtures<typeof channelFormMachine> = {
  'field.change': [
    { type: 'field.change', field: 'name', value: 'openai-main' },
    { type: 'field.change', field: 'key', value: 'sk-1\nsk-2' },
    { type: 'field.change', field: 'model_mapping', value: '{"gpt-4-0314":' },
    { type: 'field.change', field: 'customModel', value: 'my-model, gpt-4o' },
    { type: 'field.change', field: 'config.ak', value: 'AK' },
    { type: 'field.change', field: 'base_url', value: 'proxy.example.com' },
    { type: 'field.change', field: 'weight', value: '-2' },
    { type: 'field.change', field: 'tagInput', value: 'team-a, a,b' },
  ],
  'type.change': [
    { type: 'type.change', value: 14 },
    { type: 'type.change', value: 33 },
    { type: 'type.change', value: 43 },
  ],
  'models.add': [{ type: 'models.add', model: 'claude-3-haiku' }],
  'models.remove': [{ type: 'models.remove', model: 'gpt-4o' }],
  'models.fillRelated': [{ type: 'models.fillRelated' }],
  'models.fillAll': [{ type: 'models.fillAll' }],
  'models.clear': [{ type: 'models.clear' }],
  'models.addCustom': [{ type: 'models.addCustom' }],
  'groups.change': [{ type: 'groups.change', groups: ['vip', 'vip'] }],
  'tags.add': [{ type: 'tags.add' }],
  'tags.remove': [{ type: 'tags.remove', tag: 'team-a' }],
  'batch.toggle': [{ type: 'batch.toggle' }],
  'form.submit': [{ type: 'form.submit' }],
  'form.retry': [{ type: 'form.retry' }],
  'form.cancel': [{ type: 'form.cancel' }],
};

const channelLoaded = doneActor('loadChannel', stored);
const channelFailed = errorActor('loadChannel', failure('loadChannel', 'record not found'));
const groupsLoaded = doneActor('loadGroups', groups);
const groupsFailed = errorActor('loadGroups', httpError('loadGroups', 500, 'Internal Server Error'));
const typeModelsLoaded = doneActor('loadTypeModels', typeModels);
const typeModelsFailed = errorActor('loadTypeModels', networkError('loadTypeModels', 'Failed to fetch'));
const catalogueLoaded = doneActor('loadCatalogue', catalogue);
const catalogueFailed = errorActor('loadCatalogue', httpError('loadCatalogue', 502, 'Bad Gateway'));
const saved = doneActor('saveChannel');
const refused = errorActor('saveChannel', failure('saveChannel', 'UNIQUE constraint failed: abilities.group'));
const internal = [
  channelLoaded,
  channelFailed,
  groupsLoaded,
  groupsFailed,
  typeModelsLoaded,
  typeModelsFailed,
  catalogueLoaded,
  catalogueFailed,
  saved,
  refused,
];

const createInput: ChannelFormInput = { id: null };
const editInput: ChannelFormInput = { id: 7 };
const cloneInput: ChannelFormInput = { id: 7, clone: true, cloneSuffix: ' (副本)' };
const modeOf = (input: ChannelFormInput): string => (input.id === null ? 'create' : input.clone === true ? 'clone' : 'edit');

/** The graph keeps what matters to the chart, so the editing state space stays small. */
const serializeState = (s: Snap): string => {
  const form = s.context.form;
  return JSON.stringify([
    s.value,
    s.status,
    form.type,
    form.batch,
    form.models.length > 0,
    validateChannelForm(form, isEditingChannel(s.context)).ok,
    s.context.problem !== null,
  ]);
};
/** Simple paths need a coarser graph: the chart state, whether the form would pass, a shown problem. */
const serializeCoarse = (s: Snap): string =>
  JSON.stringify([s.value, s.status, validateChannelForm(s.context.form, isEditingChannel(s.context)).ok, s.context.problem !== null]);
const modelOf = (input: ChannelFormInput) => ({ fixtures, internal, input, serializeState });
/** One fixture per event type: every kind of edge is still walked, and the path count stays bounded. */
const firstFixtures = Object.fromEntries(
  Object.entries(fixtures).map(([type, list]) => [type, (list as readonly AnyEventObject[]).slice(0, 1)]),
) as unknown as EventFixtures<typeof channelFormMachine>;
const coarseModelOf = (input: ChannelFormInput) => ({ fixtures: firstFixtures, internal, input, serializeState: serializeCoarse });
const realShortest = (input: ChannelFormInput) => shortestPaths(channelFormMachine, modelOf(input)).filter(isRealistic);

function journey(input: ChannelFormInput, events: readonly AnyEventObject[]): Snap {
  return walk(channelFormMachine, input, events);
}
const loadedNew = [groupsLoaded, typeModelsLoaded, catalogueLoaded];
const loadedEdit = [channelLoaded, ...loadedNew];
const change = (
  field: 'name' | 'key' | 'model_mapping' | 'customModel' | 'config.ak' | 'config.sk' | 'config.region' | 'base_url' | 'weight' | 'tagInput',
  value: string,
) => ({
  type: 'field.change',
  field,
  value,
});
const submit = { type: 'form.submit' };

describe('channelForm model', () => {
  it('reaches every state (create, edit and clone together)', () => {
    const paths = [...realShortest(createInput), ...realShortest(editInput), ...realShortest(cloneInput)];
    // eventless choices of the form machine, never at rest: `starting` and the channel region's `choosing`
    // the 401 recovery (awaitingSession, resaving, left) is the generic form machine's: with a session
    // and its sign-in dialog it is walked in form.model.test.ts
    expect(unreachedStates(channelFormMachine, paths)).toEqual(['starting', 'loading.channel.choosing', 'awaitingSession', 'resaving', 'left']);
  });

  it.each([
    ['create', createInput],
    ['edit', editInput],
    ['clone', cloneInput],
  ] as const)('keeps its invariants on every simple path (%s)', (_, input) => {
    const paths = simplePaths(channelFormMachine, coarseModelOf(input)).filter(isRealistic);
    expect(paths.length).toBeGreaterThan(0);
    const isEdit = modeOf(input) === 'edit';
    const loadsChannel = input.id !== null;
    for (const p of paths) {
      for (const s of snapshotsOf(p)) {
        const children = Object.keys(s.children).sort();
        if (s.matches('loading')) {
          const allowed = loadsChannel ? ['loadCatalogue', 'loadChannel', 'loadGroups', 'loadTypeModels'] : ['loadCatalogue', 'loadGroups', 'loadTypeModels'];
          for (const c of children) expect(allowed).toContain(c);
          expect(children.length).toBeGreaterThan(0);
        } else if (s.matches('saving')) expect(children).toEqual(['saveChannel']);
        else expect(children).toEqual([]);
        expect(selectIsEdit(s)).toBe(isEdit);
        expect(selectIsClone(s)).toBe(modeOf(input) === 'clone');
        expect(selectIsBusy(s)).toBe(s.matches('loading') || s.matches('saving'));
        expect(selectIsLoading(s)).toBe(s.matches('loading'));
        expect(selectIsSaving(s)).toBe(s.matches('saving') || s.matches('saved'));
        expect(selectLoadFailed(s)).toBe(s.matches('loadFailed'));
        expect(selectCanSubmit(s)).toBe(s.matches('editing'));
        // only an edit or a clone can fail to load (the channel); the lists are tolerant
        if (!loadsChannel) expect(s.matches('loadFailed')).toBe(false);
        const form = selectForm(s);
        // batch only when creating and not type 33; never a model or group twice
        if (form.batch) expect(canBatchCreate(isEdit, form.type)).toBe(true);
        expect(selectCanBatch(s)).toBe(canBatchCreate(isEdit, form.type));
        expect(new Set(form.models).size).toBe(form.models.length);
        expect(new Set(form.groups).size).toBe(form.groups.length);
        // a broken rule is shown only while editing, and only a rule the form really breaks
        // and it names the field the rules point at
        const problem = selectProblem(s);
        if (problem !== null) {
          expect(s.matches('editing')).toBe(true);
          expect(validateChannelForm(form, isEdit).ok).toBe(false);
          expect(problem).toEqual(checkChannelForm(form, isEdit));
        }
        // a save starts only from a valid form
        if (s.matches('saving')) expect(validateChannelForm(form, isEdit).ok).toBe(true);
        expect(s.status).toBe(s.matches('saved') ? 'done' : 'active');
      }
    }
  });

  describe('pinned journeys', () => {
    it('a new channel starts with type 1 and its default models, in the default group', () => {
      const s = journey(createInput, loadedNew);
      expect(s.value).toBe('editing');
      expect(selectForm(s)).toEqual({ ...emptyChannelForm, models: ['gpt-4o', 'gpt-4o-mini'] });
      expect(s.context.catalogue).toEqual(['gpt-4o', 'gpt-4o-mini', 'claude-3-haiku']);
      expect(s.context.groupOptions).toEqual(groups);
    });
    it('the loads finish in any order; failed lists still open the form', () => {
      const s = journey(createInput, [catalogueFailed, typeModelsFailed, groupsFailed]);
      expect(s.value).toBe('editing');
      expect(selectForm(s).models).toEqual([]);
      expect(s.context.catalogue).toEqual([]);
    });
    it('an edit loads the channel into the form', () => {
      const s = journey(editInput, [typeModelsLoaded, channelLoaded, catalogueLoaded, groupsLoaded]);
      expect(s.value).toBe('editing');
      expect(selectForm(s)).toMatchObject({ type: 14, name: 'anthropic-main', key: '', models: ['claude-3-haiku'], groups: ['default', 'vip'] });
    });
    it('a failed channel load stops the page; retry loads again', () => {
      expect(journey(editInput, [groupsLoaded, channelFailed]).value).toBe('loadFailed');
      const s = journey(editInput, [channelFailed, { type: 'form.retry' }, ...loadedEdit]);
      expect(s.value).toBe('editing');
      expect(selectForm(s).name).toBe('anthropic-main');
    });
    it('an empty name is refused with the spec message and the form stays', () => {
      const s = journey(createInput, [...loadedNew, change('key', 'sk-1'), submit]);
      expect(s.value).toBe('editing');
      expect(selectProblem(s)).toEqual({ field: 'name', message: { key: 'validation.channel.nameAndKeyRequired' } });
      // changing the form clears the shown problem
      expect(selectProblem(transition(channelFormMachine, s, change('name', 'x') as never)[0])).toBeNull();
    });
    it('a bad base URL and a negative weight are refused at their fields', () => {
      const base = [...loadedNew, change('name', 'n'), change('key', 'k')];
      expect(selectProblem(journey(createInput, [...base, change('base_url', 'proxy.example.com'), submit]))?.field).toBe('base_url');
      expect(selectProblem(journey(createInput, [...base, change('weight', '-1'), submit]))?.field).toBe('weight');
      const ok = journey(createInput, [...base, change('base_url', 'https://proxy.example.com/'), change('weight', '3'), submit]);
      expect(ok.value).toBe('saving');
    });
    it('a clone loads the channel as a new one: name suffixed, key empty and required', () => {
      const s = journey(cloneInput, loadedEdit);
      expect(s.value).toBe('editing');
      expect(selectIsEdit(s)).toBe(false);
      expect(selectIsClone(s)).toBe(true);
      expect(selectForm(s)).toMatchObject({ name: 'anthropic-main (副本)', key: '', groups: ['default', 'vip'] });
      expect(selectCanBatch(s)).toBe(true);
      const refused = transition(channelFormMachine, s, submit as never)[0];
      expect(refused.value).toBe('editing');
      expect(selectProblem(refused)?.field).toBe('key');
      expect(transition(channelFormMachine, journey(cloneInput, [...loadedEdit, change('key', 'sk-new')]), submit as never)[0].value).toBe('saving');
    });
    it('no models, then a bad mapping, are refused in that order', () => {
      const base = [...loadedNew, change('name', 'n'), change('key', 'k'), { type: 'models.clear' }];
      expect(selectProblem(journey(createInput, [...base, submit]))).toEqual({ field: 'models', message: { key: 'validation.channel.modelsRequired' } });
      const s = journey(createInput, [...base, { type: 'models.fillRelated' }, change('model_mapping', '{'), submit]);
      expect(selectProblem(s)).toEqual({ field: 'model_mapping', message: { key: 'validation.channel.modelMappingInvalid' } });
    });
    it('type 43 needs no models; type 33 builds its key from the parts and cannot batch', () => {
      const proxy = journey(createInput, [...loadedNew, change('name', 'p'), change('key', 'k'), { type: 'models.clear' }, { type: 'type.change', value: 43 }, submit]);
      expect(proxy.value).toBe('saving');
      const aws = journey(createInput, [
        ...loadedNew,
        { type: 'batch.toggle' },
        { type: 'type.change', value: 33 },
        { type: 'batch.toggle' },
        change('name', 'aws'),
        change('config.ak', 'AK'),
        change('config.sk', 'SK'),
        change('config.region', 'us-east-1'),
        submit,
      ]);
      expect(aws.value).toBe('saving');
      expect(selectForm(aws).batch).toBe(false);
    });
    it('model tools: custom names, fill all, remove, clear', () => {
      const s = journey(createInput, [...loadedNew, { type: 'models.clear' }, change('customModel', 'a, b a'), { type: 'models.addCustom' }]);
      expect(selectForm(s)).toMatchObject({ models: ['a', 'b'], customModel: '' });
      const all = transition(channelFormMachine, s, { type: 'models.fillAll' })[0];
      expect(selectForm(all).models).toEqual(['a', 'b', 'gpt-4o', 'gpt-4o-mini', 'claude-3-haiku']);
      expect(selectForm(transition(channelFormMachine, all, { type: 'models.remove', model: 'a' })[0]).models).not.toContain('a');
    });
    it('a type change keeps chosen models and fills defaults only into an empty list', () => {
      const kept = journey(createInput, [...loadedNew, { type: 'type.change', value: 14 }]);
      expect(selectForm(kept).models).toEqual(['gpt-4o', 'gpt-4o-mini']);
      const filled = journey(createInput, [...loadedNew, { type: 'models.clear' }, { type: 'type.change', value: 14 }]);
      expect(selectForm(filled).models).toEqual(['claude-3-haiku']);
    });
    it('a refused save keeps the form', () => {
      const s = journey(editInput, [...loadedEdit, change('name', 'renamed'), submit, refused]);
      expect(s.value).toBe('editing');
      expect(selectForm(s).name).toBe('renamed');
    });
    it('a save ends the machine', () => {
      const s = journey(editInput, [...loadedEdit, submit, saved]);
      expect(s.value).toBe('saved');
      expect(s.status).toBe('done');
    });
    it('the batch option is not offered when editing', () => {
      expect(selectForm(journey(editInput, [...loadedEdit, { type: 'batch.toggle' }])).batch).toBe(false);
    });
  });

  describe('tags', () => {
    it('typed tags become chips; a bad one stays typed and stops the save with its reason', () => {
      const added = journey(createInput, [...loadedNew, change('tagInput', ' team-a ,prod,team-a'), { type: 'tags.add' }]);
      expect(added.context.form.tags).toEqual(['team-a', 'prod']);
      expect(added.context.form.tagInput).toBe('');
      const bad = journey(createInput, [...loadedNew, change('name', 'n'), change('key', 'k'), change('tagInput', 'ok, a-very-long-tag-that-is-longer-than-32'), { type: 'tags.add' }]);
      expect(bad.context.form.tags).toEqual(['ok']);
      expect(bad.context.form.tagInput).toBe('a-very-long-tag-that-is-longer-than-32');
      expect(checkChannelForm(bad.context.form, false)).toEqual({
        field: 'tagInput',
        message: { key: 'validation.channel.tag.tooLong', params: { tag: 'a-very-long-tag-that-is-longer-than-32', max: 32 } },
      });
      const many = { ...bad.context.form, tagInput: '', tags: Array.from({ length: 17 }, (_, i) => `t${String(i)}`) };
      expect(checkChannelForm(many, false)?.message).toEqual({ key: 'validation.channel.tag.tooMany', params: { max: 16, count: 17 } });
    });
  });

  describe('replay on a real actor with stub actors', () => {
    async function replay(input: ChannelFormInput, events: readonly AnyEventObject[], check?: (i: number, s: Snap) => void) {
      const stubs = {
        loadChannel: controlled<Channel, { id: number }>(),
        loadGroups: controlled<readonly string[], unknown>(),
        loadTypeModels: controlled<ChannelTypeModels, unknown>(),
        loadCatalogue: controlled<readonly string[], unknown>(),
        saveChannel: controlled<void, SaveChannelInput>(),
      };
      return { ...(await replayOn({ machine: channelFormMachine, input, stubs }, events, check)), stubs };
    }

    const cases = (input: ChannelFormInput) =>
      realShortest(input)
        .filter((p) => p.steps.length > 1)
        .map((p) => [`${modeOf(input)}: ${describePath(p)}`, input, p] as const);

    it.each([...cases(createInput), ...cases(editInput), ...cases(cloneInput)])('%s', async (_, input, p) => {
      await replay(
        input,
        p.steps.map((s) => s.event),
        (i, s) => {
          // the graph merges snapshots with the same serialisation, so compare what it keeps
          expect(s.value).toEqual(p.steps[i]!.state.value);
          expect(serializeState(s)).toBe(serializeState(p.steps[i]!.state));
        },
      );
    });

    it('creates: posts the payload, says so and goes back to the list', async () => {
      const { emitted, stubs } = await replay(createInput, [
        ...loadedNew,
        change('name', 'openai-main'),
        { type: 'batch.toggle' },
        change('key', 'sk-1\n\nsk-2\n'),
        { type: 'groups.change', groups: ['default', 'vip'] },
        change('tagInput', ' team-a, prod '),
        { type: 'tags.add' },
        change('tagInput', 'team-a, x,y'),
        { type: 'tags.remove', tag: 'prod' },
        submit,
        saved,
      ]);
      expect(stubs.loadChannel.calls).toEqual([]);
      expect(stubs.saveChannel.calls).toEqual([
        {
          id: null,
          payload: {
            type: 1,
            name: 'openai-main',
            key: 'sk-1\nsk-2',
            base_url: '',
            other: '',
            models: 'gpt-4o,gpt-4o-mini',
            group: 'default,vip',
            model_mapping: '',
            system_prompt: '',
            config: '{}',
            weight: 0,
            // the chips, plus what is still typed (each once)
            tags: ['team-a', 'x', 'y'],
          },
        },
      ]);
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'channelForm.created' } },
        { type: 'navigate', to: '/channel', replace: false },
      ]);
    });

    it('updates: loads by id, puts with the id, says so', async () => {
      const { emitted, stubs } = await replay(editInput, [...loadedEdit, submit, saved]);
      expect(stubs.loadChannel.calls).toEqual([{ id: 7 }]);
      expect(stubs.saveChannel.calls[0]).toMatchObject({ id: 7, payload: { key: '', name: 'anthropic-main', group: 'default,vip' } });
      expect(emitted[0]).toEqual({ type: 'notify', level: 'success', message: { key: 'channelForm.updated' } });
    });

    it('clones: loads channel 7, posts a new channel (no id) with the copied settings, never puts', async () => {
      const { emitted, stubs } = await replay(cloneInput, [...loadedEdit, change('key', 'sk-new'), change('weight', '9'), submit, saved]);
      expect(stubs.loadChannel.calls).toEqual([{ id: 7 }]);
      expect(stubs.saveChannel.calls).toHaveLength(1);
      expect(stubs.saveChannel.calls[0]).toMatchObject({
        id: null,
        payload: { type: 14, name: 'anthropic-main (副本)', key: 'sk-new', group: 'default,vip', weight: 9 },
      });
      expect(emitted).toEqual([
        { type: 'notify', level: 'success', message: { key: 'channelForm.created' } },
        { type: 'navigate', to: '/channel', replace: false },
      ]);
    });

    it('says what the failed loads and refused saves are', async () => {
      const lists = await replay(createInput, [groupsFailed, typeModelsFailed, catalogueFailed]);
      expect(lists.snapshot.value).toBe('editing');
      expect(lists.emitted.map((e) => e.type === 'notify' && e.level)).toEqual(['warning', 'warning', 'warning']);
      const refusal = await replay(createInput, [...loadedNew, change('name', 'n'), change('key', 'k'), submit, refused]);
      expect(refusal.emitted).toEqual([
        { type: 'notify', level: 'error', message: { text: 'UNIQUE constraint failed: abilities.group' } },
      ]);
      // a broken rule is shown at its field only: no toast
      const invalid = await replay(createInput, [...loadedNew, submit]);
      expect(invalid.emitted).toEqual([]);
      expect(invalid.snapshot.context.problem).toEqual({ field: 'name', message: { key: 'validation.channel.nameAndKeyRequired' } });
    });

    it('cancel goes back to the list from any state', async () => {
      for (const events of [[], [channelFailed], loadedEdit]) {
        const { emitted } = await replay(editInput, [...events, { type: 'form.cancel' }]);
        expect(emitted.at(-1)).toEqual({ type: 'navigate', to: '/channel', replace: false });
      }
    });

    it('every key it emits is in the catalogue', async () => {
      const runs = [
        await replay(createInput, [groupsFailed, typeModelsFailed, catalogueFailed, submit]),
        await replay(createInput, [...loadedNew, change('name', 'n'), change('key', 'k'), submit, saved]),
        await replay(editInput, [...loadedEdit, submit, saved]),
      ];
      for (const { emitted } of runs)
        for (const e of emitted) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key), e.message.key).toBe(true);
    });
  });
});
