import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import type { RelayMode } from './types';

/**
 * Local token counting (contract §4.13) with gpt-tokenizer, a maintained port of OpenAI's tiktoken
 * encodings. Used for prompt tokens (pre-consumption, and billing when the upstream reports no
 * usage) and for completion tokens of answers without usage.
 *
 * Encodings: o200k_base for the gpt-4o / o-series / gpt-4.1 / gpt-5 families, cl100k_base for
 * everything else (one-api's default; names that tiktoken maps to older encodings, such as
 * text-davinci-003, are counted with cl100k_base too). Special-token text such as `<|endoftext|>`
 * is counted as ordinary text, as tiktoken-go does when one-api encodes with no special tokens.
 *
 * With ApproximateTokenEnabled (read by the pipeline, passed as `approximate`) every piece of text
 * costs `floor(UTF-8 bytes × 0.38)` instead of being encoded.
 */

/** Counting options. */
export interface CountOptions {
  /** ApproximateTokenEnabled: estimate from the byte length instead of encoding. */
  readonly approximate?: boolean;
}

/** Special tokens are plain text here (never a thrown "Disallowed special token"). */
const plainText = { disallowedSpecial: new Set<string>() };

/** Model name prefixes counted with o200k_base. */
const o200kPrefixes = ['gpt-4o', 'chatgpt-4o', 'gpt-4.1', 'gpt-4.5', 'gpt-5', 'o1', 'o3', 'o4'];

/** Whether `model` uses the o200k_base encoding. */
export const usesO200k = (model: string): boolean => o200kPrefixes.some((prefix) => model.startsWith(prefix));

/** ApproximateTokenEnabled's estimate: floor(UTF-8 byte length × 0.38). */
export const approximateTokens = (text: string): number => Math.floor(Buffer.byteLength(text) * 0.38);

/** The token count of `text` for `model`. */
export function countTextTokens(text: string, model: string, options: CountOptions = {}): number {
  if (text === '') return 0;
  if (options.approximate === true) return approximateTokens(text);
  return usesO200k(model) ? countO200k(text, plainText) : countCl100k(text, plainText);
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * The tokens of one `image_url` content part. `low` detail costs 85 (gpt-4o-mini 2833). `high`,
 * `auto` and "" are high detail, which in one-api depends on the image's size, fetched from its
 * URL. We never fetch (it would let any caller make the gateway download arbitrary URLs, and slow
 * every request): high detail is counted as a 1024×1024 image, i.e. scaled to 768×768 = 4 tiles of
 * 512, 85 + 170 × 4 = 765 tokens (gpt-4o-mini 2833 + 5667 × 4 = 25 501). Another detail value
 * counts 0, as one-api's "invalid detail option" error does.
 */
function imagePartTokens(part: Readonly<Record<string, unknown>>, model: string): number {
  const image = part.image_url;
  if (!isObject(image) || typeof image.url !== 'string') return 0;
  const detail = typeof image.detail === 'string' ? image.detail : '';
  const mini = model.startsWith('gpt-4o-mini');
  const [base, perTile] = mini ? [2833, 5667] : [85, 170];
  if (detail === 'low') return base;
  if (detail === 'high' || detail === 'auto' || detail === '') return base + perTile * 4;
  return 0;
}

/** The tokens of a message's `content`: a string, or an array of `text` / `image_url` parts. */
function contentTokens(content: unknown, model: string, options: CountOptions): number {
  if (typeof content === 'string') return countTextTokens(content, model, options);
  if (!Array.isArray(content)) return 0;
  let total = 0;
  for (const part of content as unknown[]) {
    if (!isObject(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') total += countTextTokens(part.text, model, options);
    else if (part.type === 'image_url') total += imagePartTokens(part, model);
  }
  return total;
}

/**
 * The prompt tokens of a chat `messages` array (OpenAI's counting recipe, as one-api applies
 * it): per message 3 (gpt-3.5-turbo-0301: 4) + content + role, and when `name` is present its
 * tokens + 1 (0301: − 1); plus 3 for the reply priming. Not an array → 0.
 */
export function countChatPromptTokens(messages: unknown, model: string, options: CountOptions = {}): number {
  if (!Array.isArray(messages)) return 0;
  const legacy = model === 'gpt-3.5-turbo-0301';
  const perMessage = legacy ? 4 : 3;
  const perName = legacy ? -1 : 1;
  let total = 0;
  for (const message of messages as unknown[]) {
    total += perMessage;
    if (!isObject(message)) continue;
    total += contentTokens(message.content, model, options);
    if (typeof message.role === 'string') total += countTextTokens(message.role, model, options);
    if (typeof message.name === 'string') total += perName + countTextTokens(message.name, model, options);
  }
  return total + 3;
}

/**
 * The tokens of a completions `prompt` or moderations `input`: a string; an array of strings
 * (counted as their concatenation); or pre-tokenised input, an array of token ids or of such
 * arrays (counted by length; one-api counts arrays as 0). Anything else → 0.
 */
export function countInputTokens(input: unknown, model: string, options: CountOptions = {}): number {
  if (typeof input === 'string') return countTextTokens(input, model, options);
  if (!Array.isArray(input)) return 0;
  const items = input as unknown[];
  if (items.every((item) => typeof item === 'string')) return countTextTokens(items.join(''), model, options);
  if (items.every((item) => typeof item === 'number')) return items.length;
  if (items.every((item) => Array.isArray(item))) return (items as unknown[][]).reduce((sum, ids) => sum + ids.length, 0);
  return 0;
}

/** The prompt tokens of a request (§4.4 step 6): chat `messages`, completions `prompt`, moderations `input`; 0 for other modes. */
export function countPromptTokens(mode: RelayMode, json: Readonly<Record<string, unknown>>, model: string, options: CountOptions = {}): number {
  switch (mode) {
    case 'chat':
      return countChatPromptTokens(json.messages, model, options);
    case 'completions':
      return countInputTokens(json.prompt, model, options);
    case 'moderations':
      return countInputTokens(json.input, model, options);
    default:
      return 0;
  }
}
