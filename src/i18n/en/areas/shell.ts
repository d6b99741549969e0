import type { messages as zh } from '../../zh/areas/shell';
import { common } from '../common';
import { shell } from '../shell';
import { reauth } from '../reauth';

/** The shell: header, menus, footer, toasts, the sign-in-again dialog, loading and error states; loaded before the first paint. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...common,
  ...shell,
  ...reauth,
};
