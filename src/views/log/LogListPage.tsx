import { useMemo, useState } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { QuotaDisplay } from '../../domain/format';
import type { Log } from '../../domain/log';
import { logFormOf, logParamsOf, logScopeParam, type LogScope } from '../../domain/logQuery';
import { sameParams } from '../../domain/tableQuery';
import {
  logExportMachine,
  logQuerySchema,
  logStatMachine,
  logTableMachine,
  selectIsExporting,
  selectIsStatLoading,
  selectStatParams,
  selectStatQuota,
} from '../../machines/logList';
import { selectParams, type TableMachine, type TableRow } from '../../machines/table';
import { useMachineActor } from '../app/machineRegistry';
import { useTableActor, useTableState } from '../table/useTable';
import { LogListPageView } from './LogListPageView';

/**
 * Route page for /log: the log table (filters as its server parameters, kept in the address),
 * the title's consumed-quota stat and the CSV export, all for the caller's scope: admins list
 * every user's logs (`/api/log/`), everyone else their own (`/api/log/self/`).
 */
export function LogListPage({ quotaDisplay, admin }: { readonly quotaDisplay: QuotaDisplay; readonly admin: boolean }) {
  const scope: LogScope = admin ? 'admin' : 'self';
  const base = useMemo(() => ({ [logScopeParam]: scope }), [scope]);
  const tableRef = useTableActor<Log>(logTableMachine, logQuerySchema, base);
  const statRef = useMachineActor(logStatMachine, { scope });
  const exportRef = useMachineActor(logExportMachine, { scope });
  const table = useTableState(tableRef);
  const params = useSelector(tableRef as unknown as ActorRefFrom<TableMachine<TableRow>>, selectParams);
  const statParams = useSelector(statRef, selectStatParams);
  const statQuota = useSelector(statRef, selectStatQuota);
  const statLoading = useSelector(statRef, selectIsStatLoading);
  const exporting = useSelector(exportRef, selectIsExporting);
  // the form's default end is one hour after the page opened (spec §9)
  const [openedAt] = useState(() => Math.floor(Date.now() / 1000));
  const form = useMemo(() => logFormOf(params, openedAt), [params, openedAt]);
  const send = tableRef.send;
  return (
    <LogListPageView
      table={table}
      admin={admin}
      quotaDisplay={quotaDisplay}
      form={form}
      formKey={JSON.stringify(params)}
      statQuota={sameParams(statParams, params) ? statQuota : null}
      statLoading={statLoading}
      exporting={exporting}
      onApply={(values) => send({ type: 'params.set', params: logParamsOf(values, scope) })}
      onReload={() => send({ type: 'rows.reload' })}
      onSort={(key) => send({ type: 'sort.toggle', key })}
      onPage={(page) => send({ type: 'page.go', page })}
      onSize={(size) => send({ type: 'page.size', size })}
      onRetry={() => send({ type: 'load.retry' })}
      onStat={() => statRef.send({ type: 'stat.load', params })}
      onExport={() => exportRef.send({ type: 'export.request', params })}
    />
  );
}
