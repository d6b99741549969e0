import { relayError, type RelayError, type RelayMode } from './types';

/**
 * The relayed request before it goes upstream (contract §4.4 steps 1–4 and 8, §4.5): validation
 * with one-api's 400 messages, model mapping, the forced system prompt, the upstream body, and the
 * image cost factors. Pure functions over the parsed JSON; no I/O.
 */

type Json = Readonly<Record<string, unknown>>;

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/** Largest accepted `max_tokens` (one-api: math.MaxInt32 / 2). */
const maxTokensLimit = 1_073_741_823;
/** Most choices (`n`) a text request may ask for (OpenAI's limit). */
export const maxChoices = 128;
const isIntegerIn = (u: unknown, min: number, max: number): boolean => typeof u === 'number' && Number.isInteger(u) && u >= min && u <= max;

/** Whether a prompt-like field is absent: missing, null, "" or an empty array. */
const isBlank = (u: unknown): boolean => u === undefined || u === null || u === '' || (Array.isArray(u) && u.length === 0);

const invalidText = (message: string): RelayError => relayError(400, message, 'invalid_text_request');

// ---------------------------------------------------------------------------------------------
// Images (contract §3.5 "Image models", §4.5)

/** Size multipliers of the image models one-api prices by size. Other models: any size, ratio 1. */
const imageSizeRatios: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  'dall-e-2': { '256x256': 1, '512x512': 1.125, '1024x1024': 1.25 },
  'dall-e-3': { '1024x1024': 1, '1024x1792': 2, '1792x1024': 2 },
};

/** Allowed `n` per model (inclusive). Other models: any n ≥ 1. */
const imageCounts: Readonly<Record<string, readonly [number, number]>> = {
  'dall-e-2': [1, 10],
  'dall-e-3': [1, 1],
  'ali-stable-diffusion-xl': [1, 4],
  'ali-stable-diffusion-v1.5': [1, 4],
  'wanx-v1': [1, 4],
  'cogview-3': [1, 1],
  'step-1x-medium': [1, 1],
};

/** Longest prompt per model, in bytes (Go's len). Other models: no limit. */
const imagePromptLimits: Readonly<Record<string, number>> = {
  'dall-e-2': 1000,
  'dall-e-3': 4000,
  'ali-stable-diffusion-xl': 4000,
  'ali-stable-diffusion-v1.5': 4000,
  'wanx-v1': 4000,
  'cogview-3': 833,
};

/** The image model when the body names none. */
export const defaultImageModel = 'dall-e-2';

/** The image parameters that decide validity and cost, with one-api's defaults (n 1, size 1024x1024). */
export interface ImageOptions {
  /** NaN when `n` is not a number. */
  readonly n: number;
  readonly size: string;
  readonly quality: string;
}

/** Reads `n`, `size` and `quality` of an image request (n 0/absent → 1, size ""/absent → 1024x1024). */
export function imageOptions(json: Json): ImageOptions {
  const n = json.n === undefined || json.n === null || json.n === 0 ? 1 : typeof json.n === 'number' ? json.n : Number.NaN;
  const size = typeof json.size === 'string' && json.size !== '' ? json.size : '1024x1024';
  const quality = typeof json.quality === 'string' ? json.quality : '';
  return { n, size, quality };
}

/**
 * The cost multiplier of one image (contract §3.5): the size multiplier of dall-e-2/dall-e-3
 * (1 for other models or sizes), times 2 for dall-e-3 `hd` at 1024x1024 and 1.5 for `hd` at the
 * larger sizes. The quota of a request is `trunc(modelRatio × groupRatio × this × 1000) × n`.
 */
export function imageSizeRatio(model: string, size: string, quality: string): number {
  const ratio = imageSizeRatios[model]?.[size === '' ? '1024x1024' : size] ?? 1;
  if (model !== 'dall-e-3' || quality !== 'hd') return ratio;
  return ratio * (size === '1024x1024' || size === '' ? 2 : 1.5);
}

/**
 * §4.5's 400s, in one-api's order: prompt, size, prompt length, n. Deviation: models one-api does
 * not list accept any size, prompt length and n ≥ 1 (old one-api versions refused them outright);
 * a non-integer `n` is `invalid value of n` rather than a JSON decoding error.
 */
function validateImageRequest(json: Json, model: string): RelayError | null {
  const mistyped = mistypedField(json, imageFieldTypes, 'ImageRequest');
  if (mistyped !== null) return relayError(400, mistyped, 'invalid_image_request');
  if (typeof json.prompt !== 'string' || json.prompt === '') return relayError(400, 'prompt is required', 'prompt_missing');
  const { n, size } = imageOptions(json);
  const sizes = imageSizeRatios[model];
  if (sizes !== undefined && sizes[size] === undefined) return relayError(400, 'size not supported for this image model', 'size_not_supported');
  const limit = imagePromptLimits[model];
  if (limit !== undefined && Buffer.byteLength(json.prompt) > limit) return relayError(400, 'prompt is too long', 'prompt_too_long');
  const [min, max] = imageCounts[model] ?? [1, Number.MAX_SAFE_INTEGER];
  if (!Number.isInteger(n) || n < min || n > max) return relayError(400, 'invalid value of n', 'n_not_within_range');
  return null;
}

// ---------------------------------------------------------------------------------------------
// Validation (§4.4 step 2)

/** Go's name for the kind of a JSON value in a decoding error. */
export const goKind = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value === 'boolean' ? 'bool' : typeof value;

/** A field of one-api's request structs whose JSON type is checked: its Go type and the values it accepts. */
interface FieldType {
  readonly goType: string;
  readonly accepts: (value: unknown) => boolean;
  /** For arrays: whether one element is acceptable (Go names the element type then). */
  readonly element?: (value: unknown) => boolean;
}
const textFieldTypes: Readonly<Record<string, FieldType>> = {
  stream: { goType: 'bool', accepts: (u) => typeof u === 'boolean' },
  // Not an array at all is "field messages is required" below, as before.
  messages: { goType: 'model.Message', accepts: () => true, element: isObject },
};
const imageFieldTypes: Readonly<Record<string, FieldType>> = {
  size: { goType: 'string', accepts: (u) => typeof u === 'string' },
  quality: { goType: 'string', accepts: (u) => typeof u === 'string' },
};

/**
 * Go's decoding error for the first field whose JSON type the request struct cannot hold (null
 * values decode as absent), or null: one-api refuses such a body before anything is charged.
 */
function mistypedField(json: Json, fields: Readonly<Record<string, FieldType>>, struct: string): string | null {
  for (const [name, field] of Object.entries(fields)) {
    const value = json[name];
    if (value === undefined || value === null) continue;
    const element = field.element;
    const bad: unknown = !field.accepts(value) ? value : Array.isArray(value) && element !== undefined ? (value as unknown[]).find((v) => !element(v)) : undefined;
    if (bad !== undefined) return `json: cannot unmarshal ${goKind(bad)} into Go struct field ${struct}.${name} of type ${field.goType}`;
  }
  return null;
}

/**
 * The 400 a request gets before any channel is tried, or null when it is valid.
 *
 * Text modes (`invalid_text_request`): `max_tokens is invalid` (not an integer in 0…1073741823),
 * `model is required`, then `field messages is required` (chat: a non-empty array),
 * `field prompt is required` (completions), `field input is required` (moderations); absent, null,
 * "" and [] all count as missing. Images: §4.5's checks against the upstream model.
 *
 * `model` is the model the request resolves to: for text modes the requested one with the route's
 * default (embeddings' path model, moderations' default); for images the mapped model. When
 * omitted, the body's `model` (images: default dall-e-2).
 */
export function validateTextRequest(mode: RelayMode, json: Json, model?: string): RelayError | null {
  const bodyModel = typeof json.model === 'string' ? json.model : '';
  if (mode === 'images') return validateImageRequest(json, model ?? (bodyModel === '' ? defaultImageModel : bodyModel));
  const mistyped = mistypedField(json, textFieldTypes, 'GeneralOpenAIRequest');
  if (mistyped !== null) return invalidText(mistyped);
  const maxTokens = json.max_tokens;
  if (maxTokens !== undefined && maxTokens !== null) {
    if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 0 || maxTokens > maxTokensLimit) {
      return invalidText('max_tokens is invalid');
    }
  }
  // Numbers the reservation and the usage bound rely on (issue 18): as max_tokens, and n (choices) 0..128.
  const maxCompletion = json.max_completion_tokens;
  if (maxCompletion !== undefined && maxCompletion !== null && !isIntegerIn(maxCompletion, 0, maxTokensLimit)) return invalidText('max_completion_tokens is invalid');
  if (json.n !== undefined && json.n !== null && !isIntegerIn(json.n, 0, maxChoices)) return invalidText(`n must be an integer from 1 to ${maxChoices}`);
  if ((model ?? bodyModel) === '' && mode !== 'moderations') return invalidText('model is required');
  switch (mode) {
    case 'chat':
      return Array.isArray(json.messages) && json.messages.length > 0 ? null : invalidText('field messages is required');
    case 'completions':
      return isBlank(json.prompt) ? invalidText('field prompt is required') : null;
    case 'moderations':
      return isBlank(json.input) ? invalidText('field input is required') : null;
    case 'embeddings':
      // Deviation: one-api forwarded embeddings without input (the upstream refused them).
      return isBlank(json.input) ? invalidText('field input is required') : null;
    case 'edits':
      return isBlank(json.instruction) ? invalidText('field instruction is required') : null;
    default:
      // audio and image edits are checked by server/relay/audio.ts
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Model mapping (§4.4 step 3)

/**
 * The upstream model for `model` under a channel's `model_mapping` JSON: a non-empty string entry
 * wins. A mapping that is not a JSON object of strings is ignored as a whole, as one-api's
 * `map[string]string` decoding fails on it (null values decode as "").
 */
export function mappedModel(modelMapping: string | null, model: string): string {
  if (modelMapping === null || modelMapping === '') return model;
  let parsed: unknown;
  try {
    parsed = JSON.parse(modelMapping);
  } catch {
    return model;
  }
  if (!isObject(parsed)) return model;
  if (!Object.values(parsed).every((v) => typeof v === 'string' || v === null)) return model;
  const mapped = Object.hasOwn(parsed, model) ? parsed[model] : undefined;
  return typeof mapped === 'string' && mapped !== '' ? mapped : model;
}

// ---------------------------------------------------------------------------------------------
// The upstream body (§4.4 steps 4 and 8)

/** What `upstreamBody` needs. */
export interface UpstreamBodyInput {
  /** The client's body, exactly as received. */
  readonly raw: string;
  /** Its parsed JSON object. */
  readonly json: Json;
  readonly mode: RelayMode;
  readonly channelType: number;
  /** The model sent upstream (after the channel's mapping). */
  readonly mappedModel: string;
  /** The model the client asked for (body `model`, or the route's default). */
  readonly requestedModel: string;
  /** The channel's forced system prompt (null or "" = none). */
  readonly systemPrompt: string | null;
  /** ENFORCE_INCLUDE_USAGE: always re-serialise. */
  readonly enforceIncludeUsage: boolean;
}

/** The body to send upstream, and whether the forced system prompt was applied (the log's `system_prompt_reset`). */
export interface UpstreamBody {
  readonly body: string;
  readonly systemPromptReset: boolean;
  /**
   * Whether only this gateway asked the upstream for `include_usage`: the client did not, and
   * one-api would have forwarded the body unchanged. The stream then keeps the usage chunk
   * (no choices) from the client, which sees what one-api would have sent it.
   */
  readonly usageChunkHidden: boolean;
}

/** Baichuan: one-api always re-serialises its requests. */
const baichuanType = 26;

/** The messages with the forced system prompt: the first message's content replaced if it is a system message, else a system message inserted first. */
export function withSystemPrompt(messages: readonly unknown[], prompt: string): unknown[] {
  const [first, ...rest] = messages;
  if (isObject(first) && first.role === 'system') return [{ ...first, content: prompt }, ...rest];
  return [{ role: 'system', content: prompt }, ...messages];
}

/**
 * The upstream body of a text or image request.
 *
 * The client's bytes are forwarded unchanged when nothing needs to change: the model is not
 * mapped, no system prompt applies, the channel is not Baichuan (26) and ENFORCE_INCLUDE_USAGE is
 * off. Otherwise the JSON is re-serialised, keeping every field the client sent (one-api keeps only
 * the fields it knows), with the mapped model, the forced system prompt (when the request has
 * messages) and, for streaming chat/completions, `stream_options.include_usage = true` (other
 * `stream_options` fields kept). A body without `model` gets one only when mapped, or for
 * embeddings (whose model may come from the path).
 *
 * Deviation from one-api: include_usage is forced for every streaming chat/completions request
 * whose body lacks `stream_options.include_usage === true`, even when the body could otherwise be
 * forwarded byte-for-byte, so that usage can always be billed from the final chunk. In that case
 * (`usageChunkHidden`) the client is not sent the usage chunk it did not ask for.
 */
export function upstreamBody(input: UpstreamBodyInput): UpstreamBody {
  const { json, mode } = input;
  const hasModel = typeof json.model === 'string' && json.model !== '';
  const rewriteModel = input.mappedModel !== input.requestedModel || (!hasModel && mode === 'embeddings' && input.mappedModel !== '');
  const prompt = input.systemPrompt ?? '';
  const messages = json.messages;
  const applyPrompt = prompt !== '' && Array.isArray(messages) && messages.length > 0;
  const streamOptions = isObject(json.stream_options) ? json.stream_options : null;
  const forceUsage = (mode === 'chat' || mode === 'completions') && json.stream === true && streamOptions?.include_usage !== true;
  const oneApiReserialises = rewriteModel || applyPrompt || input.channelType === baichuanType || input.enforceIncludeUsage;
  if (!oneApiReserialises && !forceUsage) return { body: input.raw, systemPromptReset: false, usageChunkHidden: false };
  const out: Record<string, unknown> = { ...json };
  if (rewriteModel) out.model = input.mappedModel;
  if (applyPrompt) out.messages = withSystemPrompt(messages as unknown[], prompt);
  if (forceUsage) out.stream_options = { ...streamOptions, include_usage: true };
  return { body: JSON.stringify(out), systemPromptReset: applyPrompt, usageChunkHidden: forceUsage && !oneApiReserialises };
}
