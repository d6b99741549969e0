import { defaultTableQuery, type TableQuery } from '../../domain/tableQuery';
import type { PendingRowAction, TableContext, TableRow } from '../../machines/table';
import type { TableState } from './useTable';

/*
 * Story fixtures shared by every list: a table at rest with its rows loaded and shown, nothing
 * selected, nothing running. A list's own fixtures bind its rows; a story overrides what its state
 * changes.
 */

/** A table machine context for seeded (frozen) snapshots of a container story. */
export function tableContextOf<Row extends TableRow>(
  defaultRows: readonly Row[],
  over: Partial<TableContext<Row>> = {},
): TableContext<Row> {
  const query: TableQuery = over.query ?? defaultTableQuery;
  const rows = over.rows ?? defaultRows;
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
}

/** What `useTableState` hands a list view, for the view's stories. */
export function tableStateOf<Row extends TableRow>(defaultRows: readonly Row[], over: Partial<TableState<Row>> = {}): TableState<Row> {
  return {
    rows: defaultRows,
    page: 0,
    pageCount: 1,
    size: 10,
    sort: null,
    order: '',
    keyword: '',
    draft: '',
    filters: {},
    shownCount: defaultRows.length,
    loadedCount: defaultRows.length,
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
  };
}

/** A 375 px wide phone (story parameters + globals). */
export const phoneViewport = {
  parameters: {
    viewport: {
      options: { phone375: { name: 'Phone 375', styles: { width: '375px', height: '667px' }, type: 'mobile' } },
    },
  },
  globals: { viewport: { value: 'phone375' } },
};
