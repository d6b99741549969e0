import type { SnapshotFrom } from 'xstate';
import type { redemptionKeyCopyMachine } from './redemptionList.machine';

/*
 * The list itself reads the table selectors (src/machines/table). These are the key copier's.
 */
type CopySnapshot = SnapshotFrom<typeof redemptionKeyCopyMachine>;

/** A key is being copied. */
export const selectIsCopying = (s: CopySnapshot): boolean => s.hasTag('busy');
