import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type ReactNode } from 'react';
import { defaultRangeExtractor, measureElement, useWindowVirtualizer, type Range, type Virtualizer } from '@tanstack/react-virtual';
import { Alert, Box, Button, Flex, Heading, Spinner, Stack, Text, VisuallyHidden, useBreakpointValue, type SystemContext, type SystemStyleObject } from '@chakra-ui/react';
import { Checkbox, NativeSelect, Skeleton, Table } from '../app/laterComponents';
import type { SortState } from '../../domain/paging';
import { HintScope } from '../app/Hint';
import { useT } from '../app/i18n';
import { KeptStyles } from '../app/KeptStyles';
import resolvedTableSheet from './dataTableSheet.json';
import { CellButton, CellPartsStyles, cellPartsClass, RowCheckbox } from './cellParts';

/**
 * What a cell may need of its row's state besides the row: a row re-renders only when its row, its
 * state or the columns change, so a column that reads these here (not from the whole table) keeps
 * the same definition, and the other rows are not drawn again.
 */
export interface CellState {
  /** An action runs on the row. */
  readonly busy: boolean;
  /** The table's controls are inert (a bulk run, a confirmation, a load). */
  readonly disabled: boolean;
}

/** One column of a list: a header, how a cell renders, and whether a header click sorts by `key`. */
export interface Column<Row> {
  /** The row field the column sorts by (and its React key). */
  readonly key: string;
  readonly header: string;
  readonly sortable?: boolean;
  readonly render: (row: Row, cell: CellState) => ReactNode;
  /** Narrow numeric columns align right. */
  readonly numeric?: boolean;
  readonly minW?: string;
  /**
   * Its place on a row's card (narrow screens, `cards`): the card's heading (`title`; default: the
   * first column), its buttons (`actions`; default for the column keyed `actions`), left out
   * (`hide`), or a label/value pair (the default).
   */
  readonly card?: 'title' | 'actions' | 'hide';
}

/** How a column shows on a card. */
export const cardRoleOf = <Row,>(col: Column<Row>, index: number, columns: readonly Column<Row>[]): 'title' | 'actions' | 'hide' | 'field' => {
  if (col.card !== undefined) return col.card;
  if (col.key === 'actions') return 'actions';
  return index === 0 && !columns.some((c) => c.card === 'title') ? 'title' : 'field';
};

/** The checkbox column of a table whose rows can be selected for bulk actions. */
export interface DataTableSelection<Row> {
  readonly selected: ReadonlySet<number>;
  readonly pageSelected: boolean;
  readonly onToggleRow: (id: number) => void;
  readonly onTogglePage: () => void;
  /** The accessible name of a row's checkbox ("Select <name>"). */
  readonly rowLabel: (row: Row) => string;
}

export interface DataTableViewProps<Row extends { readonly id: number }> {
  /** The table's accessible name (the page's title). */
  readonly caption: string;
  readonly columns: readonly Column<Row>[];
  readonly rows: readonly Row[];
  readonly sort: SortState;
  readonly onSort: (key: string) => void;
  /** Row selection for bulk actions (checkbox column) when given. */
  readonly selection?: DataTableSelection<Row>;
  /** id -> action running on the row: the row shows a spinner and its actions are disabled. */
  readonly busy: Readonly<Record<number, string>>;
  /** Nothing loaded yet, loading: skeleton rows. */
  readonly firstLoad: boolean;
  readonly loadFailed: boolean;
  readonly onRetry: () => void;
  /** Shown when there is no row (differs for a search). */
  readonly emptyText: string;
  /** Controls are inert (a bulk run, a confirmation). */
  readonly disabled?: boolean;
  /**
   * Below the `md` breakpoint each row is a card (a list item with its heading, label/value pairs
   * and buttons) instead of a table row, so nothing lies off-screen on a phone.
   */
  readonly cards?: boolean;
}

const skeletonRows = [0, 1, 2, 3, 4];

/**
 * The table every list uses: sortable headers (click again to reverse; `aria-sort` tells screen
 * readers), an optional selection column, a busy marker per row, skeleton rows while the first
 * page loads, an error with retry, and an empty text. Wide tables scroll sideways on phones,
 * unless `cards` makes each row a card there (`DataCardsView`). Every row of the page is drawn in
 * one commit (a page of 100 rows no longer comes in two frames: the second pass cost more than it
 * saved, and the table was busy in between). A page of more than `windowAbove` rows is windowed
 * (`WindowedBody`): only the rows near the viewport are in the page, with spacer rows keeping
 * its height; the table then says how many rows it has (`aria-rowcount`) and which each drawn
 * row is (`aria-rowindex`). A windowed body's first commit draws the rows in the viewport only,
 * the few beyond its edges right after that commit's paint.
 */
export function DataTableView<Row extends { readonly id: number }>({
  caption,
  columns,
  rows,
  sort,
  onSort,
  selection,
  busy,
  firstLoad,
  loadFailed,
  onRetry,
  emptyText,
  disabled = false,
  cards = false,
}: DataTableViewProps<Row>) {
  const t = useT();
  // read at once (no first render as a table): only one of the two layouts is ever in the page
  const narrow = useBreakpointValue({ base: true, md: false }, { ssr: false }) === true;
  if (loadFailed) {
    return (
      <Stack gap={3} py={4}>
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Title>{t('table.loadFailed')}</Alert.Title>
        </Alert.Root>
        <Button alignSelf="start" variant="outline" onClick={onRetry}>
          {t('table.retry')}
        </Button>
      </Stack>
    );
  }
  if (cards && narrow) {
    return (
      <DataCardsView<Row>
        caption={caption}
        columns={columns}
        rows={rows}
        sort={sort}
        onSort={onSort}
        selection={selection}
        busy={busy}
        firstLoad={firstLoad}
        emptyText={emptyText}
        disabled={disabled}
      />
    );
  }
  const colSpan = columns.length + (selection ? 1 : 0);
  const windowed = !firstLoad && rows.length > windowAbove;
  return (
    <HintScope>
      <TableStyles />
      <CellPartsStyles />
      <Box overflowX="auto" borderWidth="1px" borderRadius="md" aria-busy={firstLoad}>
        <Table.Root
          size="sm"
          striped
          interactive={!firstLoad}
          aria-label={caption}
          aria-rowcount={windowed ? rows.length + 1 : undefined}
          className={`${tableClass} ${cellPartsClass}`}
          data-interactive={firstLoad ? undefined : ''}
        >
          <DataTableHead<Row>
            columns={columns}
            sort={sort}
            onSort={onSort}
            selectable={selection !== undefined}
            pageSelected={selection?.pageSelected === true}
            onTogglePage={selection?.onTogglePage}
            pageBoxDisabled={disabled || rows.length === 0}
            disabled={disabled}
            rowIndexed={windowed}
          />
          {windowed ? (
            <WindowedBody<Row> rows={rows} columns={columns} selection={selection} busy={busy} disabled={disabled} colSpan={colSpan} />
          ) : (
          <Table.Body>
            {firstLoad ? (
              skeletonRows.map((i) => (
                <Table.Row key={i}>
                  <Table.Cell colSpan={colSpan}>
                    <Skeleton height="5" />
                  </Table.Cell>
                </Table.Row>
              ))
            ) : rows.length === 0 ? (
              <Table.Row>
                <Table.Cell colSpan={colSpan}>
                  <Text color="fg.muted" py={4} textAlign="center">
                    {emptyText}
                  </Text>
                </Table.Cell>
              </Table.Row>
            ) : (
              // keyed by place: a new page, a sort or a filter fills the same row elements (see `DataTableRow`)
              rows.map((row, i) => (
                <DataTableRow<Row> key={i} columns={columns} {...rowStateOf(row, selection, busy, disabled)} />
              ))
            )}
          </Table.Body>
          )}
        </Table.Root>
      </Box>
    </HintScope>
  );
}

interface DataTableHeadProps<Row> {
  readonly columns: readonly Column<Row>[];
  readonly sort: SortState;
  readonly onSort: (key: string) => void;
  readonly selectable: boolean;
  readonly pageSelected: boolean;
  readonly onTogglePage: (() => void) | undefined;
  readonly pageBoxDisabled: boolean;
  readonly disabled: boolean;
  /** The body is windowed: the header row says it is the table's first (`aria-rowindex`). */
  readonly rowIndexed: boolean;
}

/** The header row (memoized: drawn again only when the columns, the sort or the inert state change). */
const DataTableHead = memo(function DataTableHead<Row>({
  columns,
  sort,
  onSort,
  selectable,
  pageSelected,
  onTogglePage,
  pageBoxDisabled,
  disabled,
  rowIndexed,
}: DataTableHeadProps<Row>) {
  const t = useT();
  return (
    <Table.Header>
      <Table.Row aria-rowindex={rowIndexed ? 1 : undefined}>
        {selectable && (
          <Table.ColumnHeader w="10">
            <Checkbox.Root size="sm" checked={pageSelected} disabled={pageBoxDisabled} onCheckedChange={() => onTogglePage?.()}>
              <Checkbox.HiddenInput aria-label={t('table.select.page')} />
              <Checkbox.Control />
            </Checkbox.Root>
          </Table.ColumnHeader>
        )}
        {columns.map((col) => (
          <HeaderCell
            key={col.key}
            colKey={col.key}
            header={col.header}
            sortable={col.sortable === true}
            numeric={col.numeric === true}
            minW={col.minW}
            sorted={sort !== null && sort.key === col.key ? sort.direction : null}
            disabled={disabled}
            onSort={onSort}
          />
        ))}
      </Table.Row>
    </Table.Header>
  );
}) as <Row>(props: DataTableHeadProps<Row>) => ReactNode;

interface HeaderCellProps {
  readonly colKey: string;
  readonly header: string;
  readonly sortable: boolean;
  readonly numeric: boolean;
  readonly minW: string | undefined;
  readonly sorted: 'asc' | 'desc' | null;
  readonly disabled: boolean;
  readonly onSort: (key: string) => void;
}

/**
 * A column header (memoized: a sort draws again only the headers of the columns it leaves and
 * takes). A plain `th` and button with class names, as the body cells: the table's rules
 * (`TableStyles`) give them the look of the recipe's column header and of a ghost extra-small
 * button (`CellButton`), where a Chakra header and button per column resolved their styles on
 * every mount of the page.
 */
const HeaderCell = memo(function HeaderCell({ colKey, header, sortable, numeric, minW, sorted, disabled, onSort }: HeaderCellProps) {
  const t = useT();
  return (
    <th
      className={headClass}
      data-numeric={numeric ? '' : undefined}
      style={minW === undefined ? undefined : { minWidth: minW }}
      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : sortable ? 'none' : undefined}
    >
      {sortable ? (
        <CellButton variant="ghost" data-sort="" disabled={disabled} onClick={() => onSort(colKey)} aria-label={t('table.sortBy', { column: header })}>
          {header}
          <span aria-hidden data-sorted={sorted ? '' : undefined}>
            {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
          </span>
        </CellButton>
      ) : (
        header
      )}
    </th>
  );
});

const tableClass = 'oa-data-table';
const rowClass = 'oa-data-row';
/** A row of a windowed body: striped by its index in the page (`data-odd`), not its place among the drawn rows. */
const windowedRowClass = 'oa-data-wrow';
const cellClass = 'oa-data-cell';
const headClass = 'oa-data-head';
const busyClass = 'oa-data-busy';

/**
 * The table's rules (the body rows are plain `tr`/`td` elements: a Chakra row and cell per element
 * is most of the cost of a long page): the table recipe's row and cell styles as rules under the
 * table's class, hover only while the table is interactive, resolved by a Chakra system. The
 * console ships them resolved by its own (dataTableSheet.json, kept equal by
 * tests/unit/views/keptSheets.test.ts), written once (`KeptStyles`): a list page's first render no
 * longer works them out, nor resolves them.
 */
export function dataTableCss(system: SystemContext): SystemStyleObject {
  const table = system.getSlotRecipeFn('table') as (props: Record<string, unknown>) => Record<string, SystemStyleObject>;
  const still = table({ size: 'sm', striped: true, interactive: false });
  const live = table({ size: 'sm', striped: true, interactive: true });
  const rules: SystemStyleObject = {
    [`& tr.${rowClass}`]: ownSelected(still.row ?? {}),
    [`&[data-interactive] tr.${rowClass}`]: ownSelected(live.row ?? {}),
    [`& tr.${windowedRowClass}`]: ownSelected(byIndex(still.row ?? {})),
    [`&[data-interactive] tr.${windowedRowClass}`]: ownSelected(byIndex(live.row ?? {})),
    [`& td.${cellClass}`]: still.cell ?? {},
    [`& td.${cellClass}[data-numeric]`]: { textAlign: 'end' },
    // the header cells and their sort buttons (as the recipe's column header, and a ghost
    // extra-small button with px 1 and a semibold label; the arrow muted until sorted)
    [`& th.${headClass}`]: { ...(still.columnHeader ?? {}), textAlign: 'start', whiteSpace: 'nowrap' },
    [`& th.${headClass}[data-numeric]`]: { textAlign: 'end' },
    [`& th.${headClass} > button[data-sort]`]: { paddingInline: '1', fontWeight: 'semibold' },
    [`& th.${headClass} > button[data-sort] > span`]: { color: 'fg.subtle' },
    [`& th.${headClass} > button[data-sort] > span[data-sorted]`]: { color: 'fg' },
    [`& .${busyClass}`]: { display: 'flex', alignItems: 'center', gap: '1' },
    // a row's elements are reused for another row (rows keyed by place): a button whose palette
    // or state differs takes its new colours at once, as a new button would, instead of
    // fading for 200 ms (and Chromium running a transition per colour property); hovering
    // one still fades in (the transition used is the hovered state's)
    [`& td.${cellClass} button:not(:hover)`]: { transitionDuration: '0s' },
  };
  return system.css(rules);
}

const dataTableSheet = resolvedTableSheet as SystemStyleObject;

const TableStyles = memo(function TableStyles() {
  return <KeptStyles className={tableClass} styles={dataTableSheet} resolved />;
});

/**
 * A row style whose selected state reads the row's own `data-row-selected` instead of the shared
 * `data-selected`: other rules of the page read `data-selected` on an element's ancestors, so
 * Chromium restyled every element of a row whose `data-selected` changed (selecting a page of 100
 * rows restyled about 4,000 elements); nothing else reads this one, so only the row is restyled.
 */
const ownSelected = (style: SystemStyleObject): SystemStyleObject =>
  Object.fromEntries(Object.entries(style).map(([key, value]) => [key.replaceAll('[data-selected]', '[data-row-selected]'), value as unknown])) as SystemStyleObject;

/** A row style whose stripes follow `data-odd` (the row's index in the page) instead of `:nth-of-type(odd)`. */
const byIndex = (style: SystemStyleObject): SystemStyleObject =>
  Object.fromEntries(Object.entries(style).map(([key, value]) => [key.replaceAll(':nth-of-type(odd)', '[data-odd]'), value as unknown])) as SystemStyleObject;

interface DataTableRowProps<Row extends { readonly id: number }> {
  readonly row: Row;
  readonly columns: readonly Column<Row>[];
  readonly rowBusy: boolean;
  readonly selected: boolean;
  readonly selectable: boolean;
  readonly onToggleRow: ((id: number) => void) | undefined;
  readonly rowLabel: ((row: Row) => string) | undefined;
  readonly disabled: boolean;
  /** In a windowed body: the row's index in the page (its `aria-rowindex` is one more than the header's) ... */
  readonly index?: number;
  /** ... and the virtualizer's measure of its height. */
  readonly measure?: (row: HTMLTableRowElement | null) => void;
}

/** A body row's props that follow from the table's state (the same for a full and a windowed body). */
const rowStateOf = <Row extends { readonly id: number }>(
  row: Row,
  selection: DataTableSelection<Row> | undefined,
  busy: Readonly<Record<number, string>>,
  disabled: boolean,
): Omit<DataTableRowProps<Row>, 'columns' | 'index' | 'measure'> => ({
  row,
  rowBusy: busy[row.id] !== undefined,
  selected: selection?.selected.has(row.id) === true,
  selectable: selection !== undefined,
  onToggleRow: selection?.onToggleRow,
  rowLabel: selection?.rowLabel,
  disabled,
});

/**
 * One body row. Memoized: a row whose props did not change (another row selected, a key typed in
 * the search box) is not rendered again, when the list keeps its columns and callbacks stable.
 * Its cells are memoized apart from its checkbox: selecting the row (or the page) draws the
 * checkbox again, not the cells. Rows are keyed by their place in the page, not their id: the
 * next page, a sort or a filter gives the same row elements other rows (React sets the texts and
 * attributes that differ) instead of removing every row and creating new ones. A row holds no
 * state of its own (its checkbox and selects are controlled; a cell that keeps what was typed, the
 * inline numbers, is keyed by its row's id).
 */
const DataTableRow = memo(function DataTableRow<Row extends { readonly id: number }>({
  row,
  columns,
  rowBusy,
  selected,
  selectable,
  onToggleRow,
  rowLabel,
  disabled,
  index,
  measure,
}: DataTableRowProps<Row>) {
  const t = useT();
  return (
    <tr
      ref={measure}
      className={index === undefined ? rowClass : windowedRowClass}
      aria-busy={rowBusy}
      data-row-selected={selected ? '' : undefined}
      data-index={index}
      data-odd={index !== undefined && index % 2 === 0 ? '' : undefined}
      aria-rowindex={index === undefined ? undefined : index + 2}
    >
      {selectable && (
        <td className={cellClass}>
          <span className={busyClass}>
            <RowCheckbox checked={selected} disabled={disabled} label={rowLabel?.(row) ?? ''} onChange={() => onToggleRow?.(row.id)} />
            {rowBusy && <BusyMark label={t('table.rowBusy')} />}
          </span>
        </td>
      )}
      <DataTableCells<Row> row={row} columns={columns} rowBusy={rowBusy} markFirst={!selectable} disabled={disabled} />
    </tr>
  );
}) as <Row extends { readonly id: number }>(props: DataTableRowProps<Row>) => ReactNode;

/** A page of more rows than this is windowed (`WindowedBody`); smaller pages draw every row. */
export const windowAbove = 30;
/**
 * A row's height before it is measured (px): a row of extra-small buttons at size `sm`, as the
 * channel and user lists draw them; the rows not drawn count this much in the spacers.
 */
const rowEstimate = 49;
/** Rows drawn beyond each edge of the viewport (about a third of a 768 px screen), so that scrolling shows no blank. */
const overscan = 6;

/**
 * Runs `run` once the frame after this commit has been painted (a task posted from that frame's
 * animation callback), unless cancelled first.
 */
const afterPaint = (run: () => void): (() => void) => {
  if (typeof requestAnimationFrame === 'undefined') {
    // no frames (a test's document): a task later
    const timer = window.setTimeout(run, 0);
    return () => window.clearTimeout(timer);
  }
  let timer: number | undefined;
  const frame = requestAnimationFrame(() => {
    timer = window.setTimeout(run, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    window.clearTimeout(timer);
  };
};

/**
 * The window's scroll offset as last seen (a passive scroll listener keeps it, from the first
 * windowed body on). The virtualizer reads `window.scrollY` in its first render, when the page
 * just committed is not laid out yet: that read laid the page out once more (a list page's first
 * render, then its rows). A stale value only costs a render: the body gives the virtualizer the
 * real offset in a layout effect, once the page is laid out, before it attaches to the window.
 */
let scrollSeen: number | null = null;
const scrollOffsetSeen = (): number => {
  if (scrollSeen === null) {
    scrollSeen = window.scrollY;
    window.addEventListener(
      'scroll',
      () => {
        scrollSeen = window.scrollY;
      },
      { passive: true },
    );
  }
  return scrollSeen;
};

/**
 * Where the last windowed body started in the page: a new one (the list shown again, page size
 * 10 -> 100) starts from it, and is drawn again only when its own place differs.
 */
let marginSeen = 0;

/**
 * A drawn row's height: while React commits (no observer entry) its size as last measured, else
 * the estimate, without reading the layout (that read laid the whole page out in the middle of
 * the commit); the row's ResizeObserver entry, after the page's layout, gives its real height.
 */
const measureRow = (row: HTMLTableRowElement, entry: ResizeObserverEntry | undefined, instance: Virtualizer<Window, HTMLTableRowElement>): number =>
  entry === undefined ? (instance.itemSizeCache.get(instance.options.getItemKey(instance.indexFromElement(row))) ?? rowEstimate) : measureElement(row, entry, instance);

interface WindowedBodyProps<Row extends { readonly id: number }> {
  readonly rows: readonly Row[];
  readonly columns: readonly Column<Row>[];
  readonly selection: DataTableSelection<Row> | undefined;
  readonly busy: Readonly<Record<number, string>>;
  readonly disabled: boolean;
  readonly colSpan: number;
}

/**
 * The body of a long page: only the rows in or near the viewport (the page itself scrolls), each
 * measured as drawn, and between them spacer rows (hidden from assistive technology, no cell read
 * out) as tall as the rows they stand for, so the page keeps its height. The row holding the focus
 * and its neighbours stay drawn wherever the viewport is, so the focus is not lost when it scrolls
 * away and Tab reaches the next row's controls. Column widths follow the drawn rows' content, as
 * the full table's do.
 */
function WindowedBody<Row extends { readonly id: number }>({ rows, columns, selection, busy, disabled, colSpan }: WindowedBodyProps<Row>) {
  const body = useRef<HTMLTableSectionElement>(null);
  // where the body starts in the page (the virtualizer's offsets are the window's)
  const [margin, setMargin] = useState(() => marginSeen);
  // the id of the row that holds the focus
  const [focusedId, setFocusedId] = useState<number | null>(null);
  // the body's first commit draws only the rows in the viewport (the rows beyond it cannot be seen
  // in its first paint); the rows beyond its edges (`overscan`) come right after that paint
  const [overscanned, setOverscanned] = useState(false);
  useEffect(() => (overscanned ? undefined : afterPaint(() => setOverscanned(true))), [overscanned]);
  const focusedIndex = focusedId === null ? -1 : rows.findIndex((r) => r.id === focusedId);
  const virtualizer = useWindowVirtualizer<HTMLTableRowElement>({
    count: rows.length,
    estimateSize: () => rowEstimate,
    overscan: overscanned ? overscan : 0,
    scrollMargin: margin,
    getItemKey: useCallback((i: number) => rows[i]?.id ?? -i - 1, [rows]),
    initialRect: typeof window === 'undefined' ? undefined : { width: window.innerWidth, height: window.innerHeight },
    initialOffset: scrollOffsetSeen,
    measureElement: measureRow,
    rangeExtractor: (range: Range) => {
      const drawn = defaultRangeExtractor(range);
      if (focusedIndex < 0) return drawn;
      const kept = [focusedIndex - 1, focusedIndex, focusedIndex + 1].filter((i) => i >= 0 && i < range.count && !drawn.includes(i));
      return kept.length === 0 ? drawn : [...drawn, ...kept].sort((a, b) => a - b);
    },
  });
  useLayoutEffect(() => {
    const el = body.current;
    if (el === null) return;
    // placed again whenever the page's height changes (a bar above the table, the rows measured)
    const place = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      marginSeen = top;
      setMargin((was) => (Math.abs(top - was) > 0.5 ? top : was));
    };
    place();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(place);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const rowOf = (e: FocusEvent): number | null => {
    const tr = e.target.closest('tr[data-index]');
    const row = tr === null ? undefined : rows[Number(tr.getAttribute('data-index'))];
    return row?.id ?? null;
  };
  const onFocus = (e: FocusEvent) => {
    const id = rowOf(e);
    if (id !== focusedId) setFocusedId(id);
  };
  const onBlur = (e: FocusEvent) => {
    if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) setFocusedId(null);
  };

  const items = virtualizer.getVirtualItems();
  const start0 = virtualizer.options.scrollMargin;
  const out: ReactNode[] = [];
  let end = 0;
  for (const item of items) {
    const row = rows[item.index];
    if (row === undefined) continue;
    const top = item.start - start0;
    if (top > end + 0.5) out.push(<SpacerRow key={`gap-${out.length === 0 ? 'top' : item.index}`} height={top - end} colSpan={colSpan} />);
    out.push(
      <DataTableRow<Row>
        key={item.index}
        columns={columns}
        {...rowStateOf(row, selection, busy, disabled)}
        index={item.index}
        measure={virtualizer.measureElement}
      />,
    );
    end = item.end - start0;
  }
  const total = virtualizer.getTotalSize();
  if (total > end + 0.5) out.push(<SpacerRow key="gap-end" height={total - end} colSpan={colSpan} />);
  return (
    <Table.Body ref={body} onFocus={onFocus} onBlur={onBlur}>
      <ScrollOffsetAtMount virtualizer={virtualizer} />
      {out}
    </Table.Body>
  );
}

/**
 * The virtualizer's first render took the scroll offset as last seen (`scrollOffsetSeen`), and
 * when it attaches to the window (in its layout effect) it scrolls the window to its offset: a
 * child's layout effect runs before its parent's, so the real offset is given to it here, the
 * page being laid out by then. Draws nothing.
 */
function ScrollOffsetAtMount({ virtualizer }: { readonly virtualizer: Virtualizer<Window, HTMLTableRowElement> }) {
  useLayoutEffect(() => {
    if (virtualizer.scrollElement === null) Object.assign(virtualizer, { scrollOffset: window.scrollY });
  }, [virtualizer]);
  return null;
}

/** Stands for rows not drawn: as tall as they are, hidden from assistive technology. */
function SpacerRow({ height, colSpan }: { readonly height: number; readonly colSpan: number }) {
  return (
    <tr aria-hidden="true" data-spacer="">
      <td colSpan={colSpan} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}

interface DataTableCellsProps<Row> {
  readonly row: Row;
  readonly columns: readonly Column<Row>[];
  readonly rowBusy: boolean;
  /** No checkbox column: the busy mark goes in the first cell. */
  readonly markFirst: boolean;
  readonly disabled: boolean;
}

/** The cells of a body row after its checkbox (memoized on the row, its state and the columns). */
const DataTableCells = memo(function DataTableCells<Row>({ row, columns, rowBusy, markFirst, disabled }: DataTableCellsProps<Row>) {
  const t = useT();
  const cell: CellState = { busy: rowBusy, disabled };
  return columns.map((col, index) => (
    <td key={col.key} className={cellClass} data-numeric={col.numeric ? '' : undefined} style={col.minW === undefined ? undefined : { minWidth: col.minW }}>
      {markFirst && index === 0 && rowBusy ? (
        <span className={busyClass}>
          <BusyMark label={t('table.rowBusy')} />
          {col.render(row, cell)}
        </span>
      ) : (
        col.render(row, cell)
      )}
    </td>
  ));
}) as <Row>(props: DataTableCellsProps<Row>) => ReactNode;

function BusyMark({ label }: { readonly label: string }) {
  return (
    <>
      <Spinner size="xs" aria-hidden />
      <VisuallyHidden>{label}</VisuallyHidden>
    </>
  );
}

type DataCardsViewProps<Row extends { readonly id: number }> = Omit<DataTableViewProps<Row>, 'loadFailed' | 'onRetry' | 'cards'>;

/**
 * The rows as cards (narrow screens): a list named like the table, one item per row with the
 * title column as its heading (the row's checkbox and busy mark beside it), the other columns as
 * label/value pairs, and the actions as wrapping buttons. Sorting is a select of the sortable
 * columns and a button that reverses the order.
 */
export function DataCardsView<Row extends { readonly id: number }>({
  caption,
  columns,
  rows,
  sort,
  onSort,
  selection,
  busy,
  firstLoad,
  emptyText,
  disabled = false,
}: DataCardsViewProps<Row>) {
  const t = useT();
  const roles = columns.map((col, i) => cardRoleOf(col, i, columns));
  const title = columns.find((_, i) => roles[i] === 'title');
  const fields = columns.filter((_, i) => roles[i] === 'field');
  const actions = columns.filter((_, i) => roles[i] === 'actions');
  const sortable = columns.filter((c) => c.sortable);
  const sortedBy = sort === null ? undefined : sortable.find((c) => c.key === sort.key);

  return (
    <HintScope>
      <CellPartsStyles />
      <Stack gap={3} aria-busy={firstLoad} minW={0} className={cellPartsClass}>
        {(sortable.length > 0 || selection) && (
          <Flex gap={2} wrap="wrap" align="center">
            {selection && (
              <Checkbox.Root
                size="sm"
                checked={selection.pageSelected}
                disabled={disabled || rows.length === 0}
                onCheckedChange={() => selection.onTogglePage()}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>{t('table.select.page')}</Checkbox.Label>
              </Checkbox.Root>
            )}
            {sortable.length > 0 && (
              <Flex gap={1} align="center" ms="auto" minW={0}>
                <NativeSelect.Root size="xs" width="auto" disabled={disabled}>
                  <NativeSelect.Field
                    aria-label={t('table.cards.sort')}
                    value={sortedBy?.key ?? ''}
                    onChange={(e) => {
                      if (e.currentTarget.value !== '') onSort(e.currentTarget.value);
                    }}
                  >
                    {sortedBy === undefined && <option value="">{t('table.cards.sort')}</option>}
                    {sortable.map((c) => (
                      <option key={c.key} value={c.key}>
                        {t('table.sortBy', { column: c.header })}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
                {sortedBy !== undefined && sort !== null && (
                  <Button size="xs" variant="outline" disabled={disabled} onClick={() => onSort(sort.key)} aria-label={t('table.cards.reverse')}>
                    <span aria-hidden>{sort.direction === 'asc' ? '▲' : '▼'}</span>
                  </Button>
                )}
              </Flex>
            )}
          </Flex>
        )}
        {firstLoad ? (
          <Stack gap={3}>
            {skeletonRows.map((i) => (
              <Skeleton key={i} height="20" borderRadius="md" />
            ))}
          </Stack>
        ) : rows.length === 0 ? (
          <Text color="fg.muted" py={4} textAlign="center" borderWidth="1px" borderRadius="md">
            {emptyText}
          </Text>
        ) : (
          <Box as="ul" role="list" aria-label={caption} listStyleType="none" m={0} p={0} display="flex" flexDirection="column" gap={3}>
            {rows.map((row) => {
              const rowBusy = busy[row.id] !== undefined;
              const selected = selection?.selected.has(row.id) === true;
              const cell: CellState = { busy: rowBusy, disabled };
              return (
                <Box
                  as="li"
                  key={row.id}
                  aria-busy={rowBusy}
                  data-selected={selected ? '' : undefined}
                  borderWidth="1px"
                  borderRadius="md"
                  borderColor={selected ? 'colorPalette.solid' : 'border'}
                  colorPalette="blue"
                  bg="bg.panel"
                  p={3}
                  minW={0}
                >
                  <Flex gap={2} align="center" minW={0}>
                    {selection && (
                      <RowCheckbox checked={selected} disabled={disabled} label={selection.rowLabel(row)} onChange={() => selection.onToggleRow(row.id)} />
                    )}
                    {rowBusy && <BusyMark label={t('table.rowBusy')} />}
                    {title && (
                      <Heading as="h2" size="sm" minW={0} flex="1" overflowWrap="anywhere">
                        {title.render(row, cell)}
                      </Heading>
                    )}
                  </Flex>
                  {fields.length > 0 && (
                    <Box as="dl" display="grid" gridTemplateColumns="minmax(5rem, auto) minmax(0, 1fr)" columnGap={3} rowGap={1.5} mt={2} textStyle="sm" alignItems="center">
                      {fields.map((col) => (
                        <Box key={col.key} display="contents">
                          <Box as="dt" color="fg.muted">
                            {col.header}
                          </Box>
                          <Box as="dd" m={0} minW={0} overflowWrap="anywhere" css={{ '& *': { whiteSpace: 'normal !important' } }}>
                            {col.render(row, cell)}
                          </Box>
                        </Box>
                      ))}
                    </Box>
                  )}
                  {actions.map((col) => (
                    <Box
                      key={col.key}
                      mt={3}
                      minW={0}
                      role="group"
                      aria-label={col.header}
                      // the list's own button row may say nowrap: on a card it wraps
                      css={{ '& > *': { flexWrap: 'wrap !important', whiteSpace: 'normal !important' } }}
                    >
                      {col.render(row, cell)}
                    </Box>
                  ))}
                </Box>
              );
            })}
          </Box>
        )}
      </Stack>
    </HintScope>
  );
}
