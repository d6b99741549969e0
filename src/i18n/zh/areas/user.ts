import { users } from '../users';
import { table } from '../table';
import { account } from '../account';
import { rules } from '../rules';
import { validation } from '../validation';
import { numbers } from '../numbers';
import { settings } from '../settings';
import { domain } from '../domain';

/** /user and its forms. */
export const messages = {
  ...users,
  ...table,
  ...account,
  ...rules,
  ...validation,
  ...numbers,
  ...settings,
  ...domain,
} as const;
