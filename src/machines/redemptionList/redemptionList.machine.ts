import { assign, emit, fromPromise, setup } from 'xstate';
import { msg, notify, type NotifyEvent } from '../../domain/message';
import type { Redemption } from '../../domain/redemption';
import { pageSizeOptions, type TableQuerySchema } from '../../domain/tableQuery';
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

/** Emitted when the clipboard refused: the page puts the key into the list's search box. */
export interface KeyCopyFailed {
  readonly type: 'search.fill';
  readonly text: string;
}

export type RedemptionKeyCopyEmitted = NotifyEvent | KeyCopyFailed;

export type RedemptionKeyCopyEvent = { readonly type: 'copy.request'; readonly text: string };

/**
 * Copies a code's key (`copyText`). Success says '已复制到剪贴板！'; a refusal says the spec §8
 * warning (please copy manually, the code is in the search box) and emits `search.fill` with
 * the key, which the list page turns into the table's `search.input`. A new request while one
 * runs replaces it.
 */
export const redemptionKeyCopyMachine = setup({
  types: {
    context: {} as { readonly text: string },
    events: {} as RedemptionKeyCopyEvent,
    emitted: {} as RedemptionKeyCopyEmitted,
    tags: {} as 'busy',
  },
  actors: {
    copyText: fromPromise<void, { readonly text: string }>(() => {
      throw new Error('copyText not provided');
    }),
  },
  actions: {
    setText: assign({ text: (_, params: { text: string }) => params.text }),
    notifyCopied: emit(() => notify('success', msg('redemptions.copied'))),
    notifyCopyFailed: emit(() => notify('warning', msg('redemptions.copyFailed'))),
    fillSearch: emit(({ context }): KeyCopyFailed => ({ type: 'search.fill', text: context.text })),
  },
}).createMachine({
  id: 'redemptionKeyCopy',
  context: { text: '' },
  initial: 'idle',
  on: {
    'copy.request': {
      target: '.copying',
      reenter: true,
      actions: { type: 'setText', params: ({ event }) => ({ text: event.text }) },
    },
  },
  states: {
    idle: {},
    copying: {
      tags: ['busy'],
      invoke: {
        id: 'copyText',
        src: 'copyText',
        input: ({ context }) => ({ text: context.text }),
        onDone: { target: 'idle', actions: 'notifyCopied' },
        onError: { target: 'idle', actions: ['notifyCopyFailed', 'fillSearch'] },
      },
    },
  },
});
