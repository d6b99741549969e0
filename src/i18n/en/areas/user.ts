import type { messages as zh } from '../../zh/areas/user';
import { users } from '../users';
import { table } from '../table';
import { account } from '../account';
import { rules } from '../rules';
import { validation } from '../validation';
import { numbers } from '../numbers';
import { settings } from '../settings';
import { domain } from '../domain';

/** /user and its forms. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...users,
  ...table,
  ...account,
  ...rules,
  ...validation,
  ...numbers,
  ...settings,
  ...domain,
};
