import { Badge, Button, Flex, Heading, HStack, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { canToggleRedemption, redemptionStatusOf, redemptionStatuses, redemptionStatusUnused } from '../../domain/constants';
import { formatQuota, formatTimestamp, renderRedeemedTime, type QuotaDisplay } from '../../domain/format';
import type { Redemption } from '../../domain/redemption';
import type { BulkRun } from '../../machines/table';
import { useRenderMessage, useT } from '../app/i18n';
import { BulkDialogsView } from '../table/BulkDialogsView';
import { ConfirmDialogView } from '../table/ConfirmDialogView';
import { DataTableView, type Column } from '../table/DataTableView';
import { PagerView } from '../table/PagerView';
import { SelectionBarView } from '../table/SelectionBarView';
import { TableSearchView } from '../table/TableSearchView';
import type { TableState } from '../table/useTable';

/** What the list's buttons ask for (the container sends them to the table and copy actors). */
export interface RedemptionListHandlers {
  readonly onDraft: (text: string) => void;
  readonly onSearch: () => void;
  readonly onClearSearch: () => void;
  readonly onSort: (key: string) => void;
  readonly onPage: (page: number) => void;
  readonly onSize: (size: number) => void;
  readonly onStatusFilter: (value: string) => void;
  readonly onRetry: () => void;
  readonly onReload: () => void;
  readonly onToggleRow: (id: number) => void;
  readonly onTogglePage: () => void;
  readonly onSelectAllMatching: () => void;
  readonly onClearSelection: () => void;
  readonly onCopyKey: (row: Redemption) => void;
  readonly onToggleStatus: (id: number) => void;
  readonly onDelete: (id: number) => void;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly onBulk: (action: 'enable' | 'disable' | 'delete') => void;
  readonly onExport: (format: 'copy' | 'download') => void;
  readonly onBulkConfirm: () => void;
  readonly onBulkCancel: () => void;
  readonly onBulkStop: () => void;
  readonly onBulkRetry: () => void;
  readonly onBulkDismiss: () => void;
}

export interface RedemptionListPageViewProps extends RedemptionListHandlers {
  readonly table: TableState<Redemption>;
  readonly quotaDisplay: QuotaDisplay;
  /** A key is being copied. */
  readonly copying: boolean;
}

const bulkLabelKey = {
  enable: 'redemptions.bulk.enable',
  disable: 'redemptions.bulk.disable',
  delete: 'redemptions.bulk.delete',
} as const;

/**
 * The redemption list (/redemption, spec §2): ID, name, status, quota, created and redeemed
 * time; search by id and name; header sorting; a status filter; per row copy key, delete
 * (confirmed), enable/disable (not for used codes) and edit; bulk enable, disable, delete,
 * copy and download of the selected keys.
 */
export function RedemptionListPageView({ table, quotaDisplay, copying, ...on }: RedemptionListPageViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const inert = !table.idle;
  const statusFilter = table.filters.status ?? '';

  const columns: readonly Column<Redemption>[] = [
    { key: 'id', header: t('redemptions.col.id'), sortable: true, numeric: true, render: (r) => r.id },
    {
      key: 'name',
      header: t('redemptions.col.name'),
      sortable: true,
      minW: '8rem',
      render: (r) => (
        <Text as="span" wordBreak="break-all">
          {r.name}
        </Text>
      ),
    },
    {
      key: 'status',
      header: t('redemptions.col.status'),
      sortable: true,
      render: (r) => {
        const status = redemptionStatusOf(r.status);
        return (
          <Badge colorPalette={status.color} variant="subtle" whiteSpace="nowrap">
            {t(status.labelKey as never)}
          </Badge>
        );
      },
    },
    { key: 'quota', header: t('redemptions.col.quota'), sortable: true, numeric: true, render: (r) => formatQuota(r.quota, quotaDisplay) },
    {
      key: 'created_time',
      header: t('redemptions.col.created'),
      sortable: true,
      render: (r) => <Text whiteSpace="nowrap">{formatTimestamp(r.created_time)}</Text>,
    },
    {
      key: 'redeemed_time',
      header: t('redemptions.col.redeemed'),
      sortable: true,
      render: (r) => <Text whiteSpace="nowrap">{render(renderRedeemedTime(r.redeemed_time))}</Text>,
    },
    {
      key: 'actions',
      header: t('table.actions'),
      render: (r) => {
        const busy = table.busy[r.id] !== undefined || inert;
        const toggleable = canToggleRedemption(r.status);
        const enabling = r.status !== redemptionStatusUnused;
        return (
          <HStack gap={1} wrap="nowrap">
            <Button size="xs" variant="outline" disabled={busy || copying} onClick={() => on.onCopyKey(r)} aria-label={t('redemptions.action.copyOf', { id: r.id })}>
              {t('redemptions.action.copy')}
            </Button>
            <Button
              size="xs"
              variant="outline"
              colorPalette={enabling ? 'green' : 'orange'}
              disabled={busy || !toggleable}
              title={toggleable ? undefined : t('redemptions.action.usedHint')}
              onClick={() => on.onToggleStatus(r.id)}
              aria-label={t(enabling ? 'redemptions.action.enableOf' : 'redemptions.action.disableOf', { id: r.id })}
            >
              {t(enabling ? 'redemptions.action.enable' : 'redemptions.action.disable')}
            </Button>
            {busy ? (
              <Button size="xs" variant="outline" disabled aria-label={t('redemptions.action.editOf', { id: r.id })}>
                {t('redemptions.action.edit')}
              </Button>
            ) : (
              <Button size="xs" variant="outline" asChild>
                <RouterLink to={`/redemption/edit/${r.id}`} aria-label={t('redemptions.action.editOf', { id: r.id })}>
                  {t('redemptions.action.edit')}
                </RouterLink>
              </Button>
            )}
            <Button size="xs" variant="outline" colorPalette="red" disabled={busy} onClick={() => on.onDelete(r.id)} aria-label={t('redemptions.action.deleteOf', { id: r.id })}>
              {t('redemptions.action.delete')}
            </Button>
          </HStack>
        );
      },
    },
  ];

  const pendingRow = table.pending ? table.rows.find((r) => r.id === table.pending?.id) : undefined;
  const actionLabel = (run: BulkRun): string =>
    run.action in bulkLabelKey ? t(bulkLabelKey[run.action as keyof typeof bulkLabelKey]) : run.action;

  return (
    <Stack gap={4} px={{ base: 2, md: 4 }} py={4} maxW="full" minW={0}>
      <Heading as="h1" size="xl">
        {t('redemptions.title')}
      </Heading>
      <Flex gap={2} wrap="wrap" align="center">
        <TableSearchView
          draft={table.draft}
          keyword={table.keyword}
          label={t('redemptions.search')}
          disabled={inert && !table.loadFailed}
          onDraft={on.onDraft}
          onSubmit={on.onSearch}
          onClear={on.onClearSearch}
        />
        <NativeSelect.Root size="md" width="auto" disabled={inert}>
          <NativeSelect.Field aria-label={t('redemptions.filter.status')} value={statusFilter} onChange={(e) => on.onStatusFilter(e.currentTarget.value)}>
            <option value="">{t('table.filter.all')}</option>
            {redemptionStatuses.map((s) => (
              <option key={s.value} value={String(s.value)}>
                {t(s.labelKey as never)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Button colorPalette="blue" asChild>
          <RouterLink to="/redemption/add">{t('redemptions.add')}</RouterLink>
        </Button>
        <Button variant="outline" disabled={inert} onClick={on.onReload}>
          {t('table.refresh')}
        </Button>
      </Flex>
      <SelectionBarView
        selectedCount={table.selectedCount}
        shownCount={table.shownCount}
        complete={table.complete}
        disabled={inert}
        onSelectAllMatching={on.onSelectAllMatching}
        onClear={on.onClearSelection}
      >
        <Button size="xs" variant="outline" colorPalette="green" disabled={inert} onClick={() => on.onBulk('enable')}>
          {t('redemptions.bulk.enable')}
        </Button>
        <Button size="xs" variant="outline" colorPalette="orange" disabled={inert} onClick={() => on.onBulk('disable')}>
          {t('redemptions.bulk.disable')}
        </Button>
        <Button size="xs" variant="outline" colorPalette="red" disabled={inert} onClick={() => on.onBulk('delete')}>
          {t('redemptions.bulk.delete')}
        </Button>
        <Button size="xs" variant="outline" disabled={inert} onClick={() => on.onExport('copy')}>
          {t('redemptions.bulk.copy')}
        </Button>
        <Button size="xs" variant="outline" disabled={inert} onClick={() => on.onExport('download')}>
          {t('redemptions.bulk.download')}
        </Button>
      </SelectionBarView>
      <DataTableView
        caption={t('redemptions.title')}
        columns={columns}
        rows={table.rows}
        sort={table.sort}
        onSort={on.onSort}
        selection={{
          selected: table.selected,
          pageSelected: table.pageSelected,
          onToggleRow: on.onToggleRow,
          onTogglePage: on.onTogglePage,
          rowLabel: (r) => t('table.select.row', { name: t('redemptions.rowLabel', { id: r.id, name: r.name }) }),
        }}
        busy={table.busy}
        firstLoad={table.firstLoad}
        loadFailed={table.loadFailed}
        onRetry={on.onRetry}
        emptyText={t(table.keyword !== '' ? 'table.emptySearch' : 'table.empty')}
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
          loading={table.loading && !table.firstLoad}
          disabled={inert}
          onPage={on.onPage}
          onSize={on.onSize}
        />
      )}
      <ConfirmDialogView
        open={table.pending !== null}
        body={
          table.pending
            ? t('redemptions.confirm.delete', { id: table.pending.id, name: pendingRow?.name ?? '' })
            : ''
        }
        confirmLabel={t('redemptions.action.delete')}
        danger
        onConfirm={on.onConfirm}
        onCancel={on.onCancel}
      />
      <BulkDialogsView
        toConfirm={table.bulkToConfirm}
        running={table.bulkRunning}
        report={table.bulkReport}
        actionLabel={actionLabel}
        rowLabel={(id) => {
          const row = table.rows.find((r) => r.id === id);
          return row ? t('redemptions.rowLabel', { id, name: row.name }) : `#${id}`;
        }}
        isDanger={(action) => action === 'delete'}
        onConfirm={on.onBulkConfirm}
        onCancel={on.onBulkCancel}
        onStop={on.onBulkStop}
        onRetry={on.onBulkRetry}
        onDismiss={on.onBulkDismiss}
      />
    </Stack>
  );
}

