import type { Kysely } from 'kysely';
import * as t from 'io-ts';
import { isSecretOptionKey } from '../../src/domain/validation';
import type { Database } from '../db/schema';
import { announce } from './clusterSync';
import { optionDefaults, readOptions } from './options';

/**
 * Listing and writing options (contract §2.11). Reading single values stays in options.ts.
 *
 * Differences from one-api, all on the side of safety:
 * - GET hides every key ending in `Token`, `Secret` or `SecretKey` — one-api leaks
 *   `TurnstileSecretKey` (§6 #12). Hidden keys are left out of the list entirely (as one-api
 *   does for the keys it hides), with the same rule as the console's `isSecretOptionKey`.
 * - An invalid `ModelRatio`/`GroupRatio`/`CompletionRatio` is refused before anything is
 *   written (one-api saves it first, §6 #13).
 * - `EmailDomainRestrictionEnabled: "true"` is refused when the whitelist names no domain
 *   (one-api's check is unreachable, §6 #14).
 * - A JSON boolean or number `value` is stored as its text (one-api answers HTTP 400); an empty
 *   key, a key over 191 characters or a NUL character is refused with HTTP 400.
 */

type Db = Kysely<Database>;

/**
 * An option value as sent: a string; null/missing is "" (Go decodes them so). Booleans and
 * numbers are refused with HTTP 400 as one-api's decoder does (contract §1.3, §6 #13).
 */
const OptionValueIn = new t.Type<string, string, unknown>(
  'OptionValue',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (u === undefined || u === null) return t.success('');
    if (typeof u === 'string') return t.success(u);
    return t.failure(u, c);
  },
  (s) => s,
);

/** Longest accepted key (one-api's MySQL column is varchar(191)). */
export const maxOptionKeyLength = 191;

/** A key: a non-empty string of at most 191 characters without NUL. */
const OptionKeyIn = t.refinement(
  t.string,
  (s) => s !== '' && s.length <= maxOptionKeyLength && !s.includes('\u0000'),
  'OptionKey',
);

/** A value without NUL (PostgreSQL text cannot store it). */
const OptionValueNoNul = t.refinement(OptionValueIn, (s) => !s.includes('\u0000'), 'OptionValue');

/** Body of `PUT /api/option/`; other members are ignored. */
export const OptionUpdateBody = t.type({ key: OptionKeyIn, value: OptionValueNoNul });
export type OptionUpdateBody = t.TypeOf<typeof OptionUpdateBody>;

/** Whether `GET /api/option/` leaves a key out. */
export const isHiddenFromList = (key: string): boolean => isSecretOptionKey(key);

/** Every option as `{key, value}`: stored rows over the defaults, secrets left out; defaults' order first. */
export async function listOptions(db: Db, theme: string): Promise<{ key: string; value: string }[]> {
  const rows = await db.selectFrom('options').select(['key', 'value']).execute();
  const values = new Map<string, string>(optionDefaults(theme));
  for (const row of rows) values.set(row.key, row.value ?? '');
  return [...values]
    .filter(([key]) => !isHiddenFromList(key))
    .map(([key, value]) => ({ key, value }));
}

/** Precondition messages (contract §2.11.2). */
export const optionMessages = {
  invalidTheme: '无效的主题',
  gitHubOAuth: '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！',
  emailDomain: '无法启用邮箱域名限制，请先填入限制的邮箱域名！',
  weChat: '无法启用微信登录，请先填入微信登录相关配置信息！',
  turnstile: '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！',
} as const;

const themes: ReadonlySet<string> = new Set(['default', 'berry', 'air']);

/** The three ratio options: JSON objects of numbers. */
const ratioKeys: ReadonlySet<string> = new Set(['ModelRatio', 'GroupRatio', 'CompletionRatio']);

/** Go's name of a JSON value's kind in "cannot unmarshal <kind>" errors. */
const goKind = (v: unknown): string => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
};

/** A JSON parse error in Go's wording where it is easy to tell (empty input, bad first character). */
function syntaxMessage(text: string, error: unknown): string {
  const trimmed = text.trimStart();
  if (trimmed === '') return 'unexpected end of JSON input';
  const first = trimmed[0]!;
  if (!/[{["\-0-9tfn]/.test(first)) return `invalid character '${first}' looking for beginning of value`;
  return error instanceof Error ? error.message : String(error);
}

/** Null when `text` is a JSON object of finite numbers, else the error message (Go's wording where possible). */
export function ratioError(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return syntaxMessage(text, error);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `json: cannot unmarshal ${goKind(value)} into Go value of type map[string]float64`;
  }
  for (const ratio of Object.values(value)) {
    if (typeof ratio !== 'number') return `json: cannot unmarshal ${goKind(ratio)} into Go value of type float64`;
    if (!Number.isFinite(ratio)) return 'json: cannot unmarshal number into Go value of type float64';
  }
  return null;
}

/** `<key>: "true"` needs this other option to be non-empty, else this message (one-api's checks). */
const enableNeeds: ReadonlyMap<string, readonly [string, string]> = new Map([
  ['GitHubOAuthEnabled', ['GitHubClientId', optionMessages.gitHubOAuth] as const],
  ['WeChatAuthEnabled', ['WeChatServerAddress', optionMessages.weChat] as const],
  ['TurnstileCheckEnabled', ['TurnstileSiteKey', optionMessages.turnstile] as const],
]);

/** The domains of a whitelist value (empty entries do not count). */
const whitelistDomains = (value: string): string[] =>
  value
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '');

/** Why `key = value` may not be saved now, or null. Reads the settings it depends on. */
export async function optionPrecondition(db: Db, key: string, value: string): Promise<string | null> {
  if (key === 'Theme') return themes.has(value) ? null : optionMessages.invalidTheme;
  if (ratioKeys.has(key)) return ratioError(value);
  if (value !== 'true') return null;
  if (key === 'EmailDomainRestrictionEnabled') {
    const o = await readOptions(db, ['EmailDomainWhitelist']);
    return whitelistDomains(o.str('EmailDomainWhitelist')).length === 0 ? optionMessages.emailDomain : null;
  }
  const need = enableNeeds.get(key);
  if (need === undefined) return null;
  const o = await readOptions(db, [need[0]]);
  return o.str(need[0]) === '' ? need[1] : null;
}

/** Stores `key = value` (insert or replace). */
export async function saveOption(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('options')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
  announce(db, 'options');
}
