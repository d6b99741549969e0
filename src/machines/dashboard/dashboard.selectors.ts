import type { SnapshotFrom } from 'xstate';
import type { AccountQuota, DashboardRange, DashboardRow, Metric, RangePreset, RangeProblem } from '../../domain/dashboard';
import type { DashboardUserOption, DashboardViewer, dashboardMachine } from './dashboard.machine';

type Snapshot = SnapshotFrom<typeof dashboardMachine>;

export const selectIsAdmin = (s: Snapshot): boolean => s.context.isAdmin;
export const selectUtcOffset = (s: Snapshot): number => s.context.utcOffset;
export const selectPreset = (s: Snapshot): RangePreset => s.context.preset;
export const selectRange = (s: Snapshot): DashboardRange => s.context.range;
export const selectCustomStart = (s: Snapshot): string => s.context.customStart;
export const selectCustomEnd = (s: Snapshot): string => s.context.customEnd;
export const selectRangeProblem = (s: Snapshot): RangeProblem | null => s.context.rangeProblem;
export const selectMetric = (s: Snapshot): Metric => s.context.metric;
export const selectViewer = (s: Snapshot): DashboardViewer => s.context.viewer;
export const selectRows = (s: Snapshot): readonly DashboardRow[] => s.context.rows;
export const selectAccount = (s: Snapshot): AccountQuota | null => s.context.account;
/** A load runs (the figures shown are the previous ones). */
export const selectIsLoading = (s: Snapshot): boolean => s.matches({ usage: 'loading' });
/** The last load failed: the retry button. */
export const selectLoadFailed = (s: Snapshot): boolean => s.matches({ usage: 'failed' });
export const selectKeyword = (s: Snapshot): string => s.context.keyword;
export const selectSearchResults = (s: Snapshot): readonly DashboardUserOption[] | null => s.context.results;
export const selectIsSearching = (s: Snapshot): boolean => s.matches({ search: 'searching' });
