import { topUp } from '../topUp';
import { validation } from '../validation';
import { domain } from '../domain';

/** /topup. */
export const messages = {
  ...topUp,
  ...validation,
  ...domain,
} as const;
