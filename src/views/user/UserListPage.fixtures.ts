import { defaultTableQuery, type TableQuery } from '../../domain/tableQuery';
import type { User } from '../../domain/user';
import type { BulkRun, PendingRowAction, TableContext } from '../../machines/table';
import type { TableState } from '../table/useTable';

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
export const tableContext = (over: Partial<TableContext<User>> = {}): TableContext<User> => {
  const query: TableQuery = over.query ?? defaultTableQuery;
  const rows = over.rows ?? userRows;
  return {
    rows,
    shown: over.shown ?? rows,
    query,
    draft: query.keyword,
    pagesLoaded: 1,
    exhausted: true,
    target: { kind: 'page', page: 0 },
    selectAllAfterLoad: false,
    selected: [],
    busy: {},
    pending: null,
    bulk: null,
    exportFormat: '',
    ...over,
  };
};

/** What useTableState reads, for view stories. */
export const tableState = (over: Partial<TableState<User>> = {}): TableState<User> => ({
  rows: userRows,
  page: 0,
  pageCount: 1,
  size: 10,
  sort: null,
  order: '',
  keyword: '',
  draft: '',
  filters: {},
  shownCount: userRows.length,
  loadedCount: userRows.length,
  complete: true,
  loading: false,
  firstLoad: false,
  loadFailed: false,
  idle: true,
  selected: new Set<number>(),
  selectedCount: 0,
  pageSelected: false,
  busy: {},
  pending: null as PendingRowAction | null,
  bulkToConfirm: null,
  bulkRunning: null,
  bulkReport: null,
  ...over,
});

/** A 375 px wide phone (story parameters + globals). */
export const phoneViewport = {
  parameters: {
    viewport: {
      options: { phone375: { name: 'Phone 375', styles: { width: '375px', height: '667px' }, type: 'mobile' } },
    },
  },
  globals: { viewport: { value: 'phone375' } },
};
