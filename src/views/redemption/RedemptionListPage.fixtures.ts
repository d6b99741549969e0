import { defaultTableQuery, type TableQuery } from '../../domain/tableQuery';
import type { Redemption } from '../../domain/redemption';
import type { BulkRun, PendingRowAction, TableContext } from '../../machines/table';
import type { TableState } from '../table/useTable';

/** Redemption codes as the list shows them (stories of the redemption pages). */
export const redemptionRows: readonly Redemption[] = [
  {
    id: 12,
    name: 'spring-promo',
    key: '0f3c9a7e1b2d4c5f8a9b0c1d2e3f4a5b',
    status: 1,
    quota: 100000,
    created_time: 1_763_900_000,
    redeemed_time: 0,
  },
  {
    id: 11,
    name: 'spring-promo',
    key: '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b',
    status: 3,
    quota: 100000,
    created_time: 1_763_900_000,
    redeemed_time: 1_763_950_000,
  },
  {
    id: 10,
    name: 'partner-batch',
    key: 'aa11bb22cc33dd44ee55ff6677889900',
    status: 2,
    quota: 2_500_000,
    created_time: 1_763_800_000,
    redeemed_time: 0,
  },
];

export const bulkRun = (over: Partial<BulkRun> = {}): BulkRun => ({
  action: 'disable',
  value: '',
  ids: [12, 10],
  done: 0,
  succeeded: [],
  failures: [],
  cancelled: false,
  ...over,
});

/** A table context for seeded snapshots: the rows loaded and shown, nothing selected. */
export const tableContext = (over: Partial<TableContext<Redemption>> = {}): TableContext<Redemption> => {
  const query: TableQuery = over.query ?? defaultTableQuery;
  const rows = over.rows ?? redemptionRows;
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
export const tableState = (over: Partial<TableState<Redemption>> = {}): TableState<Redemption> => ({
  rows: redemptionRows,
  page: 0,
  pageCount: 1,
  size: 10,
  sort: null,
  order: '',
  keyword: '',
  draft: '',
  filters: {},
  shownCount: redemptionRows.length,
  loadedCount: redemptionRows.length,
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
