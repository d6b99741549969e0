import { balanceUnitOf } from './channelTypes';
import {
  logCleanDefaultOffsetSeconds,
  logDefaultRangeAheadSeconds,
  responseTimeThresholdsMs,
  tokenKeyPrefix,
  usernameDisplayLength,
  type Palette,
} from './constants';
import { msg, type Message } from './message';

/**
 * Display helpers of spec §9 and contract §5.3. Pure: every time zone is an explicit offset in
 * minutes east of UTC (omit it for the machine's local zone, as one-api does).
 */

/** How quota is shown: as currency (divided by quota_per_unit) or as an abbreviated number. */
export interface QuotaDisplay {
  readonly displayInCurrency: boolean;
  readonly quotaPerUnit: number;
}

/**
 * one-api's renderNumber: >= 1e9 'B', >= 1e6 'M', >= 1e4 'k' with one decimal (toFixed);
 * anything smaller (and every negative number) is shown unchanged.
 */
export function formatNumber(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/** A usable quota_per_unit: non-finite or non-positive values fall back to 1 (one-api's default). */
export const effectiveQuotaPerUnit = (quotaPerUnit: number): number =>
  Number.isFinite(quotaPerUnit) && quotaPerUnit > 0 ? quotaPerUnit : 1;

/** Quota expressed in currency units (quota / quota_per_unit). */
export const quotaToCurrency = (quota: number, quotaPerUnit: number): number => quota / effectiveQuotaPerUnit(quotaPerUnit);

/** Currency units back to whole quota (rounded), for inputs that take an amount. */
export const currencyToQuota = (amount: number, quotaPerUnit: number): number =>
  Math.round(amount * effectiveQuotaPerUnit(quotaPerUnit));

/** The most decimals a negative amount gets so it never reads as zero. */
const maxNegativePrecision = 8;

/**
 * A currency amount as '$x.xx'. A negative one (a token or user that went below zero through use)
 * shows its sign before the '$' and as many decimals as it takes not to read as zero
 * ('-$0.000002', never '$-0.00').
 */
export function currencyText(amount: number, precision = 2): string {
  if (!(amount < 0)) return `$${amount.toFixed(precision)}`;
  const abs = -amount;
  let p = precision;
  while (p < maxNegativePrecision && Number(abs.toFixed(p)) === 0) p += 1;
  return `-$${abs.toFixed(p)}`;
}

/** one-api's renderQuota: '$' + currency with `precision` decimals when on, else formatNumber. */
export function formatQuota(quota: number, display: QuotaDisplay, precision = 2): string {
  if (!display.displayInCurrency) return formatNumber(quota);
  return currencyText(quotaToCurrency(quota, display.quotaPerUnit), precision);
}

/** The '(equivalent: $x.xx)' hint beside quota inputs, or null when not in currency mode. */
export function quotaEquivalent(quota: number, display: QuotaDisplay): Message | null {
  if (!display.displayInCurrency) return null;
  return msg('domain.quota.equivalent', { amount: currencyText(quotaToCurrency(quota, display.quotaPerUnit)) });
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The local offset (minutes east of UTC) in force at an instant. */
const localOffsetMinutes = (ms: number): number => -new Date(ms).getTimezoneOffset();

interface Parts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** Calendar fields of an instant seen at a UTC offset. */
function partsAt(ms: number, offsetMinutes: number): Parts {
  const d = new Date(ms + offsetMinutes * 60000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** 'YYYY-MM-DD HH:mm:ss' of Unix seconds, at `offsetMinutes` east of UTC (default: local time). */
export function formatTimestamp(epochSeconds: number, offsetMinutes?: number): string {
  const ms = epochSeconds * 1000;
  const p = partsAt(ms, offsetMinutes ?? localOffsetMinutes(ms));
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/** 'YYYY-MM-DDTHH:mm' (a datetime-local input value) of Unix seconds. */
export function toDateTimeLocal(epochSeconds: number, offsetMinutes?: number): string {
  const ms = epochSeconds * 1000;
  const p = partsAt(ms, offsetMinutes ?? localOffsetMinutes(ms));
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

const dateTimePattern = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * Unix seconds of 'YYYY-MM-DD', 'YYYY-MM-DD HH:mm[:ss]' or 'YYYY-MM-DDTHH:mm[:ss]' read at
 * `offsetMinutes` east of UTC (default: local time), or null when it is not a real date-time.
 */
export function parseDateTime(text: string, offsetMinutes?: number): number | null {
  const m = dateTimePattern.exec(text.trim());
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((s) => (s === undefined ? 0 : Number(s))) as [
    number, number, number, number, number, number,
  ];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = partsAt(asUtc, 0);
  const same = back.year === year && back.month === month && back.day === day && back.hour === hour &&
    back.minute === minute && back.second === second;
  if (!same) return null;
  const ms = offsetMinutes === undefined
    ? new Date(year, month - 1, day, hour, minute, second).getTime()
    : asUtc - offsetMinutes * 60000;
  return Math.floor(ms / 1000);
}

/** A token's expiry: -1 → 'never expires', otherwise the formatted time. */
export const renderExpiry = (expiredTime: number, offsetMinutes?: number): Message =>
  expiredTime === -1 ? msg('domain.token.neverExpires') : { text: formatTimestamp(expiredTime, offsetMinutes) };

/** A token's remaining quota: 'unlimited' when unlimited, otherwise the formatted quota. */
export const renderRemainQuota = (remainQuota: number, unlimited: boolean, display: QuotaDisplay): Message =>
  unlimited ? msg('domain.token.unlimited') : { text: formatQuota(remainQuota, display) };

/** A redemption's redeemed time: 0 → 'not yet redeemed', otherwise the formatted time. */
export const renderRedeemedTime = (redeemedTime: number, offsetMinutes?: number): Message =>
  redeemedTime === 0 ? msg('domain.redemption.notRedeemed') : { text: formatTimestamp(redeemedTime, offsetMinutes) };

/** A balance cell: an amount, or 'not supported' for that channel type. */
export type BalanceText = { readonly kind: 'amount'; readonly text: string } | { readonly kind: 'unsupported' };

/** Label key for a balance the type does not support. */
export const balanceUnsupportedKey = 'domain.balance.unsupported';

/** Spec §9: 1, 8 in dollars; 4, 12, 36, 44 in yuan; 5 in yuan after /10000; 10, 13 as quota. */
export function formatBalance(type: number, balance: number, display: QuotaDisplay): BalanceText {
  switch (balanceUnitOf(type)) {
    case 'usd':
      return { kind: 'amount', text: currencyText(balance) };
    case 'cny':
      return { kind: 'amount', text: `¥${balance.toFixed(2)}` };
    case 'cny10000':
      return { kind: 'amount', text: `¥${(balance / 10000).toFixed(2)}` };
    case 'quota':
      return { kind: 'amount', text: formatQuota(balance, display) };
    case null:
      return { kind: 'unsupported' };
  }
}

export type ResponseBand = 'untested' | 'fast' | 'ok' | 'slow' | 'bad';

/** A channel's response time: its band, colour and label. */
export interface ResponseTime {
  readonly band: ResponseBand;
  readonly color: Palette;
  readonly label: Message;
}

/** Which band a response time (ms) falls in: 0 untested, ≤1 s fast, ≤3 s ok, ≤5 s slow, else bad. */
export function responseBandOf(ms: number): ResponseBand {
  if (ms === 0) return 'untested';
  if (ms <= responseTimeThresholdsMs.fast) return 'fast';
  if (ms <= responseTimeThresholdsMs.ok) return 'ok';
  if (ms <= responseTimeThresholdsMs.slow) return 'slow';
  return 'bad';
}

const bandColors: Readonly<Record<ResponseBand, Palette>> = {
  untested: 'gray',
  fast: 'green',
  ok: 'teal', // one-api: olive
  slow: 'yellow',
  bad: 'red',
};

/** Seconds with two decimals, as the response-time label shows them. */
export const secondsText = (ms: number): string => (ms / 1000).toFixed(2);

/** The response-time cell: 'not tested' for 0, else '{seconds} 秒' in the band's colour. */
export function responseTimeBand(ms: number): ResponseTime {
  const band = responseBandOf(ms);
  const label = band === 'untested' ? msg('domain.responseTime.untested') : msg('domain.responseTime.seconds', { seconds: secondsText(ms) });
  return { band, color: bandColors[band], label };
}

/** Log elapsed-time colour: <1 s green, <3 s olive, <5 s yellow, <10 s orange, else red. */
export function elapsedTimeColor(ms: number): Palette {
  if (ms < 1000) return 'green';
  if (ms < 3000) return 'teal';
  if (ms < 5000) return 'yellow';
  if (ms < 10000) return 'orange';
  return 'red';
}

/**
 * one-api's renderText: text longer than `limit` characters becomes its first `limit − 3`
 * characters plus '...', so the result is `limit` long. Counts code points, not UTF-16 units.
 */
export function truncateText(text: string, limit: number): string {
  const chars = Array.from(text);
  if (chars.length <= limit) return text;
  return `${chars.slice(0, Math.max(0, limit - 3)).join('')}...`;
}

/** The user table's username cell (15 characters). */
export const truncateUsername = (name: string, limit: number = usernameDisplayLength): string => truncateText(name, limit);

/** The group names of a comma-separated group string; empty means ['default']. */
export function groupNames(group: string | null | undefined): readonly string[] {
  const names = (group ?? '').split(',').map((g) => g.trim()).filter((g) => g !== '');
  return names.length === 0 ? ['default'] : names;
}

/** Group badge colour: vip/pro yellow, svip/premium red, others gray. */
export function groupColor(name: string): Palette {
  if (name === 'vip' || name === 'pro') return 'yellow';
  if (name === 'svip' || name === 'premium') return 'red';
  return 'gray';
}

/** The token key as shown and copied: 'sk-' + key. */
export const displayTokenKey = (key: string): string => `${tokenKeyPrefix}${key}`;

/** Default log filter range: from 0 to one hour after now (spec §9). */
export const defaultLogRange = (nowSeconds: number): { readonly start: number; readonly end: number } => ({
  start: 0,
  end: nowSeconds + logDefaultRangeAheadSeconds,
});

/** Default log-clean target: 30 days before now. */
export const defaultLogCleanTarget = (nowSeconds: number): number => nowSeconds - logCleanDefaultOffsetSeconds;

/**
 * A name (a model's, say) cut after each '-', '/', '.', ':' and '_', the points where a narrow
 * cell may wrap it ('gpt-4o-mini' → ['gpt-', '4o-', 'mini']); joined, the parts are the name.
 */
export function wrapParts(name: string): string[] {
  return name.split(/(?<=[-/.:_])/).filter((p) => p !== '');
}
