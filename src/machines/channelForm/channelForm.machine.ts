import type { Channel, ChannelPayload, ChannelTypeModels } from '../../domain/channel';
import {
  addCustomModels,
  addTypedTags,
  removeTag,
  addModel,
  changeType,
  channelPayloadOf,
  clearModels,
  emptyChannelForm,
  fillAll,
  fillRelated,
  checkChannelForm,
  formOfChannel,
  formOfClone,
  modelsOfType,
  removeModel,
  setChannelField,
  type ChannelForm,
  type ChannelFormField,
  type ChannelFormProblem,
} from '../../domain/channelForm';
import { canBatchCreate } from '../../domain/channelTypes';
import { msg, type NavigateEvent, type NotifyEvent } from '../../domain/message';
import { createFormMachine, notProvided } from '../form';

/**
 * `/channel/edit/:id` gives the id; `/channel/add` gives null; `/channel/clone/:id` gives the id of
 * the channel to copy with `clone` true and the suffix its name gets (in the person's language).
 */
export interface ChannelFormInput {
  readonly id: number | null;
  readonly clone?: boolean;
  readonly cloneSuffix?: string;
}

export interface ChannelFormContext {
  /** The stored channel edited, or copied when `clone`; null when creating from scratch. */
  readonly id: number | null;
  /** Clone mode: the channel `id` fills the form, the save creates a new channel (POST). */
  readonly clone: boolean;
  /** Added to the copied channel's name. */
  readonly cloneSuffix: string;
  readonly form: ChannelForm;
  /** Group names from `GET /api/group/` (empty when that call failed). */
  readonly groupOptions: readonly string[];
  /** Channel type (string key) to its default models, from `GET /api/models`. */
  readonly typeModels: ChannelTypeModels;
  /** Model names of `GET /api/channel/models`, each once. */
  readonly catalogue: readonly string[];
  /** The rule the last submit broke and its field (shown at the field until the form changes). */
  readonly problem: ChannelFormProblem | null;
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
  | { readonly type: 'tags.add' }
  | { readonly type: 'tags.remove'; readonly tag: string }
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

/** Editing a stored channel in place (PUT); creating and cloning both create (POST). */
export const isEditingChannel = (context: Pick<ChannelFormContext, 'id' | 'clone'>): boolean => context.id !== null && !context.clone;

/** Every change of the draft clears the problem the last submit found. */
const withForm = (form: ChannelForm): Partial<ChannelFormContext> => ({ form, problem: null });
const withModels = (context: ChannelFormContext, models: readonly string[]) => withForm({ ...context.form, models });

/**
 * The channel form (/channel/add, /channel/edit/:id, /channel/clone/:id), a form machine (src/machines/form).
 * Clone mode loads the stored channel like an edit, fills a copy (name suffixed, key empty) and
 * saves it as a new channel (POST), never touching the original.
 * Loading runs in parallel: the channel (edit only; its failure stops the page with a retry),
 * the groups, the per-type default models and the model catalogue (these three are tolerant: a
 * failure says so and the form still opens). A new channel starts with its type's default models.
 * Submitting checks the spec §5 rules (a broken rule is kept with its field, shown there without a
 * toast, and the form stays), saves
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
    clone: input.id !== null && input.clone === true,
    cloneSuffix: input.cloneSuffix ?? '',
    form: emptyChannelForm,
    groupOptions: [],
    typeModels: {},
    catalogue: [],
    problem: null,
  }),
  emptyForm: emptyChannelForm,
  record: {
    region: 'channel',
    src: 'loadChannel',
    fill: (context, channel) => ({ form: context.clone ? formOfClone(channel, context.cloneSuffix) : formOfChannel(channel) }),
  },
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
    isEditingChannel(context) || context.form.models.length > 0
      ? {}
      : { form: { ...context.form, models: [...modelsOfType(context.typeModels, context.form.type)] } },
  setField: (context, event) => withForm(setChannelField(context.form, event.field, event.value)),
  edits: {
    'type.change': (context, event) => withForm(changeType(context.form, event.value, context.typeModels, isEditingChannel(context))),
    'models.add': (context, event) => withModels(context, addModel(context.form.models, event.model)),
    'models.remove': (context, event) => withModels(context, removeModel(context.form.models, event.model)),
    'models.fillRelated': (context) => withModels(context, fillRelated(context.form.models, context.typeModels, context.form.type)),
    'models.fillAll': (context) => withModels(context, fillAll(context.form.models, context.catalogue)),
    'models.clear': (context) => withModels(context, clearModels()),
    'models.addCustom': (context) =>
      withForm({ ...context.form, models: addCustomModels(context.form.models, context.form.customModel), customModel: '' }),
    'groups.change': (context, event) => withForm({ ...context.form, groups: [...new Set(event.groups)] }),
    'tags.add': (context) => withForm(addTypedTags(context.form)),
    'tags.remove': (context, event) => withForm(removeTag(context.form, event.tag)),
    'batch.toggle': (context) =>
      context.form.batch || canBatchCreate(isEditingChannel(context), context.form.type) ? withForm({ ...context.form, batch: !context.form.batch }) : null,
  },
  /** A broken rule is shown once, at its field (no toast); the server's refusals still toast. */
  check: (context) => {
    const problem = checkChannelForm(context.form, isEditingChannel(context));
    return problem === null ? { ok: true } : { ok: false, problem, notice: null };
  },
  save: {
    src: 'saveChannel',
    input: (context): SaveChannelInput => ({ id: isEditingChannel(context) ? context.id : null, payload: channelPayloadOf(context.form) }),
    done: (context) => ({
      notice: msg(isEditingChannel(context) ? 'channelForm.updated' : 'channelForm.created'),
      navigate: channelListPath,
      next: 'done',
    }),
  },
  cancelTo: () => channelListPath,
  doneState: 'saved',
  actors: channelFormActors,
});
