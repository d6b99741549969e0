import { msg } from '../../domain/message';
import type { Redemption } from '../../domain/redemption';
import { pageSizeOptions, type TableQuerySchema } from '../../domain/tableQuery';
import { createKeyCopyMachine, type KeyCopyEmitted, type KeyCopyEvent } from '../keyCopy';
import { createTableMachine } from '../table';

/**
 * The redemption list (/redemption): one instance of the table machine. Search is by id and
 * name (the server's search), header sorting and the status filter are client-side.
 */
export const redemptionTableMachine = createTableMachine<Redemption>({ id: 'redemptionTable' });

/** What the address bar may carry for this list. */
export const redemptionQuerySchema: TableQuerySchema = {
  sortKeys: ['id', 'name', 'status', 'quota', 'created_time', 'redeemed_time'],
  orders: [],
  filterKeys: ['status'],
  sizes: pageSizeOptions,
};

/** Row and bulk actions (`row.action` / `bulk.request`), mapped to API calls at the composition root. */
export const redemptionActions = {
  /** Unused ↔ disabled (a used code cannot be toggled). */
  toggle: 'toggle',
  enable: 'enable',
  disable: 'disable',
  delete: 'delete',
} as const;
export type RedemptionAction = (typeof redemptionActions)[keyof typeof redemptionActions];

/** `selection.export` formats: the selected keys, one per line, to the clipboard or a file. */
export const redemptionExportFormats = { copy: 'copy', download: 'download' } as const;

// ---------------------------------------------------------------------------------------------
// Copying one key

export type { KeyCopyFailed } from '../keyCopy';
export type RedemptionKeyCopyEmitted = KeyCopyEmitted;
export type RedemptionKeyCopyEvent = KeyCopyEvent;

/**
 * Copies a code's key (`copyText`). Success says '已复制到剪贴板！'; a refusal says the spec §8
 * warning (please copy manually, the code is in the search box) and emits `search.fill` with
 * the key, which the list page turns into the table's `search.input`. A new request while one
 * runs replaces it. The key copier shared with the token list (src/machines/keyCopy).
 */
export const redemptionKeyCopyMachine = createKeyCopyMachine({
  id: 'redemptionKeyCopy',
  copied: msg('redemptions.copied'),
  copyFailed: msg('redemptions.copyFailed'),
});
