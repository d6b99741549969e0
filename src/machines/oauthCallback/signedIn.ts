import type { User } from '../../domain/user';

/**
 * Emitted by the sign-in machines that finish a login outside the session (OAuth callback,
 * WeChat code): the container forwards it to the app session as `session.signedIn`, which
 * stores the user and navigates to `to`.
 */
export interface SignedInEvent {
  readonly type: 'signedIn';
  readonly user: User;
  readonly to: string;
}

export const signedIn = (user: User, to: string): SignedInEvent => ({ type: 'signedIn', user, to });
