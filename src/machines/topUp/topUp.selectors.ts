import type { SnapshotFrom } from 'xstate';
import { formatQuota } from '../../domain/format';
import type { topUpMachine } from './topUp.machine';

type Snapshot = SnapshotFrom<typeof topUpMachine>;

export const selectCode = (s: Snapshot): string => s.context.code;
/** The remaining quota of the loaded account, or null while it is unknown. */
export const selectRemainingQuota = (s: Snapshot): number | null => s.context.user?.quota ?? null;
/** The remaining quota in the session's quota display, or null while it is unknown. */
export const selectRemainingQuotaText = (s: Snapshot): string | null => {
  const quota = selectRemainingQuota(s);
  return quota === null ? null : formatQuota(quota, s.context.quotaDisplay);
};
export const selectIsLoading = (s: Snapshot): boolean => s.hasTag('loading');
/** A redemption (or the reload after it) is running: the redeem button spins. */
export const selectIsRedeeming = (s: Snapshot): boolean => s.matches('redeeming') || s.matches('refreshing');
export const selectIsOpeningLink = (s: Snapshot): boolean => s.matches('openingLink');
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy');
