import type { messages as zh } from '../../zh/areas/pricing';
import { pricing } from '../pricing';
import { table } from '../table';
import { domain } from '../domain';

/** /pricing. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...pricing,
  ...table,
  ...domain,
};
