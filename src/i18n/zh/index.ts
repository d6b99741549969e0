import { account } from './account';
import { common } from './common';
import { signIn } from './signIn';
import { domain } from './domain';
import { validation } from './validation';
import { home } from './home';
import { shell } from './shell';

/** The zh catalogue: one object per area, merged. Add an area file and spread it here. */
export const zh = {
  ...common,
  ...account,
  ...signIn,
  ...domain,
  ...validation,
  ...home,
  ...shell,
} as const;
