import { messages as shell } from './areas/shell';
import { messages as login } from './areas/login';
import { messages as account } from './areas/account';
import { messages as home } from './areas/home';
import { messages as channel } from './areas/channel';
import { messages as redemption } from './areas/redemption';
import { messages as user } from './areas/user';
import { messages as token } from './areas/token';
import { messages as log } from './areas/log';
import { messages as setting } from './areas/setting';
import { messages as dashboard } from './areas/dashboard';
import { messages as pricing } from './areas/pricing';
import { messages as topup } from './areas/topup';
import { messages as palette } from './areas/palette';

/**
 * The whole zh catalogue: every area (./areas, one chunk each in the console), merged. A message
 * lives in one topic file (./shell.ts, ./channels.ts ...) that one or more areas spread; add a
 * topic file to the area of every page that shows it.
 */
export const zh = {
  ...shell,
  ...login,
  ...account,
  ...home,
  ...channel,
  ...redemption,
  ...user,
  ...token,
  ...log,
  ...setting,
  ...dashboard,
  ...pricing,
  ...topup,
  ...palette,
} as const;
