import { useMemo } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import {
  selectCanCancel,
  selectCanDismiss,
  selectCanRetryFailed,
  selectFailedCount,
  selectFailedIds,
  selectIsCancelling,
  selectIsPreparing,
  selectIsRunning,
  selectMode,
  selectPassedCount,
  selectPollFailed,
  selectProgressPercent,
  selectResults,
  selectRun,
  type channelTestMachine,
} from '../../machines/channelTest';
import { ChannelTestProgressView, type ChannelTestFailure } from './ChannelTestProgressView';

/** The channel test actor a page owns (`useMachineActor(channelTestMachine)`). */
export type ChannelTestActorRef = ActorRefFrom<typeof channelTestMachine>;

export interface ChannelTestProgressProps {
  readonly actorRef: ChannelTestActorRef;
  /** Channel names by id, when the page knows them (the failures list shows them). */
  readonly channelNames?: Readonly<Record<number, string>>;
}

/**
 * The live progress panel of the channel test machine, for the channel list. Renders nothing
 * until a run starts or is found going. The page starts runs with
 * `actorRef.send({ type: 'test.start', scope })` and listens to `test.result` for row updates.
 */
export function ChannelTestProgress({ actorRef, channelNames }: ChannelTestProgressProps) {
  const run = useSelector(actorRef, selectRun);
  const preparing = useSelector(actorRef, selectIsPreparing);
  const running = useSelector(actorRef, selectIsRunning);
  const cancelling = useSelector(actorRef, selectIsCancelling);
  const pollFailed = useSelector(actorRef, selectPollFailed);
  const mode = useSelector(actorRef, selectMode);
  const passed = useSelector(actorRef, selectPassedCount);
  const failed = useSelector(actorRef, selectFailedCount);
  const percent = useSelector(actorRef, selectProgressPercent);
  const results = useSelector(actorRef, selectResults);
  const failedIds = useSelector(actorRef, selectFailedIds);
  const canCancel = useSelector(actorRef, selectCanCancel);
  const canRetryFailed = useSelector(actorRef, selectCanRetryFailed);
  const canDismiss = useSelector(actorRef, selectCanDismiss);
  const failures = useMemo<ChannelTestFailure[]>(
    () => failedIds.map((id) => ({ channelId: id, message: results[id]?.message ?? '' })),
    [failedIds, results],
  );
  return (
    <ChannelTestProgressView
      run={run}
      preparing={preparing}
      running={running}
      cancelling={cancelling}
      pollFailed={pollFailed}
      localMode={mode === 'local'}
      passed={passed}
      failed={failed}
      percent={percent}
      failures={failures}
      channelNames={channelNames}
      canCancel={canCancel}
      canRetryFailed={canRetryFailed}
      canDismiss={canDismiss}
      onCancel={() => actorRef.send({ type: 'test.cancel' })}
      onRetryFailed={() => actorRef.send({ type: 'test.retryFailed' })}
      onDismiss={() => actorRef.send({ type: 'test.dismiss' })}
    />
  );
}
