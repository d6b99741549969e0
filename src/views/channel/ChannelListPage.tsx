import { useCallback, useMemo } from 'react';
import { shallowEqual, useSelector } from '@xstate/react';
import type { ChannelRow } from '../../domain/channel';
import type { QuotaDisplay } from '../../domain/format';
import {
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
  type ChannelListActionsEvent,
} from '../../machines/channelList';
import { channelListPageMachine, type ChannelListPageMachine } from '../../machines/channelListPage';
import {
  selectTagCounts,
  selectTagEditCount,
  selectTagEditDraft,
  selectTagEditProblem,
  selectTagEditStep,
  type ChannelTagsEvent,
} from '../../machines/channelTags';
import { selectCanStart, selectResults } from '../../machines/channelTest';
import { useListPageActor, useTableState } from '../table/useTable';
import { ChannelListPageView, type ChannelTableEvent } from './ChannelListPageView';
import { ChannelTestProgress } from './ChannelTestProgress';

/**
 * Route page for /channel (admin): the page actor (src/machines/channelListPage) with the channel
 * table (address bar in sync), the list's own workflows (detail mode, notice, delete disabled,
 * bulk values) and the live channel tests. The page machine routes the children's facts (a live
 * result patches its row, deleted channels reload the table, a bulk value becomes the table's
 * request); this container only reads the children and sends the person's intents to them.
 */
export function ChannelListPage({ quotaDisplay }: { readonly quotaDisplay: QuotaDisplay }) {
  const { pageRef, tableRef } = useListPageActor<ChannelRow, ChannelListPageMachine>(channelListPageMachine, channelTableSchema);
  // invoked for as long as the page lives: there from the first snapshot
  const actionsRef = useSelector(pageRef, (s) => s.children.channelListActions)!;
  const testRef = useSelector(pageRef, (s) => s.children.channelTest)!;
  const tagsRef = useSelector(pageRef, (s) => s.children.channelTags)!;

  const table = useTableState(tableRef);
  // worked out again only when the loaded rows change (10,000 channels are not walked per event)
  const names = useSelector(tableRef, selectChannelNames);
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
  const tagCounts = useSelector(tagsRef, selectTagCounts);
  const tagEditStep = useSelector(tagsRef, selectTagEditStep);
  const tagEditDraft = useSelector(tagsRef, selectTagEditDraft);
  const tagEditProblem = useSelector(tagsRef, selectTagEditProblem);
  const tagEditCount = useSelector(tagsRef, selectTagEditCount);

  // stable callbacks: the table's memoized rows render again only when their own props change
  const onTable = useCallback((event: ChannelTableEvent) => tableRef.send(event), [tableRef]);
  const onActions = useCallback((event: ChannelListActionsEvent) => actionsRef.send(event), [actionsRef]);
  const onTestStart = useCallback((scope: 'all' | 'disabled') => testRef.send({ type: 'test.start', scope }), [testRef]);
  const onTags = useCallback((event: ChannelTagsEvent) => tagsRef.send(event), [tagsRef]);

  const testPanel = useMemo(() => <ChannelTestProgress actorRef={testRef} channelNames={names} />, [testRef, names]);

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
      testPanel={testPanel}
      onTable={onTable}
      onActions={onActions}
      onTestStart={onTestStart}
      tagCounts={tagCounts}
      tagEdit={{ step: tagEditStep, draft: tagEditDraft, problem: tagEditProblem, count: tagEditCount }}
      onTags={onTags}
    />
  );
}
