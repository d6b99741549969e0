import { useCallback, useMemo, type ReactNode } from 'react';
import { Button } from '@chakra-ui/react';
import {
  channelBulkActions,
  channelBulkLabelKey,
  channelBulkRunLabel,
  channelBulkValueActions,
  isDangerousChannelAction,
  type ChannelBulkAction,
  type ChannelRow,
  type ChannelTagCount,
  type ChannelTestRunResult,
} from '../../domain/channel';
import type { QuotaDisplay } from '../../domain/format';
import type { Message } from '../../domain/message';
import type { BulkValuePrompt, ChannelListActionsEvent } from '../../machines/channelList';
import type { ChannelTagsEvent, TagEditDraft } from '../../machines/channelTags';
import type { BulkRun, TableEvent } from '../../machines/table';
import { useT } from '../app/i18n';
import { ListPageLayout, type BulkActionSpec } from '../list/ListPageLayout';
import { tableHandlers } from '../list/tableHandlers';
import { ConfirmDialogView } from '../table/ConfirmDialogView';
import type { TableState } from '../table/useTable';
import { ChannelBulkValueDialog } from './ChannelBulkValueDialog';
import { ChannelTagEditDialog, type TagEditStep } from './ChannelTagEditDialog';
import { useChannelColumns } from './ChannelColumns';
import { ChannelListFilters, ChannelNotice, ChannelToolbarControls } from './ChannelListToolbarView';
import { ChannelCellsStyles, type OnRowAction } from './ChannelRowCells';

export type ChannelTableEvent = TableEvent<ChannelRow>;

export interface ChannelListPageViewProps {
  /** Everything the table actor says (useTableState). */
  readonly table: TableState<ChannelRow>;
  /** id -> name of every loaded channel (bulk report). */
  readonly names: Readonly<Record<number, string>>;
  readonly groupOptions: readonly string[];
  readonly typeOptions: readonly number[];
  readonly showDetail: boolean;
  readonly noticeShown: boolean;
  readonly confirmingDeleteDisabled: boolean;
  readonly deletingDisabled: boolean;
  readonly bulkValue: BulkValuePrompt | null;
  readonly loadingGroups: boolean;
  readonly groups: readonly string[];
  /** Live test results of the current run, by channel id. */
  readonly liveResults: Readonly<Record<number, ChannelTestRunResult>>;
  /** "Test all" / "test disabled" can start a run. */
  readonly canStartTest: boolean;
  /** How quota-like balances (types 10, 13) are shown. */
  readonly quotaDisplay: QuotaDisplay;
  /** The live test panel (progress, cancel, retry), above the table. */
  readonly testPanel?: ReactNode;
  readonly onTable: (event: ChannelTableEvent) => void;
  readonly onActions: (event: ChannelListActionsEvent) => void;
  readonly onTestStart: (scope: 'all' | 'disabled') => void;
  /** Every tag in use with its channel count (the tag filter, the edit by tag). */
  readonly tagCounts: readonly ChannelTagCount[];
  /** The edit-by-tag dialog. */
  readonly tagEdit: { readonly step: TagEditStep; readonly draft: TagEditDraft; readonly problem: Message | null; readonly count: number };
  readonly onTags: (event: ChannelTagsEvent) => void;
}

/** The bulk actions without a value (the table confirms them); the value actions ask first. */
const plainBulkActions: readonly BulkActionSpec<ChannelBulkAction>[] = [
  { action: channelBulkActions.enable, label: channelBulkLabelKey(channelBulkActions.enable), palette: 'green' },
  { action: channelBulkActions.disable, label: channelBulkLabelKey(channelBulkActions.disable), palette: 'orange' },
  { action: channelBulkActions.remove, label: channelBulkLabelKey(channelBulkActions.remove), palette: 'red', danger: true },
];

/** A channel as the selection names it (its checkbox, the bulk report). */
const channelName = (r: ChannelRow): string => r.name;

/**
 * The channel list (/channel, spec §2 "Channel list") on the shared list layout: the notice, the
 * toolbar (search, test all, test disabled, delete disabled, detail mode, add, refresh), filters,
 * the live test panel, the selection bar with bulk actions, the table (cells in ChannelRowCells),
 * the pager, and the dialogs (row delete, delete disabled, bulk value, bulk steps, edit by tag),
 * each drawn from its first opening (`useOpenedOnce`).
 */
export function ChannelListPageView({
  table,
  names,
  groupOptions,
  typeOptions,
  showDetail,
  noticeShown,
  confirmingDeleteDisabled,
  deletingDisabled,
  bulkValue,
  loadingGroups,
  groups,
  liveResults,
  canStartTest,
  quotaDisplay,
  testPanel,
  onTable,
  onActions,
  onTestStart,
  tagCounts,
  tagEdit,
  onTags,
}: ChannelListPageViewProps) {
  const t = useT();
  const inert = !table.idle;
  // Everything below keeps its identity while its inputs do (the callbacks from the container are
  // stable): the memoized table rows, and the toolbar, filters and dialogs as the same elements,
  // are then not rendered again by an event that does not concern them (a page, a key typed).
  const on = useMemo(() => tableHandlers<ChannelRow>(onTable), [onTable]);
  const nameOf = useCallback((id: number) => t('channels.row.name', { id, name: names[id] ?? '' }).trim(), [t, names]);

  const onAction = useCallback<OnRowAction>(
    (row, action, value, confirm) =>
      onTable({ type: 'row.action', id: row.id, action, ...(value === undefined ? {} : { value }), ...(confirm ? { confirm } : {}) }),
    [onTable],
  );
  const onTestModel = useCallback(
    (r: ChannelRow, model: string) => onTable({ type: 'row.patch', id: r.id, patch: { test_model: model } }),
    [onTable],
  );
  const columns = useChannelColumns({ showDetail, liveResults, quotaDisplay, inert, busy: table.busy, onAction, onTestModel });

  const bulkLabel = useCallback(
    (run: BulkRun) => {
      const label = channelBulkRunLabel(run.action, run.value);
      if (label === null) return run.action;
      return 'value' in label ? t(label.key, { value: label.value }) : t(label.key);
    },
    [t],
  );

  const banner = useMemo(() => noticeShown && <ChannelNotice onDismiss={() => onActions({ type: 'notice.dismiss' })} />, [noticeShown, onActions]);
  const toolbar = useMemo(
    () => (
      <ChannelToolbarControls
        canStartTest={canStartTest}
        confirmingDeleteDisabled={confirmingDeleteDisabled}
        deletingDisabled={deletingDisabled}
        showDetail={showDetail}
        onTestStart={onTestStart}
        onDeleteDisabled={() => onActions({ type: 'deleteDisabled.request' })}
        onToggleDetail={() => onActions({ type: 'detail.toggle' })}
        onEditByTag={() => onTags({ type: 'tagEdit.open' })}
      />
    ),
    [canStartTest, confirmingDeleteDisabled, deletingDisabled, showDetail, onTestStart, onActions, onTags],
  );
  const filters = useMemo(
    () => (
      <ChannelListFilters
        filters={table.filters}
        typeOptions={typeOptions}
        groupOptions={groupOptions}
        tagOptions={tagCounts}
        disabled={inert}
        onFilter={(key, value) => onTable({ type: 'filter.change', key, value })}
      />
    ),
    [table.filters, typeOptions, groupOptions, tagCounts, inert, onTable],
  );
  const bulkExtra = useMemo(
    () =>
      channelBulkValueActions.map((a) => (
        <Button key={a} size="xs" variant="outline" disabled={inert} onClick={() => onActions({ type: 'bulkValue.open', action: a })}>
          {t(channelBulkLabelKey(a))}
        </Button>
      )),
    [inert, onActions, t],
  );
  const dialogs = useMemo(
    () => (
      <>
        <ConfirmDialogView
          open={confirmingDeleteDisabled || deletingDisabled}
          title={t('channels.deleteDisabled.title')}
          body={t('channels.deleteDisabled.confirm')}
          danger
          busy={deletingDisabled}
          onConfirm={() => onActions({ type: 'deleteDisabled.accept' })}
          onCancel={() => onActions({ type: 'deleteDisabled.cancel' })}
        />
        <ChannelBulkValueDialog
          prompt={bulkValue}
          loadingGroups={loadingGroups}
          groups={groups}
          onInput={(value) => onActions({ type: 'bulkValue.input', value })}
          onSubmit={() => onActions({ type: 'bulkValue.submit' })}
          onCancel={() => onActions({ type: 'bulkValue.cancel' })}
        />
        <ChannelTagEditDialog
          step={tagEdit.step}
          draft={tagEdit.draft}
          problem={tagEdit.problem}
          count={tagEdit.count}
          tags={tagCounts}
          onTags={onTags}
        />
      </>
    ),
    [
      t,
      confirmingDeleteDisabled,
      deletingDisabled,
      bulkValue,
      loadingGroups,
      groups,
      tagEdit.step,
      tagEdit.draft,
      tagEdit.problem,
      tagEdit.count,
      tagCounts,
      onActions,
      onTags,
    ],
  );

  return (
    <>
      {/* the rules of the detail mode's model selects, for the table and the cards alike: only
          there with them (a sheet once written stays: turning detail mode on again writes nothing) */}
      {showDetail && <ChannelCellsStyles />}
      <ListPageLayout<ChannelRow, ChannelBulkAction>
        title={t('channels.title')}
        banner={banner}
        table={table}
        columns={columns}
        on={on}
        search={{ label: t('channels.search'), onDraft: on.onDraft, onSearch: on.onSearch, onClearSearch: on.onClearSearch }}
        toolbarLabel={t('channels.toolbar')}
        toolbar={toolbar}
        add={{ to: '/channel/add', label: t('channels.add') }}
        onRefresh={on.onRefresh}
        filters={filters}
        aboveTable={testPanel}
        selection={{
          rowName: channelName,
          onToggleRow: on.onToggleRow,
          onTogglePage: on.onTogglePage,
          onSelectAllMatching: on.onSelectAllMatching,
          onClearSelection: on.onClearSelection,
        }}
        bulk={{
          actions: plainBulkActions,
          extra: bulkExtra,
          onBulk: (action) => onTable({ type: 'bulk.request', action }),
          onBulkConfirm: on.onBulkConfirm,
          onBulkCancel: on.onBulkCancel,
          onBulkStop: on.onBulkStop,
          onBulkRetry: on.onBulkRetry,
          onBulkDismiss: on.onBulkDismiss,
          actionLabel: bulkLabel,
          rowLabel: nameOf,
          isDanger: isDangerousChannelAction,
        }}
        confirm={{
          body: (id) => t('channels.row.deleteConfirm', { id, name: names[id] ?? '' }),
          onConfirm: on.onConfirm,
          onCancel: on.onCancel,
        }}
      >
        {dialogs}
      </ListPageLayout>
    </>
  );
}
