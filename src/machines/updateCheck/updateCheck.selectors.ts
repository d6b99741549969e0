import type { SnapshotFrom } from 'xstate';
import type { sessionMachine } from '../session/session.machine';
import type { LatestRelease, updateCheckMachine } from './updateCheck.machine';

type Snapshot = SnapshotFrom<typeof updateCheckMachine>;

/** The release list is being read (the button shows progress). */
export const selectIsChecking = (s: Snapshot): boolean => s.hasTag('busy');
/** The newer release the dialog shows, or null when the dialog is closed. */
export const selectNewRelease = (s: Snapshot): LatestRelease | null => (s.matches('showing') ? s.context.release : null);

/** The console's build version, as the app session was started with (the check's input). */
export const selectConsoleVersion = (s: SnapshotFrom<typeof sessionMachine>): string => s.context.buildVersion;
