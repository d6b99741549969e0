import { palette } from '../palette';

/** The command palette. */
export const messages = {
  ...palette,
} as const;
