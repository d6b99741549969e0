import { msg, type Message } from './message';
import { optionValueProblem } from './numberRules';
import { completionRatioOf, parseQuotaPerUnit, parseRatioMap, type RatioMap } from './ratioPrices';
import { validateRatioJson, type RatioKey } from './validation';

/**
 * The price editor of the operation settings (contract §3.5, §4.6): ModelRatio and
 * CompletionRatio shown as input and output prices per 1M tokens, GroupRatio as multipliers,
 * and the way back to the options. Ratio 1 costs one quota per token, so 1M tokens cost
 * `ratio × 1e6` quota, which is `ratio × 1e6 / QuotaPerUnit` US dollars ($2 at the default
 * 500000); the output price is the input price times the completion ratio. Pure: no I/O.
 */

/** The unit prices are shown and typed in: US dollars (DisplayInCurrencyEnabled) or quota. */
export type PriceUnit = 'usd' | 'quota';

export interface PriceScale {
  readonly unit: PriceUnit;
  /** Quota per US dollar (QuotaPerUnit, the default when not a positive number). */
  readonly quotaPerUnit: number;
}

/** The scale the options describe: dollars when DisplayInCurrencyEnabled is 'true'. */
export const priceScaleOf = (displayInCurrency: string, quotaPerUnit: string): PriceScale => ({
  unit: displayInCurrency === 'true' ? 'usd' : 'quota',
  quotaPerUnit: parseQuotaPerUnit(quotaPerUnit),
});

/** Price per 1M tokens of a model ratio, in the scale's unit. */
export const priceOfRatio = (ratio: number, scale: PriceScale): number =>
  scale.unit === 'usd' ? (ratio * 1_000_000) / scale.quotaPerUnit : ratio * 1_000_000;

/** The model ratio of a price per 1M tokens in the scale's unit. */
export const ratioOfPrice = (price: number, scale: PriceScale): number =>
  scale.unit === 'usd' ? (price * scale.quotaPerUnit) / 1_000_000 : price / 1_000_000;

/** A number without float noise (12 significant digits): 0.30000000000000004 → 0.3. */
export const tidy = (n: number): number => (n === 0 ? 0 : Number(n.toPrecision(12)));

/** A price as its editable text. */
export const priceText = (n: number): string => String(tidy(n));

/** Highest price accepted: $1,000,000 per 1M tokens (the same amount in quota when shown in quota). */
export const maxPriceOf = (scale: PriceScale): number => (scale.unit === 'usd' ? 1_000_000 : 1_000_000 * scale.quotaPerUnit);

/** Highest group multiplier accepted. */
export const maxMultiplier = 1_000_000;

/** A model row as loaded: what "unchanged" means for its cells. */
export interface ModelOrigin {
  readonly name: string;
  readonly input: string;
  readonly output: string;
  /** The ModelRatio entry (null when only CompletionRatio names the model). */
  readonly modelRatio: number | null;
  /** The CompletionRatio entry of this very key (null: a built-in rule or the default applies). */
  readonly completionRatio: number | null;
  /** The completion ratio in effect (configured, rule, or null when unknown here). */
  readonly effectiveCompletion: number | null;
}

/** One row of the model table: its cells as typed. */
export interface ModelRow {
  readonly id: string;
  readonly name: string;
  readonly input: string;
  readonly output: string;
  /** The output price was typed (else it follows the input price times the completion ratio). */
  readonly outputEdited: boolean;
  /** Null for a row added here. */
  readonly origin: ModelOrigin | null;
}

export interface GroupRow {
  readonly id: string;
  readonly name: string;
  readonly multiplier: string;
  readonly origin: { readonly name: string; readonly multiplier: string; readonly value: number } | null;
}

/** The cell a problem belongs to. */
export type PriceCell = 'name' | 'input' | 'output' | 'multiplier';

/** A problem keyed `<rowId>:<cell>`. */
export type CellProblems = Readonly<Record<string, Message>>;

export const cellKey = (id: string, cell: PriceCell): string => `${id}:${cell}`;

/** Every model of ModelRatio and CompletionRatio, sorted by name, priced in `scale`. */
export function modelRowsOf(models: RatioMap, completions: RatioMap, scale: PriceScale): ModelRow[] {
  const names = [...new Set([...Object.keys(models), ...Object.keys(completions)])].sort((a, b) => a.localeCompare(b));
  return names.map((name, i) => {
    const modelRatio = Object.hasOwn(models, name) ? models[name]! : null;
    const completionRatio = Object.hasOwn(completions, name) ? completions[name]! : null;
    const effectiveCompletion = completionRatioOf(name, completions).ratio;
    const input = modelRatio === null ? '' : priceText(priceOfRatio(modelRatio, scale));
    const output = modelRatio === null || effectiveCompletion === null ? '' : priceText(priceOfRatio(modelRatio, scale) * effectiveCompletion);
    return {
      id: `m${i}`,
      name,
      input,
      output,
      outputEdited: false,
      origin: { name, input, output, modelRatio, completionRatio, effectiveCompletion },
    };
  });
}

/** Every group of GroupRatio, sorted by name. */
export function groupRowsOf(groups: RatioMap): GroupRow[] {
  return Object.keys(groups)
    .sort((a, b) => a.localeCompare(b))
    .map((name, i) => {
      const value = groups[name]!;
      const multiplier = String(value);
      return { id: `g${i}`, name, multiplier, origin: { name, multiplier, value } };
    });
}

/** The number a cell holds, or null when it is not one (empty, NaN, Infinity, words). */
export function cellNumber(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

/** Why a typed number may not be used: empty, not a number, negative, above `max`; null when fine. */
function numberProblem(text: string, max: number, model: string, field: Message): Message | null {
  const params = { model };
  if (text.trim() === '') return withField(msg('priceEditor.invalid.empty', params), field);
  const n = cellNumber(text);
  if (n === null) return withField(msg('priceEditor.invalid.notNumber', params), field);
  if (n < 0) return withField(msg('priceEditor.invalid.negative', params), field);
  if (n > max) return withField(msg('priceEditor.invalid.tooLarge', { ...params, max }), field);
  return null;
}

const withField = (m: Message, field: Message): Message =>
  'key' in m && 'key' in field ? { key: m.key, params: { ...m.params, field: field.key } } : m;

/** The names used more than once (trimmed). */
function duplicates(names: readonly string[]): ReadonlySet<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const n of names.map((x) => x.trim())) {
    if (n === '') continue;
    if (seen.has(n)) twice.add(n);
    seen.add(n);
  }
  return twice;
}

const inputField = msg('priceEditor.field.input');
const outputField = msg('priceEditor.field.output');
const multiplierField = msg('priceEditor.field.multiplier');

/**
 * The problems of the model table, by cell: an empty or repeated name; a typed price that is
 * empty, not a number, negative or above the maximum; an output price above 0 with an input
 * price of 0. Cells still as loaded are not judged (the server accepted them).
 */
export function modelProblems(rows: readonly ModelRow[], scale: PriceScale): CellProblems {
  const problems: Record<string, Message> = {};
  const twice = duplicates(rows.map((r) => r.name));
  const max = maxPriceOf(scale);
  for (const row of rows) {
    const name = row.name.trim();
    if (name === '') problems[cellKey(row.id, 'name')] = msg('priceEditor.invalid.nameEmpty');
    else if (twice.has(name)) problems[cellKey(row.id, 'name')] = msg('priceEditor.invalid.nameDuplicate', { model: name });
    const inputChanged = row.origin === null || row.input !== row.origin.input;
    if (inputChanged) {
      const p = numberProblem(row.input, max, name, inputField);
      if (p !== null) problems[cellKey(row.id, 'input')] = p;
    }
    if (row.outputEdited) {
      const p = numberProblem(row.output, max, name, outputField);
      if (p !== null) problems[cellKey(row.id, 'output')] = p;
      else if ((cellNumber(row.output) ?? 0) > 0 && inputPriceOf(row) === 0)
        problems[cellKey(row.id, 'output')] = msg('priceEditor.invalid.outputNeedsInput', { model: name });
    }
  }
  return problems;
}

/** The problems of the group table, by cell. */
export function groupProblems(rows: readonly GroupRow[]): CellProblems {
  const problems: Record<string, Message> = {};
  const twice = duplicates(rows.map((r) => r.name));
  for (const row of rows) {
    const name = row.name.trim();
    if (name === '') problems[cellKey(row.id, 'name')] = msg('priceEditor.invalid.groupEmpty');
    else if (twice.has(name)) problems[cellKey(row.id, 'name')] = msg('priceEditor.invalid.groupDuplicate', { group: name });
    if (row.origin === null || row.multiplier !== row.origin.multiplier) {
      const p = numberProblem(row.multiplier, maxMultiplier, name, multiplierField);
      if (p !== null) problems[cellKey(row.id, 'multiplier')] = p;
    }
  }
  return problems;
}

/** The input price a row stands for (the loaded one when untouched), or null. */
function inputPriceOf(row: ModelRow): number | null {
  return cellNumber(row.input);
}

/**
 * A row after its input price is typed: the output price follows (input × the completion ratio
 * in effect) until the output price itself is typed.
 */
export function withInput(row: ModelRow, value: string): ModelRow {
  const effective = row.origin?.effectiveCompletion ?? null;
  const n = cellNumber(value);
  if (row.outputEdited || effective === null || n === null) return { ...row, input: value };
  return { ...row, input: value, output: priceText(n * effective) };
}

/** A row after its output price is typed. */
export const withOutput = (row: ModelRow, value: string): ModelRow => ({ ...row, output: value, outputEdited: true });

/** A new, empty model row (its prices are typed, both of them). */
export const newModelRow = (id: string): ModelRow => ({ id, name: '', input: '', output: '', outputEdited: true, origin: null });

export const newGroupRow = (id: string): GroupRow => ({ id, name: '', multiplier: '', origin: null });

/**
 * ModelRatio and CompletionRatio as the table says (only meaningful without problems): an
 * untouched price keeps its loaded ratio exactly; a typed output price sets the completion
 * ratio to output ÷ input; otherwise a configured completion ratio stays with the model.
 */
export function ratiosOfModels(rows: readonly ModelRow[], scale: PriceScale): { readonly models: Record<string, number>; readonly completions: Record<string, number> } {
  const models: Record<string, number> = {};
  const completions: Record<string, number> = {};
  for (const row of rows) {
    const name = row.name.trim();
    const o = row.origin;
    const inputUntouched = o !== null && row.input === o.input;
    const input = cellNumber(row.input);
    if (inputUntouched) {
      if (o.modelRatio !== null) models[name] = o.modelRatio;
    } else if (input !== null) models[name] = tidy(ratioOfPrice(input, scale));
    if (row.outputEdited) {
      const output = cellNumber(row.output);
      if (output !== null && input !== null && input > 0) completions[name] = tidy(output / input);
      else if (o?.completionRatio != null) completions[name] = o.completionRatio;
    } else if (o !== null && o.completionRatio !== null) completions[name] = o.completionRatio;
  }
  return { models, completions };
}

/** GroupRatio as the table says. */
export function ratiosOfGroups(rows: readonly GroupRow[]): Record<string, number> {
  const groups: Record<string, number> = {};
  for (const row of rows) {
    const untouched = row.origin !== null && row.multiplier === row.origin.multiplier;
    const n = untouched ? row.origin.value : cellNumber(row.multiplier);
    if (n !== null) groups[row.name.trim()] = n;
  }
  return groups;
}

/** Two ratio maps hold the same entries (order aside). */
export function sameRatios(a: RatioMap, b: RatioMap): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}

/**
 * The JSON text of a ratio map for the option: `baseline` itself when it says the same (so an
 * untouched table changes nothing), else the map pretty-printed.
 */
export function ratioJson(map: RatioMap, baseline: string): string {
  const before = parseRatioMap(baseline);
  return before !== null && sameRatios(before, map) ? baseline : JSON.stringify(map, null, 2);
}

/** The problem of a ratio option's JSON text (syntax first, then its values), or null. */
export function jsonProblem(key: RatioKey, text: string): Message | null {
  const verdict = validateRatioJson(key, text);
  if (!verdict.ok) return verdict.message ?? msg('validation.ratio.model');
  return optionValueProblem(key, text);
}

/** The model rows a search keeps: names containing it (case-insensitive); unnamed rows always. */
export function filterModelRows(rows: readonly ModelRow[], search: string): readonly ModelRow[] {
  const needle = search.trim().toLowerCase();
  if (needle === '') return rows;
  return rows.filter((r) => r.name.trim() === '' || r.name.toLowerCase().includes(needle));
}
