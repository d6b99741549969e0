import { assign, emit, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import { msg, notify, type Message, type NotifyEvent } from '../../domain/message';
import type { OptionEntry } from '../../domain/option';
import { editableValueOf } from '../../domain/optionSections';
import {
  groupProblems,
  groupRowsOf,
  jsonProblem,
  modelProblems,
  modelRowsOf,
  newGroupRow,
  newModelRow,
  priceScaleOf,
  ratioJson,
  ratiosOfGroups,
  ratiosOfModels,
  withInput,
  withOutput,
  type GroupRow,
  type ModelRow,
  type PriceScale,
} from '../../domain/priceEditor';
import { parseRatioMap } from '../../domain/ratioPrices';
import type { RatioKey } from '../../domain/validation';

/** The two tables; each is edited as a table or as its options' JSON. */
export type PriceTableId = 'models' | 'groups';
export type PriceEditMode = 'table' | 'json';

export type RatioTexts = Readonly<Record<RatioKey, string>>;

/** One PUT /api/option/ (the option save path of the settings page). */
export interface SavePriceOptionInput {
  readonly key: string;
  readonly value: string;
}

export interface PriceEditorContext {
  /** The three ratio options as the server has them (pretty-printed as the JSON fields show them). */
  readonly baseline: RatioTexts;
  /** The unit prices are shown in (DisplayInCurrencyEnabled, QuotaPerUnit as loaded). */
  readonly scale: PriceScale;
  /** The model table (ModelRatio ∪ CompletionRatio): the truth while `modes.models` is 'table'. */
  readonly models: readonly ModelRow[];
  /** The group table (GroupRatio): the truth while `modes.groups` is 'table'. */
  readonly groups: readonly GroupRow[];
  /** The JSON texts: the truth of a table in 'json' mode. */
  readonly json: RatioTexts;
  readonly modes: Readonly<Record<PriceTableId, PriceEditMode>>;
  /** The model search. */
  readonly search: string;
  /** Numbers the ids of added rows. */
  readonly nextId: number;
  /** The values still to send, in order (saving). */
  readonly queue: readonly (readonly [RatioKey, string])[];
  /** Why the last save failed (saveFailed). */
  readonly error: Message | null;
}

export type PriceEditorEvent =
  | { readonly type: 'options.retry' }
  | { readonly type: 'search.change'; readonly value: string }
  | { readonly type: 'model.add' }
  | { readonly type: 'model.remove'; readonly id: string }
  | { readonly type: 'model.rename'; readonly id: string; readonly value: string }
  | { readonly type: 'price.change'; readonly id: string; readonly field: 'input' | 'output'; readonly value: string }
  | { readonly type: 'group.add' }
  | { readonly type: 'group.remove'; readonly id: string }
  | { readonly type: 'group.rename'; readonly id: string; readonly value: string }
  | { readonly type: 'multiplier.change'; readonly id: string; readonly value: string }
  | { readonly type: 'mode.toggle'; readonly table: PriceTableId }
  | { readonly type: 'json.change'; readonly key: RatioKey; readonly value: string }
  | { readonly type: 'prices.save' };

export type PriceEditorEmitted = NotifyEvent;

export const ratioKeys: readonly RatioKey[] = ['ModelRatio', 'CompletionRatio', 'GroupRatio'];
const keysOf: Readonly<Record<PriceTableId, readonly RatioKey[]>> = { models: ['ModelRatio', 'CompletionRatio'], groups: ['GroupRatio'] };

const emptyTexts: RatioTexts = { ModelRatio: '', CompletionRatio: '', GroupRatio: '' };

type Ctx = Pick<PriceEditorContext, 'baseline' | 'scale' | 'models' | 'groups' | 'json' | 'modes'>;

/** The problems of each table as edited: by cell in table mode, by option key in JSON mode. */
export function problemsOf(context: Ctx): { readonly cells: Readonly<Record<string, Message>>; readonly json: Partial<Record<RatioKey, Message>> } {
  const cells = {
    ...(context.modes.models === 'table' ? modelProblems(context.models, context.scale) : {}),
    ...(context.modes.groups === 'table' ? groupProblems(context.groups) : {}),
  };
  const json: Partial<Record<RatioKey, Message>> = {};
  for (const table of ['models', 'groups'] as const) {
    if (context.modes[table] !== 'json') continue;
    for (const key of keysOf[table]) {
      const p = jsonProblem(key, context.json[key]);
      if (p !== null) json[key] = p;
    }
  }
  return { cells, json };
}

/** The first problem of the page (cells first), or null. */
export function firstProblem(context: Ctx): Message | null {
  const { cells, json } = problemsOf(context);
  return Object.values(cells)[0] ?? Object.values(json)[0] ?? null;
}

/** The three option values the page stands for (meaningful only without problems). */
export function valuesOf(context: Ctx): RatioTexts {
  const out: Record<RatioKey, string> = { ...context.baseline };
  if (context.modes.models === 'table') {
    const { models, completions } = ratiosOfModels(context.models, context.scale);
    out.ModelRatio = ratioJson(models, context.baseline.ModelRatio);
    out.CompletionRatio = ratioJson(completions, context.baseline.CompletionRatio);
  } else {
    out.ModelRatio = context.json.ModelRatio;
    out.CompletionRatio = context.json.CompletionRatio;
  }
  out.GroupRatio = context.modes.groups === 'table' ? ratioJson(ratiosOfGroups(context.groups), context.baseline.GroupRatio) : context.json.GroupRatio;
  return out;
}

/** What saving sends: the changed options, in order ModelRatio, CompletionRatio, GroupRatio. */
export function changesOf(context: Ctx): readonly (readonly [RatioKey, string])[] {
  const values = valuesOf(context);
  return ratioKeys.filter((k) => values[k] !== context.baseline[k]).map((k) => [k, values[k]] as const);
}

/** The tables and texts for `texts`: a table whose JSON does not parse opens as JSON. */
function fromTexts(texts: RatioTexts, scale: PriceScale, modes?: PriceEditorContext['modes']) {
  const models = parseRatioMap(texts.ModelRatio);
  const completions = parseRatioMap(texts.CompletionRatio);
  const groups = parseRatioMap(texts.GroupRatio);
  const modelsOk = models !== null && completions !== null;
  return {
    models: modelsOk ? modelRowsOf(models, completions, scale) : [],
    groups: groups === null ? [] : groupRowsOf(groups),
    json: texts,
    modes: {
      models: modelsOk ? (modes?.models ?? 'table') : 'json',
      groups: groups !== null ? (modes?.groups ?? 'table') : 'json',
    } as const,
  };
}

/** The context for the loaded option list. */
export function loadedContext(entries: readonly OptionEntry[]): Pick<PriceEditorContext, 'baseline' | 'scale' | 'models' | 'groups' | 'json' | 'modes'> {
  const value = (key: string): string => entries.find((e) => e.key === key)?.value ?? '';
  const baseline: RatioTexts = {
    ModelRatio: editableValueOf('ModelRatio', value('ModelRatio')),
    CompletionRatio: editableValueOf('CompletionRatio', value('CompletionRatio')),
    GroupRatio: editableValueOf('GroupRatio', value('GroupRatio')),
  };
  const scale = priceScaleOf(value('DisplayInCurrencyEnabled'), value('QuotaPerUnit'));
  return { baseline, scale, ...fromTexts(baseline, scale) };
}

export const initialPriceEditorContext: PriceEditorContext = {
  baseline: emptyTexts,
  scale: { unit: 'usd', quotaPerUnit: 500000 },
  models: [],
  groups: [],
  json: emptyTexts,
  modes: { models: 'table', groups: 'table' },
  search: '',
  nextId: 1,
  queue: [],
  error: null,
};

const mapRow = <R extends { readonly id: string }>(rows: readonly R[], id: string, f: (r: R) => R): readonly R[] => rows.map((r) => (r.id === id ? f(r) : r));

/**
 * Operation settings → ratios as prices (contract §3.5, §4.6): loads the options, shows
 * ModelRatio and CompletionRatio as a model table of input and output prices per 1M tokens (in
 * dollars or quota, as DisplayInCurrencyEnabled says) and GroupRatio as a table of multipliers;
 * each table can be edited as its options' JSON instead (switching converts, and refuses while
 * the side being left has problems). Problems are computed live, cell by cell; saving refuses
 * while any exists (the first is said), else sends each changed option (PUT /api/option/), one
 * at a time: each stored value becomes the baseline, a failure keeps the edits and says why.
 */
export const priceEditorMachine = setup({
  types: {
    context: {} as PriceEditorContext,
    events: {} as PriceEditorEvent,
    emitted: {} as PriceEditorEmitted,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    listOptions: fromPromise<OptionEntry[]>(() => {
      throw new Error('listOptions not provided');
    }),
    saveOption: fromPromise<void, SavePriceOptionInput>(() => {
      throw new Error('saveOption not provided');
    }),
  },
  guards: {
    hasProblems: ({ context }) => firstProblem(context) !== null,
    hasChanges: ({ context }) => changesOf(context).length > 0,
    hasMoreQueued: ({ context }) => context.queue.length > 1,
    canLeaveMode: ({ context }, params: { table: PriceTableId }) => {
      if (context.modes[params.table] === 'table') {
        const cells = params.table === 'models' ? modelProblems(context.models, context.scale) : groupProblems(context.groups);
        return Object.keys(cells).length === 0;
      }
      return keysOf[params.table].every((k) => jsonProblem(k, context.json[k]) === null);
    },
  },
  actions: {
    takeOptions: assign((_, params: { entries: readonly OptionEntry[] }) => ({ ...loadedContext(params.entries), error: null })),
    setSearch: assign({ search: (_, params: { value: string }) => params.value }),
    addModel: assign(({ context }) => ({ models: [newModelRow(`n${context.nextId}`), ...context.models], nextId: context.nextId + 1 })),
    removeModel: assign({ models: ({ context }, params: { id: string }) => context.models.filter((r) => r.id !== params.id) }),
    renameModel: assign({
      models: ({ context }, params: { id: string; value: string }) => mapRow(context.models, params.id, (r) => ({ ...r, name: params.value })),
    }),
    setPrice: assign({
      models: ({ context }, params: { id: string; field: 'input' | 'output'; value: string }) =>
        mapRow(context.models, params.id, (r) => (params.field === 'input' ? withInput(r, params.value) : withOutput(r, params.value))),
    }),
    addGroup: assign(({ context }) => ({ groups: [...context.groups, newGroupRow(`n${context.nextId}`)], nextId: context.nextId + 1 })),
    removeGroup: assign({ groups: ({ context }, params: { id: string }) => context.groups.filter((r) => r.id !== params.id) }),
    renameGroup: assign({
      groups: ({ context }, params: { id: string; value: string }) => mapRow(context.groups, params.id, (r) => ({ ...r, name: params.value })),
    }),
    setMultiplier: assign({
      groups: ({ context }, params: { id: string; value: string }) => mapRow(context.groups, params.id, (r) => ({ ...r, multiplier: params.value })),
    }),
    setJson: assign({ json: ({ context }, params: { key: RatioKey; value: string }) => ({ ...context.json, [params.key]: params.value }) }),
    /** Table → JSON: the texts become what the table says; JSON → table: the table is rebuilt from the texts. */
    toggleMode: assign(({ context }, params: { table: PriceTableId }) => {
      if (context.modes[params.table] === 'table') {
        const values = valuesOf(context);
        const json = { ...context.json };
        for (const k of keysOf[params.table]) json[k] = values[k];
        return { json, modes: { ...context.modes, [params.table]: 'json' } };
      }
      const rebuilt = fromTexts(context.json, context.scale);
      return params.table === 'models'
        ? { models: rebuilt.models, modes: { ...context.modes, models: 'table' } }
        : { groups: rebuilt.groups, modes: { ...context.modes, groups: 'table' } };
    }),
    notifyModeRefused: emit(({ context }, params: { table: PriceTableId }) => {
      if (context.modes[params.table] === 'table') return notify('error', msg('priceEditor.fixFirst'));
      const p = keysOf[params.table].map((k) => jsonProblem(k, context.json[k])).find((m) => m !== null);
      return notify('error', p ?? msg('priceEditor.fixFirst'));
    }),
    notifyProblem: emit(({ context }) => notify('error', firstProblem(context) ?? msg('priceEditor.fixFirst'))),
    queueChanges: assign(({ context }) => ({ queue: changesOf(context), error: null })),
    /** The first queued value is stored: it becomes its key's baseline. */
    commitFirst: assign(({ context }) => {
      const [first, ...rest] = context.queue;
      if (first === undefined) return {};
      return { baseline: { ...context.baseline, [first[0]]: first[1] }, queue: rest };
    }),
    /** Everything is stored: the tables start again from the saved values (modes and search kept). */
    reloadFromBaseline: assign(({ context }) => {
      const { models, groups, modes } = fromTexts(context.baseline, context.scale, context.modes);
      return { models, groups, modes, json: context.baseline, queue: [] };
    }),
    rememberFailure: assign({ error: (_, params: { error: unknown }) => describeError(params.error).message, queue: [] }),
    clearError: assign({ error: null }),
    notifySaved: emit(() => notify('success', msg('common.success'))),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
  },
}).createMachine({
  id: 'priceEditor',
  context: initialPriceEditorContext,
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'listOptions',
        src: 'listOptions',
        input: undefined,
        onDone: { target: 'open', actions: { type: 'takeOptions', params: ({ event }) => ({ entries: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    loadFailed: {
      on: { 'options.retry': 'loading' },
    },
    /** The tables are shown; edits land in `editing` (leaving `saved` / `saveFailed`). */
    open: {
      initial: 'editing',
      on: {
        'search.change': { actions: { type: 'setSearch', params: ({ event }) => ({ value: event.value }) } },
        'model.add': { target: '.editing', actions: 'addModel' },
        'model.remove': { target: '.editing', actions: { type: 'removeModel', params: ({ event }) => ({ id: event.id }) } },
        'model.rename': { target: '.editing', actions: { type: 'renameModel', params: ({ event }) => ({ id: event.id, value: event.value }) } },
        'price.change': {
          target: '.editing',
          actions: { type: 'setPrice', params: ({ event }) => ({ id: event.id, field: event.field, value: event.value }) },
        },
        'group.add': { target: '.editing', actions: 'addGroup' },
        'group.remove': { target: '.editing', actions: { type: 'removeGroup', params: ({ event }) => ({ id: event.id }) } },
        'group.rename': { target: '.editing', actions: { type: 'renameGroup', params: ({ event }) => ({ id: event.id, value: event.value }) } },
        'multiplier.change': { target: '.editing', actions: { type: 'setMultiplier', params: ({ event }) => ({ id: event.id, value: event.value }) } },
        'json.change': { target: '.editing', actions: { type: 'setJson', params: ({ event }) => ({ key: event.key, value: event.value }) } },
        'mode.toggle': [
          {
            guard: { type: 'canLeaveMode', params: ({ event }) => ({ table: event.table }) },
            actions: { type: 'toggleMode', params: ({ event }) => ({ table: event.table }) },
          },
          { actions: { type: 'notifyModeRefused', params: ({ event }) => ({ table: event.table }) } },
        ],
        'prices.save': [
          { guard: 'hasProblems', target: '.editing', actions: 'notifyProblem' },
          { guard: 'hasChanges', target: 'saving', actions: 'queueChanges' },
        ],
      },
      states: {
        editing: { entry: 'clearError' },
        /** The last save stored everything. */
        saved: {},
        /** The last save failed part-way or at once: the edits are kept, the error is shown. */
        saveFailed: {},
      },
    },
    /** One PUT per changed option, in order; each stored value becomes the baseline. */
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveOption',
        src: 'saveOption',
        input: ({ context }): SavePriceOptionInput => {
          const [key, value] = context.queue[0] ?? ['', ''];
          return { key, value };
        },
        onDone: [
          { guard: 'hasMoreQueued', target: 'saving', reenter: true, actions: 'commitFirst' },
          { target: 'open.saved', actions: ['commitFirst', 'reloadFromBaseline', 'notifySaved'] },
        ],
        onError: {
          target: 'open.saveFailed',
          actions: [
            { type: 'rememberFailure', params: ({ event }) => ({ error: event.error }) },
            { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
  },
});
