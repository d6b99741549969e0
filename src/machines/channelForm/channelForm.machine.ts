import { assign, emit, fromPromise, setup } from 'xstate';
import { describeApiError, type ApiError } from '../../domain/apiError';
import type { Channel, ChannelPayload, ChannelTypeModels } from '../../domain/channel';
import {
  addCustomModels,
  addModel,
  changeType,
  channelPayloadOf,
  clearModels,
  emptyChannelForm,
  fillAll,
  fillRelated,
  formOfChannel,
  modelsOfType,
  removeModel,
  setChannelField,
  validateChannelForm,
  type ChannelForm,
  type ChannelFormField,
} from '../../domain/channelForm';
import { canBatchCreate } from '../../domain/channelTypes';
import { msg, navigate, notify, type Message, type MessageKey, type NavigateEvent, type NotifyEvent } from '../../domain/message';

/** `/channel/edit/:id` gives the id; `/channel/add` gives null. */
export interface ChannelFormInput {
  readonly id: number | null;
}

export interface ChannelFormContext {
  readonly id: number | null;
  readonly form: ChannelForm;
  /** Group names from `GET /api/group/` (empty when that call failed). */
  readonly groupOptions: readonly string[];
  /** Channel type (string key) to its default models, from `GET /api/models`. */
  readonly typeModels: ChannelTypeModels;
  /** Model names of `GET /api/channel/models`, each once. */
  readonly catalogue: readonly string[];
  /** The rule the last submit broke (shown beside the button until the form changes). */
  readonly problem: Message | null;
}

export type ChannelFormEvent =
  | { readonly type: 'field.change'; readonly field: ChannelFormField; readonly value: string }
  | { readonly type: 'type.change'; readonly value: number }
  | { readonly type: 'models.add'; readonly model: string }
  | { readonly type: 'models.remove'; readonly model: string }
  | { readonly type: 'models.fillRelated' }
  | { readonly type: 'models.fillAll' }
  | { readonly type: 'models.clear' }
  | { readonly type: 'models.addCustom' }
  | { readonly type: 'groups.change'; readonly groups: readonly string[] }
  | { readonly type: 'batch.toggle' }
  | { readonly type: 'form.submit' }
  | { readonly type: 'form.retry' }
  | { readonly type: 'form.cancel' };

export type ChannelFormEmitted = NotifyEvent | NavigateEvent;

/** `saveChannel`: POST /api/channel/ when `id` is null, else PUT /api/channel/ with the id. */
export interface SaveChannelInput {
  readonly id: number | null;
  readonly payload: ChannelPayload;
}

/** Where the form goes after a save or a cancel. */
export const channelListPath = '/channel';

const isEditOf = (context: { readonly id: number | null }): boolean => context.id !== null;

/**
 * The channel form (/channel/add, /channel/edit/:id). Loading runs in parallel: the channel
 * (edit only; its failure stops the page with a retry), the groups, the per-type default models
 * and the model catalogue (these three are tolerant: a failure says so and the form still
 * opens). A new channel starts with its type's default models. Submitting checks the spec §5
 * rules (a broken rule is said and the form stays), saves (`saveChannel`), says '渠道创建成功！'
 * or '渠道更新成功！' and goes back to /channel. A failed save keeps the form.
 */
export const channelFormMachine = setup({
  types: {
    context: {} as ChannelFormContext,
    events: {} as ChannelFormEvent,
    emitted: {} as ChannelFormEmitted,
    input: {} as ChannelFormInput,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    loadChannel: fromPromise<Channel, { readonly id: number }>(() => {
      throw new Error('loadChannel not provided');
    }),
    loadGroups: fromPromise<readonly string[]>(() => {
      throw new Error('loadGroups not provided');
    }),
    loadTypeModels: fromPromise<ChannelTypeModels>(() => {
      throw new Error('loadTypeModels not provided');
    }),
    loadCatalogue: fromPromise<readonly string[]>(() => {
      throw new Error('loadCatalogue not provided');
    }),
    saveChannel: fromPromise<void, SaveChannelInput>(() => {
      throw new Error('saveChannel not provided');
    }),
  },
  guards: {
    isEditing: ({ context }) => isEditOf(context),
    isValid: ({ context }) => validateChannelForm(context.form, isEditOf(context)).ok,
    canBatch: ({ context }) => context.form.batch || canBatchCreate(isEditOf(context), context.form.type),
  },
  actions: {
    resetForm: assign({ form: emptyChannelForm, problem: null }),
    fillFromChannel: assign({ form: (_, params: { channel: Channel }) => formOfChannel(params.channel) }),
    setGroups: assign({ groupOptions: (_, params: { groups: readonly string[] }) => [...new Set(params.groups)] }),
    setTypeModels: assign({ typeModels: (_, params: { typeModels: ChannelTypeModels }) => params.typeModels }),
    setCatalogue: assign({ catalogue: (_, params: { models: readonly string[] }) => [...new Set(params.models)] }),
    /** A new channel starts with its type's default models. */
    fillDefaults: assign({
      form: ({ context }) =>
        isEditOf(context) || context.form.models.length > 0
          ? context.form
          : { ...context.form, models: [...modelsOfType(context.typeModels, context.form.type)] },
    }),
    setField: assign({
      form: ({ context }, params: { field: ChannelFormField; value: string }) =>
        setChannelField(context.form, params.field, params.value),
      problem: null,
    }),
    setType: assign({
      form: ({ context }, params: { value: number }) => changeType(context.form, params.value, context.typeModels, isEditOf(context)),
      problem: null,
    }),
    setModels: assign({
      form: ({ context }, params: { models: readonly string[] }) => ({ ...context.form, models: params.models }),
      problem: null,
    }),
    addCustom: assign({
      form: ({ context }) => ({ ...context.form, models: addCustomModels(context.form.models, context.form.customModel), customModel: '' }),
      problem: null,
    }),
    setFormGroups: assign({
      form: ({ context }, params: { groups: readonly string[] }) => ({ ...context.form, groups: [...new Set(params.groups)] }),
      problem: null,
    }),
    toggleBatch: assign({ form: ({ context }) => ({ ...context.form, batch: !context.form.batch }), problem: null }),
    keepProblem: assign({
      problem: ({ context }) => {
        const verdict = validateChannelForm(context.form, isEditOf(context));
        return verdict.ok ? null : verdict.message;
      },
    }),
    notifyProblem: emit(({ context }) => notify('error', context.problem ?? msg('channelForm.invalid'))),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeApiError(params.error as ApiError);
      return notify(d.level, d.message);
    }),
    notifyUnavailable: emit((_, params: { key: MessageKey }) => notify('warning', msg(params.key))),
    notifySaved: emit(({ context }) => notify('success', msg(isEditOf(context) ? 'channelForm.updated' : 'channelForm.created'))),
    goToList: emit(() => navigate(channelListPath)),
  },
}).createMachine({
  id: 'channelForm',
  context: ({ input }) => ({
    id: input.id,
    form: emptyChannelForm,
    groupOptions: [],
    typeModels: {},
    catalogue: [],
    problem: null,
  }),
  initial: 'loading',
  on: {
    'form.cancel': { actions: 'goToList' },
  },
  states: {
    loading: {
      tags: ['busy', 'loading'],
      type: 'parallel',
      entry: 'resetForm',
      onDone: { target: 'editing', actions: 'fillDefaults' },
      states: {
        channel: {
          initial: 'checking',
          states: {
            checking: {
              always: [{ guard: 'isEditing', target: 'fetching' }, { target: 'done' }],
            },
            fetching: {
              invoke: {
                id: 'loadChannel',
                src: 'loadChannel',
                input: ({ context }) => ({ id: context.id ?? 0 }),
                onDone: { target: 'done', actions: { type: 'fillFromChannel', params: ({ event }) => ({ channel: event.output }) } },
                onError: {
                  target: '#channelForm.loadFailed',
                  actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            done: { type: 'final' },
          },
        },
        groups: {
          initial: 'fetching',
          states: {
            fetching: {
              invoke: {
                id: 'loadGroups',
                src: 'loadGroups',
                onDone: { target: 'done', actions: { type: 'setGroups', params: ({ event }) => ({ groups: event.output }) } },
                onError: { target: 'done', actions: { type: 'notifyUnavailable', params: { key: 'channelForm.groupsUnavailable' } } },
              },
            },
            done: { type: 'final' },
          },
        },
        typeModels: {
          initial: 'fetching',
          states: {
            fetching: {
              invoke: {
                id: 'loadTypeModels',
                src: 'loadTypeModels',
                onDone: { target: 'done', actions: { type: 'setTypeModels', params: ({ event }) => ({ typeModels: event.output }) } },
                onError: { target: 'done', actions: { type: 'notifyUnavailable', params: { key: 'channelForm.typeModelsUnavailable' } } },
              },
            },
            done: { type: 'final' },
          },
        },
        catalogue: {
          initial: 'fetching',
          states: {
            fetching: {
              invoke: {
                id: 'loadCatalogue',
                src: 'loadCatalogue',
                onDone: { target: 'done', actions: { type: 'setCatalogue', params: ({ event }) => ({ models: event.output }) } },
                onError: { target: 'done', actions: { type: 'notifyUnavailable', params: { key: 'channelForm.catalogueUnavailable' } } },
              },
            },
            done: { type: 'final' },
          },
        },
      },
    },
    loadFailed: {
      on: { 'form.retry': 'loading' },
    },
    editing: {
      on: {
        'field.change': { actions: { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) } },
        'type.change': { actions: { type: 'setType', params: ({ event }) => ({ value: event.value }) } },
        'models.add': { actions: { type: 'setModels', params: ({ context, event }) => ({ models: addModel(context.form.models, event.model) }) } },
        'models.remove': {
          actions: { type: 'setModels', params: ({ context, event }) => ({ models: removeModel(context.form.models, event.model) }) },
        },
        'models.fillRelated': {
          actions: {
            type: 'setModels',
            params: ({ context }) => ({ models: fillRelated(context.form.models, context.typeModels, context.form.type) }),
          },
        },
        'models.fillAll': {
          actions: { type: 'setModels', params: ({ context }) => ({ models: fillAll(context.form.models, context.catalogue) }) },
        },
        'models.clear': { actions: { type: 'setModels', params: { models: clearModels() } } },
        'models.addCustom': { actions: 'addCustom' },
        'groups.change': { actions: { type: 'setFormGroups', params: ({ event }) => ({ groups: event.groups }) } },
        'batch.toggle': { guard: 'canBatch', actions: 'toggleBatch' },
        'form.submit': [{ guard: 'isValid', target: 'saving' }, { actions: ['keepProblem', 'notifyProblem'] }],
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveChannel',
        src: 'saveChannel',
        input: ({ context }) => ({ id: context.id, payload: channelPayloadOf(context.form) }),
        onDone: { target: 'saved', actions: ['notifySaved', 'goToList'] },
        onError: { target: 'editing', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    saved: { type: 'final' },
  },
});
