import { useMemo } from 'react';
import type { QuotaDisplay } from '../../domain/format';
import type { User } from '../../domain/user';
import { userQuerySchema, userTableMachine } from '../../machines/userList';
import { tableHandlers } from '../list/tableHandlers';
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
    const { onRefresh, ...common } = tableHandlers<User>(send);
    return {
      ...common,
      onReload: onRefresh,
      onOrder: (order) => send({ type: 'order.change', order }),
      onFilter: (key, value) => send({ type: 'filter.change', key, value }),
      onRowAction: (id, action) => send({ type: 'row.action', id, action, confirm: action === 'delete' }),
    };
  }, [tableRef]);
  return <UserListPageView table={table} quotaDisplay={quotaDisplay} {...handlers} />;
}
