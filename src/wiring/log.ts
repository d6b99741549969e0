import { fromPromise } from 'xstate';
import { createLogApi } from '../api/logApi';
import { apiActors } from '../api/actors/fromApi';
import { downloadBlob } from '../api/actors/browser/downloads';
import { downloadLogs, fetchLogPage, fetchLogStat, logRowsOf, requestLogPage } from '../api/actors/logRows';
import type { Log } from '../domain/log';
import type { Message } from '../domain/message';
import type { ExportRowsInput, FetchPageInput, SearchRowsInput } from '../domain/rowAction';
import type { logExportMachine, logStatMachine, logTableMachine } from '../machines/logList';
import type { logListPageMachine } from '../machines/logListPage';
import { relayChildren } from '../machines/pageRelay/pageRelay';
import { followSession } from '../machines/sessionWatch/sessionWatch';
import { implement, implementArea } from '../views/app/machineRegistry';
import { startWithFirstPage } from './firstPage';
import type { WiringRoot } from './root';

/** The log page: its parent machine, the table, the statistics and the export. */
export const wire = ({ client }: WiringRoot) => {
  const fromApi = apiActors(client, (c) => ({ log: createLogApi(c) }));
  return implementArea('log', [
    implement<typeof logTableMachine, 'logTable'>('logTable', {
      actors: {
        fetchPage: fromApi<readonly Log[], FetchPageInput>((api) => fetchLogPage(api.log)),
        searchRows: fromPromise<readonly Log[], SearchRowsInput>(() => Promise.resolve([])),
        runRowAction: fromPromise(() => Promise.reject(new Error('log rows have no actions'))),
        exportRows: fromPromise<Message | null, ExportRowsInput<Log>>(() => Promise.resolve(null)),
      },
    }, startWithFirstPage<Log>(client, (c, input) => requestLogPage(createLogApi(c))(input), logRowsOf)),
    implement<typeof logListPageMachine>('logListPage', {
      actors: { readClock: fromPromise(() => Promise.resolve(Math.floor(Date.now() / 1000))), followSession, relayChildren },
    }),
    implement<typeof logStatMachine>('logStat', { actors: { fetchLogStat: fromApi((api) => fetchLogStat(api.log)) } }),
    implement<typeof logExportMachine>('logExport', {
      actors: { downloadLogs: fromApi((api) => downloadLogs(api.log, (file) => downloadBlob(file.name, file.blob))) },
    }),
  ]);
};
