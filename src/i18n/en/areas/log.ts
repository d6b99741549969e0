import type { messages as zh } from '../../zh/areas/log';
import { logs } from '../logs';
import { table } from '../table';
import { domain } from '../domain';

/** /log. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...logs,
  ...table,
  ...domain,
};
