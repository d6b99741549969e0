import { Badge, Button, Flex, Heading, HStack, NativeSelect, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { roleOf, roles, userStatusActivated, userStatusOf, userStatuses } from '../../domain/constants';
import { formatNumber, formatQuota, groupColor, groupNames, truncateUsername, type QuotaDisplay } from '../../domain/format';
import { userOrderOptions } from '../../domain/paging';
import type { User } from '../../domain/user';
import { canManageUser } from '../../domain/userRules';
import type { UserBulkAction } from '../../machines/userList';
import type { BulkRun } from '../../machines/table';
import type { MessageKey } from '../../i18n';
import { useT } from '../app/i18n';
import { BulkDialogsView } from '../table/BulkDialogsView';
import { ConfirmDialogView } from '../table/ConfirmDialogView';
import { DataTableView, type Column } from '../table/DataTableView';
import { PagerView } from '../table/PagerView';
import { SelectionBarView } from '../table/SelectionBarView';
import { TableSearchView } from '../table/TableSearchView';
import type { TableState } from '../table/useTable';

/** A manage action of one row (the delete is confirmed first). */
export type UserRowAction = 'promote' | 'demote' | 'delete' | 'enable' | 'disable';

/** What the list's controls ask for (the container sends them to the table actor). */
export interface UserListHandlers {
  readonly onDraft: (text: string) => void;
  readonly onSearch: () => void;
  readonly onClearSearch: () => void;
  readonly onSort: (key: string) => void;
  readonly onOrder: (order: string) => void;
  readonly onPage: (page: number) => void;
  readonly onSize: (size: number) => void;
  readonly onFilter: (key: 'role' | 'status', value: string) => void;
  readonly onRetry: () => void;
  readonly onReload: () => void;
  readonly onToggleRow: (id: number) => void;
  readonly onTogglePage: () => void;
  readonly onSelectAllMatching: () => void;
  readonly onClearSelection: () => void;
  readonly onRowAction: (id: number, action: UserRowAction) => void;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly onBulk: (action: UserBulkAction) => void;
  readonly onBulkConfirm: () => void;
  readonly onBulkCancel: () => void;
  readonly onBulkStop: () => void;
  readonly onBulkRetry: () => void;
  readonly onBulkDismiss: () => void;
}

export interface UserListPageViewProps extends UserListHandlers {
  readonly table: TableState<User>;
  readonly quotaDisplay: QuotaDisplay;
}

const bulkLabelKey: Readonly<Record<string, MessageKey>> = {
  enable: 'users.bulk.enable',
  disable: 'users.bulk.disable',
  delete: 'users.bulk.delete',
};

/** The username, cut to 15 characters; the full name is the hover title and what screen readers read. */
function UsernameCell({ name }: { readonly name: string }) {
  const short = truncateUsername(name);
  if (short === name) return <Text as="span">{name}</Text>;
  return (
    <Text as="span" title={name} whiteSpace="nowrap">
      <span aria-hidden>{short}</span>
      <VisuallyHidden>{name}</VisuallyHidden>
    </Text>
  );
}

/**
 * The user list (/user, spec §2): id, username (cut to 15 characters), display name, group,
 * remaining / used quota, request count, role and status badges; search (id, username, display
 * name, e-mail), the server order dropdown, header sorting, role and status filters; per row
 * promote, demote, delete (confirmed), enable/disable and edit, all but edit disabled for a
 * super admin; bulk enable, disable and delete with a confirmation and a failure report.
 */
export function UserListPageView({ table, quotaDisplay, ...on }: UserListPageViewProps) {
  const t = useT();
  const inert = !table.idle;
  const roleFilter = table.filters.role ?? '';
  const statusFilter = table.filters.status ?? '';

  const actionButton = (row: User, action: UserRowAction, palette: string, disabled: boolean) => (
    <Button
      key={action}
      size="xs"
      variant="outline"
      colorPalette={palette}
      disabled={disabled}
      title={canManageUser(row.role) ? undefined : t('users.action.rootHint')}
      onClick={() => on.onRowAction(row.id, action)}
      aria-label={t(`users.action.${action}Of` as MessageKey, { name: row.username })}
    >
      {t(`users.action.${action}` as MessageKey)}
    </Button>
  );

  const columns: readonly Column<User>[] = [
    { key: 'id', header: t('users.col.id'), sortable: true, numeric: true, render: (u) => u.id },
    { key: 'username', header: t('users.col.username'), sortable: true, render: (u) => <UsernameCell name={u.username} /> },
    {
      key: 'display_name',
      header: t('users.col.displayName'),
      sortable: true,
      minW: '7rem',
      render: (u) => (
        <Text as="span" wordBreak="break-word">
          {u.display_name}
        </Text>
      ),
    },
    {
      key: 'group',
      header: t('users.col.group'),
      sortable: true,
      render: (u) => (
        <HStack gap={1} wrap="wrap">
          {groupNames(u.group).map((g) => (
            <Badge key={g} colorPalette={groupColor(g)} variant="subtle">
              {g}
            </Badge>
          ))}
        </HStack>
      ),
    },
    {
      key: 'quota',
      header: t('users.col.quota'),
      sortable: true,
      numeric: true,
      render: (u) => (
        <Text as="span" whiteSpace="nowrap" title={String(u.quota ?? 0)}>
          {formatQuota(u.quota ?? 0, quotaDisplay)}
        </Text>
      ),
    },
    {
      key: 'used_quota',
      header: t('users.col.usedQuota'),
      sortable: true,
      numeric: true,
      render: (u) => (
        <Text as="span" whiteSpace="nowrap" title={String(u.used_quota ?? 0)}>
          {formatQuota(u.used_quota ?? 0, quotaDisplay)}
        </Text>
      ),
    },
    {
      key: 'request_count',
      header: t('users.col.requestCount'),
      sortable: true,
      numeric: true,
      render: (u) => (
        <Text as="span" whiteSpace="nowrap" title={String(u.request_count ?? 0)}>
          {formatNumber(u.request_count ?? 0)}
        </Text>
      ),
    },
    {
      key: 'role',
      header: t('users.col.role'),
      sortable: true,
      render: (u) => {
        const role = roleOf(u.role);
        return (
          <Badge colorPalette={role.color} variant="subtle" whiteSpace="nowrap">
            {t(role.labelKey as MessageKey)}
          </Badge>
        );
      },
    },
    {
      key: 'status',
      header: t('users.col.status'),
      sortable: true,
      render: (u) => {
        const status = userStatusOf(u.status);
        return (
          <Badge colorPalette={status.color} variant="subtle" whiteSpace="nowrap">
            {t(status.labelKey as MessageKey)}
          </Badge>
        );
      },
    },
    {
      key: 'actions',
      header: t('table.actions'),
      render: (u) => {
        const busy = table.busy[u.id] !== undefined || inert;
        const locked = busy || !canManageUser(u.role);
        const enabled = u.status === userStatusActivated;
        return (
          <HStack gap={1} wrap="nowrap">
            {actionButton(u, 'promote', 'gray', locked)}
            {actionButton(u, 'demote', 'gray', locked)}
            {actionButton(u, 'delete', 'red', locked)}
            {actionButton(u, enabled ? 'disable' : 'enable', enabled ? 'orange' : 'green', locked)}
            {busy ? (
              <Button size="xs" variant="outline" disabled aria-label={t('users.action.editOf', { name: u.username })}>
                {t('users.action.edit')}
              </Button>
            ) : (
              <Button size="xs" variant="outline" asChild>
                <RouterLink to={`/user/edit/${u.id}`} aria-label={t('users.action.editOf', { name: u.username })}>
                  {t('users.action.edit')}
                </RouterLink>
              </Button>
            )}
          </HStack>
        );
      },
    },
  ];

  const nameOf = (id: number): string => {
    const row = table.rows.find((r) => r.id === id);
    return row ? t('users.rowLabel', { id, name: row.username }) : `#${id}`;
  };
  const pendingRow = table.pending ? table.rows.find((r) => r.id === table.pending?.id) : undefined;
  const actionLabel = (run: BulkRun): string => {
    const key = bulkLabelKey[run.action];
    return key === undefined ? run.action : t(key);
  };

  return (
    <Stack gap={4} px={{ base: 2, md: 4 }} py={4} maxW="full" minW={0}>
      <Heading as="h1" size="xl">
        {t('users.title')}
      </Heading>
      <Flex gap={2} wrap="wrap" align="center">
        <TableSearchView
          draft={table.draft}
          keyword={table.keyword}
          label={t('users.search')}
          disabled={inert && !table.loadFailed}
          onDraft={on.onDraft}
          onSubmit={on.onSearch}
          onClear={on.onClearSearch}
        />
        <NativeSelect.Root size="md" width="auto" disabled={inert}>
          <NativeSelect.Field aria-label={t('users.order')} value={table.order} onChange={(e) => on.onOrder(e.currentTarget.value)}>
            {userOrderOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {t(o.labelKey as MessageKey)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <NativeSelect.Root size="md" width="auto" disabled={inert}>
          <NativeSelect.Field aria-label={t('users.filter.role')} value={roleFilter} onChange={(e) => on.onFilter('role', e.currentTarget.value)}>
            <option value="">{t('users.filter.allRoles')}</option>
            {roles.map((r) => (
              <option key={r.value} value={String(r.value)}>
                {t(r.labelKey as MessageKey)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <NativeSelect.Root size="md" width="auto" disabled={inert}>
          <NativeSelect.Field
            aria-label={t('users.filter.status')}
            value={statusFilter}
            onChange={(e) => on.onFilter('status', e.currentTarget.value)}
          >
            <option value="">{t('users.filter.allStatuses')}</option>
            {userStatuses.map((s) => (
              <option key={s.value} value={String(s.value)}>
                {t(s.labelKey as MessageKey)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Button colorPalette="blue" asChild>
          <RouterLink to="/user/add">{t('users.add')}</RouterLink>
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
          {t('users.bulk.enable')}
        </Button>
        <Button size="xs" variant="outline" colorPalette="orange" disabled={inert} onClick={() => on.onBulk('disable')}>
          {t('users.bulk.disable')}
        </Button>
        <Button size="xs" variant="outline" colorPalette="red" disabled={inert} onClick={() => on.onBulk('delete')}>
          {t('users.bulk.delete')}
        </Button>
      </SelectionBarView>
      <DataTableView
        caption={t('users.title')}
        columns={columns}
        rows={table.rows}
        sort={table.sort}
        onSort={on.onSort}
        selection={{
          selected: table.selected,
          pageSelected: table.pageSelected,
          onToggleRow: on.onToggleRow,
          onTogglePage: on.onTogglePage,
          rowLabel: (u) => t('table.select.row', { name: t('users.rowLabel', { id: u.id, name: u.username }) }),
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
        body={table.pending ? t('users.confirm.delete', { id: table.pending.id, name: pendingRow?.username ?? '' }) : ''}
        confirmLabel={t('users.action.delete')}
        danger
        onConfirm={on.onConfirm}
        onCancel={on.onCancel}
      />
      <BulkDialogsView
        toConfirm={table.bulkToConfirm}
        running={table.bulkRunning}
        report={table.bulkReport}
        actionLabel={actionLabel}
        rowLabel={nameOf}
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
