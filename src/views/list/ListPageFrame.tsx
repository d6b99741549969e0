import { memo, type ReactNode } from 'react';
import { Button, Flex, Heading, Stack } from '@chakra-ui/react';
import { RouterLink } from '../app/RouterLink';
import type { TableRow } from '../../machines/table';
import { useT } from '../app/i18n';
import { DataTableView, type Column, type DataTableSelection } from '../table/DataTableView';
import { PagerView } from '../table/PagerView';
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

export interface ListPageFrameProps<Row extends TableRow> {
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
  /** Above the table, under `aboveTable` (the selection bar). */
  readonly selectionBar?: ReactNode;
  /** The table's checkbox column. */
  readonly rowSelection?: DataTableSelection<Row>;
  /** After the pager, before `children` (the row confirmation and the bulk dialogs). */
  readonly dialogs?: ReactNode;
  /** Shown when there is no row (default: "no data", or "nothing matches" for a search). */
  readonly emptyText?: string;
  /** More dialogs of the page. */
  readonly children?: ReactNode;
}

/**
 * The frame of every list page (spec §2): heading, toolbar (search, the list's selects, add,
 * refresh), the table (skeleton while the first page loads, error with retry, empty text; on
 * screens narrower than `md` each row is a card) and the pager (hidden after a failed load). While the table is not idle (a bulk run, a
 * confirmation, a load) its controls are inert; the search stays usable after a failed load.
 * Lists without selection (logs) use it alone, so their page loads no dialog code;
 * `ListPageLayout` adds the selection bar, the row confirmation and the bulk dialogs.
 */
export function ListPageFrame<Row extends TableRow>({
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
  selectionBar,
  rowSelection,
  dialogs,
  emptyText,
  children,
}: ListPageFrameProps<Row>) {
  const t = useT();
  const inert = !table.idle;

  return (
    <Stack gap={4} px={{ base: 0, md: 4 }} py={{ base: 2, md: 4 }} maxW="full" minW={0}>
      <ListPageTop
        title={title}
        titleAside={titleAside}
        banner={banner}
        draft={table.draft}
        keyword={table.keyword}
        searchLabel={search?.label}
        onDraft={search?.onDraft}
        onSearch={search?.onSearch}
        onClearSearch={search?.onClearSearch}
        searchDisabled={inert && !table.loadFailed}
        toolbar={toolbar}
        toolbarLabel={toolbarLabel}
        addTo={add?.to}
        addLabel={add?.label}
        onRefresh={onRefresh}
        inert={inert}
      />
      {filters}
      {aboveTable}
      {selectionBar}
      <DataTableView<Row>
        caption={title}
        columns={columns}
        rows={table.rows}
        sort={table.sort}
        onSort={on.onSort}
        selection={rowSelection}
        busy={table.busy}
        firstLoad={table.firstLoad}
        loadFailed={table.loadFailed}
        onRetry={on.onRetry}
        emptyText={emptyText ?? t(table.keyword !== '' ? 'table.emptySearch' : 'table.empty')}
        disabled={inert}
        cards
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
      {dialogs}
      {children}
    </Stack>
  );
}

interface ListPageTopProps {
  readonly title: string;
  readonly titleAside: ReactNode;
  readonly banner: ReactNode;
  readonly draft: string;
  readonly keyword: string;
  /** The search box's label (no search box without it). */
  readonly searchLabel: string | undefined;
  readonly onDraft: ((text: string) => void) | undefined;
  readonly onSearch: (() => void) | undefined;
  readonly onClearSearch: (() => void) | undefined;
  readonly searchDisabled: boolean;
  readonly toolbar: ReactNode;
  readonly toolbarLabel: string | undefined;
  readonly addTo: string | undefined;
  readonly addLabel: string | undefined;
  readonly onRefresh: (() => void) | undefined;
  readonly inert: boolean;
}

/**
 * The heading and the toolbar (memoized on plain props: a new page, a sort or a selection does
 * not draw them again when the list keeps its toolbar element and callbacks stable).
 */
const ListPageTop = memo(function ListPageTop({
  title,
  titleAside,
  banner,
  draft,
  keyword,
  searchLabel,
  onDraft,
  onSearch,
  onClearSearch,
  searchDisabled,
  toolbar,
  toolbarLabel,
  addTo,
  addLabel,
  onRefresh,
  inert,
}: ListPageTopProps) {
  const t = useT();
  const heading = (
    <Heading as="h1" size="xl">
      {title}
    </Heading>
  );
  const search = searchLabel !== undefined && onDraft !== undefined && onSearch !== undefined && onClearSearch !== undefined;
  const hasToolbar = search || toolbar !== undefined || addTo !== undefined || onRefresh !== undefined;
  return (
    <>
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
              draft={draft}
              keyword={keyword}
              label={searchLabel}
              disabled={searchDisabled}
              onDraft={onDraft}
              onSubmit={onSearch}
              onClear={onClearSearch}
            />
          )}
          {toolbar}
          {addTo !== undefined && (
            <Button colorPalette="blue" asChild>
              <RouterLink to={addTo}>{addLabel}</RouterLink>
            </Button>
          )}
          {onRefresh && (
            <Button variant="outline" disabled={inert} onClick={onRefresh}>
              {t('table.refresh')}
            </Button>
          )}
        </Flex>
      )}
    </>
  );
});
