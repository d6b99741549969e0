import type { messages as zh } from '../../zh/areas/home';
import { home } from '../home';
import { domain } from '../domain';

/** /, /about, /chat and the not-found page. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...home,
  ...domain,
};
