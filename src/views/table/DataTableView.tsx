import type { ReactNode } from 'react';
import { Alert, Box, Button, Checkbox, Flex, Skeleton, Spinner, Stack, Table, Text, VisuallyHidden } from '@chakra-ui/react';
import type { SortState } from '../../domain/paging';
import { useT } from '../app/i18n';

/** One column of a list: a header, how a cell renders, and whether a header click sorts by `key`. */
export interface Column<Row> {
  /** The row field the column sorts by (and its React key). */
  readonly key: string;
  readonly header: string;
  readonly sortable?: boolean;
  readonly render: (row: Row) => ReactNode;
  /** Narrow numeric columns align right. */
  readonly numeric?: boolean;
  readonly minW?: string;
}

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
}

const skeletonRows = [0, 1, 2, 3, 4];

/**
 * The table every list uses: sortable headers (click again to reverse; `aria-sort` tells screen
 * readers), an optional selection column, a busy marker per row, skeleton rows while the first
 * page loads, an error with retry, and an empty text. Wide tables scroll sideways on phones.
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
}: DataTableViewProps<Row>) {
  const t = useT();
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
  const colSpan = columns.length + (selection ? 1 : 0);
  return (
    <Box overflowX="auto" borderWidth="1px" borderRadius="md" aria-busy={firstLoad}>
      <Table.Root size="sm" striped interactive={!firstLoad} aria-label={caption}>
        <Table.Header>
          <Table.Row>
            {selection && (
              <Table.ColumnHeader w="10">
                <Checkbox.Root
                  size="sm"
                  checked={selection.pageSelected}
                  disabled={disabled || rows.length === 0}
                  onCheckedChange={() => selection.onTogglePage()}
                >
                  <Checkbox.HiddenInput aria-label={t('table.select.page')} />
                  <Checkbox.Control />
                </Checkbox.Root>
              </Table.ColumnHeader>
            )}
            {columns.map((col) => {
              const sorted = sort !== null && sort.key === col.key ? sort.direction : null;
              return (
                <Table.ColumnHeader
                  key={col.key}
                  textAlign={col.numeric ? 'end' : 'start'}
                  minW={col.minW}
                  whiteSpace="nowrap"
                  aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : col.sortable ? 'none' : undefined}
                >
                  {col.sortable ? (
                    <Button
                      variant="ghost"
                      size="xs"
                      px={1}
                      fontWeight="semibold"
                      disabled={disabled}
                      onClick={() => onSort(col.key)}
                      aria-label={t('table.sortBy', { column: col.header })}
                    >
                      {col.header}
                      <Text as="span" aria-hidden color={sorted ? 'fg' : 'fg.subtle'}>
                        {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                      </Text>
                    </Button>
                  ) : (
                    col.header
                  )}
                </Table.ColumnHeader>
              );
            })}
          </Table.Row>
        </Table.Header>
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
            rows.map((row) => {
              const rowBusy = busy[row.id] !== undefined;
              return (
                <Table.Row key={row.id} aria-busy={rowBusy} data-selected={selection?.selected.has(row.id) ? '' : undefined}>
                  {selection && (
                    <Table.Cell>
                      <Flex align="center" gap={1}>
                        <Checkbox.Root
                          size="sm"
                          checked={selection.selected.has(row.id)}
                          disabled={disabled}
                          onCheckedChange={() => selection.onToggleRow(row.id)}
                        >
                          <Checkbox.HiddenInput aria-label={selection.rowLabel(row)} />
                          <Checkbox.Control />
                        </Checkbox.Root>
                        {rowBusy && <BusyMark label={t('table.rowBusy')} />}
                      </Flex>
                    </Table.Cell>
                  )}
                  {columns.map((col, index) => (
                    <Table.Cell key={col.key} textAlign={col.numeric ? 'end' : 'start'} minW={col.minW}>
                      {!selection && index === 0 && rowBusy ? (
                        <Flex align="center" gap={1}>
                          <BusyMark label={t('table.rowBusy')} />
                          {col.render(row)}
                        </Flex>
                      ) : (
                        col.render(row)
                      )}
                    </Table.Cell>
                  ))}
                </Table.Row>
              );
            })
          )}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}

function BusyMark({ label }: { readonly label: string }) {
  return (
    <>
      <Spinner size="xs" aria-hidden />
      <VisuallyHidden>{label}</VisuallyHidden>
    </>
  );
}
