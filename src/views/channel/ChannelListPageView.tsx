import type { ReactNode } from 'react';
import { Heading, Stack } from '@chakra-ui/react';
import { channelBulkRunLabel, isDangerousChannelAction, type ChannelRow, type ChannelTestRunResult } from '../../domain/channel';
import type { QuotaDisplay } from '../../domain/format';
import type { BulkValuePrompt, ChannelListActionsEvent } from '../../machines/channelList';
import type { BulkRun, TableEvent } from '../../machines/table';
import { useT } from '../app/i18n';
import { BulkDialogsView } from '../table/BulkDialogsView';
import { ConfirmDialogView } from '../table/ConfirmDialogView';
import { DataTableView } from '../table/DataTableView';
import { PagerView } from '../table/PagerView';
import type { TableState } from '../table/useTable';
import { ChannelBulkBar } from './ChannelBulkBar';
import { ChannelBulkValueDialog } from './ChannelBulkValueDialog';
import { useChannelColumns } from './ChannelColumns';
import { ChannelListFilters, ChannelListToolbar, ChannelNotice } from './ChannelListToolbarView';
import type { OnRowAction } from './ChannelRowCells';

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
}

/**
 * The channel list (/channel, spec §2 "Channel list"): the notice, the toolbar (search, add, test
 * all, test disabled, delete disabled, refresh, detail mode), filters, the live test panel, the
 * selection bar with bulk actions, the table (cells in ChannelRowCells), the pager, and the
 * dialogs (row delete, delete disabled, bulk value, bulk steps).
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
}: ChannelListPageViewProps) {
  const t = useT();
  const inert = !table.idle;
  const nameOf = (id: number) => t('channels.row.name', { id, name: names[id] ?? '' }).trim();

  const onAction: OnRowAction = (row, action, value, confirm) =>
    onTable({ type: 'row.action', id: row.id, action, ...(value === undefined ? {} : { value }), ...(confirm ? { confirm } : {}) });

  const columns = useChannelColumns({
    showDetail,
    liveResults,
    quotaDisplay,
    inert,
    isBusy: (r) => table.busy[r.id] !== undefined || inert,
    onAction,
    onTestModel: (r, model) => onTable({ type: 'row.patch', id: r.id, patch: { test_model: model } }),
  });

  const bulkLabel = (run: BulkRun) => {
    const label = channelBulkRunLabel(run.action, run.value);
    if (label === null) return run.action;
    return 'value' in label ? t(label.key, { value: label.value }) : t(label.key);
  };
  const pendingRow = table.pending;

  return (
    <Stack gap={4} minW={0}>
      <Heading as="h1" size="lg">
        {t('channels.title')}
      </Heading>

      {noticeShown && <ChannelNotice onDismiss={() => onActions({ type: 'notice.dismiss' })} />}

      <ChannelListToolbar
        draft={table.draft}
        keyword={table.keyword}
        searchDisabled={inert && !table.loadFailed}
        inert={inert}
        canStartTest={canStartTest}
        confirmingDeleteDisabled={confirmingDeleteDisabled}
        deletingDisabled={deletingDisabled}
        showDetail={showDetail}
        onDraft={(text) => onTable({ type: 'search.input', text })}
        onSearch={() => onTable({ type: 'search.submit' })}
        onClearSearch={() => onTable({ type: 'search.clear' })}
        onTestStart={onTestStart}
        onDeleteDisabled={() => onActions({ type: 'deleteDisabled.request' })}
        onRefresh={() => onTable({ type: 'rows.reload' })}
        onToggleDetail={() => onActions({ type: 'detail.toggle' })}
      />

      <ChannelListFilters
        filters={table.filters}
        typeOptions={typeOptions}
        groupOptions={groupOptions}
        disabled={inert}
        onFilter={(key, value) => onTable({ type: 'filter.change', key, value })}
      />

      {testPanel}

      <ChannelBulkBar
        selectedCount={table.selectedCount}
        shownCount={table.shownCount}
        complete={table.complete}
        disabled={inert}
        onSelectAllMatching={() => onTable({ type: 'selection.allMatching' })}
        onClear={() => onTable({ type: 'selection.clear' })}
        onBulk={(action) => onTable({ type: 'bulk.request', action })}
        onBulkValue={(action) => onActions({ type: 'bulkValue.open', action })}
      />

      <DataTableView
        caption={t('channels.title')}
        columns={columns}
        rows={table.rows}
        sort={table.sort}
        onSort={(key) => onTable({ type: 'sort.toggle', key })}
        selection={{
          selected: table.selected,
          pageSelected: table.pageSelected,
          onToggleRow: (id) => onTable({ type: 'row.select', id }),
          onTogglePage: () => onTable({ type: 'selection.page' }),
          rowLabel: (r) => t('table.select.row', { name: r.name }),
        }}
        busy={table.busy}
        firstLoad={table.firstLoad}
        loadFailed={table.loadFailed}
        onRetry={() => onTable({ type: 'load.retry' })}
        emptyText={table.keyword !== '' ? t('table.emptySearch') : t('table.empty')}
        disabled={inert}
      />

      {!table.loadFailed && (
        <PagerView
          page={table.page}
          pageCount={table.pageCount}
          complete={table.complete}
          loadedCount={table.loadedCount}
          shownCount={table.shownCount}
          size={table.size}
          loading={table.loading}
          disabled={inert}
          onPage={(page) => onTable({ type: 'page.go', page })}
          onSize={(size) => onTable({ type: 'page.size', size })}
        />
      )}

      <ConfirmDialogView
        open={pendingRow !== null}
        body={pendingRow ? t('channels.row.deleteConfirm', { id: pendingRow.id, name: names[pendingRow.id] ?? '' }) : ''}
        danger
        onConfirm={() => onTable({ type: 'confirm.accept' })}
        onCancel={() => onTable({ type: 'confirm.cancel' })}
      />

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

      <BulkDialogsView
        toConfirm={table.bulkToConfirm}
        running={table.bulkRunning}
        report={table.bulkReport}
        actionLabel={bulkLabel}
        rowLabel={nameOf}
        isDanger={isDangerousChannelAction}
        onConfirm={() => onTable({ type: 'confirm.accept' })}
        onCancel={() => onTable({ type: 'confirm.cancel' })}
        onStop={() => onTable({ type: 'bulk.cancel' })}
        onRetry={() => onTable({ type: 'bulk.retry' })}
        onDismiss={() => onTable({ type: 'report.dismiss' })}
      />
    </Stack>
  );
}
