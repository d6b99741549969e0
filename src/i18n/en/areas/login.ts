import type { messages as zh } from '../../zh/areas/login';
import { signIn } from '../signIn';
import { twoFactor } from '../twoFactor';

/** /login and the OAuth callbacks: the sign-in form, its second factor, the WeChat code dialog. Exactly the zh area's keys. */
export const messages: Record<keyof typeof zh, string> = {
  ...signIn,
  ...twoFactor,
};
