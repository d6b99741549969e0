import type { SnapshotFrom } from 'xstate';
import type { passwordResetRequestMachine } from './passwordResetRequest.machine';

type Snapshot = SnapshotFrom<typeof passwordResetRequestMachine>;

/** The reset mail request is on its way (the button shows progress). */
export const selectIsSending = (s: Snapshot): boolean => s.context.sender.phase === 'sending';
/** Seconds until the button works again (0 when it does). */
export const selectSecondsLeft = (s: Snapshot): number => s.context.sender.secondsLeft;
/** The button may be pressed (neither sending nor cooling down). */
export const selectCanRequest = (s: Snapshot): boolean => s.context.sender.phase === 'ready';
