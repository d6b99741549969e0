import type { messages as zh } from '../../zh/areas/palette';
import { palette } from '../palette';

/** The command palette. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...palette,
};
