import * as t from 'io-ts';
import { quotaToCurrency, type QuotaDisplay } from './format';
import { formatPrice } from './ratioPrices';

/**
 * The models-and-prices page (/pricing): the answer of `GET /api/pricing` and the pure
 * filtering, sorting and price display of its table. Prices arrive in quota per 1M tokens with
 * the caller's group multiplier applied (quota per token = model ratio × group ratio, so ratio 1
 * is 1M quota per 1M tokens = $2 at the default QuotaPerUnit 500000); the console shows them in
 * US dollars when the display currency is on, else in quota.
 */

export const PricingModel = t.type({
  model: t.string,
  /** Quota per 1M input (prompt) tokens for the caller's group. */
  input_per_million: t.number,
  /** Quota per 1M output (completion) tokens for the caller's group. */
  output_per_million: t.number,
  /** Served by an enabled channel of the caller's group. */
  available: t.boolean,
});
export type PricingModel = t.TypeOf<typeof PricingModel>;

export const Pricing = t.type({
  group: t.string,
  group_ratio: t.number,
  models: t.array(PricingModel),
});
export type Pricing = t.TypeOf<typeof Pricing>;

/** The columns the table sorts by. */
export const pricingSortKeys = ['model', 'input', 'output'] as const;
export type PricingSortKey = (typeof pricingSortKeys)[number];
export interface PricingSort {
  readonly key: PricingSortKey;
  readonly direction: 'asc' | 'desc';
}
export const defaultPricingSort: PricingSort = { key: 'model', direction: 'asc' };

/** The sort after a click on `key`: the same column flips, another one starts ascending. */
export const toggledPricingSort = (sort: PricingSort, key: PricingSortKey): PricingSort =>
  sort.key === key ? { key, direction: sort.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: 'asc' };

const sortValue = (m: PricingModel, key: PricingSortKey): number | string =>
  key === 'model' ? m.model : key === 'input' ? m.input_per_million : m.output_per_million;

/** The models whose name contains `search` (case-insensitive), in `sort` order (ties by name). */
export function shownPricingModels(models: readonly PricingModel[], search: string, sort: PricingSort): readonly PricingModel[] {
  const needle = search.trim().toLowerCase();
  const kept = needle === '' ? [...models] : models.filter((m) => m.model.toLowerCase().includes(needle));
  const sign = sort.direction === 'asc' ? 1 : -1;
  return kept.sort((a, b) => {
    const x = sortValue(a, sort.key);
    const y = sortValue(b, sort.key);
    const byKey = typeof x === 'string' || typeof y === 'string' ? String(x).localeCompare(String(y)) : x - y;
    return byKey !== 0 ? sign * byKey : a.model.localeCompare(b.model);
  });
}

/** A price per 1M tokens as shown: `$2` with the display currency on, else the quota (`1,000,000`). */
export function pricePerMillionText(quotaPerMillion: number, display: QuotaDisplay): string {
  if (display.displayInCurrency) return `$${formatPrice(quotaToCurrency(quotaPerMillion, display.quotaPerUnit))}`;
  return Math.round(quotaPerMillion).toLocaleString('en-US');
}
