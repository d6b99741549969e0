import type { SnapshotFrom } from 'xstate';
import type { ColorMode, Lang } from '../../domain/preferences';
import type { preferencesMachine } from './preferences.machine';

type Snapshot = SnapshotFrom<typeof preferencesMachine>;

export const selectLang = (s: Snapshot): Lang => s.context.lang;
export const selectColorMode = (s: Snapshot): ColorMode => s.context.colorMode;
/** Another language's catalogue is loading; the page stays in the current one until it is there. */
export const selectIsSwitchingLang = (s: Snapshot): boolean => s.hasTag('busy');
