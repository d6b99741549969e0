import { tokens } from '../tokens';
import { tokenForm } from '../tokenForm';
import { table } from '../table';
import { validation } from '../validation';
import { numbers } from '../numbers';
import { settings } from '../settings';
import { domain } from '../domain';

/** /token and its forms. */
export const messages = {
  ...tokens,
  ...tokenForm,
  ...table,
  ...validation,
  ...numbers,
  ...settings,
  ...domain,
} as const;
