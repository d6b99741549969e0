import { useSelector } from '@xstate/react';
import { copyText } from '../../domain/chatLinks';
import type { QuotaDisplay } from '../../domain/format';
import type { Token } from '../../domain/token';
import { selectIsCopying, tokenActions, tokenQuerySchema } from '../../machines/tokenList';
import { tokenListPageMachine } from '../../machines/tokenListPage';
import { useListPageActor, useTableState } from '../table/useTable';
import { TokenListPageView } from './TokenListPageView';

export interface TokenListPageProps {
  readonly quotaDisplay: QuotaDisplay;
  /** Where chat clients reach the gateway (status.server_address, else the page origin). */
  readonly serverAddress: string;
  /** The configured ChatLink ('' when unset). */
  readonly chatLink: string;
}

/**
 * Route page for /token: the page actor (src/machines/tokenListPage) with its token table
 * (address bar in sync: search, order, sort, filter, page) and key copier. A copy sends the
 * chosen format's text (`sk-<key>` or a chat client link) to the copier; when the clipboard
 * refuses, the page machine puts the text into the search box. Delete asks for a confirmation
 * first; 'test' calls the relay with the row's key.
 */
export function TokenListPage({ quotaDisplay, serverAddress, chatLink }: TokenListPageProps) {
  const { pageRef, tableRef } = useListPageActor<Token>(tokenListPageMachine, tokenQuerySchema);
  const copyRef = useSelector(pageRef, (s) => s.children.keyCopy)!;
  const table = useTableState(tableRef);
  const copying = useSelector(copyRef, selectIsCopying);
  const send = tableRef.send;
  return (
    <TokenListPageView
      table={table}
      quotaDisplay={quotaDisplay}
      serverAddress={serverAddress}
      chatLink={chatLink}
      copying={copying}
      onDraft={(text) => send({ type: 'search.input', text })}
      onSearch={() => send({ type: 'search.submit' })}
      onClearSearch={() => send({ type: 'search.clear' })}
      onSort={(key) => send({ type: 'sort.toggle', key })}
      onOrder={(order) => send({ type: 'order.change', order })}
      onPage={(page) => send({ type: 'page.go', page })}
      onSize={(size) => send({ type: 'page.size', size })}
      onStatusFilter={(value) => send({ type: 'filter.change', key: 'status', value })}
      onRetry={() => send({ type: 'load.retry' })}
      onReload={() => send({ type: 'rows.reload' })}
      onToggleRow={(id) => send({ type: 'row.select', id })}
      onTogglePage={() => send({ type: 'selection.page' })}
      onSelectAllMatching={() => send({ type: 'selection.allMatching' })}
      onClearSelection={() => send({ type: 'selection.clear' })}
      onCopy={(row, format) => copyRef.send({ type: 'copy.request', text: copyText(format, { key: row.key, serverAddress, chatLink }) })}
      onToggleStatus={(id) => send({ type: 'row.action', id, action: tokenActions.toggle })}
      onTest={(id) => send({ type: 'row.action', id, action: tokenActions.test })}
      onDelete={(id) => send({ type: 'row.action', id, action: tokenActions.delete, confirm: true })}
      onConfirm={() => send({ type: 'confirm.accept' })}
      onCancel={() => send({ type: 'confirm.cancel' })}
      onBulk={(action) => send({ type: 'bulk.request', action })}
      onBulkConfirm={() => send({ type: 'confirm.accept' })}
      onBulkCancel={() => send({ type: 'confirm.cancel' })}
      onBulkStop={() => send({ type: 'bulk.cancel' })}
      onBulkRetry={() => send({ type: 'bulk.retry' })}
      onBulkDismiss={() => send({ type: 'report.dismiss' })}
    />
  );
}
