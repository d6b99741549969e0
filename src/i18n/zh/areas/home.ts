import { home } from '../home';
import { domain } from '../domain';

/** /, /about, /chat and the not-found page. */
export const messages = {
  ...home,
  ...domain,
} as const;
