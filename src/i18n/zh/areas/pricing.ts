import { pricing } from '../pricing';
import { table } from '../table';
import { domain } from '../domain';

/** /pricing. */
export const messages = {
  ...pricing,
  ...table,
  ...domain,
} as const;
