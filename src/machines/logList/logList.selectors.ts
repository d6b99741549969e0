import type { SnapshotFrom } from 'xstate';
import { sameParams } from '../../domain/tableQuery';
import type { logExportMachine, logStatMachine } from './logList.machine';

/*
 * The list itself reads the table selectors (src/machines/table, `selectParams` for the
 * filters). These are the title stat's and the export's.
 */
type StatSnapshot = SnapshotFrom<typeof logStatMachine>;
type ExportSnapshot = SnapshotFrom<typeof logExportMachine>;

/** The stat is being loaded. */
export const selectIsStatLoading = (s: StatSnapshot): boolean => s.hasTag('busy');
/** The loaded consumed quota, or null (not asked yet, loading or failed). */
export const selectStatQuota = (s: StatSnapshot): number | null => (s.matches('ready') ? s.context.quota : null);
/** The filters the loaded (or loading) stat answers. */
export const selectStatParams = (s: StatSnapshot): Readonly<Record<string, string>> => s.context.params;
/** The consumed quota for these filters, or null when it was loaded for others (or not at all). */
export const selectStatQuotaFor =
  (params: Readonly<Record<string, string>>) =>
  (s: StatSnapshot): number | null =>
    sameParams(s.context.params, params) ? selectStatQuota(s) : null;

/** An export is running. */
export const selectIsExporting = (s: ExportSnapshot): boolean => s.hasTag('busy');
