import { tokenDefaults } from './constants';
import { formatTimestamp } from './format';
import { msg, type Message } from './message';
import type { Token, TokenPayload } from './token';
import { fieldProblem, numberRules } from './numberRules';
import { parseExpiry, validateTokenForm } from './validation';

/**
 * The token form (/token/add, /token/edit/:id; spec §2 "Token form", §3 Token, §5): the values as
 * typed, their defaults, the quick expiry buttons, the IP restriction (subnet) rules, the model
 * list and the payload sent to POST/PUT /api/token/ (contract §2.7.4–2.7.5). Pure.
 */

/** The form as typed: numbers and the expiry stay text until a submit checks them. */
export interface TokenForm {
  readonly name: string;
  /** The models the token may use; empty = no restriction. */
  readonly models: readonly string[];
  /** 'IP restriction': comma-separated CIDRs or plain addresses; empty = any address. */
  readonly subnet: string;
  /** A datetime-local value ('YYYY-MM-DDTHH:mm[:ss]'); empty = never expires (-1). */
  readonly expiry: string;
  readonly remainQuota: string;
  readonly unlimited: boolean;
}

/** The fields a person types into. */
export type TokenTextField = 'name' | 'subnet' | 'expiry' | 'remainQuota';

/** A broken rule and the field it belongs to. */
export interface TokenFormProblem {
  readonly field: TokenTextField;
  readonly message: Message;
}

/** The quick expiry buttons of the form (spec §2): never, one month, one day, one hour, one minute. */
export type ExpiryPreset = 'never' | 'month' | 'day' | 'hour' | 'minute';
export const expiryPresets: readonly ExpiryPreset[] = ['never', 'month', 'day', 'hour', 'minute'];
/** Seconds from now of each timed preset (one month = 30 days). */
export const expiryPresetSeconds: Readonly<Record<Exclude<ExpiryPreset, 'never'>, number>> = {
  month: 30 * 24 * 3600,
  day: 24 * 3600,
  hour: 3600,
  minute: 60,
};

/** Create-form defaults (spec §3): quota 500000, never expires, limited, no model or IP restriction. */
export const emptyTokenForm: TokenForm = {
  name: '',
  models: [],
  subnet: '',
  expiry: '',
  remainQuota: String(tokenDefaults.remain_quota),
  unlimited: tokenDefaults.unlimited_quota,
};

/** The expiry of a preset as Unix seconds: -1 for never, else `nowSeconds` plus the preset's span. */
export const expiryAfter = (preset: ExpiryPreset, nowSeconds: number): number =>
  preset === 'never' ? -1 : Math.floor(nowSeconds) + expiryPresetSeconds[preset];

/** The datetime-local text of an expiry (seconds kept): '' for -1 (never). */
export const expiryText = (expiredTime: number, offsetMinutes?: number): string =>
  expiredTime === -1 ? '' : formatTimestamp(expiredTime, offsetMinutes).replace(' ', 'T');

/** Model names of the wire's comma string: trimmed, each once, empties dropped. */
export function modelsOf(text: string | null | undefined): string[] {
  if (text === null || text === undefined) return [];
  return [...new Set(text.split(',').map((m) => m.trim()).filter((m) => m !== ''))];
}

/** The wire's comma string of a model list ('' = no restriction). */
export const modelsText = (models: readonly string[]): string => models.join(',');

/** Adds the model when absent, removes it when present. */
export const toggleModel = (models: readonly string[], model: string): readonly string[] =>
  models.includes(model) ? models.filter((m) => m !== model) : [...models, model];

/**
 * The models to choose from: the available ones, then the chosen ones the server no longer
 * offers (an edit keeps showing them so they can be removed). Each once.
 */
export const modelOptions = (available: readonly string[], chosen: readonly string[]): readonly string[] => [
  ...new Set([...available, ...chosen]),
];

/** The options whose name contains the filter (case-insensitive; an empty filter keeps all). */
export function filterModels(options: readonly string[], filter: string): readonly string[] {
  const needle = filter.trim().toLowerCase();
  return needle === '' ? options : options.filter((m) => m.toLowerCase().includes(needle));
}

/** The form filled from a stored token. */
export const tokenFormOf = (token: Token, offsetMinutes?: number): TokenForm => ({
  name: token.name,
  models: modelsOf(token.models),
  subnet: token.subnet ?? '',
  expiry: expiryText(token.expired_time, offsetMinutes),
  remainQuota: String(token.remain_quota),
  unlimited: token.unlimited_quota,
});

// ---------------------------------------------------------------------------------------------
// IP restriction

const ipv4Pattern = /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/;

/** A dotted-quad IPv4 address (no leading zeros, each part 0–255). */
export function isIPv4(text: string): boolean {
  return ipv4Pattern.test(text) && text.split('.').every((p) => Number(p) <= 255);
}

const hextet = /^[0-9a-fA-F]{1,4}$/;

/** An IPv6 address: eight groups, one '::' for a run of zeros, an IPv4 tail allowed; no zone. */
export function isIPv6(text: string): boolean {
  if (!text.includes(':') || text.includes('%')) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const all = halves.flatMap(groupsOf);
  let count = 0;
  for (const [i, g] of all.entries()) {
    if (i === all.length - 1 && g.includes('.')) {
      if (!isIPv4(g)) return false;
      count += 2;
    } else if (hextet.test(g)) count += 1;
    else return false;
  }
  return halves.length === 2 ? count <= 7 : count === 8;
}

/** One entry of the IP restriction: a CIDR (`address/prefix`) or a plain IPv4 / IPv6 address. */
export function isSubnetEntry(entry: string): boolean {
  const slash = entry.indexOf('/');
  if (slash < 0) return isIPv4(entry) || isIPv6(entry);
  const address = entry.slice(0, slash);
  const prefix = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix)) return false;
  const bits = isIPv4(address) ? 32 : isIPv6(address) ? 128 : 0;
  return bits > 0 && Number(prefix) <= bits;
}

/** The entries of the IP restriction text: trimmed, empties dropped. */
export const subnetEntries = (text: string): readonly string[] =>
  text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');

/** Why the IP restriction is refused (naming the first bad entry), or null. Empty = any address. */
export function checkSubnet(text: string): Message | null {
  const bad = subnetEntries(text).find((e) => !isSubnetEntry(e));
  return bad === undefined ? null : msg('tokenForm.subnetInvalid', { entry: bad });
}

/**
 * The subnet to send: the entries joined by commas, a plain address as its one-address network
 * (`/32`, `/128`), since the server accepts CIDRs only (contract §2.7.4).
 */
export const subnetPayloadOf = (text: string): string =>
  subnetEntries(text)
    .map((e) => (e.includes('/') ? e : `${e}/${isIPv4(e) ? 32 : 128}`))
    .join(',');

// ---------------------------------------------------------------------------------------------
// Submit

/** The remaining quota as a whole number, or null. */
export function parseQuotaText(text: string): number | null {
  const trimmed = text.trim();
  if (!/^[+-]?\d{1,15}$/.test(trimmed)) return null;
  return Number(trimmed);
}

const expiryValue = (expiry: string): string => (expiry.trim() === '' ? '-1' : expiry);

/**
 * The first broken rule, or null: name required on create, the expiry must parse ('过期时间格式错误！'),
 * the quota must be a whole number (unless unlimited), the IP restriction must list valid entries.
 */
export function checkTokenForm(form: TokenForm, isEdit: boolean, offsetMinutes?: number): TokenFormProblem | null {
  const rules = validateTokenForm(
    { name: form.name, expiredTime: expiryValue(form.expiry), remainQuota: form.remainQuota },
    isEdit,
    offsetMinutes,
  );
  if (!rules.ok) {
    const message = rules.message;
    const field: TokenTextField = message !== null && 'key' in message && message.key === 'validation.token.nameRequired' ? 'name' : 'expiry';
    return { field, message: message ?? msg('validation.token.expiryInvalid') };
  }
  if (!form.unlimited) {
    const quota = fieldProblem(numberRules.balance, form.remainQuota, 'number.field.remainQuota', msg('tokenForm.quotaInvalid'));
    if (quota !== null) return { field: 'remainQuota', message: quota };
  }
  const subnet = checkSubnet(form.subnet);
  if (subnet !== null) return { field: 'subnet', message: subnet };
  return null;
}

/**
 * What a submit sends (integers for quota and expiry; models and subnet always, since a full
 * edit overwrites them). Null when a rule is broken.
 */
export function tokenPayloadOf(form: TokenForm, isEdit: boolean, offsetMinutes?: number): TokenPayload | null {
  if (checkTokenForm(form, isEdit, offsetMinutes) !== null) return null;
  const expiredTime = parseExpiry(expiryValue(form.expiry), offsetMinutes);
  if (expiredTime === null) return null;
  return {
    name: form.name.trim(),
    remain_quota: parseQuotaText(form.remainQuota) ?? 0,
    expired_time: expiredTime,
    unlimited_quota: form.unlimited,
    models: modelsText(form.models),
    subnet: subnetPayloadOf(form.subnet),
  };
}
