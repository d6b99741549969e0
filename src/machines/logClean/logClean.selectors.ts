import type { SnapshotFrom } from 'xstate';
import { targetTimestampOf, type logCleanMachine } from './logClean.machine';

type Snapshot = SnapshotFrom<typeof logCleanMachine>;

/** The target as the datetime-local field shows it. */
export const selectTarget = (s: Snapshot): string => s.context.target;
/** The target is a valid date-time (the button may ask to clear). */
export const selectHasValidTarget = (s: Snapshot): boolean => targetTimestampOf(s.context) !== null;
/** The confirmation dialog is open. */
export const selectIsConfirming = (s: Snapshot): boolean => s.matches('confirming');
/** The delete request is on its way. */
export const selectIsClearing = (s: Snapshot): boolean => s.hasTag('busy');
/** Rows the last clean removed (null before the first). */
export const selectLastCount = (s: Snapshot): number | null => s.context.lastCount;
