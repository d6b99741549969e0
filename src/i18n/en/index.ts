import type { zh } from '../zh';
import { common } from './common';

/** The en catalogue must have exactly the zh keys (checked by the type and by a unit test). */
export const en: Record<keyof typeof zh, string> = {
  ...common,
};
