/**
 * Prices implied by the ratio options (contract §3.5, §4.6), for the operation settings' price
 * overview: ratio 1 is $0.002 per 1K tokens, so with QuotaPerUnit quota to the dollar a model's
 * input price per 1M tokens is `ratio × 1e6 / QuotaPerUnit` ($2 at the default 500000), and its
 * output price is that times the completion ratio. Pure: no I/O.
 */
import { defaultQuotaPerUnit } from './constants';

/** A ratio option (ModelRatio, CompletionRatio, GroupRatio) parsed: name → number. */
export type RatioMap = Readonly<Record<string, number>>;

// The one-api default QuotaPerUnit lives in ./constants (the shell's quota display needs it, not these rules).
export { defaultQuotaPerUnit };

/** A JSON object of finite numbers, or null when the text is anything else. */
export function parseRatioMap(text: string): RatioMap | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return null;
    out[key] = value;
  }
  return out;
}

/** QuotaPerUnit as typed; anything but a positive number gives the default. */
export function parseQuotaPerUnit(text: string): number {
  const n = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(n) && n > 0 ? n : defaultQuotaPerUnit;
}

/** $ per 1M input tokens for a model ratio. */
export const inputPricePerMillion = (ratio: number, quotaPerUnit: number = defaultQuotaPerUnit): number =>
  (ratio * 1_000_000) / quotaPerUnit;

/** `name(33)` → { base: 'name', channelType: 33 }; a name without the suffix has no type. */
export function splitChannelSuffix(key: string): { readonly base: string; readonly channelType: number | null } {
  const m = /^(.*)\((\d+)\)$/.exec(key);
  return m === null ? { base: key, channelType: null } : { base: m[1]!, channelType: Number(m[2]) };
}

const commandFamily: RatioMap = {
  command: 2,
  'command-light': 2,
  'command-nightly': 2,
  'command-light-nightly': 2,
  'command-r': 3,
  'command-r-plus': 5,
};

/**
 * The built-in completion-ratio rules of contract §3.5, in their order; null for the
 * per-model table of hosted chat models (ibm-granite/, meta/llama-, mistralai/), which is
 * not reproduced here ('default' in the overview).
 */
export function builtInCompletionRatio(model: string): number | null {
  const name = model.startsWith('qwen-') ? model.replace(/-internet$/, '') : model;
  if (name.startsWith('gpt-3.5')) {
    if (name === 'gpt-3.5-turbo' || name.endsWith('0125')) return 3;
    if (name.endsWith('1106')) return 2;
    return 4 / 3;
  }
  if (name.startsWith('gpt-4')) {
    if (name.startsWith('gpt-4o')) return name === 'gpt-4o-2024-05-13' ? 3 : 4;
    if (name.startsWith('gpt-4-turbo') || name.endsWith('preview')) return 3;
    return 2;
  }
  if (name.startsWith('o1')) return 4;
  if (name === 'chatgpt-4o-latest') return 3;
  if (name.startsWith('claude-3')) return 5;
  if (name.startsWith('claude-')) return 3;
  if (name.startsWith('mistral-') || name.startsWith('gemini-')) return 3;
  if (name.startsWith('deepseek-')) return 2;
  if (name === 'llama2-70b-4096') return 1.25;
  if (name === 'llama3-8b-8192') return 2;
  if (name === 'llama3-70b-8192') return 0.79 / 0.59;
  const command = commandFamily[name];
  if (command !== undefined) return command;
  if (name === 'grok-beta') return 3;
  if (/^(ibm-granite\/|meta\/llama-|mistralai\/)/.test(name)) return null;
  return 1;
}

/** Where a completion ratio comes from: the CompletionRatio option, a built-in rule, or neither. */
export type CompletionSource = 'configured' | 'rule' | 'default';

/**
 * The completion ratio of ModelRatio key `key` (which may carry a `(type)` suffix): the
 * configured entry for the key, then for the bare name, then the built-in rules.
 */
export function completionRatioOf(
  key: string,
  configured: RatioMap,
): { readonly ratio: number | null; readonly source: CompletionSource } {
  const own = configured[key];
  if (own !== undefined) return { ratio: own, source: 'configured' };
  const { base } = splitChannelSuffix(key);
  const bare = configured[base];
  if (bare !== undefined) return { ratio: bare, source: 'configured' };
  const rule = builtInCompletionRatio(base);
  return rule === null ? { ratio: null, source: 'default' } : { ratio: rule, source: 'rule' };
}

/** One row of the price overview. */
export interface ModelPrice {
  readonly model: string;
  readonly modelRatio: number;
  readonly completionRatio: number | null;
  readonly completionSource: CompletionSource;
  /** $ per 1M input tokens. */
  readonly input: number;
  /** $ per 1M output tokens; null when the completion ratio is not known here. */
  readonly output: number | null;
}

/** Every ModelRatio entry priced, sorted by model name. */
export function modelPrices(modelRatio: RatioMap, completion: RatioMap, quotaPerUnit: number = defaultQuotaPerUnit): ModelPrice[] {
  return Object.keys(modelRatio)
    .sort((a, b) => a.localeCompare(b))
    .map((model) => {
      const ratio = modelRatio[model]!;
      const c = completionRatioOf(model, completion);
      const input = inputPricePerMillion(ratio, quotaPerUnit);
      return {
        model,
        modelRatio: ratio,
        completionRatio: c.ratio,
        completionSource: c.source,
        input,
        output: c.ratio === null ? null : input * c.ratio,
      };
    });
}

/** The rows whose model name contains `filter` (case-insensitive; blank keeps all). */
export function filterPrices(rows: readonly ModelPrice[], filter: string): readonly ModelPrice[] {
  const needle = filter.trim().toLowerCase();
  return needle === '' ? rows : rows.filter((r) => r.model.toLowerCase().includes(needle));
}

/** The group multipliers, sorted by group name. */
export function groupMultipliers(groups: RatioMap): { readonly group: string; readonly ratio: number }[] {
  return Object.keys(groups)
    .sort((a, b) => a.localeCompare(b))
    .map((group) => ({ group, ratio: groups[group]! }));
}

/** A price as shown: 4 decimals at $1 and above, 4 significant digits below, no trailing zeros. */
export function formatPrice(dollars: number): string {
  if (dollars === 0) return '0';
  const rounded = Math.abs(dollars) >= 1 ? Number(dollars.toFixed(4)) : Number(dollars.toPrecision(4));
  const decimals = Math.min(12, Math.max(0, 3 - Math.floor(Math.log10(Math.abs(rounded)))));
  return rounded.toFixed(Math.max(decimals, 4)).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}
