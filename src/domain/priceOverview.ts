import {
  filterPrices,
  groupMultipliers,
  modelPrices,
  parseQuotaPerUnit,
  parseRatioMap,
  type ModelPrice,
} from './ratioPrices';

/**
 * The price overview of the operation settings (contract §3.5, §4.6): the ratio options as
 * edited, turned into the rows and counts the ratio section shows beside the JSON. Pure: no I/O.
 */

/** The ratio options as typed (JSON text) and QuotaPerUnit. */
export interface RatioOptions {
  readonly modelRatio: string;
  readonly completionRatio: string;
  readonly groupRatio: string;
  readonly quotaPerUnit: string;
}

export interface GroupMultiplier {
  readonly group: string;
  readonly ratio: number;
}

/** Every model priced (null when ModelRatio or CompletionRatio is not a JSON object of numbers). */
export interface PriceTable {
  /** Quota per US dollar used (the default when the option is not a positive number). */
  readonly quotaPerUnit: number;
  readonly modelRatioValid: boolean;
  readonly completionRatioValid: boolean;
  readonly rows: readonly ModelPrice[] | null;
  /** The group multipliers by group name; null when GroupRatio is invalid. */
  readonly groups: readonly GroupMultiplier[] | null;
}

/** At most this many price rows are shown (566 default models would make the tab slow); the filter finds the rest. */
export const priceRowLimit = 50;

export function priceTableOf(options: RatioOptions): PriceTable {
  const models = parseRatioMap(options.modelRatio);
  const completions = parseRatioMap(options.completionRatio);
  const groups = parseRatioMap(options.groupRatio);
  const quotaPerUnit = parseQuotaPerUnit(options.quotaPerUnit);
  return {
    quotaPerUnit,
    modelRatioValid: models !== null,
    completionRatioValid: completions !== null,
    rows: models === null || completions === null ? null : modelPrices(models, completions, quotaPerUnit),
    groups: groups === null ? null : groupMultipliers(groups),
  };
}

/** The rows a model-name filter keeps, at most `limit` of them shown. */
export interface ShownPrices {
  readonly rows: readonly ModelPrice[];
  /** How many rows match the filter. */
  readonly matching: number;
  /** How many rows there are. */
  readonly total: number;
  /** More rows match than are shown. */
  readonly limited: boolean;
}

export function shownPrices(table: PriceTable, filter: string, limit: number = priceRowLimit): ShownPrices {
  const all = table.rows ?? [];
  const matching = filterPrices(all, filter);
  return { rows: matching.slice(0, limit), matching: matching.length, total: all.length, limited: matching.length > limit };
}

/** A ratio or multiplier as shown: at most six significant digits, no trailing zeros. */
export const ratioText = (n: number): string => String(Number(n.toPrecision(6)));
