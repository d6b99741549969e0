import {
  channelTagProblem,
  maxTagLength,
  maxTagsPerChannel,
  splitTagText,
  type Channel,
  type ChannelPayload,
  type ChannelTypeModels,
} from './channel';
import { canBatchCreate, channelTypeHasModels, hasBaseUrlField, type ChannelFieldTarget } from './channelTypes';
import { msg, type Message } from './message';
import {
  addCustomModel,
  mergeModels,
  modelsAfterTypeChange,
  isValidJson,
  normaliseChannelForm,
  type ChannelConfig as ChannelFormConfig,
  type Verdict,
} from './validation';

/**
 * The channel form (/channel/add, /channel/edit/:id) as plain data, and the pure rules that
 * turn it into the body of `POST /api/channel/` or `PUT /api/channel/` (spec §2, §3, §5
 * "Channel form"; contract §2.9.5, §2.9.6).
 */

export type { ChannelFormConfig };

/** Everything the form edits. `key` is empty when editing (the stored key stays). */
export interface ChannelForm {
  readonly type: number;
  readonly name: string;
  /** One key, or one key per line in batch mode. */
  readonly key: string;
  /** Batch creation: one channel per non-empty key line (create only, not type 33). */
  readonly batch: boolean;
  readonly base_url: string;
  readonly other: string;
  readonly model_mapping: string;
  readonly system_prompt: string;
  readonly models: readonly string[];
  readonly groups: readonly string[];
  readonly config: ChannelFormConfig;
  /** The weight as typed (an integer ≥ 0 when saved). */
  readonly weight: string;
  /** The text box for custom model names (comma, space or newline separated). */
  readonly customModel: string;
  /** The channel's tags (not in one-api), as chips. */
  readonly tags: readonly string[];
  /** The tag text box (comma-separated; Enter or a comma turns it into chips). */
  readonly tagInput: string;
}

/** A text the person types: a channel column, a `config` part, or the custom-model box. */
export type ChannelFormField = ChannelFieldTarget | 'name' | 'key' | 'model_mapping' | 'system_prompt' | 'customModel' | 'weight' | 'tagInput';

/** A field a broken rule points at: a typed field, or the model list. */
export type ChannelProblemField = ChannelFormField | 'models';

/** The rule the last submit broke, and the field that breaks it (shown there, focused). */
export interface ChannelFormProblem {
  readonly field: ChannelProblemField;
  readonly message: Message;
}

/** The group a new channel serves unless the person picks others. */
export const defaultChannelGroup = 'default';

export const emptyChannelConfig: ChannelFormConfig = {
  region: '',
  ak: '',
  sk: '',
  user_id: '',
  vertex_ai_project_id: '',
  vertex_ai_adc: '',
};

/** The create form: type 1 (the picker's first entry), the default group, nothing else. */
export const emptyChannelForm: ChannelForm = {
  type: 1,
  name: '',
  key: '',
  batch: false,
  base_url: '',
  other: '',
  model_mapping: '',
  system_prompt: '',
  models: [],
  groups: [defaultChannelGroup],
  config: emptyChannelConfig,
  weight: '0',
  customModel: '',
  tags: [],
  tagInput: '',
};

/** Splits a comma-separated wire list, dropping empty entries and surrounding spaces. */
export const splitList = (text: string | null | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** The string members of a channel's `config` JSON text (bad or absent JSON gives none). */
export function parseChannelConfig(text: string | null | undefined): ChannelFormConfig {
  if (text === undefined || text === null || text.trim() === '') return emptyChannelConfig;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return emptyChannelConfig;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return emptyChannelConfig;
  const record = parsed as Record<string, unknown>;
  const pick = (k: keyof ChannelFormConfig): string => {
    const v = record[k];
    return typeof v === 'string' ? v : '';
  };
  return {
    region: pick('region'),
    ak: pick('ak'),
    sk: pick('sk'),
    user_id: pick('user_id'),
    vertex_ai_project_id: pick('vertex_ai_project_id'),
    vertex_ai_adc: pick('vertex_ai_adc'),
  };
}

/** The edit form of a stored channel (its key is hidden by the server, so the key box is empty). */
export const formOfChannel = (channel: Channel): ChannelForm => ({
  type: channel.type,
  name: channel.name,
  key: '',
  batch: false,
  base_url: channel.base_url ?? '',
  other: channel.other ?? '',
  model_mapping: channel.model_mapping ?? '',
  system_prompt: channel.system_prompt ?? '',
  models: [...new Set(splitList(channel.models))],
  groups: [...new Set(splitList(channel.group))],
  config: parseChannelConfig(channel.config),
  weight: String(channel.weight ?? 0),
  customModel: '',
  tags: [...(channel.tags ?? [])],
  tagInput: '',
});

/**
 * The create form of a copy of a stored channel (/channel/clone/:id): the same settings, the name
 * with `suffix` added, and an empty key (the server never returns keys, so the copy needs one).
 */
export const formOfClone = (channel: Channel, suffix: string): ChannelForm => ({
  ...formOfChannel(channel),
  name: `${channel.name}${suffix}`,
});

/** The form with one typed value changed. */
export function setChannelField(form: ChannelForm, field: ChannelFormField, value: string): ChannelForm {
  if (field.startsWith('config.')) {
    const part = field.slice('config.'.length) as keyof ChannelFormConfig;
    return { ...form, config: { ...form.config, [part]: value } };
  }
  return { ...form, [field]: value };
}

/** A base URL as the form accepts it: http(s)://host..., no spaces. */
export function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\/[^\s/?#]+\S*$/i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The weight typed: a whole number ≥ 0 (blank counts as 0), else null. */
export function parseWeight(text: string): number | null {
  const t = text.trim();
  if (t === '') return 0;
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

/** The parts a type 33 / 42 key is built from, in the order the form shows them. */
const keyParts: Readonly<Record<number, readonly (keyof ChannelFormConfig)[]>> = {
  33: ['region', 'ak', 'sk'],
  42: ['region', 'vertex_ai_project_id', 'vertex_ai_adc'],
};

/** Which field an empty key points at: the first empty part of a built key, else the key box. */
function missingKeyField(form: ChannelForm): ChannelProblemField {
  const parts = keyParts[form.type];
  const empty = parts?.find((p) => form.config[p].trim() === '');
  return empty === undefined ? 'key' : `config.${empty}`;
}

/**
 * Spec §5 channel rules, in order, each with the field it points at: on create name and key (or
 * the type 33/42 parts) are required; a filled base URL must be an http(s) address; ≥ 1 model
 * except type 43; a non-blank model_mapping must be JSON; the weight is a whole number ≥ 0.
 */
export function checkChannelForm(form: ChannelForm, isEdit: boolean): ChannelFormProblem | null {
  const n = normaliseChannelForm(form);
  if (!isEdit && n.name.trim() === '') return { field: 'name', message: msg('validation.channel.nameAndKeyRequired') };
  if (!isEdit && n.key.trim() === '') return { field: missingKeyField(form), message: msg('validation.channel.nameAndKeyRequired') };
  const url = n.base_url.trim();
  if (hasBaseUrlField(n.type) && url !== '' && !isHttpUrl(url)) return { field: 'base_url', message: msg('validation.channel.baseUrlInvalid') };
  if (channelTypeHasModels(n.type) && n.models.length === 0) return { field: 'models', message: msg('validation.channel.modelsRequired') };
  if (n.model_mapping.trim() !== '' && !isValidJson(n.model_mapping)) return { field: 'model_mapping', message: msg('validation.channel.modelMappingInvalid') };
  if (parseWeight(form.weight) === null) return { field: 'weight', message: msg('validation.channel.weightInvalid') };
  const tagProblem = checkTags(form);
  if (tagProblem !== null) return { field: 'tagInput', message: tagProblem };
  return null;
}

// ---------------------------------------------------------------------------------------------
// Tags

/** The tags a save sends: the chips plus what is still typed in the tag box, trimmed, each once. */
export const tagsOfForm = (form: ChannelForm): readonly string[] => [...new Set([...form.tags, ...splitTagText(form.tagInput)])];

/** The message of each tag problem. */
const tagProblemKeys = {
  empty: 'validation.channel.tag.empty',
  tooLong: 'validation.channel.tag.tooLong',
  comma: 'validation.channel.tag.comma',
  control: 'validation.channel.tag.control',
} as const;

/** What is wrong with the tags (a typed tag, or too many), or null. */
export function checkTags(form: ChannelForm): Message | null {
  for (const piece of splitTagText(form.tagInput)) {
    const problem = channelTagProblem(piece);
    if (problem !== null) return msg(tagProblemKeys[problem], { tag: piece, max: maxTagLength });
  }
  const count = tagsOfForm(form).length;
  return count > maxTagsPerChannel ? msg('validation.channel.tag.tooMany', { max: maxTagsPerChannel, count }) : null;
}

/** Turns the typed tags into chips (each once); a bad tag stays typed, for the rule to point at. */
export function addTypedTags(form: ChannelForm): ChannelForm {
  const pieces = splitTagText(form.tagInput);
  const good = pieces.filter((piece) => channelTagProblem(piece) === null);
  const bad = pieces.filter((piece) => channelTagProblem(piece) !== null);
  return { ...form, tags: [...new Set([...form.tags, ...good])], tagInput: bad.join(', ') };
}

/** Removes one chip. */
export const removeTag = (form: ChannelForm, tag: string): ChannelForm => ({ ...form, tags: form.tags.filter((t) => t !== tag) });

/** The same rules as a verdict (the message only). */
export function validateChannelForm(form: ChannelForm, isEdit: boolean): Verdict {
  const problem = checkChannelForm(form, isEdit);
  return problem === null ? { ok: true } : { ok: false, message: problem.message };
}


// ---------------------------------------------------------------------------------------------
// Models

/** The default models of a type from `GET /api/models` (none when the type is absent or null). */
export const modelsOfType = (typeModels: ChannelTypeModels, type: number): readonly string[] => typeModels[String(type)] ?? [];

/** The names in a custom-model input: separated by commas (ASCII or full-width), spaces or newlines. */
export const parseModelNames = (input: string): string[] => input.split(/[\s,，]+/).filter((s) => s !== '');

/** Adds the typed names that are new; empty names and duplicates are skipped. */
export function addCustomModels(models: readonly string[], input: string): readonly string[] {
  let list = models;
  for (const name of parseModelNames(input)) {
    const r = addCustomModel(list, name);
    if (r.ok) list = r.list;
  }
  return list;
}

/** Adds one model picked from a list (nothing when it is blank or already chosen). */
export const addModel = (models: readonly string[], model: string): readonly string[] => addCustomModels(models, model);

/** Removes one model. */
export const removeModel = (models: readonly string[], model: string): readonly string[] => models.filter((m) => m !== model);

/** "Fill related models": the type's default models join the chosen ones. */
export const fillRelated = (models: readonly string[], typeModels: ChannelTypeModels, type: number): readonly string[] =>
  mergeModels(models, modelsOfType(typeModels, type));

/** The catalogue's model names, each once, in catalogue order (the server may repeat ids). */
export const catalogueModelNames = (catalogue: readonly string[]): readonly string[] =>
  [...new Set(catalogue.filter((m) => m.trim() !== ''))];

/** "Fill all models": every catalogue model joins the chosen ones. */
export const fillAll = (models: readonly string[], catalogue: readonly string[]): readonly string[] =>
  mergeModels(models, catalogueModelNames(catalogue));

/** "Clear all models". */
export const clearModels = (): readonly string[] => [];

/**
 * A new type: the type's default models fill the list only when none are chosen; batch mode
 * ends when the new type cannot batch (33).
 */
export const changeType = (form: ChannelForm, type: number, typeModels: ChannelTypeModels, isEdit: boolean): ChannelForm => ({
  ...form,
  type,
  models: modelsAfterTypeChange(form.models, modelsOfType(typeModels, type)),
  batch: form.batch && canBatchCreate(isEdit, type),
});

// ---------------------------------------------------------------------------------------------
// Payload

/** Credentials JSON with its line breaks removed (the server splits keys on newlines). */
export function compactCredentials(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.replace(/\r?\n/g, ' ').trim();
  }
}

/** Batch keys as sent: one per line, trimmed, blank lines dropped. */
export const batchKeys = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** The `config` JSON text: only the parts that are filled in. */
export function configText(config: ChannelFormConfig): string {
  const filled = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== ''));
  return JSON.stringify(filled);
}

/**
 * The body of `POST /api/channel/` (create) or, with the id added, `PUT /api/channel/` (edit):
 * base_url without trailing slash; type 3 API version defaulting to 2024-03-01-preview; type 33
 * key ak|sk|region and type 42 key region|project id|credentials JSON; batch keys one per line;
 * models and groups comma-joined; config as JSON text.
 */
export function channelPayloadOf(form: ChannelForm): ChannelPayload {
  const withAdc =
    form.type === 42 ? { ...form, config: { ...form.config, vertex_ai_adc: compactCredentials(form.config.vertex_ai_adc) } } : form;
  const n = normaliseChannelForm(withAdc);
  const key = form.batch ? batchKeys(n.key).join('\n') : n.key.trim();
  return {
    type: n.type,
    name: n.name.trim(),
    key,
    base_url: n.base_url.trim().replace(/\/+$/, ''),
    other: n.other,
    models: n.models.join(','),
    group: n.groups.join(','),
    model_mapping: n.model_mapping,
    system_prompt: n.system_prompt,
    config: configText(n.config),
    weight: parseWeight(form.weight) ?? 0,
    tags: [...tagsOfForm(form)],
  };
}
