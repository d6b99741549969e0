import type { Kysely } from 'kysely';
import { builtInCompletionRatio, type RatioMap } from '../../src/domain/ratioPrices';
import type { Database } from '../db/schema';
import { optionDefaults } from '../services/options';
import { ratioTable, relaySettings, type RelaySettings } from './relaySettings';
import type { Usage } from './types';

/**
 * Pricing of a relay request (contract §3.5, §4.6, §4.7): the ratios of a model, channel type and
 * group, what a text request reserves before the upstream call, the final price of its answer,
 * and the consume log's content. Pure arithmetic over the settings (`relaySettings.ts`).
 *
 * Deviation from one-api: a negative ratio (the default table's `openrouter/auto` is -500000)
 * reserves 0 instead of a negative amount (which would credit quota); its final price is 1, as
 * in one-api.
 */

type Db = Kysely<Database>;

/** The built-in tables: the default option values (contract §3.5). */
const defaultText = (key: string): string => optionDefaults().find(([k]) => k === key)?.[1] ?? '{}';
const defaultModelRatio = ratioTable(defaultText('ModelRatio'));
const defaultCompletionRatio = ratioTable(defaultText('CompletionRatio'));

/** A table's own entry (never an inherited property such as `constructor`). */
const entry = (table: RatioMap, key: string): number | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

/** The price multipliers of one request. */
export interface Pricing {
  readonly modelRatio: number;
  readonly groupRatio: number;
  readonly completionRatio: number;
  /** modelRatio × groupRatio. */
  readonly ratio: number;
}

/** The model ratio when no table knows the model (contract §3.5). */
export const unknownModelRatio = 30;

/** Models already reported as unpriced (reported once per process, not per request). */
const reportedUnpriced = new Set<string>();

/** Looks `name` up as "name(type)" then "name": configured table first, then the built-in one at each step. */
function lookup(name: string, channelType: number, configured: RatioMap, builtIn: RatioMap): number | undefined {
  const typed = `${name}(${channelType})`;
  return entry(configured, typed) ?? entry(builtIn, typed) ?? entry(configured, name) ?? entry(builtIn, name);
}

/** The pricing of `model` (the mapped name sent upstream) on a channel of `channelType` for a user of `group`. */
export function pricingOf(settings: Pick<RelaySettings, 'modelRatio' | 'groupRatio' | 'completionRatio'>, model: string, channelType: number, group: string): Pricing {
  const priced = model.startsWith('qwen-') || model.startsWith('command-') ? model.replace(/-internet$/, '') : model;
  let modelRatio = lookup(priced, channelType, settings.modelRatio, defaultModelRatio);
  if (modelRatio === undefined) {
    if (!reportedUnpriced.has(model)) {
      reportedUnpriced.add(model);
      console.error(`[billing] model ratio not found: ${model} (channel type ${channelType}); using ${unknownModelRatio}`);
    }
    modelRatio = unknownModelRatio;
  }
  const groupRatio = entry(settings.groupRatio, group) ?? 1;
  const completed = model.startsWith('qwen-') ? model.replace(/-internet$/, '') : model;
  // Hosted chat models priced per model in one-api (no built-in rule here) fall back to 1.
  const completionRatio =
    lookup(completed, channelType, settings.completionRatio, defaultCompletionRatio) ?? builtInCompletionRatio(completed) ?? 1;
  return { modelRatio, groupRatio, completionRatio, ratio: modelRatio * groupRatio };
}

/** `pricingOf` with the options read from `db`. */
export async function pricingFor(db: Db, model: string, channelType: number, group: string): Promise<Pricing> {
  return pricingOf(await relaySettings(db), model, channelType, group);
}

/** A quota as a safe non-negative integer (huge estimates are capped; they are refused anyway). */
export const quotaAmount = (x: number): number => (Number.isFinite(x) ? Math.min(Math.max(x, 0), Number.MAX_SAFE_INTEGER) : x > 0 ? Number.MAX_SAFE_INTEGER : 0);

/** The reservation of a text request: floor((PreConsumedQuota + prompt + max_tokens) × ratio) (contract §4.6). */
export const preConsumeQuota = (pricing: Pricing, promptTokens: number, maxTokens: number | null, preConsumed: number): number =>
  quotaAmount(Math.floor((Math.max(0, preConsumed) + promptTokens + (maxTokens ?? 0)) * pricing.ratio));

/**
 * What a text request reserves (issue 18): at least `least` must be free, and as much of `most`
 * as is free is held. `least` is one-api's estimate or, when higher, the price of the prompt plus
 * `max_tokens` completion tokens (at the completion ratio); `most` is what the answer can cost at
 * all (its completion is billed at most `max_tokens`, else `maxCompletion` tokens, per choice
 * (`n`), see `boundedUsage`). With `max_tokens` both are that price, so the answer is paid for in advance;
 * without it, every request but the one that takes a balance's last free quota holds its whole
 * possible price, so whatever PreConsumedQuota is, a user or token gets at most one answer
 * beyond its balance, however many requests run at once.
 */
export function reservationRange(
  pricing: Pricing,
  promptTokens: number,
  maxTokens: number | null,
  preConsumed: number,
  maxCompletion: number,
  choices = 1,
): { readonly least: number; readonly most: number } {
  const estimate = preConsumeQuota(pricing, promptTokens, maxTokens, preConsumed);
  const priceUpTo = (completion: number): number => quotaAmount(Math.ceil((promptTokens + completion * choices * pricing.completionRatio) * pricing.ratio));
  if (maxTokens !== null) {
    const least = Math.max(estimate, priceUpTo(maxTokens));
    return { least, most: least };
  }
  return { least: Math.max(estimate, priceUpTo(0)), most: Math.max(estimate, priceUpTo(maxCompletion)) };
}

/**
 * The price of an answered text request (contract §4.6): ceil((prompt + completion × completionRatio)
 * × ratio), at least 1 when the ratio is not 0, 0 when no token was used.
 */
export function finalQuota(pricing: Pricing, usage: Usage): number {
  if (usage.promptTokens + usage.completionTokens === 0) return 0;
  const quota = Math.ceil((usage.promptTokens + usage.completionTokens * pricing.completionRatio) * pricing.ratio);
  return quotaAmount(pricing.ratio !== 0 && quota <= 0 ? 1 : quota);
}

/** Go's `%.2f`: like toFixed(2), but an exact tie rounds to even (0.125 → "0.12", 0.625 → "0.62"). */
export function goFixed2(x: number): string {
  const magnitude = Math.abs(x);
  if (!Number.isFinite(x) || magnitude >= 1e20) return x.toFixed(2);
  const [whole = '0', fraction = ''] = magnitude.toFixed(30).split('.');
  if (fraction.slice(2) === `5${'0'.repeat(27)}` && Number(fraction[1]) % 2 === 0) {
    const truncated = `${whole}.${fraction.slice(0, 2)}`;
    return x < 0 ? `-${truncated}` : truncated;
  }
  return x.toFixed(2);
}

/** Log contents by their three ratios: few distinct prices repeat on every request, and goFixed2 is slow. */
const contents = new Map<string, string>();

/** The consume log content of a text request: `倍率：<model> × <group> × <completion>` (contract §4.7). */
export function consumeLogContent(pricing: Pricing): string {
  const key = `${pricing.modelRatio} ${pricing.groupRatio} ${pricing.completionRatio}`;
  const known = contents.get(key);
  if (known !== undefined) return known;
  const content = `倍率：${goFixed2(pricing.modelRatio)} × ${goFixed2(pricing.groupRatio)} × ${goFixed2(pricing.completionRatio)}`;
  if (contents.size >= 1024) contents.clear();
  contents.set(key, content);
  return content;
}
