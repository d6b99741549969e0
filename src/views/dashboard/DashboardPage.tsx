import { useSelector } from '@xstate/react';
import type { QuotaDisplay } from '../../domain/format';
import {
  dashboardMachine,
  selectAccount,
  selectCustomEnd,
  selectCustomStart,
  selectIsAdmin,
  selectIsLoading,
  selectIsSearching,
  selectKeyword,
  selectLoadFailed,
  selectMetric,
  selectPreset,
  selectRange,
  selectRangeProblem,
  selectRows,
  selectSearchResults,
  selectUtcOffset,
  selectViewer,
} from '../../machines/dashboard';
import { useMachineActor } from '../app/machineRegistry';
import { DashboardPageView } from './DashboardPageView';

export interface DashboardPageProps {
  /** Role >= 10: may view all users or pick one. */
  readonly isAdmin: boolean;
  readonly quotaDisplay: QuotaDisplay;
  /** Unix seconds of "now" and the local offset (minutes east of UTC); the route reads the clock. */
  readonly now: number;
  readonly utcOffset: number;
}

/** Route page for /dashboard (dashboard machine). */
export function DashboardPage({ isAdmin, quotaDisplay, now, utcOffset }: DashboardPageProps) {
  const actorRef = useMachineActor(dashboardMachine, { isAdmin, now, utcOffset });
  return (
    <DashboardPageView
      isAdmin={useSelector(actorRef, selectIsAdmin)}
      preset={useSelector(actorRef, selectPreset)}
      range={useSelector(actorRef, selectRange)}
      utcOffset={useSelector(actorRef, selectUtcOffset)}
      customStart={useSelector(actorRef, selectCustomStart)}
      customEnd={useSelector(actorRef, selectCustomEnd)}
      rangeProblem={useSelector(actorRef, selectRangeProblem)}
      metric={useSelector(actorRef, selectMetric)}
      viewer={useSelector(actorRef, selectViewer)}
      rows={useSelector(actorRef, selectRows)}
      account={useSelector(actorRef, selectAccount)}
      loading={useSelector(actorRef, selectIsLoading)}
      loadFailed={useSelector(actorRef, selectLoadFailed)}
      keyword={useSelector(actorRef, selectKeyword)}
      searchResults={useSelector(actorRef, selectSearchResults)}
      searching={useSelector(actorRef, selectIsSearching)}
      quotaDisplay={quotaDisplay}
      onPreset={(preset) => actorRef.send({ type: 'range.preset', preset })}
      onCustomChange={(field, value) => actorRef.send({ type: 'range.customChange', field, value })}
      onApplyCustom={() => actorRef.send({ type: 'range.apply' })}
      onMetric={(metric) => actorRef.send({ type: 'metric.change', metric })}
      onViewer={(viewer) => actorRef.send({ type: 'viewer.change', viewer })}
      onKeyword={(keyword) => actorRef.send({ type: 'search.change', keyword })}
      onSearch={() => actorRef.send({ type: 'search.submit' })}
      onRetry={() => actorRef.send({ type: 'dashboard.retry' })}
    />
  );
}
