import type { messages as zh } from '../../zh/areas/account';
import { account } from '../account';
import { validation } from '../validation';
import { rules } from '../rules';
import { domain } from '../domain';

/** /register, /reset, /user/reset and /user/edit: the account forms and their rules. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...account,
  ...validation,
  ...rules,
  ...domain,
};
