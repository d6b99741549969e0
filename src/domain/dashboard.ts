import * as t from 'io-ts';
import { DashboardRow } from './user';

/**
 * The usage dashboard (/dashboard): the PascalCase rows of `GET /api/user/dashboard`
 * (contract §2.4.8, extended with a range), range presets, and the pure aggregations the
 * charts and the summary cards are drawn from. Every day is a local day at an explicit
 * `utcOffset` (minutes east of UTC), the same offset the server is asked to group by.
 */

export { DashboardRow };

/** The answer: one row per (day, model), ordered by day then model. */
export const DashboardRows = t.array(DashboardRow);
export type DashboardRows = t.TypeOf<typeof DashboardRows>;

/** The query of the ranged dashboard (wire.md "Dashboard with a range"). */
export interface DashboardQuery {
  /** Unix seconds, inclusive. */
  readonly start_timestamp: number;
  /** Unix seconds, inclusive. */
  readonly end_timestamp: number;
  /** Minutes east of UTC: the days are the caller's local days. */
  readonly utc_offset: number;
  /** Admins only: absent = the caller, 0 = all users, N = that user. */
  readonly user_id?: number;
}

export const rangePresets = ['today', '7d', '30d', '90d', 'custom'] as const;
export type RangePreset = (typeof rangePresets)[number];
export const isRangePreset = (value: string): value is RangePreset => (rangePresets as readonly string[]).includes(value);

export const metrics = ['requests', 'quota', 'tokens'] as const;
export type Metric = (typeof metrics)[number];
export const isMetric = (value: string): value is Metric => (metrics as readonly string[]).includes(value);

/** An inclusive range of Unix seconds. */
export interface DashboardRange {
  readonly start: number;
  readonly end: number;
}

export const daySeconds = 86_400;
/** The server refuses a span longer than this (`统计时间范围不合法`). */
export const maxRangeDays = 366;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** 'YYYY-MM-DD' of Unix seconds seen at `utcOffset` minutes east of UTC. */
export function dayOf(epochSeconds: number, utcOffset: number): string {
  const d = new Date((epochSeconds + utcOffset * 60) * 1000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Unix seconds of the local midnight starting the day that contains `epochSeconds`. */
export function startOfDay(epochSeconds: number, utcOffset: number): number {
  const local = epochSeconds + utcOffset * 60;
  return local - (((local % daySeconds) + daySeconds) % daySeconds) - utcOffset * 60;
}

/** Unix seconds of local midnight of 'YYYY-MM-DD', or null when it is not a real date. */
export function parseDay(text: string, utcOffset: number): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (m === null) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(year, month - 1, day);
  const d = new Date(ms);
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return ms / 1000 - utcOffset * 60;
}

const presetDays: Readonly<Record<Exclude<RangePreset, 'custom'>, number>> = { today: 1, '7d': 7, '30d': 30, '90d': 90 };

/** The range of a preset: whole local days ending with today (`custom` keeps the 7 days). */
export function rangeOfPreset(preset: RangePreset, now: number, utcOffset: number): DashboardRange {
  const days = preset === 'custom' ? 7 : presetDays[preset];
  const today = startOfDay(now, utcOffset);
  return { start: today - (days - 1) * daySeconds, end: today + daySeconds - 1 };
}

/** Why a custom range is refused. */
export type RangeProblem = 'invalidDate' | 'endBeforeStart' | 'tooLong';

/** The range from two 'YYYY-MM-DD' days (both inclusive), or why not. */
export function customRange(
  startDay: string,
  endDay: string,
  utcOffset: number,
): { readonly range: DashboardRange } | { readonly problem: RangeProblem } {
  const start = parseDay(startDay, utcOffset);
  const endStart = parseDay(endDay, utcOffset);
  if (start === null || endStart === null) return { problem: 'invalidDate' };
  if (endStart < start) return { problem: 'endBeforeStart' };
  const end = endStart + daySeconds - 1;
  if (end - start + 1 > maxRangeDays * daySeconds) return { problem: 'tooLong' };
  return { range: { start, end } };
}

/** Every local day of the range, in order ('YYYY-MM-DD'). */
export function daysOf(range: DashboardRange, utcOffset: number): string[] {
  const out: string[] = [];
  const last = dayOf(range.end, utcOffset);
  // noon of each day, so that a changing offset never skips or repeats a day
  for (let s = startOfDay(range.start, utcOffset) + daySeconds / 2; out.length <= maxRangeDays + 1; s += daySeconds) {
    const day = dayOf(s, utcOffset);
    out.push(day);
    if (day >= last) break;
  }
  return out;
}

/** The figure of a row for a metric; tokens = prompt + completion. */
export function valueOf(row: DashboardRow, metric: Metric): number {
  if (metric === 'requests') return row.RequestCount;
  if (metric === 'quota') return row.Quota;
  return row.PromptTokens + row.CompletionTokens;
}

/** Models in the rows, the largest by `metric` first (ties by name). */
export function modelsOf(rows: readonly DashboardRow[], metric: Metric): string[] {
  return modelTotals(rows).sort((a, b) => b[metric] - a[metric] || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0)).map((m) => m.model);
}

/** One day of the per-day series: the total and the figure of each model (0 when absent). */
export interface DayPoint {
  readonly day: string;
  readonly total: number;
  readonly byModel: Readonly<Record<string, number>>;
}

/** The per-day series of a metric over every day of the range, missing days as zeros. */
export function dailySeries(rows: readonly DashboardRow[], days: readonly string[], metric: Metric): DayPoint[] {
  const models = modelsOf(rows, metric);
  const byDay = new Map<string, Record<string, number>>(days.map((d) => [d, Object.fromEntries(models.map((m) => [m, 0]))]));
  for (const row of rows) {
    const day = byDay.get(row.Day);
    if (day !== undefined) day[row.ModelName] = (day[row.ModelName] ?? 0) + valueOf(row, metric);
  }
  return days.map((day) => {
    const byModel = byDay.get(day) ?? {};
    return { day, total: Object.values(byModel).reduce((a, b) => a + b, 0), byModel };
  });
}

/** Sums of a set of rows. */
export interface UsageTotals {
  readonly requests: number;
  readonly quota: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly tokens: number;
}

export interface ModelTotals extends UsageTotals {
  readonly model: string;
}

const zeroTotals: UsageTotals = { requests: 0, quota: 0, promptTokens: 0, completionTokens: 0, tokens: 0 };

const add = (a: UsageTotals, row: DashboardRow): UsageTotals => ({
  requests: a.requests + row.RequestCount,
  quota: a.quota + row.Quota,
  promptTokens: a.promptTokens + row.PromptTokens,
  completionTokens: a.completionTokens + row.CompletionTokens,
  tokens: a.tokens + row.PromptTokens + row.CompletionTokens,
});

/** Sums over every row. */
export const totalsOf = (rows: readonly DashboardRow[]): UsageTotals => rows.reduce(add, zeroTotals);

/** Sums per model, in the order models first appear. */
export function modelTotals(rows: readonly DashboardRow[]): ModelTotals[] {
  const byModel = new Map<string, UsageTotals>();
  for (const row of rows) byModel.set(row.ModelName, add(byModel.get(row.ModelName) ?? zeroTotals, row));
  return [...byModel].map(([model, totals]) => ({ model, ...totals }));
}

/** The number of local days the range covers. */
export const dayCountOf = (range: DashboardRange): number => Math.max(1, Math.round((range.end - range.start + 1) / daySeconds));

/**
 * Days the remaining quota lasts at the range's average daily use: remaining / (used / days),
 * rounded down; null when nothing was used (it lasts forever). A negative remaining counts as 0.
 */
export function daysLeft(remainingQuota: number, usedInRange: number, dayCount: number): number | null {
  if (usedInRange <= 0 || dayCount <= 0) return null;
  return Math.floor(Math.max(0, remainingQuota) / (usedInRange / dayCount));
}

/** The account figures shown beside the range: the viewed user's remaining and used quota. */
export interface AccountQuota {
  readonly quota: number;
  readonly usedQuota: number;
}

/** Beyond this many days the estimate is shown as "more than" it (a 14-digit day count says nothing). */
export const maxDaysLeftShown = 9_999;

/** How the days-left card reads: forever (no use), more than the limit, or a day count. */
export type DaysLeftText =
  | { readonly kind: 'forever' }
  | { readonly kind: 'over'; readonly days: number }
  | { readonly kind: 'days'; readonly days: number };

/** The days-left card of a `daysLeft` result: null → forever; above `maxDaysLeftShown` → over it. */
export function daysLeftText(days: number | null): DaysLeftText {
  if (days === null || !Number.isFinite(days)) return { kind: 'forever' };
  if (days > maxDaysLeftShown) return { kind: 'over', days: maxDaysLeftShown };
  return { kind: 'days', days };
}

/** A value axis: its ticks from 0 (in the metric's own units), the top, and the decimals a tick label needs. */
export interface ValueAxis {
  readonly ticks: readonly number[];
  readonly top: number;
  /** Decimals of the shown unit (currency) that tell every tick apart; 0 for counts. */
  readonly decimals: number;
}

/** The smallest 1, 2 or 5 × 10^k at least `raw` (raw > 0), with its k. */
function niceStep(raw: number): { readonly step: number; readonly exponent: number } {
  let exponent = Math.floor(Math.log10(raw));
  const base = 10 ** exponent;
  const scaled = raw / base;
  // a hair of tolerance so 0.3 / 0.1 (2.9999…) still counts as 3
  const mantissa = [1, 2, 5, 10].find((m) => m >= scaled - 1e-9) ?? 10;
  if (mantissa === 10) exponent += 1;
  return { step: (mantissa === 10 ? 1 : mantissa) * 10 ** exponent, exponent };
}

/**
 * The y axis of a chart whose largest value is `max` (in the metric's units, quota for money),
 * shown in units of `unit` of them (quota_per_unit in currency mode, else 1): about `count` ticks
 * at a 1-2-5 step of the shown unit, so small amounts get ticks like $0.00002, $0.00004 rather
 * than a column of $0.00. Counts (`whole`) never get a fractional step. Money keeps at least
 * `minDecimals` decimals.
 */
export function valueAxis(max: number, options: { readonly unit?: number; readonly whole?: boolean; readonly count?: number; readonly minDecimals?: number } = {}): ValueAxis {
  const unit = options.unit !== undefined && Number.isFinite(options.unit) && options.unit > 0 ? options.unit : 1;
  const count = Math.max(1, options.count ?? 4);
  const minDecimals = options.minDecimals ?? 0;
  const shownMax = Number.isFinite(max) && max > 0 ? max / unit : 0;
  if (shownMax === 0) return { ticks: [0, unit], top: unit, decimals: minDecimals };
  let { step, exponent } = niceStep(shownMax / count);
  if (options.whole === true && step * unit < 1) {
    step = 1 / unit;
    exponent = Math.floor(Math.log10(step));
  }
  const steps = Math.max(1, Math.ceil(shownMax / step - 1e-9));
  // ticks as integer multiples, rounded to the step's decimals so 3 × 0.1 is 0.3
  const decimalsOfStep = Math.max(0, -exponent);
  const ticks = Array.from({ length: steps + 1 }, (_, i) => Number((i * step).toFixed(Math.min(20, decimalsOfStep))) * unit);
  return { ticks, top: ticks[ticks.length - 1]!, decimals: Math.max(minDecimals, decimalsOfStep) };
}

/**
 * Decimals that show a currency amount with two significant digits (0.000016 → 6), never fewer
 * than `min` nor more than `max`; 0 and amounts of at least 10^-min keep `min`.
 */
export function amountDecimals(amount: number, min = 2, max = 6): number {
  const a = Math.abs(amount);
  if (!Number.isFinite(a) || a === 0) return min;
  const needed = 1 - Math.floor(Math.log10(a));
  return Math.min(max, Math.max(min, needed));
}
