import type { TableEvent, TableRow } from '../../machines/table';
import type { ListBulk, ListConfirm, ListSearch, ListSelection, ListTableHandlers } from './ListPageLayout';

/** Every handler of a list layout, each sending its table event. */
export type TableHandlers = ListTableHandlers &
  Omit<ListSearch, 'label'> &
  Omit<ListSelection<never>, 'rowName'> &
  Omit<ListConfirm<never>, 'body' | 'title' | 'confirmLabel'> &
  Omit<ListBulk<string>, 'actions' | 'extra' | 'actionLabel' | 'rowLabel' | 'isDanger'> & {
    /** Reload the loaded pages. */
    readonly onRefresh: () => void;
  };

/**
 * The layout's handlers for a view that sends table events itself (`onTable(event)`): each maps
 * to the generic table machine's event (a confirmation, row or bulk, is accepted by one event).
 */
export function tableHandlers<Row extends TableRow>(send: (event: TableEvent<Row>) => void): TableHandlers {
  return {
    onSort: (key) => send({ type: 'sort.toggle', key }),
    onPage: (page) => send({ type: 'page.go', page }),
    onSize: (size) => send({ type: 'page.size', size }),
    onRetry: () => send({ type: 'load.retry' }),
    onRefresh: () => send({ type: 'rows.reload' }),
    onDraft: (text) => send({ type: 'search.input', text }),
    onSearch: () => send({ type: 'search.submit' }),
    onClearSearch: () => send({ type: 'search.clear' }),
    onToggleRow: (id) => send({ type: 'row.select', id }),
    onTogglePage: () => send({ type: 'selection.page' }),
    onSelectAllMatching: () => send({ type: 'selection.allMatching' }),
    onClearSelection: () => send({ type: 'selection.clear' }),
    onConfirm: () => send({ type: 'confirm.accept' }),
    onCancel: () => send({ type: 'confirm.cancel' }),
    onBulk: (action) => send({ type: 'bulk.request', action }),
    onBulkConfirm: () => send({ type: 'confirm.accept' }),
    onBulkCancel: () => send({ type: 'confirm.cancel' }),
    onBulkStop: () => send({ type: 'bulk.cancel' }),
    onBulkRetry: () => send({ type: 'bulk.retry' }),
    onBulkDismiss: () => send({ type: 'report.dismiss' }),
  };
}
