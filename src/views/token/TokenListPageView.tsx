import { Badge, Button, Flex, Group, Heading, HStack, IconButton, Menu, NativeSelect, Portal, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { chatClients, chatUrl, copyFormats, type ChatLinkInput, type CopyFormat } from '../../domain/chatLinks';
import { tokenStatusEnabled, tokenStatuses, tokenStatusOf } from '../../domain/constants';
import { formatQuota, formatTimestamp, renderExpiry, renderRemainQuota, type QuotaDisplay } from '../../domain/format';
import { tokenOrderOptions } from '../../domain/paging';
import type { Token } from '../../domain/token';
import type { MessageKey } from '../../i18n';
import type { BulkRun } from '../../machines/table';
import { useRenderMessage, useT } from '../app/i18n';
import { ChevronDownIcon } from '../app/icons';
import { BulkDialogsView } from '../table/BulkDialogsView';
import { ConfirmDialogView } from '../table/ConfirmDialogView';
import { DataTableView, type Column } from '../table/DataTableView';
import { PagerView } from '../table/PagerView';
import { SelectionBarView } from '../table/SelectionBarView';
import { TableSearchView } from '../table/TableSearchView';
import type { TableState } from '../table/useTable';

/** What the list's buttons ask for (the container sends them to the table and copy actors). */
export interface TokenListHandlers {
  readonly onDraft: (text: string) => void;
  readonly onSearch: () => void;
  readonly onClearSearch: () => void;
  readonly onSort: (key: string) => void;
  readonly onOrder: (order: string) => void;
  readonly onPage: (page: number) => void;
  readonly onSize: (size: number) => void;
  readonly onStatusFilter: (value: string) => void;
  readonly onRetry: () => void;
  readonly onReload: () => void;
  readonly onToggleRow: (id: number) => void;
  readonly onTogglePage: () => void;
  readonly onSelectAllMatching: () => void;
  readonly onClearSelection: () => void;
  /** Copy the token in a format (`raw` = `sk-<key>`). */
  readonly onCopy: (row: Token, format: CopyFormat) => void;
  readonly onToggleStatus: (id: number) => void;
  /** Call the relay with the token's key (model list, then one short chat completion). */
  readonly onTest: (id: number) => void;
  readonly onDelete: (id: number) => void;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly onBulk: (action: 'enable' | 'disable' | 'delete') => void;
  readonly onBulkConfirm: () => void;
  readonly onBulkCancel: () => void;
  readonly onBulkStop: () => void;
  readonly onBulkRetry: () => void;
  readonly onBulkDismiss: () => void;
}

export interface TokenListPageViewProps extends TokenListHandlers {
  readonly table: TableState<Token>;
  readonly quotaDisplay: QuotaDisplay;
  /** Where chat clients reach the gateway (status.server_address, else the page origin). */
  readonly serverAddress: string;
  /** The configured ChatLink ('' when unset: the public instances are used). */
  readonly chatLink: string;
  /** A token is being copied. */
  readonly copying: boolean;
}

const bulkLabelKey = {
  enable: 'tokens.bulk.enable',
  disable: 'tokens.bulk.disable',
  delete: 'tokens.bulk.delete',
} as const;

/** Chat links open in a new tab, without handing this page to the client. */
const newTab = { target: '_blank', rel: 'noopener noreferrer' } as const;

/**
 * The token list (/token, spec §2): name, status, used quota, remaining quota ('unlimited'),
 * created time, expiry ('never expires'), actions; search by name; the server order dropdown
 * (default, remaining quota, used quota); header sorting and a status filter; per row copy
 * (`sk-<key>`, with a dropdown of the five formats of contract §5.5), chat (NextChat, with a
 * dropdown of the four clients, in a new tab), test (the relay with the row's key),
 * enable/disable, edit and delete (confirmed);
 * bulk enable, disable and delete.
 */
export function TokenListPageView({ table, quotaDisplay, serverAddress, chatLink, copying, ...on }: TokenListPageViewProps) {
  const t = useT();
  const render = useRenderMessage();
  const inert = !table.idle;
  const statusFilter = table.filters.status ?? '';
  const rowLabel = (r: Pick<Token, 'id' | 'name'>): string => t('tokens.rowLabel', { id: r.id, name: r.name });
  const links = (r: Token): ChatLinkInput => ({ key: r.key, serverAddress, chatLink });

  const columns: readonly Column<Token>[] = [
    {
      key: 'name',
      header: t('tokens.col.name'),
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
      header: t('tokens.col.status'),
      sortable: true,
      render: (r) => {
        const status = tokenStatusOf(r.status);
        return (
          <Badge colorPalette={status.color} variant="subtle" whiteSpace="nowrap">
            {t(status.labelKey as MessageKey)}
          </Badge>
        );
      },
    },
    { key: 'used_quota', header: t('tokens.col.used'), sortable: true, numeric: true, render: (r) => formatQuota(r.used_quota, quotaDisplay) },
    {
      key: 'remain_quota',
      header: t('tokens.col.remain'),
      sortable: true,
      numeric: true,
      render: (r) => render(renderRemainQuota(r.remain_quota, r.unlimited_quota, quotaDisplay)),
    },
    {
      key: 'created_time',
      header: t('tokens.col.created'),
      sortable: true,
      render: (r) => <Text whiteSpace="nowrap">{formatTimestamp(r.created_time)}</Text>,
    },
    {
      key: 'expired_time',
      header: t('tokens.col.expires'),
      sortable: true,
      render: (r) => <Text whiteSpace="nowrap">{render(renderExpiry(r.expired_time))}</Text>,
    },
    {
      key: 'actions',
      header: t('table.actions'),
      render: (r) => {
        const busy = table.busy[r.id] !== undefined || inert;
        const enabling = r.status !== tokenStatusEnabled;
        const row = rowLabel(r);
        return (
          <HStack gap={1} wrap="nowrap">
            <Group attached>
              <Button size="xs" variant="outline" disabled={busy || copying} onClick={() => on.onCopy(r, 'raw')} aria-label={t('tokens.action.copyOf', { row })}>
                {t('tokens.action.copy')}
              </Button>
              <Menu.Root positioning={{ placement: 'bottom-end' }} lazyMount unmountOnExit>
                <Menu.Trigger asChild>
                  <IconButton size="xs" variant="outline" disabled={busy || copying} aria-label={t('tokens.action.copyMenuOf', { row })}>
                    <ChevronDownIcon />
                  </IconButton>
                </Menu.Trigger>
                <Portal>
                  <Menu.Positioner>
                    <Menu.Content>
                      {copyFormats.map((format) => (
                        <Menu.Item key={format} value={format} onClick={() => on.onCopy(r, format)}>
                          {t(`tokens.format.${format}`)}
                        </Menu.Item>
                      ))}
                    </Menu.Content>
                  </Menu.Positioner>
                </Portal>
              </Menu.Root>
            </Group>
            <Group attached>
              <Button size="xs" variant="outline" colorPalette="blue" asChild>
                <a href={chatUrl('next', links(r))} {...newTab} aria-label={t('tokens.action.chatOf', { row })}>
                  {t('tokens.action.chat')}
                </a>
              </Button>
              <Menu.Root positioning={{ placement: 'bottom-end' }} lazyMount unmountOnExit>
                <Menu.Trigger asChild>
                  <IconButton size="xs" variant="outline" colorPalette="blue" aria-label={t('tokens.action.chatMenuOf', { row })}>
                    <ChevronDownIcon />
                  </IconButton>
                </Menu.Trigger>
                <Portal>
                  <Menu.Positioner>
                    <Menu.Content>
                      {chatClients.map((client) => (
                        <Menu.Item key={client} value={client} asChild>
                          <a href={chatUrl(client, links(r))} {...newTab}>
                            {t(`tokens.chat.${client}`)}
                          </a>
                        </Menu.Item>
                      ))}
                    </Menu.Content>
                  </Menu.Positioner>
                </Portal>
              </Menu.Root>
            </Group>
            <Button
              size="xs"
              variant="outline"
              colorPalette="teal"
              disabled={busy}
              loading={table.busy[r.id] === 'test'}
              onClick={() => on.onTest(r.id)}
              aria-label={t('tokens.action.testOf', { row })}
            >
              {t('tokens.action.test')}
            </Button>
            <Button
              size="xs"
              variant="outline"
              colorPalette={enabling ? 'green' : 'orange'}
              disabled={busy}
              onClick={() => on.onToggleStatus(r.id)}
              aria-label={t(enabling ? 'tokens.action.enableOf' : 'tokens.action.disableOf', { row })}
            >
              {t(enabling ? 'tokens.action.enable' : 'tokens.action.disable')}
            </Button>
            {busy ? (
              <Button size="xs" variant="outline" disabled aria-label={t('tokens.action.editOf', { row })}>
                {t('tokens.action.edit')}
              </Button>
            ) : (
              <Button size="xs" variant="outline" asChild>
                <RouterLink to={`/token/edit/${r.id}`} aria-label={t('tokens.action.editOf', { row })}>
                  {t('tokens.action.edit')}
                </RouterLink>
              </Button>
            )}
            <Button size="xs" variant="outline" colorPalette="red" disabled={busy} onClick={() => on.onDelete(r.id)} aria-label={t('tokens.action.deleteOf', { row })}>
              {t('tokens.action.delete')}
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
        {t('tokens.title')}
      </Heading>
      <Flex gap={2} wrap="wrap" align="center">
        <TableSearchView
          draft={table.draft}
          keyword={table.keyword}
          label={t('tokens.search')}
          disabled={inert && !table.loadFailed}
          onDraft={on.onDraft}
          onSubmit={on.onSearch}
          onClear={on.onClearSearch}
        />
        <NativeSelect.Root size="md" width="auto" disabled={inert}>
          <NativeSelect.Field aria-label={t('tokens.order')} value={table.order} onChange={(e) => on.onOrder(e.currentTarget.value)}>
            {tokenOrderOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {t(o.labelKey as MessageKey)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <NativeSelect.Root size="md" width="auto" disabled={inert}>
          <NativeSelect.Field aria-label={t('tokens.filter.status')} value={statusFilter} onChange={(e) => on.onStatusFilter(e.currentTarget.value)}>
            <option value="">{t('table.filter.all')}</option>
            {tokenStatuses.map((s) => (
              <option key={s.value} value={String(s.value)}>
                {t(s.labelKey as MessageKey)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Button colorPalette="blue" asChild>
          <RouterLink to="/token/add">{t('tokens.add')}</RouterLink>
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
          {t('tokens.bulk.enable')}
        </Button>
        <Button size="xs" variant="outline" colorPalette="orange" disabled={inert} onClick={() => on.onBulk('disable')}>
          {t('tokens.bulk.disable')}
        </Button>
        <Button size="xs" variant="outline" colorPalette="red" disabled={inert} onClick={() => on.onBulk('delete')}>
          {t('tokens.bulk.delete')}
        </Button>
      </SelectionBarView>
      <DataTableView
        caption={t('tokens.title')}
        columns={columns}
        rows={table.rows}
        sort={table.sort}
        onSort={on.onSort}
        selection={{
          selected: table.selected,
          pageSelected: table.pageSelected,
          onToggleRow: on.onToggleRow,
          onTogglePage: on.onTogglePage,
          rowLabel: (r) => t('table.select.row', { name: rowLabel(r) }),
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
        body={table.pending ? t('tokens.confirm.delete', { name: pendingRow?.name ?? `#${table.pending.id}` }) : ''}
        confirmLabel={t('tokens.action.delete')}
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
          return row ? rowLabel(row) : `#${id}`;
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
