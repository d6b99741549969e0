import type { zh } from '../zh';
import { account } from './account';
import { common } from './common';
import { signIn } from './signIn';
import { domain } from './domain';
import { validation } from './validation';
import { home } from './home';
import { shell } from './shell';
import { table } from './table';
import { channels } from './channels';
import { channelForm } from './channelForm';
import { channelTest } from './channelTest';
import { redemptions } from './redemptions';
import { users } from './users';
import { dashboard } from './dashboard';
import { pricing } from './pricing';
import { settings } from './settings';
import { topUp } from './topUp';
import { personal } from './personal';
import { settingsExtras } from './settingsExtras';
import { priceEditor } from './priceEditor';
import { tokens } from './tokens';
import { tokenForm } from './tokenForm';
import { logs } from './logs';
import { numbers } from './numbers';
import { palette } from './palette';
import { rules } from './rules';
import { twoFactor } from './twoFactor';
import { reauth } from './reauth';

/** The en catalogue must have exactly the zh keys (checked by the type and by a unit test). */
export const en: Record<keyof typeof zh, string> = {
  ...common,
  ...account,
  ...signIn,
  ...domain,
  ...validation,
  ...rules,
  ...home,
  ...shell,
  ...table,
  ...channels,
  ...channelForm,
  ...channelTest,
  ...redemptions,
  ...users,
  ...dashboard,
  ...pricing,
  ...settings,
  ...topUp,
  ...personal,
  ...settingsExtras,
  ...priceEditor,
  ...tokens,
  ...tokenForm,
  ...logs,
  ...numbers,
  ...twoFactor,
  ...reauth,
  ...palette,
};
