import type { zh } from '../zh';
import { account } from './account';
import { common } from './common';
import { signIn } from './signIn';
import { domain } from './domain';
import { validation } from './validation';
import { home } from './home';
import { shell } from './shell';

/** The en catalogue must have exactly the zh keys (checked by the type and by a unit test). */
export const en: Record<keyof typeof zh, string> = {
  ...common,
  ...account,
  ...signIn,
  ...domain,
  ...validation,
  ...home,
  ...shell,
};
