import { useCallback, type ReactNode } from 'react';
import { Button } from '@chakra-ui/react';
import type { MessageKey } from '../../i18n';
import type { BulkRun, TableRow } from '../../machines/table';
import { useT } from '../app/i18n';
import { BulkDialogsView } from '../table/BulkDialogsView';
import { ConfirmDialogView } from '../table/ConfirmDialogView';
import { SelectionBarView } from '../table/SelectionBarView';
import { ListPageFrame, type ListPageFrameProps } from './ListPageFrame';

export type { ListSearch, ListTableHandlers } from './ListPageFrame';

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

export interface ListPageLayoutProps<Row extends TableRow, A extends string = string>
  extends Omit<ListPageFrameProps<Row>, 'selectionBar' | 'rowSelection' | 'dialogs'> {
  readonly selection?: ListSelection<Row>;
  readonly bulk?: ListBulk<A>;
  readonly confirm?: ListConfirm<Row>;
}

/**
 * A list page with selectable rows (spec §2): the frame (`ListPageFrame`) plus the selection bar
 * with the bulk actions, the checkbox column, the row confirmation and the bulk dialogs.
 */
export function ListPageLayout<Row extends TableRow, A extends string = string>({ selection, bulk, confirm, ...frame }: ListPageLayoutProps<Row, A>) {
  const t = useT();
  const { table } = frame;
  const inert = !table.idle;
  const rowName = selection?.rowName;
  // one function while the language and the list's naming stay: the rows keep their memo
  const rowLabel = useCallback((row: Row) => t('table.select.row', { name: rowName?.(row) ?? '' }), [t, rowName]);
  const rowById = (id: number): Row | undefined => table.rows.find((r) => r.id === id);
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
    <ListPageFrame<Row>
      {...frame}
      selectionBar={
        selection && (
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
        )
      }
      rowSelection={
        selection && {
          selected: table.selected,
          pageSelected: table.pageSelected,
          onToggleRow: selection.onToggleRow,
          onTogglePage: selection.onTogglePage,
          rowLabel,
        }
      }
      dialogs={
        <>
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
        </>
      }
    />
  );
}
