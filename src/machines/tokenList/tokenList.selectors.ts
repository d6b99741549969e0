/*
 * The token list reads the table selectors (src/machines/table) and the key copier's
 * (src/machines/keyCopy); re-exported here so the page imports its list from one place.
 */
export { selectIsCopying } from '../keyCopy';
export {
  selectBulkReport,
  selectBulkRunning,
  selectBulkToConfirm,
  selectPageRows,
  selectPendingRowAction,
  selectSelectedIds,
} from '../table';
