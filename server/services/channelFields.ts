import type { Context } from 'hono';
import { checkNumber, numberRules } from '../../src/domain/numberRules';
import { translate, type MessageKey } from '../../src/i18n';
// The server speaks both languages: both catalogues, registered at start.
import '../../src/i18n/all';
import { requestLanguage } from '../http/envelope';

/**
 * The one check of the channel fields that both a channel write (`POST` / `PUT /api/channel/`)
 * and an edit by tag (`PUT /api/channel/tag`) set: priority, weight, models and group. Both
 * routes answer the same refusal for the same value: the field by its wire name and the rule, in
 * the request's language (zh unless `Accept-Language` names another language first), before
 * anything is written.
 */

/** The fields checked here, in the order they are checked. */
export const sharedChannelFields = ['priority', 'weight', 'models', 'group'] as const;
export type SharedChannelField = (typeof sharedChannelFields)[number];

/** Longest group list, in characters (one-api's `varchar(32)`). */
export const maxChannelGroupLength = 32;

interface Problem {
  readonly key: MessageKey;
  readonly params: Readonly<Record<string, string | number>>;
}

const items = (text: string): string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** Why `value` (present, not null) cannot be `field`, or null. */
function problemOf(field: SharedChannelField, value: unknown, requireItems: boolean): Problem | null {
  switch (field) {
    case 'priority':
    case 'weight': {
      // a JSON number only: "1", true, [1] and {} are refused like 0.5 and 1e308
      if (typeof value !== 'number') return { key: 'number.integer', params: {} };
      return checkNumber(field === 'priority' ? numberRules.channelPriority : numberRules.channelWeight, value);
    }
    case 'models':
    case 'group': {
      if (typeof value !== 'string') return { key: 'number.text', params: {} };
      if (value.includes('\u0000')) return { key: 'number.nul', params: {} };
      if (field === 'group' && [...value].length > maxChannelGroupLength) return { key: 'number.tooLong', params: { max: maxChannelGroupLength } };
      if (requireItems && items(value).length === 0) return { key: 'number.emptyList', params: {} };
      return null;
    }
  }
}

/**
 * Null when the shared fields of `body` (a parsed JSON object; absent or null = not given) are
 * acceptable, else the first refusal's text. `requireItems`: models and group must name at least
 * one item (an edit by tag, where an empty list would set nothing; a channel write keeps
 * one-api's meaning of "" = unchanged on PUT, none on POST).
 */
export function channelFieldsRefusal(c: Context, body: Readonly<Record<string, unknown>>, options: { readonly requireItems?: boolean } = {}): string | null {
  for (const field of sharedChannelFields) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    const problem = problemOf(field, value, options.requireItems === true);
    if (problem !== null) return translate(requestLanguage(c), problem.key, { ...problem.params, field });
  }
  return null;
}
