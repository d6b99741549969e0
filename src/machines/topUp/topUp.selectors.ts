import type { SnapshotFrom } from 'xstate';
import type { topUpMachine } from './topUp.machine';

type Snapshot = SnapshotFrom<typeof topUpMachine>;

export const selectCode = (s: Snapshot): string => s.context.code;
/** The remaining quota of the loaded account, or null while it is unknown. */
export const selectRemainingQuota = (s: Snapshot): number | null => s.context.user?.quota ?? null;
export const selectIsLoading = (s: Snapshot): boolean => s.hasTag('loading');
/** A redemption (or the reload after it) is running: the redeem button spins. */
export const selectIsRedeeming = (s: Snapshot): boolean => s.matches('redeeming') || s.matches('refreshing');
export const selectIsOpeningLink = (s: Snapshot): boolean => s.matches('openingLink');
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy');
