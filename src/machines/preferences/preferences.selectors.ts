import type { SnapshotFrom } from 'xstate';
import type { ColorMode, Lang } from '../../domain/preferences';
import type { preferencesMachine } from './preferences.machine';

type Snapshot = SnapshotFrom<typeof preferencesMachine>;

export const selectLang = (s: Snapshot): Lang => s.context.lang;
export const selectColorMode = (s: Snapshot): ColorMode => s.context.colorMode;
