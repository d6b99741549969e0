import { msg, type Message } from './message';

/**
 * The ranges of every number a person or a client can set (quotas, counts, times, ratios, the
 * numeric options), shared by the console (checked before sending) and the server (checked before
 * anything is written). Pure: a check answers null or a message key with its parameters; the
 * console fills `{field}` with a translated label, the server with the wire name.
 */

/** The largest quota anyone may set or add at once: 10^15 (two billion US$ at the default 500,000 per US$). */
export const maxQuota = 1_000_000_000_000_000;
/** The last second of year 9999 (the largest expiry a date picker can produce). */
export const maxUnixTime = 253_402_300_799;
/** Redemption codes created at once (one-api's limit). */
export const maxRedemptionCount = 100;
/** Retries of a failed relay request on other channels. */
export const maxRetryTimes = 10;
/** Largest ratio in a ratio table or QuotaPerUnit (keeps every price a finite, safe number). */
export const maxRatio = 1_000_000_000;

/** A range rule. `int`: an integer in [min, max] (plus the values in `also`); `real`: a finite number. */
export type NumberRule =
  | { readonly kind: 'int'; readonly min: number; readonly max: number; readonly also?: readonly number[] }
  | { readonly kind: 'real'; readonly min: number; readonly max: number; readonly minExclusive?: boolean }
  | { readonly kind: 'expiry' };

/** Why a number was refused: a `number.*` catalogue key and its parameters (without `field`). */
export interface NumberProblem {
  readonly key: 'number.integer' | 'number.number' | 'number.range' | 'number.positiveRange' | 'number.expiry';
  readonly params: Readonly<Record<string, number>>;
}

export const intRange = (min: number, max: number, also?: readonly number[]): NumberRule =>
  also === undefined ? { kind: 'int', min, max } : { kind: 'int', min, max, also };

/** Every rule by what it governs. */
export const numberRules = {
  /** A balance (user quota, token remaining quota, quota options). */
  balance: intRange(0, maxQuota),
  /** An amount to add (top-up, a redemption code's value). */
  amount: intRange(1, maxQuota),
  /** A redemption code on create: 0 keeps one-api's default value of 100. */
  redemptionQuotaOnCreate: intRange(0, maxQuota),
  /** An unlimited token's remaining quota is not used; one-api stores -1 there. */
  unlimitedRemainQuota: intRange(-1, maxQuota),
  redemptionCount: intRange(1, maxRedemptionCount),
  retryTimes: intRange(0, maxRetryTimes),
  port: intRange(1, 65535),
  /**
   * Seconds (ChannelDisableThreshold: a response slower than this disables the channel). More
   * than 0: at 0 every test would disable its channel.
   */
  seconds: { kind: 'real', min: 0, max: 86_400, minExclusive: true } as NumberRule,
  quotaPerUnit: { kind: 'real', min: 0, max: maxRatio, minExclusive: true } as NumberRule,
  ratio: { kind: 'real', min: 0, max: maxRatio } as NumberRule,
  expiry: { kind: 'expiry' } as NumberRule,
  /** A channel's priority (one-api: int64): any safe integer. */
  channelPriority: intRange(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
  /** A channel's weight (one-api: uint): a safe integer of 0 or more. */
  channelWeight: intRange(0, Number.MAX_SAFE_INTEGER),
} as const;

/** The numeric options and their rules (every other option is text or a boolean). */
export const numericOptionRules: Readonly<Record<string, NumberRule>> = {
  QuotaForNewUser: numberRules.balance,
  QuotaForInviter: numberRules.balance,
  QuotaForInvitee: numberRules.balance,
  QuotaRemindThreshold: numberRules.balance,
  PreConsumedQuota: numberRules.balance,
  RetryTimes: numberRules.retryTimes,
  SMTPPort: numberRules.port,
  ChannelDisableThreshold: numberRules.seconds,
  QuotaPerUnit: numberRules.quotaPerUnit,
};

const integerText = /^[+-]?\d+$/;
const decimalText = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A typed text or a JSON number as a number; NaN when it is neither a number nor numeric text. */
export function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return Number.NaN;
  const text = value.trim();
  return decimalText.test(text) ? Number(text) : Number.NaN;
}

/** Whether a value (number or text) is written as an integer (`1.0` and `1e3` are not). */
const looksInteger = (value: unknown): boolean =>
  typeof value === 'number' ? Number.isInteger(value) : typeof value === 'string' && integerText.test(value.trim());

/** Null when `value` (a JSON number or a typed text) satisfies `rule`, else why not. */
export function checkNumber(rule: NumberRule, value: unknown): NumberProblem | null {
  const n = numberOf(value);
  if (rule.kind === 'expiry') {
    if (!looksInteger(value) || !(n === -1 || (n >= 0 && n <= maxUnixTime))) return { key: 'number.expiry', params: { max: maxUnixTime } };
    return null;
  }
  if (rule.kind === 'int') {
    if (!looksInteger(value)) return { key: 'number.integer', params: {} };
    if ((n < rule.min || n > rule.max) && !(rule.also ?? []).includes(n)) return { key: 'number.range', params: { min: rule.min, max: rule.max } };
    return null;
  }
  if (!Number.isFinite(n)) return { key: 'number.number', params: {} };
  const low = rule.minExclusive === true ? n <= rule.min : n < rule.min;
  if (low || n > rule.max) return { key: rule.minExclusive === true ? 'number.positiveRange' : 'number.range', params: { min: rule.min, max: rule.max } };
  return null;
}

/** The problem as a console message; `fieldKey` is the catalogue key of the field's label. */
export const numberMessage = (problem: NumberProblem, fieldKey: string): Message =>
  msg(problem.key, { ...problem.params, field: fieldKey });

/** A ratio table option: a JSON object whose values are finite numbers in [0, maxRatio]. */
export type RatioTableProblem =
  | { readonly key: 'number.ratioTable'; readonly params: Readonly<Record<string, never>> }
  | { readonly key: 'number.ratioEntry'; readonly params: { readonly entry: string } };

/**
 * Null when `text` is a JSON object of non-negative finite ratios (at most `maxRatio`), else the
 * problem (naming the first bad entry). `kept` are entries allowed as they are although out of
 * range (the default table's own `openrouter/auto: -500000`, kept as one-api ships it).
 */
export function checkRatioTable(text: string, kept: Readonly<Record<string, number>> = {}): RatioTableProblem | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { key: 'number.ratioTable', params: {} };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { key: 'number.ratioTable', params: {} };
  for (const [name, ratio] of Object.entries(value as Record<string, unknown>)) {
    if (typeof ratio === 'number' && kept[name] === ratio) continue;
    if (typeof ratio !== 'number' || checkNumber(numberRules.ratio, ratio) !== null) return { key: 'number.ratioEntry', params: { entry: name } };
  }
  return null;
}

/** The entries of the built-in ModelRatio that are out of range but kept (one-api's own default). */
export const keptModelRatios: Readonly<Record<string, number>> = { 'openrouter/auto': -500000 };

/**
 * A form field's number: null when `text` satisfies `rule`, else the message to show: the form's
 * own wording (`notInteger`) when the text is not a whole number, else the range naming the
 * field (`fieldKey`, a label's catalogue key).
 */
export function fieldProblem(rule: NumberRule, text: string, fieldKey: string, notInteger: Message): Message | null {
  const problem = checkNumber(rule, text);
  if (problem === null) return null;
  return problem.key === 'number.integer' ? notInteger : numberMessage(problem, fieldKey);
}

/** An option's typed value: null when fine (or not a numeric option), else the message naming the option's label. */
export function optionValueProblem(key: string, value: string): Message | null {
  if (key === 'ModelRatio' || key === 'GroupRatio' || key === 'CompletionRatio') {
    const problem = checkRatioTable(value, key === 'ModelRatio' ? keptModelRatios : {});
    return problem === null ? null : msg(problem.key, { ...problem.params, field: `settings.option.${key}` });
  }
  const rule = numericOptionRules[key];
  if (rule === undefined) return null;
  const problem = checkNumber(rule, value);
  return problem === null ? null : numberMessage(problem, `settings.option.${key}`);
}
