import { common } from './common';

/** The zh catalogue: one object per area, merged. Add an area file and spread it here. */
export const zh = {
  ...common,
} as const;
