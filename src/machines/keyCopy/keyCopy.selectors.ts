import type { SnapshotFrom } from 'xstate';
import type { KeyCopyMachine } from './keyCopy.machine';

type CopySnapshot = SnapshotFrom<KeyCopyMachine>;

/** A key is being copied. */
export const selectIsCopying = (s: CopySnapshot): boolean => s.hasTag('busy');
