import type { User } from '../../domain/user';
import type { BulkRun, TableContext } from '../../machines/table';
import type { TableState } from '../table/useTable';
import { phoneViewport, tableContextOf, tableStateOf } from '../table/table.fixtures';

/** Users as the list shows them (stories of the user pages). */
export const userRows: readonly User[] = [
  { id: 1, username: 'root', display_name: 'Root User', role: 100, status: 1, group: 'default', quota: 500_000_000, used_quota: 1_250_000, request_count: 42 },
  {
    id: 2,
    username: 'alice',
    display_name: 'Alice',
    role: 10,
    status: 1,
    group: 'vip',
    quota: 2_500_000,
    used_quota: 500_000,
    request_count: 15_300,
    email: 'alice@example.com',
  },
  { id: 3, username: 'bob-the-long-username', display_name: 'Bob', role: 1, status: 2, group: 'default', quota: 0, used_quota: 0, request_count: 0 },
];

export const bulkRun = (over: Partial<BulkRun> = {}): BulkRun => ({
  action: 'disable',
  value: '',
  ids: [2, 3],
  done: 0,
  succeeded: [],
  failures: [],
  cancelled: false,
  ...over,
});

/** A table context for seeded snapshots: the rows loaded and shown, nothing selected. */
export const tableContext = (over: Partial<TableContext<User>> = {}): TableContext<User> => tableContextOf(userRows, over);

/** What useTableState reads, for view stories. */
export const tableState = (over: Partial<TableState<User>> = {}): TableState<User> => tableStateOf(userRows, over);

export { phoneViewport };
