import type { messages as zh } from '../../zh/areas/redemption';
import { redemptions } from '../redemptions';
import { table } from '../table';
import { validation } from '../validation';
import { numbers } from '../numbers';
import { settings } from '../settings';
import { domain } from '../domain';

/** /redemption and its forms. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...redemptions,
  ...table,
  ...validation,
  ...numbers,
  ...settings,
  ...domain,
};
