import { Button, HStack, Text } from '@chakra-ui/react';
import { RouterLink } from '../app/RouterLink';
import { canToggleRedemption, redemptionStatusOf, redemptionStatuses, redemptionStatusUnused } from '../../domain/constants';
import { formatQuota, formatTimestamp, renderRedeemedTime, type QuotaDisplay } from '../../domain/format';
import type { Redemption } from '../../domain/redemption';
import { useRenderMessage, useT } from '../app/i18n';
import { ListPageLayout, type BulkActionSpec } from '../list/ListPageLayout';
import { actionsColumn, LabelBadge, ListSelect, useColumns, useLabelledOptions } from '../list/useColumns';
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

const bulkActions: readonly BulkActionSpec<'enable' | 'disable' | 'delete'>[] = [
  { action: 'enable', label: 'redemptions.bulk.enable', palette: 'green' },
  { action: 'disable', label: 'redemptions.bulk.disable', palette: 'orange' },
  { action: 'delete', label: 'redemptions.bulk.delete', palette: 'red', danger: true },
];

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
  const statusOptions = useLabelledOptions(redemptionStatuses);

  const columns = useColumns<Redemption>([
    { key: 'id', header: 'redemptions.col.id', numeric: true, render: (r) => r.id },
    {
      key: 'name',
      header: 'redemptions.col.name',
      minW: '8rem',
      card: 'title',
      render: (r) => (
        <Text as="span" wordBreak="break-all">
          {r.name}
        </Text>
      ),
    },
    { key: 'status', header: 'redemptions.col.status', render: (r) => <LabelBadge entry={redemptionStatusOf(r.status)} /> },
    { key: 'quota', header: 'redemptions.col.quota', numeric: true, render: (r) => formatQuota(r.quota, quotaDisplay) },
    {
      key: 'created_time',
      header: 'redemptions.col.created',
      render: (r) => <Text whiteSpace="nowrap">{formatTimestamp(r.created_time)}</Text>,
    },
    {
      key: 'redeemed_time',
      header: 'redemptions.col.redeemed',
      render: (r) => <Text whiteSpace="nowrap">{render(renderRedeemedTime(r.redeemed_time))}</Text>,
    },
    actionsColumn((r) => {
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
    }),
  ]);

  return (
    <ListPageLayout<Redemption, 'enable' | 'disable' | 'delete'>
      title={t('redemptions.title')}
      table={table}
      columns={columns}
      on={on}
      search={{ label: t('redemptions.search'), ...on }}
      toolbar={
        <ListSelect
          label={t('redemptions.filter.status')}
          value={table.filters.status ?? ''}
          options={statusOptions}
          allLabel={t('table.filter.all')}
          disabled={inert}
          onChange={on.onStatusFilter}
        />
      }
      add={{ to: '/redemption/add', label: t('redemptions.add') }}
      onRefresh={on.onReload}
      selection={{ rowName: (r) => t('redemptions.rowLabel', { id: r.id, name: r.name }), ...on }}
      bulk={{
        actions: bulkActions,
        extra: (
          <>
            <Button size="xs" variant="outline" disabled={inert} onClick={() => on.onExport('copy')}>
              {t('redemptions.bulk.copy')}
            </Button>
            <Button size="xs" variant="outline" disabled={inert} onClick={() => on.onExport('download')}>
              {t('redemptions.bulk.download')}
            </Button>
          </>
        ),
        ...on,
      }}
      confirm={{
        body: (id, row) => t('redemptions.confirm.delete', { id, name: row?.name ?? '' }),
        confirmLabel: t('redemptions.action.delete'),
        ...on,
      }}
    />
  );
}
