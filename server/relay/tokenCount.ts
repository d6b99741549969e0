import { countBounded, maxTokenBytes } from './tokenCore.mjs';
import { countOnThread, syncCountChars } from './tokenCountPool';
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
 *
 * Cost (hostile input): every count is linear in the text (tokenCore.mjs slices over-long pieces
 * before byte pair encoding), and a request's texts are counted on the calling thread only up to
 * `syncCountChars` characters in all; larger ones go to a counting thread (`countPlan`). A
 * request's count is first described as a `CountPlan` (fixed tokens + texts), whose cheap bounds
 * (`planBounds`: at least ceil(bytes / 128), at most bytes) let the pipeline refuse or reserve
 * before anything is encoded.
 */

/** Counting options. */
export interface CountOptions {
  /** ApproximateTokenEnabled: estimate from the byte length instead of encoding. */
  readonly approximate?: boolean;
}

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
  return countBounded(text, usesO200k(model));
}

/** A count to make: `fixed` tokens plus the tokens of each text (counted one by one, as one-api does). */
export interface CountPlan {
  readonly fixed: number;
  readonly texts: readonly string[];
}

/** The plan's count on the calling thread (bounded by the texts' length; see `countPlan` for large ones). */
export function countPlanSync(plan: CountPlan, model: string, options: CountOptions = {}): number {
  let total = plan.fixed;
  for (const text of plan.texts) total += countTextTokens(text, model, options);
  return total;
}

/** The characters of the plan's texts. */
export const planChars = (plan: CountPlan): number => plan.texts.reduce((sum, text) => sum + text.length, 0);

/**
 * The plan's count, off the event loop when its texts are longer than `syncCountChars` in all
 * (rejects with `CountingBusy` when the counting threads have too much waiting).
 */
export async function countPlan(plan: CountPlan, model: string, options: CountOptions = {}): Promise<number> {
  if (options.approximate === true || planChars(plan) <= syncCountChars) return countPlanSync(plan, model, options);
  return plan.fixed + (await countOnThread(plan.texts.filter((text) => text !== ''), usesO200k(model)));
}

/**
 * Bounds of the plan's count that cost no encoding: byte-level BPE spends at least one byte per
 * token and at most `maxTokenBytes` (128), so a text of B UTF-8 bytes is ceil(B / 128) to B
 * tokens. With ApproximateTokenEnabled the count itself is cheap and both bounds are it.
 */
export function planBounds(plan: CountPlan, model: string, options: CountOptions = {}): { readonly lower: number; readonly upper: number } {
  if (options.approximate === true) {
    const exact = countPlanSync(plan, model, options);
    return { lower: exact, upper: exact };
  }
  let lower = plan.fixed;
  let upper = plan.fixed;
  for (const text of plan.texts) {
    const bytes = Buffer.byteLength(text);
    lower += Math.ceil(bytes / maxTokenBytes);
    upper += bytes;
  }
  return { lower, upper };
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

/** Adds a message's `content` to `plan`: a string, or an array of `text` / `image_url` parts. */
function addContent(plan: { fixed: number; texts: string[] }, content: unknown, model: string): void {
  if (typeof content === 'string') {
    plan.texts.push(content);
    return;
  }
  if (!Array.isArray(content)) return;
  for (const part of content as unknown[]) {
    if (!isObject(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') plan.texts.push(part.text);
    else if (part.type === 'image_url') plan.fixed += imagePartTokens(part, model);
  }
}

/**
 * The prompt tokens of a chat `messages` array (OpenAI's counting recipe, as one-api applies
 * it): per message 3 (gpt-3.5-turbo-0301: 4) + content + role, and when `name` is present its
 * tokens + 1 (0301: − 1); plus 3 for the reply priming. Not an array → 0.
 */
export function countChatPromptTokens(messages: unknown, model: string, options: CountOptions = {}): number {
  return countPlanSync(chatPromptPlan(messages, model), model, options);
}

/** What `countChatPromptTokens` counts, as a plan. */
export function chatPromptPlan(messages: unknown, model: string): CountPlan {
  if (!Array.isArray(messages)) return { fixed: 0, texts: [] };
  const legacy = model === 'gpt-3.5-turbo-0301';
  const perMessage = legacy ? 4 : 3;
  const perName = legacy ? -1 : 1;
  const plan = { fixed: 3, texts: [] as string[] };
  for (const message of messages as unknown[]) {
    plan.fixed += perMessage;
    if (!isObject(message)) continue;
    addContent(plan, message.content, model);
    if (typeof message.role === 'string') plan.texts.push(message.role);
    if (typeof message.name === 'string') {
      plan.fixed += perName;
      plan.texts.push(message.name);
    }
  }
  return plan;
}

/**
 * The tokens of a completions `prompt` or moderations `input`: a string; an array of strings
 * (counted as their concatenation); or pre-tokenised input, an array of token ids or of such
 * arrays (counted by length; one-api counts arrays as 0). Anything else → 0.
 */
export function countInputTokens(input: unknown, model: string, options: CountOptions = {}): number {
  return countPlanSync(inputPlan(input), model, options);
}

/** What `countInputTokens` counts, as a plan. */
export function inputPlan(input: unknown): CountPlan {
  if (typeof input === 'string') return { fixed: 0, texts: [input] };
  if (!Array.isArray(input)) return { fixed: 0, texts: [] };
  const items = input as unknown[];
  if (items.every((item) => typeof item === 'string')) return { fixed: 0, texts: [items.join('')] };
  if (items.every((item) => typeof item === 'number')) return { fixed: items.length, texts: [] };
  if (items.every((item) => Array.isArray(item))) return { fixed: (items as unknown[][]).reduce((sum, ids) => sum + ids.length, 0), texts: [] };
  return { fixed: 0, texts: [] };
}

/** The prompt tokens of a request (§4.4 step 6): chat `messages`, completions `prompt`, moderations `input`; 0 for other modes. */
export function countPromptTokens(mode: RelayMode, json: Readonly<Record<string, unknown>>, model: string, options: CountOptions = {}): number {
  return countPlanSync(promptPlan(mode, json, model), model, options);
}

/** What `countPromptTokens` counts, as a plan. */
export function promptPlan(mode: RelayMode, json: Readonly<Record<string, unknown>>, model: string): CountPlan {
  switch (mode) {
    case 'chat':
      return chatPromptPlan(json.messages, model);
    case 'completions':
      return inputPlan(json.prompt);
    case 'moderations':
      return inputPlan(json.input);
    default:
      return { fixed: 0, texts: [] };
  }
}

/**
 * A place where the text before it can be counted apart from the text after it with the same
 * total: a space or a symbol (not an apostrophe, not a combining mark) between two letters. Both
 * encodings end a letter piece at such a character and start the next piece with it, so the pieces
 * of the two parts are those of the whole (tests/server/relay-tokens.test.ts checks it).
 */
const cutPoint = /(?<=\p{L})(?: |[^\s\p{L}\p{N}\p{M}'])(?=\p{L})/gu;

/** Streamed text is counted once this much has gathered before a cut point. */
const flushChars = 2048;
/** With no cut point in this much text, it is counted in one part anyway (off by a token or two at most). */
const forceChars = 8192;

/**
 * Counts a completion as it streams in, with a bounded cost per chunk and no unbounded string:
 * text gathers until `flushChars`, then everything before the last cut point is counted (on this
 * thread when at most `forceChars`, else on a counting thread) and dropped. The total equals the
 * count of the whole text for ordinary text.
 */
export class CompletionCounter {
  private pending = '';
  /** Where the search for cut points goes on in `pending`, and the last cut found before it. */
  private scanned = 0;
  private lastCut = 0;
  private counted = 0;
  private bytes = 0;
  private readonly offThread: Promise<number>[] = [];
  private readonly o200k: boolean;

  constructor(
    model: string,
    private readonly options: CountOptions = {},
  ) {
    this.o200k = usesO200k(model);
  }

  /** Adds the next piece of the completion. */
  add(text: string): void {
    if (text === '') return;
    if (this.options.approximate === true) {
      this.bytes += Buffer.byteLength(text);
      return;
    }
    this.pending += text;
    if (this.pending.length < flushChars) return;
    cutPoint.lastIndex = Math.max(0, this.scanned - 1);
    for (const match of this.pending.matchAll(cutPoint)) if (match.index > 0) this.lastCut = match.index;
    this.scanned = this.pending.length;
    if (this.lastCut > 0) this.flush(this.lastCut);
    else if (this.pending.length >= forceChars) this.flush(this.pending.length);
  }

  /** Counts `pending` up to `end` and keeps the rest. */
  private flush(end: number): void {
    const part = this.pending.slice(0, end);
    this.pending = this.pending.slice(end);
    this.scanned = this.pending.length;
    this.lastCut = 0;
    this.countPart(part);
  }

  private countPart(part: string): void {
    if (part.length <= forceChars) this.counted += countBounded(part, this.o200k);
    else this.offThread.push(countOnThread([part], this.o200k).catch(() => Math.ceil(Buffer.byteLength(part) / 4)));
  }

  /** The count of everything added. */
  async total(): Promise<number> {
    if (this.options.approximate === true) return Math.floor(this.bytes * 0.38);
    const rest = this.pending;
    this.pending = '';
    this.scanned = 0;
    this.lastCut = 0;
    this.countPart(rest);
    const parts = await Promise.all(this.offThread.splice(0));
    return parts.reduce((sum, n) => sum + n, this.counted);
  }
}
