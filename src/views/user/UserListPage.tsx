import { useMemo } from 'react';
import type { QuotaDisplay } from '../../domain/format';
import type { User } from '../../domain/user';
import { userQuerySchema, userTableMachine } from '../../machines/userList';
import { useTableActor, useTableState } from '../table/useTable';
import { UserListPageView, type UserListHandlers } from './UserListPageView';

/**
 * Route page for /user (admin): the user table actor, its view kept in the address bar (search,
 * order, sort, filters, page). Delete asks for a confirmation first; the other row actions run
 * at once.
 */
export function UserListPage({ quotaDisplay }: { readonly quotaDisplay: QuotaDisplay }) {
  const tableRef = useTableActor<User>(userTableMachine, userQuerySchema);
  const table = useTableState(tableRef);
  // the same handlers for the actor's lifetime: the table's columns and rows keep their memo
  const handlers = useMemo((): UserListHandlers => {
    const send = tableRef.send;
    return {
      onDraft: (text) => send({ type: 'search.input', text }),
      onSearch: () => send({ type: 'search.submit' }),
      onClearSearch: () => send({ type: 'search.clear' }),
      onSort: (key) => send({ type: 'sort.toggle', key }),
      onOrder: (order) => send({ type: 'order.change', order }),
      onPage: (page) => send({ type: 'page.go', page }),
      onSize: (size) => send({ type: 'page.size', size }),
      onFilter: (key, value) => send({ type: 'filter.change', key, value }),
      onRetry: () => send({ type: 'load.retry' }),
      onReload: () => send({ type: 'rows.reload' }),
      onToggleRow: (id) => send({ type: 'row.select', id }),
      onTogglePage: () => send({ type: 'selection.page' }),
      onSelectAllMatching: () => send({ type: 'selection.allMatching' }),
      onClearSelection: () => send({ type: 'selection.clear' }),
      onRowAction: (id, action) => send({ type: 'row.action', id, action, confirm: action === 'delete' }),
      onConfirm: () => send({ type: 'confirm.accept' }),
      onCancel: () => send({ type: 'confirm.cancel' }),
      onBulk: (action) => send({ type: 'bulk.request', action }),
      onBulkConfirm: () => send({ type: 'confirm.accept' }),
      onBulkCancel: () => send({ type: 'confirm.cancel' }),
      onBulkStop: () => send({ type: 'bulk.cancel' }),
      onBulkRetry: () => send({ type: 'bulk.retry' }),
      onBulkDismiss: () => send({ type: 'report.dismiss' }),
    };
  }, [tableRef]);
  return <UserListPageView table={table} quotaDisplay={quotaDisplay} {...handlers} />;
}
