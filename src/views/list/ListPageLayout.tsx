import type { ReactNode } from 'react';
import { Button, Flex, Heading, Stack } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import type { MessageKey } from '../../i18n';
import type { BulkRun, TableRow } from '../../machines/table';
import { useT } from '../app/i18n';
import { BulkDialogsView } from '../table/BulkDialogsView';
import { ConfirmDialogView } from '../table/ConfirmDialogView';
import { DataTableView, type Column } from '../table/DataTableView';
import { PagerView } from '../table/PagerView';
import { SelectionBarView } from '../table/SelectionBarView';
import { TableSearchView } from '../table/TableSearchView';
import type { TableState } from '../table/useTable';

/** What every list table asks for: header sort, the pager, and retry after a failed load. */
export interface ListTableHandlers {
  readonly onSort: (key: string) => void;
  readonly onPage: (page: number) => void;
  readonly onSize: (size: number) => void;
  readonly onRetry: () => void;
}

/** The search box of the toolbar. */
export interface ListSearch {
  /** The box's label and placeholder. */
  readonly label: string;
  readonly onDraft: (text: string) => void;
  readonly onSearch: () => void;
  readonly onClearSearch: () => void;
}

/** Row selection: the checkbox column and the selection bar. */
export interface ListSelection<Row> {
  /** How a row is named ("#7 chat-client"): its checkbox says "select <name>", the bulk report lists it. */
  readonly rowName: (row: Row) => string;
  readonly onToggleRow: (id: number) => void;
  readonly onTogglePage: () => void;
  readonly onSelectAllMatching: () => void;
  readonly onClearSelection: () => void;
}

/** One bulk action button of the selection bar. */
export interface BulkActionSpec<A extends string> {
  readonly action: A;
  readonly label: MessageKey;
  readonly palette?: string;
  /** The action destroys: its confirmation is red. */
  readonly danger?: boolean;
}

/** The bulk actions of the selected rows and the three steps of a run (confirm, progress, report). */
export interface ListBulk<A extends string> {
  readonly actions: readonly BulkActionSpec<A>[];
  /** More buttons of the selection bar after the actions (exports, value prompts). */
  readonly extra?: ReactNode;
  readonly onBulk: (action: A) => void;
  readonly onBulkConfirm: () => void;
  readonly onBulkCancel: () => void;
  readonly onBulkStop: () => void;
  readonly onBulkRetry: () => void;
  readonly onBulkDismiss: () => void;
  /** A run's action as shown (default: the label of its button, else the action). */
  readonly actionLabel?: (run: BulkRun) => string;
  /** A row of the report (default: the selection's name of a loaded row, else `#id`). */
  readonly rowLabel?: (id: number) => string;
  /** Whether an action destroys (default: its button's `danger`). */
  readonly isDanger?: (action: string) => boolean;
}

/** The confirmation of a row action (delete), open while the table has one pending. */
export interface ListConfirm<Row> {
  /** What will change, for the pending row (undefined when it is not loaded). */
  readonly body: (id: number, row: Row | undefined) => string;
  readonly title?: string;
  readonly confirmLabel?: string;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

export interface ListPageLayoutProps<Row extends TableRow, A extends string = string> {
  /** The page heading (h1) and the table's accessible name. */
  readonly title: string;
  /** Beside the heading (a "click to view" total). */
  readonly titleAside?: ReactNode;
  /** Between the heading and the toolbar (a notice). */
  readonly banner?: ReactNode;
  readonly table: TableState<Row>;
  readonly columns: readonly Column<Row>[];
  readonly on: ListTableHandlers;
  readonly search?: ListSearch;
  /** The toolbar's own controls after the search box (order and filter selects …). */
  readonly toolbar?: ReactNode;
  /** The toolbar's accessible name: when given the toolbar is a `toolbar` landmark. */
  readonly toolbarLabel?: string;
  /** The "add" link button of the toolbar. */
  readonly add?: { readonly to: string; readonly label: string };
  /** The toolbar's refresh button (reloads the loaded pages). */
  readonly onRefresh?: () => void;
  /** Under the toolbar (a filter form, filter selects). */
  readonly filters?: ReactNode;
  /** Above the selection bar and the table (a progress panel). */
  readonly aboveTable?: ReactNode;
  readonly selection?: ListSelection<Row>;
  readonly bulk?: ListBulk<A>;
  readonly confirm?: ListConfirm<Row>;
  /** Shown when there is no row (default: "no data", or "nothing matches" for a search). */
  readonly emptyText?: string;
  /** More dialogs of the page. */
  readonly children?: ReactNode;
}

/**
 * The frame of every list page (spec §2): heading, toolbar (search, the list's selects, add,
 * refresh), the selection bar with the bulk actions, the table (skeleton while the first page
 * loads, error with retry, empty text), the pager (hidden after a failed load), the row
 * confirmation and the bulk dialogs. While the table is not idle (a bulk run, a confirmation,
 * a load) its controls are inert; the search stays usable after a failed load.
 */
export function ListPageLayout<Row extends TableRow, A extends string = string>({
  title,
  titleAside,
  banner,
  table,
  columns,
  on,
  search,
  toolbar,
  toolbarLabel,
  add,
  onRefresh,
  filters,
  aboveTable,
  selection,
  bulk,
  confirm,
  emptyText,
  children,
}: ListPageLayoutProps<Row, A>) {
  const t = useT();
  const inert = !table.idle;
  const rowById = (id: number): Row | undefined => table.rows.find((r) => r.id === id);

  const heading = (
    <Heading as="h1" size="xl">
      {title}
    </Heading>
  );
  const hasToolbar = search !== undefined || toolbar !== undefined || add !== undefined || onRefresh !== undefined;

  const bulkLabel = (run: BulkRun): string => {
    const spec = bulk?.actions.find((a) => a.action === run.action);
    return spec ? t(spec.label) : run.action;
  };
  const bulkRowLabel = (id: number): string => {
    const row = rowById(id);
    return row && selection ? selection.rowName(row) : `#${id}`;
  };
  const bulkDanger = (action: string): boolean => bulk?.actions.some((a) => a.action === action && a.danger === true) ?? false;

  return (
    <Stack gap={4} px={{ base: 2, md: 4 }} py={4} maxW="full" minW={0}>
      {titleAside === undefined ? (
        heading
      ) : (
        <Flex gap={2} wrap="wrap" align="baseline">
          {heading}
          {titleAside}
        </Flex>
      )}
      {banner}
      {hasToolbar && (
        <Flex
          role={toolbarLabel === undefined ? undefined : 'toolbar'}
          aria-label={toolbarLabel}
          gap={2}
          wrap="wrap"
          align="center"
        >
          {search && (
            <TableSearchView
              draft={table.draft}
              keyword={table.keyword}
              label={search.label}
              disabled={inert && !table.loadFailed}
              onDraft={search.onDraft}
              onSubmit={search.onSearch}
              onClear={search.onClearSearch}
            />
          )}
          {toolbar}
          {add && (
            <Button colorPalette="blue" asChild>
              <RouterLink to={add.to}>{add.label}</RouterLink>
            </Button>
          )}
          {onRefresh && (
            <Button variant="outline" disabled={inert} onClick={onRefresh}>
              {t('table.refresh')}
            </Button>
          )}
        </Flex>
      )}
      {filters}
      {aboveTable}
      {selection && (
        <SelectionBarView
          selectedCount={table.selectedCount}
          shownCount={table.shownCount}
          complete={table.complete}
          disabled={inert}
          onSelectAllMatching={selection.onSelectAllMatching}
          onClear={selection.onClearSelection}
        >
          {bulk?.actions.map((a) => (
            <Button key={a.action} size="xs" variant="outline" colorPalette={a.palette} disabled={inert} onClick={() => bulk.onBulk(a.action)}>
              {t(a.label)}
            </Button>
          ))}
          {bulk?.extra}
        </SelectionBarView>
      )}
      <DataTableView<Row>
        caption={title}
        columns={columns}
        rows={table.rows}
        sort={table.sort}
        onSort={on.onSort}
        selection={
          selection && {
            selected: table.selected,
            pageSelected: table.pageSelected,
            onToggleRow: selection.onToggleRow,
            onTogglePage: selection.onTogglePage,
            rowLabel: (row) => t('table.select.row', { name: selection.rowName(row) }),
          }
        }
        busy={table.busy}
        firstLoad={table.firstLoad}
        loadFailed={table.loadFailed}
        onRetry={on.onRetry}
        emptyText={emptyText ?? t(table.keyword !== '' ? 'table.emptySearch' : 'table.empty')}
        disabled={inert}
      />
      {!table.loadFailed && (
        <PagerView
          page={table.page}
          pageCount={table.pageCount}
          complete={table.complete}
          loadedCount={table.loadedCount}
          shownCount={table.shownCount}
          size={table.size}
          loading={table.loading && !table.firstLoad}
          disabled={inert}
          onPage={on.onPage}
          onSize={on.onSize}
        />
      )}
      {confirm && (
        <ConfirmDialogView
          open={table.pending !== null}
          title={confirm.title}
          body={table.pending ? confirm.body(table.pending.id, rowById(table.pending.id)) : ''}
          confirmLabel={confirm.confirmLabel}
          danger
          onConfirm={confirm.onConfirm}
          onCancel={confirm.onCancel}
        />
      )}
      {bulk && (
        <BulkDialogsView
          toConfirm={table.bulkToConfirm}
          running={table.bulkRunning}
          report={table.bulkReport}
          actionLabel={bulk.actionLabel ?? bulkLabel}
          rowLabel={bulk.rowLabel ?? bulkRowLabel}
          isDanger={bulk.isDanger ?? bulkDanger}
          onConfirm={bulk.onBulkConfirm}
          onCancel={bulk.onBulkCancel}
          onStop={bulk.onBulkStop}
          onRetry={bulk.onBulkRetry}
          onDismiss={bulk.onBulkDismiss}
        />
      )}
      {children}
    </Stack>
  );
}
