import { signIn } from '../signIn';
import { twoFactor } from '../twoFactor';

/** /login and the OAuth callbacks: the sign-in form, its second factor, the WeChat code dialog. */
export const messages = {
  ...signIn,
  ...twoFactor,
} as const;
