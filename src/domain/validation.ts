import { channelTypeHasModels } from './channelTypes';
import { defaultAzureApiVersion, passwordMinLength } from './constants';
import { parseDateTime } from './format';
import { msg, type Message, type MessageKey } from './message';

/**
 * The client-side rules of spec §5, as pure functions. A failed rule carries a `validation.*`
 * message key, or `null` when the rule is silent (nothing is sent and nothing is shown).
 */

export type Verdict = { readonly ok: true } | { readonly ok: false; readonly message: Message | null };

const pass: Verdict = { ok: true };
const silent: Verdict = { ok: false, message: null };
const fail = (key: MessageKey): Verdict => ({ ok: false, message: msg(key) });
const isBlank = (s: string): boolean => s.trim() === '';

/** Whether a text parses as JSON (any JSON value, as one-api's verifyJSON). */
export function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Accounts

/** Registration: empty username or password is silent; then length ≥ 8; then the repeat matches. */
export function validateRegistration(v: { username: string; password: string; password2: string }): Verdict {
  if (v.username === '' || v.password === '') return silent;
  if (v.password.length < passwordMinLength) return fail('validation.register.passwordTooShort');
  if (v.password !== v.password2) return fail('validation.register.passwordMismatch');
  return pass;
}

/** Bot check: enabled with no result yet stops the action (the reset request says it in English). */
export function checkTurnstile(o: { enabled: boolean; token: string; english: boolean }): Verdict {
  if (!o.enabled || o.token !== '') return pass;
  return fail(o.english ? 'validation.turnstile.waitEnglish' : 'validation.turnstile.wait');
}

/** The send-code button does nothing with an empty (or blank) e-mail. */
export const validateEmailForCode = (email: string): Verdict => (isBlank(email) ? silent : pass);

/** The reset request does nothing with an empty (or blank) e-mail. */
export const validateResetRequest = (email: string): Verdict => (isBlank(email) ? silent : pass);

/** Login needs both username and password; otherwise nothing is sent. */
export const validateLogin = (v: { username: string; password: string }): Verdict =>
  v.username === '' || v.password === '' ? silent : pass;

/** Self-delete: the typed text must equal the user's own username exactly. */
export const validateSelfDelete = (typed: string, username: string): Verdict =>
  typed === username ? pass : fail('validation.selfDelete.mismatch');

/** Binding an e-mail or WeChat does nothing when the code is empty. */
export const validateBindCode = (code: string): Verdict => (isBlank(code) ? silent : pass);

/** Admin user create: empty username or password silently does nothing. */
export const validateUserCreate = (v: { username: string; password: string }): Verdict =>
  v.username === '' || v.password === '' ? silent : pass;

/** An integer typed into a form (quota, remain_quota, count), or null when it is not a number. */
export function parseInteger(value: string | number): number | null {
  const n = typeof value === 'number' ? Math.trunc(value) : Number.parseInt(value.trim(), 10);
  return Number.isFinite(n) ? n : null;
}

// ---------------------------------------------------------------------------------------------
// Options (operation and system settings)

export type RatioKey = 'ModelRatio' | 'GroupRatio' | 'CompletionRatio';

const ratioMessages: Readonly<Record<RatioKey, MessageKey>> = {
  ModelRatio: 'validation.ratio.model',
  GroupRatio: 'validation.ratio.group',
  CompletionRatio: 'validation.ratio.completion',
};

/** A ratio option must be valid JSON (any value that parses; '' does not). */
export const validateRatioJson = (key: RatioKey, text: string): Verdict =>
  isValidJson(text) ? pass : fail(ratioMessages[key]);

/** Option keys whose values the server hides; an empty one means "unchanged" and is not re-sent. */
export const isSecretOptionKey = (key: string): boolean => /(Token|Secret|SecretKey)$/.test(key);

/** The options to save: values that changed, minus secrets left empty. */
export function changedOptions(
  original: Readonly<Record<string, string>>,
  edited: Readonly<Record<string, string>>,
): readonly (readonly [string, string])[] {
  return Object.entries(edited).filter(
    ([key, value]) => original[key] !== value && !(isSecretOptionKey(key) && value === ''),
  );
}

/** Boolean options travel as 'true'/'false'; a click flips them. */
export const toggledOptionValue = (value: string): 'true' | 'false' => (value === 'true' ? 'false' : 'true');

/**
 * Switches that ask for confirmation first: turning PasswordLoginEnabled off (it may lock everyone
 * out) and turning TwoFactorRequiredForAdmins on (admins without two-factor sign-in, root included,
 * can then reach nothing but their enrolment). Nothing else does.
 */
export const toggleNeedsConfirmation = (key: string, value: string): boolean =>
  (key === 'PasswordLoginEnabled' && value === 'true') || (key === 'TwoFactorRequiredForAdmins' && value !== 'true');

/** The result of adding an entry to a list (or the silent refusal). */
export type AddResult =
  | { readonly ok: true; readonly list: readonly string[] }
  | { readonly ok: false; readonly message: null };

/** Adds a trimmed entry to a list unless it is empty or already present (silent otherwise). */
function addUnique(list: readonly string[], entry: string): AddResult {
  const value = entry.trim();
  if (value === '' || list.includes(value)) return { ok: false, message: null };
  return { ok: true, list: [...list, value] };
}

/** E-mail domain whitelist: an entry is added only if non-empty and not already present. */
export const addWhitelistDomain = (list: readonly string[], entry: string): AddResult => addUnique(list, entry);

/** The server address as saved: trimmed, without trailing slashes. */
export const normaliseServerAddress = (address: string): string => address.trim().replace(/\/+$/, '');

// ---------------------------------------------------------------------------------------------
// Channels

/** The per-type `config` object of a channel form. */
export interface ChannelConfig {
  readonly region: string;
  readonly ak: string;
  readonly sk: string;
  readonly user_id: string;
  readonly vertex_ai_project_id: string;
  readonly vertex_ai_adc: string;
}

/** The channel form values the rules look at. */
export interface ChannelFormValues {
  readonly type: number;
  readonly name: string;
  readonly key: string;
  readonly base_url: string;
  readonly other: string;
  readonly models: readonly string[];
  readonly model_mapping: string;
  readonly config: ChannelConfig;
}

/** Removes the trailing slash(es) of a base URL. */
export const stripTrailingSlash = (url: string): string => url.replace(/\/+$/, '');

/** Type 33 key 'ak|sk|region', type 42 key 'region|project id|credentials', when all parts are set. */
export function composeChannelKey(type: number, key: string, config: ChannelConfig): string {
  if (type === 33 && config.ak !== '' && config.sk !== '' && config.region !== '') {
    return `${config.ak}|${config.sk}|${config.region}`;
  }
  if (type === 42 && config.region !== '' && config.vertex_ai_project_id !== '' && config.vertex_ai_adc !== '') {
    return `${config.region}|${config.vertex_ai_project_id}|${config.vertex_ai_adc}`;
  }
  return key;
}

/** The values as sent: base_url without trailing slash, type 3 API version default, composed key. */
export function normaliseChannelForm<V extends ChannelFormValues>(v: V): V {
  return {
    ...v,
    base_url: stripTrailingSlash(v.base_url),
    other: v.type === 3 && v.other === '' ? defaultAzureApiVersion : v.other,
    key: composeChannelKey(v.type, v.key, v.config),
  };
}

/**
 * Spec §5 channel rules, in order (on the normalised values): on create name and key are
 * required; except type 43 at least one model; a non-blank model_mapping must be valid JSON.
 */
export function validateChannelForm(v: ChannelFormValues, isEdit: boolean): Verdict {
  const n = normaliseChannelForm(v);
  if (!isEdit && (isBlank(n.name) || isBlank(n.key))) return fail('validation.channel.nameAndKeyRequired');
  if (channelTypeHasModels(n.type) && n.models.length === 0) return fail('validation.channel.modelsRequired');
  if (!isBlank(n.model_mapping) && !isValidJson(n.model_mapping)) return fail('validation.channel.modelMappingInvalid');
  return pass;
}

/** Adds a custom model name unless it is empty or already chosen (silent otherwise). */
export const addCustomModel = (models: readonly string[], name: string): AddResult => addUnique(models, name);

/** Adds names not yet chosen, keeping the order (fill related / fill all models). */
export const mergeModels = (models: readonly string[], more: readonly string[]): readonly string[] =>
  [...new Set([...models, ...more])];

/** Changing the type fills in the type's default models only when none are chosen. */
export const modelsAfterTypeChange = (models: readonly string[], defaults: readonly string[]): readonly string[] =>
  models.length === 0 ? [...defaults] : models;

/** Inline priority: an empty (or non-numeric) input is ignored (null); otherwise the integer. */
export const parseInlinePriority = (text: string): number | null => (isBlank(text) ? null : parseInteger(text));

/** Inline weight: empty is ignored (null); negatives clamp to 0. */
export function parseInlineWeight(text: string): number | null {
  const n = isBlank(text) ? null : parseInteger(text);
  return n === null ? null : clampWeight(n);
}

/** Weight is never negative. */
export const clampWeight = (weight: number): number => Math.max(0, weight);

// ---------------------------------------------------------------------------------------------
// Tokens, redemptions, top-up

/** The token form values the rules look at. `expiredTime` is -1 or a date-time text. */
export interface TokenFormValues {
  readonly name: string;
  readonly expiredTime: string | number;
  readonly remainQuota: string | number;
}

/** A valid token form with the integers to send, or the failure. */
export type TokenFormResult =
  | { readonly ok: true; readonly expiredTime: number; readonly remainQuota: number }
  | { readonly ok: false; readonly message: Message | null };

/** The expiry as Unix seconds: -1 stays -1, a date-time text is parsed, else null. */
export function parseExpiry(value: string | number, offsetMinutes?: number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : null;
  if (value.trim() === '-1') return -1;
  return parseDateTime(value, offsetMinutes);
}

/** Token form: name required on create; the expiry must parse; remain_quota becomes an integer (bad → 0). */
export function validateTokenForm(v: TokenFormValues, isEdit: boolean, offsetMinutes?: number): TokenFormResult {
  if (!isEdit && isBlank(v.name)) return { ok: false, message: msg('validation.token.nameRequired') };
  const expiredTime = parseExpiry(v.expiredTime, offsetMinutes);
  if (expiredTime === null) return { ok: false, message: msg('validation.token.expiryInvalid') };
  return { ok: true, expiredTime, remainQuota: parseInteger(v.remainQuota) ?? 0 };
}

/** Redemption create: the name is required (editing keeps the stored one). */
export const validateRedemptionCreate = (v: { name: string }, isEdit = false): Verdict =>
  !isEdit && isBlank(v.name) ? fail('validation.redemption.nameRequired') : pass;

/** Redeem button: an empty code says 'please enter a top-up code!'. */
export const validateRedeemCode = (code: string): Verdict => (isBlank(code) ? fail('validation.topUp.codeRequired') : pass);

/** Top-up button: without a configured link it says the super administrator has not set one. */
export const validateTopUpLink = (topUpLink: string): Verdict =>
  isBlank(topUpLink) ? fail('validation.topUp.noLink') : pass;
