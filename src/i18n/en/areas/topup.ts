import type { messages as zh } from '../../zh/areas/topup';
import { topUp } from '../topUp';
import { validation } from '../validation';
import { domain } from '../domain';

/** /topup. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...topUp,
  ...validation,
  ...domain,
};
