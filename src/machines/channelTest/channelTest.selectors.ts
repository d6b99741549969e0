import type { SnapshotFrom } from 'xstate';
import type { ChannelTestRunResult } from '../../domain/channel';
import type { channelTestMachine, ChannelTestMode, ChannelTestRunSummary } from './channelTest.machine';

type Snapshot = SnapshotFrom<typeof channelTestMachine>;

/** The run the panel shows (running, ended, or lost track of), or null: no panel. */
export const selectRun = (s: Snapshot): ChannelTestRunSummary | null => s.context.run;
/** The latest result of each channel of the run, by channel id. */
export const selectResults = (s: Snapshot): Readonly<Record<number, ChannelTestRunResult>> => s.context.results;
/** The ids (in test order) whose result is a failure. */
export const selectFailedIds = (s: Snapshot): readonly number[] => s.context.failed;
/** 'server' (the test-run resource) or 'local' (the page tests one channel at a time; one-api). */
export const selectMode = (s: Snapshot): ChannelTestMode => s.context.mode;
/** A run is going (server or local): the spinner, and Cancel. */
export const selectIsRunning = (s: Snapshot): boolean => s.hasTag('running');
/** A start is on its way and no run is known yet (the panel says it is preparing). */
export const selectIsPreparing = (s: Snapshot): boolean => s.matches('starting') || s.matches({ local: 'listing' });
/** "Test all" / "test disabled" can be pressed. */
export const selectCanStart = (s: Snapshot): boolean => s.can({ type: 'test.start', scope: 'all' });
/** The run ended with failures: "Retry failed" is offered. */
export const selectCanRetryFailed = (s: Snapshot): boolean => s.can({ type: 'test.retryFailed' });
/** The run can be cancelled now. */
export const selectCanCancel = (s: Snapshot): boolean => s.can({ type: 'test.cancel' }) && !selectIsCancelling(s);
/** The run is over (or lost): the panel can be dismissed. */
export const selectCanDismiss = (s: Snapshot): boolean => s.can({ type: 'test.dismiss' });
/** Polls failed repeatedly: progress is no longer followed. */
export const selectPollFailed = (s: Snapshot): boolean => s.matches('failed');
export const selectFailedCount = (s: Snapshot): number => s.context.failed.length;
export const selectPassedCount = (s: Snapshot): number => {
  let n = 0;
  for (const r of Object.values(s.context.results)) if (r.success) n += 1;
  return n;
};
/** 0..100, whole numbers; an empty run that ended is complete. */
export const selectProgressPercent = (s: Snapshot): number => {
  const run = s.context.run;
  if (run === null) return 0;
  if (run.total <= 0) return run.status === 'running' ? 0 : 100;
  return Math.min(100, Math.round((run.done / run.total) * 100));
};
/** Cancel was asked for and the run has not stopped yet. */
export const selectIsCancelling = (s: Snapshot): boolean =>
  s.matches({ running: 'cancelling' }) || (s.hasTag('running') && s.context.cancelRequested);
