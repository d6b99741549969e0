import type { Context } from 'hono';
import { checkNumber, checkRatioTable, keptModelRatios, numericOptionRules, type NumberProblem, type NumberRule } from '../../src/domain/numberRules';
import { translate, type MessageKey } from '../../src/i18n';
// The server speaks both languages: both catalogues, registered at start.
import '../../src/i18n/all';
import { requestLanguage } from '../http/envelope';

/**
 * The server side of the number rules (src/domain/numberRules.ts): a refusal names the field by
 * its wire name and the rule, in the request's language (`requestLanguage`: zh unless
 * `Accept-Language` names another language first), and is answered before anything is written.
 */

/** The request's language for these messages. */
const languageOf = requestLanguage;

/** The text of `problem` for `field`. */
export function problemText(c: Context, field: string, problem: { readonly key: string; readonly params: Readonly<Record<string, string | number>> }): string {
  return translate(languageOf(c), problem.key as MessageKey, { ...problem.params, field });
}

/** Null when every present (not undefined/null) value satisfies its rule, else the first refusal's text. */
export function checkFields(c: Context, checks: readonly (readonly [field: string, rule: NumberRule, value: unknown])[]): string | null {
  for (const [field, rule, value] of checks) {
    if (value === undefined || value === null) continue;
    const problem: NumberProblem | null = checkNumber(rule, value);
    if (problem !== null) return problemText(c, field, problem);
  }
  return null;
}

/** Why option `key` may not take `value` as a number (numeric options and the ratio tables), or null. */
export function optionNumberRefusal(c: Context, key: string, value: string): string | null {
  if (key === 'ModelRatio' || key === 'GroupRatio' || key === 'CompletionRatio') {
    const problem = checkRatioTable(value, key === 'ModelRatio' ? keptModelRatios : {});
    return problem === null ? null : problemText(c, key, problem);
  }
  const rule = numericOptionRules[key];
  if (rule === undefined) return null;
  const problem = checkNumber(rule, value);
  return problem === null ? null : problemText(c, key, problem);
}

/** A message of the numbers area in the request's language. */
export const numbersText = (c: Context, key: MessageKey): string => translate(languageOf(c), key);
