import { msg } from '../../domain/message';
import { tokenOrderOptions } from '../../domain/paging';
import { pageSizeOptions, type TableQuerySchema } from '../../domain/tableQuery';
import type { Token } from '../../domain/token';
import { createKeyCopyMachine } from '../keyCopy';
import { createTableMachine } from '../table';

/**
 * The token list (/token): one instance of the table machine. Plain pages come from
 * `GET /api/token/?p=&order=` (the sort dropdown is the server `order`: default, remaining
 * quota, used quota), the search by name from `GET /api/token/search`; header sorting and the
 * status filter are client-side. A toggle's answer replaces the row; a deleted token leaves it.
 */
export const tokenTableMachine = createTableMachine<Token>({ id: 'tokenTable' });

/** The client-side filter of the list (status dropdown). */
export const tokenFilterKeys = { status: 'status' } as const;

/** What the address bar may carry for this list. */
export const tokenQuerySchema: TableQuerySchema = {
  sortKeys: ['name', 'status', 'used_quota', 'remain_quota', 'created_time', 'expired_time'],
  orders: tokenOrderOptions.map((o) => o.value),
  filterKeys: [tokenFilterKeys.status],
  sizes: pageSizeOptions,
};

/** Row and bulk actions (`row.action` / `bulk.request`), mapped to API calls at the composition root. */
export const tokenActions = {
  /** Enabled → disabled, any other status → enabled (spec §4). */
  toggle: 'toggle',
  enable: 'enable',
  disable: 'disable',
  delete: 'delete',
  /**
   * Calls the relay with the token's own key (a model list, then one short chat completion); the
   * row is busy meanwhile, the toast says the model, seconds and reply, or the relay's refusal.
   */
  test: 'test',
} as const;
export type TokenAction = (typeof tokenActions)[keyof typeof tokenActions];

/** The bulk actions over selected tokens. */
export const tokenBulkActions = ['enable', 'disable', 'delete'] as const;
export type TokenBulkAction = (typeof tokenBulkActions)[number];

/**
 * Copies a token key (`sk-<key>`) or a chat client link made from it. The toast never shows the
 * key; when the clipboard refuses, the spec's warning and the text goes into the search box.
 */
export const tokenKeyCopyMachine = createKeyCopyMachine({
  id: 'tokenKeyCopy',
  copied: msg('tokens.copied'),
  copyFailed: msg('tokens.copyFailed'),
});
