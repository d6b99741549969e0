import { logs } from '../logs';
import { table } from '../table';
import { domain } from '../domain';

/** /log. */
export const messages = {
  ...logs,
  ...table,
  ...domain,
} as const;
