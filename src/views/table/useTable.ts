import { useEffect, useMemo, useRef } from 'react';
import { shallowEqual, useSelector } from '@xstate/react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { ActorRefFrom, AnyActorRef, AnyMachineSnapshot, AnyStateMachine, InputFrom } from 'xstate';
import { formatTableQuery, parseTableQuery, type TableQuery, type TableQuerySchema } from '../../domain/tableQuery';
import type { CopyListPageMachine } from '../../machines/listPage';
import {
  selectBulkReport,
  selectBulkRunning,
  selectBulkToConfirm,
  selectBusy,
  selectDraft,
  selectFilters,
  selectIsComplete,
  selectIsFirstLoad,
  selectIsIdle,
  selectIsLoading,
  selectIsPageSelected,
  selectKeyword,
  selectLoadedCount,
  selectLoadFailed,
  selectOrder,
  selectPage,
  selectPageCount,
  selectPageRows,
  selectPageSize,
  selectPendingRowAction,
  selectSelectedIds,
  selectShownCount,
  selectSort,
  type QueryChanged,
  type TableMachine,
  type TableRow,
  type TableInput,
  type TableSnapshotLike,
} from '../../machines/table';
import { useMachineActor } from '../app/machineRegistry';

/**
 * A list page's table actor, kept in step with the address bar: the view starts from the URL's
 * query (a reload or a shared link shows the same page, sort, search and filters), every
 * `query.changed` replaces the URL's query, and a URL changed from outside (a menu link, back)
 * is sent back as `query.set`.
 */
export function useTableActor<Row extends TableRow>(
  machine: TableMachine<Row>,
  schema: TableQuerySchema,
  /** Fixed server parameters of the list (not in the URL), read at mount. */
  baseParams?: Readonly<Record<string, string>>,
): ActorRefFrom<TableMachine<Row>> {
  const initial = useInitialQuery(schema);
  const input = baseParams === undefined ? { query: initial } : { query: initial, baseParams };
  const actorRef = useMachineActor(machine as TableMachine<TableRow>, input) as unknown as ActorRefFrom<TableMachine<Row>>;
  useAddressBar(actorRef, actorRef, schema, initial);
  return actorRef;
}

/**
 * A list page actor started from the URL's query, and its table child: any page machine that
 * takes the table's input (`{ query }`) and invokes the list's table as `table` (src/machines/listPage,
 * src/machines/channelListPage). The page's `query.changed` (relayed from the table) replaces the
 * URL's query and a URL changed from outside goes to the table as `query.set`.
 */
export function useListPageActor<Row extends TableRow, M extends ListPageMachine = CopyListPageMachine<Row>>(
  machine: StartsFromTableInput<M>,
  schema: TableQuerySchema,
): { readonly pageRef: ActorRefFrom<M>; readonly tableRef: ActorRefFrom<TableMachine<Row>> } {
  const initial = useInitialQuery(schema);
  const input: TableInput = { query: initial };
  const pageRef = useMachineActor(machine as AnyStateMachine, input) as ActorRefFrom<M>;
  // the table is invoked for as long as the page lives: it is there from the first snapshot
  const tableRef = useSelector(pageRef as AnyActorRef, tableChildOf) as ActorRefFrom<TableMachine<Row>>;
  useAddressBar(pageRef, tableRef, schema, initial);
  return { pageRef, tableRef };
}

/** The page's `table` child. */
const tableChildOf = (s: AnyMachineSnapshot): AnyActorRef | undefined => (s.children as Readonly<Record<string, AnyActorRef | undefined>>).table;

/** A page machine started with its table's input (`{ query }`); it invokes the table as `table`. */
export type ListPageMachine = AnyStateMachine;

/** `M` itself when it can start from the table's input, else never (a compile error at the call). */
type StartsFromTableInput<M extends AnyStateMachine> = TableInput extends InputFrom<M> ? M : never;

/** The URL's query at mount; later changes arrive as `query.set`. */
export function useInitialQuery(schema: TableQuerySchema): TableQuery {
  const location = useLocation();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the URL is read once, at mount; later changes arrive as query.set
  return useMemo(() => parseTableQuery(location.search, schema), []);
}

/** The address bar follows `source`'s `query.changed`; a URL changed from outside goes to `table` as `query.set`. */
export function useAddressBar(source: AnyActorRef, table: AnyActorRef, schema: TableQuerySchema, initial: TableQuery): void {
  const location = useLocation();
  const navigate = useNavigate();
  const written = useRef(formatTableQuery(initial));

  useEffect(() => {
    const sub = source.on('query.changed', (e: QueryChanged) => {
      const search = formatTableQuery(e.query);
      if (search === written.current) return;
      written.current = search;
      void navigate({ search }, { replace: true });
    });
    return () => sub.unsubscribe();
  }, [source, navigate]);

  const search = location.search;
  useEffect(() => {
    const query = parseTableQuery(search, schema);
    const formatted = formatTableQuery(query);
    if (formatted === written.current) return;
    written.current = formatted;
    table.send({ type: 'query.set', query });
  }, [table, search, schema]);
}

/** Everything a list view reads from its table actor. */
export function useTableState<Row extends TableRow>(actorRef: ActorRefFrom<TableMachine<Row>>) {
  const ref = actorRef as unknown as ActorRefFrom<TableMachine<TableRow>>;
  const read = <T,>(selector: (s: TableSnapshotLike) => T, compare?: (a: T, b: T) => boolean) =>
    // eslint-disable-next-line react-hooks/rules-of-hooks -- called unconditionally, in a fixed order, below
    useSelector(ref, selector as never, compare);
  const rows = read(selectPageRows, shallowEqual) as readonly Row[];
  const selectedIds = read(selectSelectedIds);
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const page = read(selectPage);
  const pageCount = read(selectPageCount);
  const size = read(selectPageSize);
  const sort = read(selectSort);
  const order = read(selectOrder);
  const keyword = read(selectKeyword);
  const draft = read(selectDraft);
  const filters = read(selectFilters);
  const shownCount = read(selectShownCount);
  const loadedCount = read(selectLoadedCount);
  const complete = read(selectIsComplete);
  const loading = read(selectIsLoading);
  const firstLoad = read(selectIsFirstLoad);
  const loadFailed = read(selectLoadFailed);
  const idle = read(selectIsIdle);
  const pageSelected = read(selectIsPageSelected);
  const busy = read(selectBusy);
  const pending = read(selectPendingRowAction);
  const bulkToConfirm = read(selectBulkToConfirm);
  const bulkRunning = read(selectBulkRunning);
  const bulkReport = read(selectBulkReport);
  // one object until something in it changes: a memoized view is not drawn again for nothing
  // (the page re-rendering for the address bar, say)
  return useMemo(
    () => ({
      rows,
      page,
      pageCount,
      size,
      sort,
      order,
      keyword,
      draft,
      filters,
      shownCount,
      loadedCount,
      complete,
      loading,
      firstLoad,
      loadFailed,
      idle,
      selected,
      selectedCount: selectedIds.length,
      pageSelected,
      busy,
      pending,
      bulkToConfirm,
      bulkRunning,
      bulkReport,
    }),
    [rows, page, pageCount, size, sort, order, keyword, draft, filters, shownCount, loadedCount, complete, loading, firstLoad, loadFailed, idle, selected, selectedIds, pageSelected, busy, pending, bulkToConfirm, bulkRunning, bulkReport],
  );
}

export type TableState<Row extends TableRow> = ReturnType<typeof useTableState<Row>>;
