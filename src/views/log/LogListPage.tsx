import { useMemo } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { QuotaDisplay } from '../../domain/format';
import type { Log } from '../../domain/log';
import { logFormOf, logParamsOf } from '../../domain/logQuery';
import { logQuerySchema, selectIsExporting, selectIsStatLoading, selectStatQuotaFor } from '../../machines/logList';
import { logListPageMachine, selectIsAdminScope, selectOpenedAt, selectScope } from '../../machines/logListPage';
import { selectParams, type TableMachine, type TableRow } from '../../machines/table';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { useAddressBar, useInitialQuery, useTableState } from '../table/useTable';
import { LogListPageView } from './LogListPageView';

/**
 * Route page for /log (logListPage machine): the log table (filters as its server parameters,
 * kept in the address), the title's consumed-quota stat and the CSV export, all for the caller's
 * scope: admins list every user's logs (`/api/log/`), everyone else their own (`/api/log/self/`).
 * The scope follows the session; the children are there from the first snapshot.
 */
export function LogListPage({ quotaDisplay }: { readonly quotaDisplay: QuotaDisplay }) {
  const session = SessionContext.useActorRef();
  const initial = useInitialQuery(logQuerySchema);
  const page = useMachineActor(logListPageMachine, { session, query: initial });
  const tableRef = useSelector(page, (s) => s.children.logTable)!;
  const statRef = useSelector(page, (s) => s.children.logStat)!;
  const exportRef = useSelector(page, (s) => s.children.logExport)!;
  useAddressBar(page, tableRef, logQuerySchema, initial);
  const admin = useSelector(page, selectIsAdminScope);
  const scope = useSelector(page, selectScope);
  const openedAt = useSelector(page, selectOpenedAt);
  const table = useTableState<Log>(tableRef);
  const params = useSelector(tableRef as unknown as ActorRefFrom<TableMachine<TableRow>>, selectParams);
  // the stat shows only when it answers the list's current filters
  const selectShownStat = useMemo(() => selectStatQuotaFor(params), [params]);
  const statQuota = useSelector(statRef, selectShownStat);
  const statLoading = useSelector(statRef, selectIsStatLoading);
  const exporting = useSelector(exportRef, selectIsExporting);
  // the form's default end is one hour after the page opened (spec §9)
  const form = useMemo(() => logFormOf(params, openedAt), [params, openedAt]);
  return (
    <LogListPageView
      table={table}
      admin={admin}
      quotaDisplay={quotaDisplay}
      form={form}
      formKey={`${openedAt}:${JSON.stringify(params)}`}
      statQuota={statQuota}
      statLoading={statLoading}
      exporting={exporting}
      onApply={(values) => tableRef.send({ type: 'params.set', params: logParamsOf(values, scope) })}
      onReload={() => tableRef.send({ type: 'rows.reload' })}
      onSort={(key) => tableRef.send({ type: 'sort.toggle', key })}
      onPage={(p) => tableRef.send({ type: 'page.go', page: p })}
      onSize={(size) => tableRef.send({ type: 'page.size', size })}
      onRetry={() => tableRef.send({ type: 'load.retry' })}
      onStat={() => statRef.send({ type: 'stat.load', params })}
      onExport={() => exportRef.send({ type: 'export.request', params })}
    />
  );
}
