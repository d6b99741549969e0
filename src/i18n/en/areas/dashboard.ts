import type { messages as zh } from '../../zh/areas/dashboard';
import { dashboard } from '../dashboard';
import { domain } from '../domain';

/** /dashboard. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...dashboard,
  ...domain,
};
