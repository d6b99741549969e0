import { emit, sendTo, setup } from 'xstate';
import type { NotifyEvent } from '../../domain/message';
import type { KeyCopyFailed, KeyCopyMachine } from '../keyCopy';
import { relayEmitted } from '../pageRelay';
import type { QueryChanged, TableInput, TableMachine, TableRow } from '../table';

/** What a list page's children tell it (their emitted events, relayed to the page). */
export type ListPageEvent = NotifyEvent | QueryChanged | KeyCopyFailed;

/** What the page emits for the shell: toasts, and the query for the address bar. */
export type ListPageEmitted = NotifyEvent | QueryChanged;

/** The children of a list page, by invoke id (each also the child's system id). */
export const listPageChildren = { table: 'table', keyCopy: 'keyCopy' } as const;

export interface CopyListPageOptions<Row extends TableRow> {
  /** Machine id, also the registry key (`tokenListPage`, `redemptionListPage`). */
  readonly id: string;
  /** The list's table machine (its own id stays its registry key). */
  readonly table: TableMachine<Row>;
  /** The list's key copier. */
  readonly keyCopy: KeyCopyMachine;
}

/**
 * A list page whose rows carry keys to copy (tokens, redemption codes): invokes the list's table
 * and its key copier and routes between them. The copier's `search.fill` (the clipboard refused)
 * becomes the table's `search.input`, so the key lands in the search box (spec §8); the children's
 * toasts and the table's `query.changed` leave the page as its own emitted events. The view reads
 * the children (`snapshot.children.table`, `.keyCopy`) and sends the person's intents to them.
 */
export function createCopyListPageMachine<Row extends TableRow>({ id, table, keyCopy }: CopyListPageOptions<Row>) {
  return setup({
    types: {
      context: {} as { readonly tableInput: TableInput },
      input: {} as TableInput,
      events: {} as ListPageEvent,
      emitted: {} as ListPageEmitted,
      children: {} as { table: 'table'; keyCopy: 'keyCopy'; relayEmitted: 'relayEmitted' },
    },
    actors: { table, keyCopy, relayEmitted },
    actions: {
      fillSearch: sendTo(listPageChildren.table, (_, params: { text: string }) => ({ type: 'search.input' as const, text: params.text })),
      notify: emit((_, params: NotifyEvent) => params),
      writeQuery: emit((_, params: QueryChanged) => params),
    },
  }).createMachine({
    id,
    // the table's start (the address bar's view), kept for the invoke
    context: ({ input }) => ({ tableInput: input }),
    initial: 'active',
    states: {
      active: {
        invoke: [
          { id: 'table', src: 'table', systemId: listPageChildren.table, input: ({ context }) => context.tableInput },
          { id: 'keyCopy', src: 'keyCopy', systemId: listPageChildren.keyCopy },
          {
            id: 'relayEmitted',
            src: 'relayEmitted',
            input: { systemIds: [listPageChildren.table, listPageChildren.keyCopy] },
          },
        ],
        on: {
          'search.fill': { actions: { type: 'fillSearch', params: ({ event }) => ({ text: event.text }) } },
          notify: { actions: { type: 'notify', params: ({ event }) => event } },
          'query.changed': { actions: { type: 'writeQuery', params: ({ event }) => event } },
        },
      },
    },
  });
}

export type CopyListPageMachine<Row extends TableRow = TableRow> = ReturnType<typeof createCopyListPageMachine<Row>>;
