import type { SnapshotFrom } from 'xstate';
import type { resendCooldownMachine } from './resendCooldown.machine';

type Snapshot = SnapshotFrom<typeof resendCooldownMachine>;

export const selectSecondsLeft = (s: Snapshot): number => s.context.secondsLeft;
export const selectIsCoolingDown = (s: Snapshot): boolean => s.matches('coolingDown');
/** 0 while the countdown starts, 1 when it is over. */
export const selectProgress = (s: Snapshot): number =>
  s.context.total === 0 ? 1 : (s.context.total - s.context.secondsLeft) / s.context.total;
