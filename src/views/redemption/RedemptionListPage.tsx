import { useSelector } from '@xstate/react';
import type { QuotaDisplay } from '../../domain/format';
import type { Redemption } from '../../domain/redemption';
import { redemptionActions, redemptionQuerySchema, selectIsCopying } from '../../machines/redemptionList';
import { redemptionListPageMachine } from '../../machines/redemptionListPage';
import { useListPageActor, useTableState } from '../table/useTable';
import { RedemptionListPageView } from './RedemptionListPageView';

/**
 * Route page for /redemption (admin): the page actor (src/machines/redemptionListPage) with its
 * code table (address bar in sync) and key copier; when the clipboard refuses a key, the page
 * machine puts it into the search box.
 */
export function RedemptionListPage({ quotaDisplay }: { readonly quotaDisplay: QuotaDisplay }) {
  const { pageRef, tableRef } = useListPageActor<Redemption>(redemptionListPageMachine, redemptionQuerySchema);
  const copyRef = useSelector(pageRef, (s) => s.children.keyCopy)!;
  const table = useTableState(tableRef);
  const copying = useSelector(copyRef, selectIsCopying);
  const send = tableRef.send;
  return (
    <RedemptionListPageView
      table={table}
      quotaDisplay={quotaDisplay}
      copying={copying}
      onDraft={(text) => send({ type: 'search.input', text })}
      onSearch={() => send({ type: 'search.submit' })}
      onClearSearch={() => send({ type: 'search.clear' })}
      onSort={(key) => send({ type: 'sort.toggle', key })}
      onPage={(page) => send({ type: 'page.go', page })}
      onSize={(size) => send({ type: 'page.size', size })}
      onStatusFilter={(value) => send({ type: 'filter.change', key: 'status', value })}
      onRetry={() => send({ type: 'load.retry' })}
      onReload={() => send({ type: 'rows.reload' })}
      onToggleRow={(id) => send({ type: 'row.select', id })}
      onTogglePage={() => send({ type: 'selection.page' })}
      onSelectAllMatching={() => send({ type: 'selection.allMatching' })}
      onClearSelection={() => send({ type: 'selection.clear' })}
      onCopyKey={(row) => copyRef.send({ type: 'copy.request', text: row.key })}
      onToggleStatus={(id) => send({ type: 'row.action', id, action: redemptionActions.toggle })}
      onDelete={(id) => send({ type: 'row.action', id, action: redemptionActions.delete, confirm: true })}
      onConfirm={() => send({ type: 'confirm.accept' })}
      onCancel={() => send({ type: 'confirm.cancel' })}
      onBulk={(action) => send({ type: 'bulk.request', action })}
      onExport={(format) => send({ type: 'selection.export', format })}
      onBulkConfirm={() => send({ type: 'confirm.accept' })}
      onBulkCancel={() => send({ type: 'confirm.cancel' })}
      onBulkStop={() => send({ type: 'bulk.cancel' })}
      onBulkRetry={() => send({ type: 'bulk.retry' })}
      onBulkDismiss={() => send({ type: 'report.dismiss' })}
    />
  );
}
