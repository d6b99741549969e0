/*
 * The user list reads the table selectors (src/machines/table); re-exported here so the page
 * imports its list from one place.
 */
export {
  selectBulkReport,
  selectBulkRunning,
  selectBulkToConfirm,
  selectPageRows,
  selectPendingRowAction,
  selectSelectedIds,
} from '../table';
