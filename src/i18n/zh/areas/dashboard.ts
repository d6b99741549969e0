import { dashboard } from '../dashboard';
import { domain } from '../domain';

/** /dashboard. */
export const messages = {
  ...dashboard,
  ...domain,
} as const;
