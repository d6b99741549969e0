import { canManageUser } from '../../domain/userRules';
import { msg, type Message } from '../../domain/message';
import { pageSizeOptions, type TableQuerySchema } from '../../domain/tableQuery';
import type { User, UserManageAction } from '../../domain/user';
import { userOrderOptions } from '../../domain/paging';
import { createTableMachine } from '../table';

/** Row actions of the user list (`row.action`): one-api's manage actions (POST /api/user/manage). */
export const userActions = {
  promote: 'promote',
  demote: 'demote',
  delete: 'delete',
  enable: 'enable',
  disable: 'disable',
} as const satisfies Record<UserManageAction, UserManageAction>;

/** The bulk actions over selected users (`bulk.request`). */
export const userBulkActions = ['enable', 'disable', 'delete'] as const;
export type UserBulkAction = (typeof userBulkActions)[number];

/** The client-side filters of the list (role and status dropdowns). */
export const userFilterKeys = { role: 'role', status: 'status' } as const;

/** What the address bar may carry for this list. */
export const userQuerySchema: TableQuerySchema = {
  sortKeys: ['id', 'username', 'display_name', 'group', 'quota', 'used_quota', 'request_count', 'role', 'status'],
  orders: userOrderOptions.map((o) => o.value),
  filterKeys: [userFilterKeys.role, userFilterKeys.status],
  sizes: pageSizeOptions,
};

/**
 * Super admins cannot be acted on from the user table (spec §4, §6): their buttons are disabled.
 * In a bulk run a selected super admin is not skipped silently: its step fails at once, without
 * a server call, with a message saying why, so the report accounts for every selected row and
 * the person sees that nothing happened to it (a skip would read as a success).
 */
export const refuseUserRow = (_action: string, row: User): Message | null =>
  canManageUser(row.role) ? null : msg('users.rootProtected', { name: row.username });

/** Whether the row's manage buttons answer (not for role 100 and above). */
export const canActOnUser = (row: Pick<User, 'role'>): boolean => canManageUser(row.role);

/**
 * The user list (/user): one instance of the table machine. Plain pages come from
 * `GET /api/user/?p=&order=` (the sort dropdown is the server `order`), the search from
 * `GET /api/user/search`; header sorting and the role/status filters are client-side. The
 * manage answer's role and status replace the row's; a deleted user leaves the list.
 */
export const userTableMachine = createTableMachine<User>({ id: 'userTable', refuseRow: refuseUserRow });
