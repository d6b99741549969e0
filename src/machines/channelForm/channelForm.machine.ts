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
import { msg, type Message, type NavigateEvent, type NotifyEvent } from '../../domain/message';
import { createFormMachine, isEditOf, notProvided } from '../form';

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

const channelFormActors = {
  loadChannel: notProvided<Channel, { readonly id: number }>('loadChannel'),
  loadGroups: notProvided<readonly string[]>('loadGroups'),
  loadTypeModels: notProvided<ChannelTypeModels>('loadTypeModels'),
  loadCatalogue: notProvided<readonly string[]>('loadCatalogue'),
  saveChannel: notProvided<void, SaveChannelInput>('saveChannel'),
};

/** Every change of the draft clears the problem the last submit found. */
const withForm = (form: ChannelForm): Partial<ChannelFormContext> => ({ form, problem: null });
const withModels = (context: ChannelFormContext, models: readonly string[]) => withForm({ ...context.form, models });

/**
 * The channel form (/channel/add, /channel/edit/:id), a form machine (src/machines/form).
 * Loading runs in parallel: the channel (edit only; its failure stops the page with a retry),
 * the groups, the per-type default models and the model catalogue (these three are tolerant: a
 * failure says so and the form still opens). A new channel starts with its type's default models.
 * Submitting checks the spec §5 rules (a broken rule is said and the form stays), saves
 * (`saveChannel`), says '渠道创建成功！' or '渠道更新成功！' and goes back to /channel. A failed save
 * keeps the form.
 */
export const channelFormMachine = createFormMachine<
  ChannelFormContext,
  ChannelFormEvent,
  ChannelFormInput,
  Channel,
  typeof channelFormActors,
  ChannelFormEmitted,
  'channelForm'
>({
  id: 'channelForm',
  context: (input) => ({
    id: input.id,
    form: emptyChannelForm,
    groupOptions: [],
    typeModels: {},
    catalogue: [],
    problem: null,
  }),
  emptyForm: emptyChannelForm,
  record: { region: 'channel', src: 'loadChannel', fill: (_, channel) => ({ form: formOfChannel(channel) }) },
  lists: [
    {
      region: 'groups',
      src: 'loadGroups',
      take: (_, groups) => ({ groupOptions: [...new Set(groups as readonly string[])] }),
      unavailable: 'channelForm.groupsUnavailable',
    },
    {
      region: 'typeModels',
      src: 'loadTypeModels',
      take: (_, typeModels) => ({ typeModels: typeModels as ChannelTypeModels }),
      unavailable: 'channelForm.typeModelsUnavailable',
    },
    {
      region: 'catalogue',
      src: 'loadCatalogue',
      take: (_, models) => ({ catalogue: [...new Set(models as readonly string[])] }),
      unavailable: 'channelForm.catalogueUnavailable',
    },
  ],
  loadOnCreate: true,
  /** A new channel starts with its type's default models. */
  afterLoad: (context) =>
    isEditOf(context) || context.form.models.length > 0
      ? {}
      : { form: { ...context.form, models: [...modelsOfType(context.typeModels, context.form.type)] } },
  setField: (context, event) => withForm(setChannelField(context.form, event.field, event.value)),
  edits: {
    'type.change': (context, event) => withForm(changeType(context.form, event.value, context.typeModels, isEditOf(context))),
    'models.add': (context, event) => withModels(context, addModel(context.form.models, event.model)),
    'models.remove': (context, event) => withModels(context, removeModel(context.form.models, event.model)),
    'models.fillRelated': (context) => withModels(context, fillRelated(context.form.models, context.typeModels, context.form.type)),
    'models.fillAll': (context) => withModels(context, fillAll(context.form.models, context.catalogue)),
    'models.clear': (context) => withModels(context, clearModels()),
    'models.addCustom': (context) =>
      withForm({ ...context.form, models: addCustomModels(context.form.models, context.form.customModel), customModel: '' }),
    'groups.change': (context, event) => withForm({ ...context.form, groups: [...new Set(event.groups)] }),
    'batch.toggle': (context) =>
      context.form.batch || canBatchCreate(isEditOf(context), context.form.type) ? withForm({ ...context.form, batch: !context.form.batch }) : null,
  },
  check: (context) => {
    const verdict = validateChannelForm(context.form, isEditOf(context));
    return verdict.ok
      ? { ok: true }
      : { ok: false, problem: verdict.message, notice: { level: 'error', message: verdict.message ?? msg('channelForm.invalid') } };
  },
  save: {
    src: 'saveChannel',
    input: (context): SaveChannelInput => ({ id: context.id, payload: channelPayloadOf(context.form) }),
    done: (context) => ({
      notice: msg(isEditOf(context) ? 'channelForm.updated' : 'channelForm.created'),
      navigate: channelListPath,
      next: 'done',
    }),
  },
  cancelTo: () => channelListPath,
  doneState: 'saved',
  actors: channelFormActors,
});
