import type { SnapshotFrom } from 'xstate';
import { isAdmin, isRoot } from '../../domain/constants';
import type { QuotaDisplay } from '../../domain/format';
import { quotaDisplayOf } from '../../domain/shellRules';
import type { Status } from '../../domain/status';
import type { User } from '../../domain/user';
import type { ReauthStep, SecondFactorStep, sessionMachine } from './session.machine';

type Snapshot = SnapshotFrom<typeof sessionMachine>;

export const selectUser = (s: Snapshot): User | null => s.context.user;
export const selectIsSignedIn = (s: Snapshot): boolean => s.context.user !== null;
/** Admin menu entries and pages: role >= 10. */
export const selectIsAdmin = (s: Snapshot): boolean => s.context.user !== null && isAdmin(s.context.user.role);
/** Root-only settings tabs: role >= 100. */
export const selectIsRoot = (s: Snapshot): boolean => s.context.user !== null && isRoot(s.context.user.role);
/** The server status: the fresh one, else the stored copy, else null. */
export const selectStatus = (s: Snapshot): Status | null => s.context.status;
const quotaDisplays = new WeakMap<Status, QuotaDisplay>();
/** How quotas are shown under the current status (one object per status, so it compares equal until the status changes). */
export const selectQuotaDisplay = (s: Snapshot): QuotaDisplay => {
  const status = s.context.status;
  if (status === null) return quotaDisplayOf(null);
  const known = quotaDisplays.get(status);
  if (known !== undefined) return known;
  const display = quotaDisplayOf(status);
  quotaDisplays.set(status, display);
  return display;
};
export const selectIsSigningIn = (s: Snapshot): boolean => s.matches({ auth: 'signingIn' });
/**
 * The guarded pages wait (route guard 'pending'): a login is in flight, or a restored admin's
 * enrolment is being checked (an admin who must enrol never sees an admin page, reload or not).
 */
export const selectIsAccessPending = (s: Snapshot): boolean => s.matches({ auth: 'signingIn' }) || s.matches({ auth: 'checkingEnrolment' });
/** The login's second step (TOTP or recovery code), or null when none is asked. */
export const selectSecondFactor = (s: Snapshot): SecondFactorStep | null =>
  s.matches({ auth: 'secondFactor' }) || s.matches({ auth: 'verifyingSecondFactor' }) ? s.context.secondFactor : null;
/** A signed-in admin who must enrol in two-factor sign-in before anything else (the shell keeps them on the enrolment). */
export const selectMustEnrol = (s: Snapshot): boolean => s.context.user !== null && s.context.enrolmentRequired;
export const selectIsVerifyingSecondFactor = (s: Snapshot): boolean => s.matches({ auth: 'verifyingSecondFactor' });
export const selectIsSigningOut = (s: Snapshot): boolean => s.matches({ auth: 'signingOut' });
export type StatusPhase = 'loading' | 'ready' | 'failed';
export const selectStatusPhase = (s: Snapshot): StatusPhase =>
  s.matches({ status: 'loading' }) ? 'loading' : s.matches({ status: 'failed' }) ? 'failed' : 'ready';
/** The configured system name ('' until a status is known). */
export const selectSystemName = (s: Snapshot): string => s.context.status?.system_name ?? '';
export const selectLogo = (s: Snapshot): string => s.context.status?.logo ?? '';
/** The chat link; '' hides the chat menu entry and page. */
export const selectChatLink = (s: Snapshot): string => s.context.status?.chat_link ?? '';
export const selectServerVersion = (s: Snapshot): string => s.context.status?.version ?? '';
export const selectFooterHtml = (s: Snapshot): string => s.context.status?.footer_html ?? '';
/** The name shown in the user menu: display name, else username. */
export const selectDisplayName = (s: Snapshot): string =>
  s.context.user === null ? '' : s.context.user.display_name !== '' ? s.context.user.display_name : s.context.user.username;
/** The signed-in viewer's role, null when signed out (route guards). */
export const selectRole = (s: Snapshot): number | null => s.context.user?.role ?? null;
/** The sign-in dialog over an expired session (null when it is closed). */
export const selectReauth = (s: Snapshot): ReauthStep | null =>
  s.matches({ auth: 'reauthenticating' }) || s.matches({ auth: 'reauthSigningIn' }) ? s.context.reauth : null;
export const selectIsReauthSigningIn = (s: Snapshot): boolean => s.matches({ auth: 'reauthSigningIn' });
/** The kept user's name shown read-only in the sign-in dialog. */
export const selectReauthUsername = (s: Snapshot): string => s.context.reauth?.username ?? s.context.user?.username ?? '';
/** The sign-in dialog is open (the shell loads it then). */
export const selectIsReauthOpen = (s: Snapshot): boolean => s.matches({ auth: 'reauthenticating' }) || s.matches({ auth: 'reauthSigningIn' });
