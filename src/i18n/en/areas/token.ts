import type { messages as zh } from '../../zh/areas/token';
import { tokens } from '../tokens';
import { tokenForm } from '../tokenForm';
import { table } from '../table';
import { validation } from '../validation';
import { numbers } from '../numbers';
import { settings } from '../settings';
import { domain } from '../domain';

/** /token and its forms. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...tokens,
  ...tokenForm,
  ...table,
  ...validation,
  ...numbers,
  ...settings,
  ...domain,
};
