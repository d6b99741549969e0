import { common } from '../common';
import { shell } from '../shell';
import { reauth } from '../reauth';

/** The shell: header, menus, footer, toasts, the sign-in-again dialog, loading and error states; loaded before the first paint. */
export const messages = {
  ...common,
  ...shell,
  ...reauth,
} as const;
