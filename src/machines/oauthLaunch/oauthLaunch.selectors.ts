import type { SnapshotFrom } from 'xstate';
import type { OAuthProvider, oauthLaunchMachine } from './oauthLaunch.machine';

type Snapshot = SnapshotFrom<typeof oauthLaunchMachine>;

/** The provider whose state is being fetched (its button shows progress), else null. */
export const selectLaunching = (s: Snapshot): OAuthProvider | null => s.context.pending?.provider ?? null;
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy');
