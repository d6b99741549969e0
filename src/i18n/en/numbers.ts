import type { numbers as zhNumbers } from '../zh/numbers';

/** Area 'numbers' (en). */
export const numbers: Record<keyof typeof zhNumbers, string> = {
  'number.integer': '{field} must be an integer',
  'number.number': '{field} must be a number',
  'number.range': '{field} must be between {min} and {max}',
  'number.positiveRange': '{field} must be greater than {min} and at most {max}',
  'number.expiry': '{field} must be -1 (never expires) or a Unix time from 0 to {max}',
  'number.ratioTable': '{field} must be a JSON object whose values are non-negative numbers',
  'number.ratioEntry': '{field} must be a JSON object whose values are non-negative numbers ({entry} is not)',
  'number.text': '{field} must be text',
  'number.nul': '{field} cannot contain a NUL character',
  'number.tooLong': '{field} is at most {max} characters',
  'number.emptyList': '{field} must name at least one item',
  'number.field.quota': 'Quota',
  'number.field.remainQuota': 'Quota',
  'number.field.redemptionQuota': 'Quota',
  'number.field.count': 'Quantity',
  'number.field.expiredTime': 'Expiration time',
  'number.field.topUpQuota': 'Top-up quota',
};
