import type { reauth as zh } from '../zh/reauth';

/** Area 'reauth': the sign-in dialog over an expired session (a save waits for it). */
export const reauth: Record<keyof typeof zh, string> = {
  'reauth.title': 'Your session has expired',
  'reauth.hint': 'Enter your password again. Once you are signed in, what was being saved is sent once more.',
  'reauth.username': 'Username',
  'reauth.password': 'Password',
  'reauth.submit': 'Sign in',
  'reauth.cancel': 'Cancel',
  'reauth.otherUser': 'Sign in as someone else',
  'reauth.passwordRequired': 'Enter your password',
  'reauth.signingIn': 'Signing in…',
};
