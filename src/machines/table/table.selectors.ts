import type { SortState } from '../../domain/paging';
import type { TableQuery } from '../../domain/tableQuery';
import { pageCountOf, type BulkRun, type PendingRowAction, type TableContext, type TableRow } from './table.machine';

/**
 * Selectors of every table (conventions §2). Selectors that build arrays return new ones: views
 * read them with `useSelector(ref, selectX, shallowEqual)`.
 */
type ReadyState = 'idle' | 'confirmingRow' | 'confirmingBulk' | 'bulkRunning' | 'bulkReport' | 'exporting';
type TableStateValue = 'choosing' | 'loading' | 'checking' | 'searching' | 'failed' | 'ready' | { readonly ready: ReadyState };

/** What the selectors read of a table snapshot: any table instance's snapshot fits. */
export interface TableSnapshotLike<Row extends TableRow = TableRow> {
  readonly context: TableContext<Row>;
  matches(value: TableStateValue): boolean;
  hasTag(tag: 'busy' | 'loading'): boolean;
}
type Snap = TableSnapshotLike;
type AnySnap<Row extends TableRow> = TableSnapshotLike<Row>;

/** The rows of the current client page, filtered and sorted. */
export const selectPageRows = <Row extends TableRow>(s: AnySnap<Row>): readonly Row[] => {
  const { shown, query } = s.context;
  const start = query.page * query.size;
  return shown.slice(start, start + query.size);
};
export const selectQuery = (s: Snap): TableQuery => s.context.query;
export const selectPage = (s: Snap): number => s.context.query.page;
export const selectPageSize = (s: Snap): number => s.context.query.size;
export const selectSort = (s: Snap): SortState => s.context.query.sort;
export const selectOrder = (s: Snap): string => s.context.query.order;
export const selectKeyword = (s: Snap): string => s.context.query.keyword;
export const selectDraft = (s: Snap): string => s.context.draft;
export const selectFilters = (s: Snap): Readonly<Record<string, string>> => s.context.query.filters;
const noParams: Readonly<Record<string, string>> = {};
/** The server-side parameters of the view (`params.set`; the same object until they change). */
export const selectParams = (s: Snap): Readonly<Record<string, string>> => s.context.query.params ?? noParams;
/** Pages the pager offers (one more while the server may have more rows). */
export const selectPageCount = (s: Snap): number =>
  pageCountOf(s.context.shown.length, s.context.query.size, s.context.exhausted);
/** Rows matching the view (loaded so far). */
export const selectShownCount = (s: Snap): number => s.context.shown.length;
export const selectLoadedCount = (s: Snap): number => s.context.rows.length;
/** Every row of the list is loaded (or came from a search). */
export const selectIsComplete = (s: Snap): boolean => s.context.exhausted;
/** A fetch or search is running. */
export const selectIsLoading = (s: Snap): boolean => s.hasTag('loading');
/** Nothing is loaded yet and loading: the table shows a placeholder. */
export const selectIsFirstLoad = (s: Snap): boolean => s.hasTag('loading') && s.context.rows.length === 0;
export const selectLoadFailed = (s: Snap): boolean => s.matches('failed');
/** The list, sort and paging controls answer (not while loading, confirming or in a bulk run). */
export const selectIsIdle = (s: Snap): boolean => s.matches({ ready: 'idle' });
export const selectSelectedIds = (s: Snap): readonly number[] => s.context.selected;
export const selectSelectedCount = (s: Snap): number => s.context.selected.length;
/** Every row of the current page is selected (the header checkbox). */
export const selectIsPageSelected = (s: Snap): boolean => {
  const rows = selectPageRows(s);
  return rows.length > 0 && rows.every((r) => s.context.selected.includes(r.id));
};
/** id -> running action of the rows that are busy. */
export const selectBusy = (s: Snap): Readonly<Record<number, string>> => s.context.busy;
/** The row action waiting for confirmation, if the dialog is open. */
export const selectPendingRowAction = (s: Snap): PendingRowAction | null =>
  s.matches({ ready: 'confirmingRow' }) ? s.context.pending : null;
/** The bulk action waiting for confirmation (its `ids.length` is the count to say). */
export const selectBulkToConfirm = (s: Snap): BulkRun | null => (s.matches({ ready: 'confirmingBulk' }) ? s.context.bulk : null);
/** The bulk run in progress. */
export const selectBulkRunning = (s: Snap): BulkRun | null => (s.matches({ ready: 'bulkRunning' }) ? s.context.bulk : null);
/** The finished (or stopped) bulk run, for the report. */
export const selectBulkReport = (s: Snap): BulkRun | null => (s.matches({ ready: 'bulkReport' }) ? s.context.bulk : null);
export const selectIsExporting = (s: Snap): boolean => s.matches({ ready: 'exporting' });
