import type { Context } from 'hono';
import { accountFieldsProblem, type AccountFields } from '../../src/domain/accountRules';
import type { Message } from '../../src/domain/message';
import { requestLanguage } from './envelope';
import { interpolate } from '../../src/i18n';
import { rules as en } from '../../src/i18n/en/rules';
import { rules as zh } from '../../src/i18n/zh/rules';

/**
 * The server's field-rule and fault messages in the caller's language, from the console's own
 * catalogue area (src/i18n/{zh,en}/rules.ts), so a refusal reads as the console's check does.
 * Chinese is the default (one-api's own texts are Chinese); English when `Accept-Language` names
 * another language first. (`localize` keeps one-api's three i18n texts, English by default.)
 */

export type RuleKey = keyof typeof zh;
export type RuleLang = 'zh' | 'en';
export type NamedField = 'username' | 'password' | 'displayName' | 'email' | 'group' | 'affCode' | 'verificationCode';

/** zh unless the first language of `Accept-Language` is another one. */
export const requestLang = (c: Context): RuleLang => requestLanguage(c);

const isRuleKey = (key: string): key is RuleKey => Object.prototype.hasOwnProperty.call(zh, key);

/** The text of `key` in the caller's language. */
export function ruleText(c: Context, key: RuleKey, params?: Readonly<Record<string, string | number>>): string {
  return interpolate((requestLang(c) === 'zh' ? zh : en)[key], params);
}

/** A domain rule's message (src/domain/accountRules.ts) as text in the caller's language. */
export function messageText(c: Context, message: Message): string {
  if ('text' in message) return message.text;
  return isRuleKey(message.key) ? ruleText(c, message.key, message.params) : message.key;
}

/** "<field> must not contain NUL characters" (PostgreSQL cannot store NUL). */
export const nulText = (c: Context, field: NamedField): string => ruleText(c, 'rules.nul', { field: ruleText(c, `rules.field.${field}`) });

/**
 * The first problem of an account's fields as text: a NUL character in any given field, then the
 * length rules of `accountFieldsProblem`; null when there is none. Undefined fields are not checked.
 */
export function accountProblem(
  c: Context,
  fields: AccountFields,
  others: { readonly affCode?: string; readonly verificationCode?: string } = {},
): string | null {
  const named: readonly (readonly [NamedField, string | undefined])[] = [
    ['username', fields.username],
    ['password', fields.password],
    ['displayName', fields.displayName],
    ['email', fields.email],
    ['group', fields.group],
    ['affCode', others.affCode],
    ['verificationCode', others.verificationCode],
  ];
  for (const [field, value] of named) if (value?.includes('\u0000') === true) return nulText(c, field);
  const problem = accountFieldsProblem(fields);
  return problem === null ? null : messageText(c, problem);
}
