import { useEffect } from 'react';
import { shallowEqual, useSelector } from '@xstate/react';
import type { QuotaDisplay } from '../../domain/format';
import {
  channelListActionsMachine,
  channelTableMachine,
  channelTableSchema,
  selectBulkValuePrompt,
  selectChannelNames,
  selectGroupOptions,
  selectGroups,
  selectIsConfirmingDeleteDisabled,
  selectIsDeletingDisabled,
  selectIsLoadingGroups,
  selectNoticeShown,
  selectShowDetail,
  selectTypeOptions,
  type BulkValueChosen,
} from '../../machines/channelList';
import { channelTestMachine, selectCanStart, selectResults, type ChannelTestResultEvent } from '../../machines/channelTest';
import { useMachineActor } from '../app/machineRegistry';
import { useTableActor, useTableState } from '../table/useTable';
import { ChannelListPageView } from './ChannelListPageView';
import { ChannelTestProgress } from './ChannelTestProgress';

/**
 * Route page for /channel (admin): the channel table actor (address bar in sync), the list's own
 * workflows (detail mode, notice, delete disabled, bulk values) and the live channel tests. Each
 * live test result patches its row; deleting the disabled channels reloads the table; an accepted
 * bulk value becomes the table's bulk request.
 */
export function ChannelListPage({ quotaDisplay }: { readonly quotaDisplay: QuotaDisplay }) {
  const tableRef = useTableActor(channelTableMachine, channelTableSchema);
  const actionsRef = useMachineActor(channelListActionsMachine);
  const testRef = useMachineActor(channelTestMachine);

  useEffect(() => {
    const subs = [
      actionsRef.on('channels.deleted', () => tableRef.send({ type: 'rows.reload' })),
      actionsRef.on('bulk.valueChosen', (e: BulkValueChosen) => tableRef.send({ type: 'bulk.request', action: e.action, value: e.value })),
      testRef.on('test.result', ({ result }: ChannelTestResultEvent) =>
        tableRef.send({
          type: 'row.patch',
          id: result.channel_id,
          patch: { status: result.status, response_time: result.response_time, test_time: result.test_time },
        }),
      ),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [actionsRef, testRef, tableRef]);

  const table = useTableState(tableRef);
  const names = useSelector(tableRef, selectChannelNames, shallowEqual);
  const groupOptions = useSelector(tableRef, selectGroupOptions, shallowEqual);
  const typeOptions = useSelector(tableRef, selectTypeOptions, shallowEqual);
  const showDetail = useSelector(actionsRef, selectShowDetail);
  const noticeShown = useSelector(actionsRef, selectNoticeShown);
  const confirmingDeleteDisabled = useSelector(actionsRef, selectIsConfirmingDeleteDisabled);
  const deletingDisabled = useSelector(actionsRef, selectIsDeletingDisabled);
  const bulkValue = useSelector(actionsRef, selectBulkValuePrompt);
  const loadingGroups = useSelector(actionsRef, selectIsLoadingGroups);
  const groups = useSelector(actionsRef, selectGroups);
  const liveResults = useSelector(testRef, selectResults);
  const canStartTest = useSelector(testRef, selectCanStart);

  return (
    <ChannelListPageView
      table={table}
      names={names}
      groupOptions={groupOptions}
      typeOptions={typeOptions}
      showDetail={showDetail}
      noticeShown={noticeShown}
      confirmingDeleteDisabled={confirmingDeleteDisabled}
      deletingDisabled={deletingDisabled}
      bulkValue={bulkValue}
      loadingGroups={loadingGroups}
      groups={groups}
      liveResults={liveResults}
      canStartTest={canStartTest}
      quotaDisplay={quotaDisplay}
      testPanel={<ChannelTestProgress actorRef={testRef} channelNames={names} />}
      onTable={(event) => tableRef.send(event)}
      onActions={(event) => actionsRef.send(event)}
      onTestStart={(scope) => testRef.send({ type: 'test.start', scope })}
    />
  );
}
