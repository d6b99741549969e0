import type { Kysely } from 'kysely';
import defaultsJson from '../data/options-defaults.json' with { type: 'json' };
import type { Database } from '../db/schema';
import { isSecretOptionKey } from '../../src/domain/validation';

/**
 * The `options` table (contract §2.11, §3.4). Values are always strings; the database is the
 * single source of truth (read per request, so a change by another process or a direct SQL
 * update applies at once). Missing rows fall back to the defaults.
 */

interface DefaultEntry {
  readonly value: string;
  readonly hiddenFromGet: boolean;
}

const defaults = defaultsJson as Readonly<Record<string, DefaultEntry>>;

/** The 51 default option keys with their values, in one-api's start-up order; `Theme` follows `THEME`. */
export function optionDefaults(theme = 'default'): ReadonlyArray<readonly [string, string]> {
  return Object.entries(defaults).map(([key, entry]) => [key, key === 'Theme' ? theme : entry.value] as const);
}

/** Whether `GET /api/option/` hides a key (it ends in `Token` or `Secret`). */
export const isHiddenOption = (key: string): boolean => isSecretOptionKey(key);

/** A read-only view of some option values with one-api's parsing rules. */
export interface OptionValues {
  /** The raw string ('' when neither stored nor defaulted). */
  str(key: string): string;
  /** `"true"` is true, anything else false (one-api's rule for `...Enabled` keys). */
  bool(key: string): boolean;
  /** Lenient number parsing: unparsable gives 0. */
  num(key: string): number;
}

/** The default value of `key`, or '' for keys without default (e.g. `LarkClientId`). */
const defaultOf = (key: string): string => defaults[key]?.value ?? '';

/** Wraps a key→value map in the parsing helpers. */
export function optionValues(map: ReadonlyMap<string, string>): OptionValues {
  const str = (key: string) => map.get(key) ?? defaultOf(key);
  return {
    str,
    bool: (key) => str(key) === 'true',
    num: (key) => {
      const n = Number.parseFloat(str(key));
      return Number.isFinite(n) ? n : 0;
    },
  };
}

/** Reads `keys` from the options table (missing rows fall back to defaults). */
export async function readOptions(db: Kysely<Database>, keys: readonly string[]): Promise<OptionValues> {
  if (keys.length === 0) return optionValues(new Map());
  const rows = await db.selectFrom('options').select(['key', 'value']).where('key', 'in', [...keys]).execute();
  return optionValues(new Map(rows.map((r) => [r.key, r.value ?? ''])));
}

/** one-api's LogQuota: `＄x.xxxxxx 额度` in currency mode, else `<q> 点额度`. */
export function logQuota(quota: number, options: OptionValues): string {
  if (options.bool('DisplayInCurrencyEnabled')) {
    const perUnit = options.num('QuotaPerUnit');
    return `＄${(quota / (perUnit === 0 ? 1 : perUnit)).toFixed(6)} 额度`;
  }
  return `${quota} 点额度`;
}

/** The options LogQuota reads. */
export const logQuotaKeys = ['DisplayInCurrencyEnabled', 'QuotaPerUnit'] as const;
