import { redemptions } from '../redemptions';
import { table } from '../table';
import { validation } from '../validation';
import { numbers } from '../numbers';
import { settings } from '../settings';
import { domain } from '../domain';

/** /redemption and its forms. */
export const messages = {
  ...redemptions,
  ...table,
  ...validation,
  ...numbers,
  ...settings,
  ...domain,
} as const;
