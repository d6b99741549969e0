import { memo, useCallback, useMemo } from 'react';
import { roleOf, roles, type Palette, userStatusActivated, userStatusOf, userStatuses } from '../../domain/constants';
import { formatNumber, formatQuota, groupColor, groupNames, truncateUsername, type QuotaDisplay } from '../../domain/format';
import { userOrderOptions } from '../../domain/paging';
import type { User, UserManageAction } from '../../domain/user';
import { canManageUser } from '../../domain/userRules';
import type { UserBulkAction } from '../../machines/userList';
import { useT } from '../app/i18n';
import { ListPageLayout, type BulkActionSpec } from '../list/ListPageLayout';
import { actionsColumn, LabelBadge, ListSelect, useColumns, useLabelledOptions, type ColumnSpec } from '../list/useColumns';
import { CellBadge, CellButton, CellLink, CellStack, cellNowrapClass, cellWrapClass, useCellLinkNavigation, visuallyHiddenClass } from '../table/cellParts';
import type { TableState } from '../table/useTable';

/** A manage action of one row (the delete is confirmed first). */
export type UserRowAction = UserManageAction;

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

const bulkActions: readonly BulkActionSpec<UserBulkAction>[] = [
  { action: 'enable', label: 'users.bulk.enable', palette: 'green' },
  { action: 'disable', label: 'users.bulk.disable', palette: 'orange' },
  { action: 'delete', label: 'users.bulk.delete', palette: 'red', danger: true },
];

/** The username, cut to 15 characters; the full name is the hover title and what screen readers read. */
function UsernameCell({ name }: { readonly name: string }) {
  const short = truncateUsername(name);
  if (short === name) return <span>{name}</span>;
  return (
    <span title={name} className={cellNowrapClass}>
      <span aria-hidden>{short}</span>
      <span className={visuallyHiddenClass}>{name}</span>
    </span>
  );
}

/**
 * The user list (/user, spec §2): id, username (cut to 15 characters), display name, group,
 * remaining / used quota, request count, role and status badges; search (id, username, display
 * name, e-mail), the server order dropdown, header sorting, role and status filters; per row
 * promote, demote, delete (confirmed), enable/disable and edit, all but edit disabled for a
 * super admin; bulk enable, disable and delete with a confirmation and a failure report.
 */
export const UserListPageView = memo(function UserListPageView({ table, quotaDisplay, ...on }: UserListPageViewProps) {
  const t = useT();
  const inert = !table.idle;
  const orderOptions = useLabelledOptions(userOrderOptions);
  const roleOptions = useLabelledOptions(roles);
  const statusOptions = useLabelledOptions(userStatuses);

  const { onRowAction } = on;
  const nav = useCellLinkNavigation();

  // built once per language, quota display and handler: the cells read the row's busy and inert
  // state from `cell`, so a table change draws only the rows it changed
  const specs = useMemo((): readonly ColumnSpec<User>[] => {
    const rootHint = t('users.action.rootHint');
    const actionButton = (row: User, action: UserRowAction, palette: Palette, disabled: boolean) => (
      <CellButton
        key={action}
        palette={palette}
        disabled={disabled}
        title={canManageUser(row.role) ? undefined : rootHint}
        onClick={() => onRowAction(row.id, action)}
        aria-label={t(`users.action.${action}Of`, { name: row.username })}
      >
        {t(`users.action.${action}`)}
      </CellButton>
    );
    const number = (value: number | undefined, text: string) => (
      <span className={cellNowrapClass} title={String(value ?? 0)}>
        {text}
      </span>
    );
    return [
      { key: 'id', header: 'users.col.id', numeric: true, render: (u) => u.id },
      { key: 'username', header: 'users.col.username', card: 'title', render: (u) => <UsernameCell name={u.username} /> },
      {
        key: 'display_name',
        header: 'users.col.displayName',
        minW: '7rem',
        render: (u) => <span className={cellWrapClass}>{u.display_name}</span>,
      },
      {
        key: 'group',
        header: 'users.col.group',
        render: (u) => (
          <CellStack>
            {groupNames(u.group).map((g) => (
              <CellBadge key={g} palette={groupColor(g)}>
                {g}
              </CellBadge>
            ))}
          </CellStack>
        ),
      },
      { key: 'quota', header: 'users.col.quota', numeric: true, render: (u) => number(u.quota, formatQuota(u.quota ?? 0, quotaDisplay)) },
      {
        key: 'used_quota',
        header: 'users.col.usedQuota',
        numeric: true,
        render: (u) => number(u.used_quota, formatQuota(u.used_quota ?? 0, quotaDisplay)),
      },
      {
        key: 'request_count',
        header: 'users.col.requestCount',
        numeric: true,
        render: (u) => number(u.request_count, formatNumber(u.request_count ?? 0)),
      },
      { key: 'role', header: 'users.col.role', render: (u) => <LabelBadge entry={roleOf(u.role)} /> },
      { key: 'status', header: 'users.col.status', render: (u) => <LabelBadge entry={userStatusOf(u.status)} /> },
      actionsColumn((u, cell) => {
        const busy = cell.busy || cell.disabled;
        const locked = busy || !canManageUser(u.role);
        const enabled = u.status === userStatusActivated;
        return (
          <CellStack nowrap>
            {actionButton(u, 'promote', 'gray', locked)}
            {actionButton(u, 'demote', 'gray', locked)}
            {actionButton(u, 'delete', 'red', locked)}
            {actionButton(u, enabled ? 'disable' : 'enable', enabled ? 'orange' : 'green', locked)}
            {busy ? (
              <CellButton disabled aria-label={t('users.action.editOf', { name: u.username })}>
                {t('users.action.edit')}
              </CellButton>
            ) : (
              <CellLink to={`/user/edit/${u.id}`} nav={nav} aria-label={t('users.action.editOf', { name: u.username })}>
                {t('users.action.edit')}
              </CellLink>
            )}
          </CellStack>
        );
      }),
    ];
  }, [t, quotaDisplay, onRowAction, nav]);
  const columns = useColumns<User>(specs);
  const rowName = useCallback((u: User) => t('users.rowLabel', { id: u.id, name: u.username }), [t]);
  // the same element while the order, the filters and the inert state stay: a new page, a sort
  // or a selection does not draw the toolbar again
  const { onOrder, onFilter } = on;
  const { order, filters } = table;
  const toolbar = useMemo(
    () => (
      <>
        <ListSelect label={t('users.order')} value={order} options={orderOptions} disabled={inert} onChange={onOrder} />
        <ListSelect
          label={t('users.filter.role')}
          value={filters.role ?? ''}
          options={roleOptions}
          allLabel={t('users.filter.allRoles')}
          disabled={inert}
          onChange={(value) => onFilter('role', value)}
        />
        <ListSelect
          label={t('users.filter.status')}
          value={filters.status ?? ''}
          options={statusOptions}
          allLabel={t('users.filter.allStatuses')}
          disabled={inert}
          onChange={(value) => onFilter('status', value)}
        />
      </>
    ),
    [t, order, filters, inert, orderOptions, roleOptions, statusOptions, onOrder, onFilter],
  );

  return (
    <ListPageLayout<User, UserBulkAction>
      title={t('users.title')}
      table={table}
      columns={columns}
      on={on}
      search={{ label: t('users.search'), ...on }}
      toolbar={toolbar}
      add={{ to: '/user/add', label: t('users.add') }}
      onRefresh={on.onReload}
      selection={{ rowName, ...on }}
      bulk={{ actions: bulkActions, ...on }}
      confirm={{
        body: (id, row) => t('users.confirm.delete', { id, name: row?.username ?? '' }),
        confirmLabel: t('users.action.delete'),
        ...on,
      }}
    />
  );
});
