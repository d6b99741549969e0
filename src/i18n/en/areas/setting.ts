import type { messages as zh } from '../../zh/areas/setting';
import { settings } from '../settings';
import { settingsExtras } from '../settingsExtras';
import { personal } from '../personal';
import { priceEditor } from '../priceEditor';
import { twoFactor } from '../twoFactor';
import { account } from '../account';
import { signIn } from '../signIn';
import { home } from '../home';
import { rules } from '../rules';
import { numbers } from '../numbers';
import { validation } from '../validation';
import { table } from '../table';
import { domain } from '../domain';

/** /setting: every settings tab. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...settings,
  ...settingsExtras,
  ...personal,
  ...priceEditor,
  ...twoFactor,
  ...account,
  ...signIn,
  ...home,
  ...rules,
  ...numbers,
  ...validation,
  ...table,
  ...domain,
};
