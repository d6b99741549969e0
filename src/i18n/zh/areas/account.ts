import { account } from '../account';
import { validation } from '../validation';
import { rules } from '../rules';
import { domain } from '../domain';

/** /register, /reset, /user/reset and /user/edit: the account forms and their rules. */
export const messages = {
  ...account,
  ...validation,
  ...rules,
  ...domain,
} as const;
