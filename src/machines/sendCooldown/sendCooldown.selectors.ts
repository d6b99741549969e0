import type { SendCooldownSnapshot } from './sendCooldown.machine';

type Snapshot = SendCooldownSnapshot;

/** Seconds until sending works again (0 unless cooling down). */
export const selectSecondsLeft = (s: Snapshot): number => s.context.secondsLeft;
/** A send may be requested (neither sending nor cooling down). */
export const selectCanSend = (s: Snapshot): boolean => s.matches('ready');
/** The request is on its way. */
export const selectIsSending = (s: Snapshot): boolean => s.hasTag('busy');
export const selectIsCoolingDown = (s: Snapshot): boolean => s.matches('coolingDown');
/** 0 when the countdown starts, 1 when it is over (and outside it). */
export const selectProgress = (s: Snapshot): number =>
  !s.matches('coolingDown') || s.context.total === 0 ? 1 : (s.context.total - s.context.secondsLeft) / s.context.total;
