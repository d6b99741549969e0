import type { SnapshotFrom } from 'xstate';
import type { passwordResetConfirmMachine } from './passwordResetConfirm.machine';

type Snapshot = SnapshotFrom<typeof passwordResetConfirmMachine>;

export const selectEmail = (s: Snapshot): string => s.context.email;
/** The new password once the server answered, else null. */
export const selectNewPassword = (s: Snapshot): string | null => s.context.password;
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy');
/** The reset is finished: the button reads 'password reset done' and stays disabled. */
export const selectIsDone = (s: Snapshot): boolean => s.matches('done');
/** Finished, but the clipboard refused: the page asks to copy the password by hand. */
export const selectNeedsManualCopy = (s: Snapshot): boolean => s.matches('done') && !s.context.copied;
/** The link carries both an e-mail and a token. */
export const selectHasLink = (s: Snapshot): boolean => s.context.email !== '' && s.context.token !== '';
/** The button can post now. */
export const selectCanConfirm = (s: Snapshot): boolean => s.can({ type: 'reset.confirm' });
