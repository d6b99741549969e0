import { emit, sendTo, setup } from 'xstate';
import type { ChannelRow, ChannelTestRunResult } from '../../domain/channel';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import { channelListActionsMachine, channelTableMachine, type BulkValueChosen, type ChannelsDeleted } from '../channelList';
import { channelTagsMachine, type ChannelsTagEdited } from '../channelTags';
import { channelTestMachine, type ChannelTestResultEvent } from '../channelTest';
import { relayEmitted } from '../pageRelay';
import type { QueryChanged, TableInput } from '../table';

/** The children's facts, relayed to the page. */
export type ChannelListPageEvent =
  | NotifyEvent
  | NavigateEvent
  | QueryChanged
  | ChannelTestResultEvent
  | ChannelsDeleted
  | BulkValueChosen
  | ChannelsTagEdited;

/** What the page emits for the shell: toasts, navigation, and the query for the address bar. */
export type ChannelListPageEmitted = NotifyEvent | NavigateEvent | QueryChanged;

/** The children of the page, by invoke id (each also the child's system id). */
export const channelListPageChildren = { table: 'table', actions: 'channelListActions', test: 'channelTest', tags: 'channelTags' } as const;

/**
 * What a live test result changes on its row (the rest of the row is the server's as listed): the
 * stored fields, and the result itself as `last_test` (a batch run stores the elapsed time even
 * when the test failed, so only the result tells a failure apart).
 */
export const testResultPatch = (result: ChannelTestRunResult): Partial<ChannelRow> => ({
  status: result.status,
  response_time: result.response_time,
  test_time: result.test_time,
  last_test: {
    success: result.success,
    message: result.message,
    response_time: result.success ? result.response_time : 0,
    test_time: result.test_time,
  },
});

/**
 * The admin channel list (/channel): invokes the channel table (`table`, started from the address
 * bar's view), the list's own workflows (`channelListActions`: detail mode, notice, delete
 * disabled, bulk values), the live channel tests (`channelTest`) and the channel tags (`channelTags`:
 * the tag list for the filter, the edit by tag), and routes their facts:
 * - a live `test.result` patches its row (status, response and test time);
 * - `channels.deleted` (the disabled channels are gone) and `channels.tagEdited` (the channels of a
 *   tag were changed) reload the table; `channels.deleted` also reads the tag counts again;
 * - `bulk.valueChosen` becomes the table's `bulk.request` {action, value} (the table confirms);
 * - the children's toasts and navigation and the table's `query.changed` leave the page as its own
 *   emitted events; `query.changed` (the table settled after a load, or its view changed) also
 *   reads the tag counts again, so the tag filter's counts are those of the rows it shows.
 * The view reads the children (`snapshot.children.table`, …) and sends the person's intents to them.
 */
export const channelListPageMachine = setup({
  types: {
    context: {} as { readonly tableInput: TableInput },
    input: {} as TableInput,
    events: {} as ChannelListPageEvent,
    emitted: {} as ChannelListPageEmitted,
    children: {} as {
      table: 'table';
      channelListActions: 'channelListActions';
      channelTest: 'channelTest';
      channelTags: 'channelTags';
      relayEmitted: 'relayEmitted';
    },
  },
  actors: {
    table: channelTableMachine,
    channelListActions: channelListActionsMachine,
    channelTest: channelTestMachine,
    channelTags: channelTagsMachine,
    relayEmitted,
  },
  actions: {
    patchRow: sendTo(channelListPageChildren.table, (_, params: { result: ChannelTestRunResult }) => ({
      type: 'row.patch' as const,
      id: params.result.channel_id,
      patch: testResultPatch(params.result),
    })),
    reloadRows: sendTo(channelListPageChildren.table, { type: 'rows.reload' as const }),
    reloadTags: sendTo(channelListPageChildren.tags, { type: 'tags.reload' as const }),
    requestBulk: sendTo(channelListPageChildren.table, (_, params: { action: BulkValueChosen['action']; value: string }) => ({
      type: 'bulk.request' as const,
      action: params.action,
      value: params.value,
    })),
    notify: emit((_, params: NotifyEvent) => params),
    navigate: emit((_, params: NavigateEvent) => params),
    writeQuery: emit((_, params: QueryChanged) => params),
  },
}).createMachine({
  id: 'channelListPage',
  // the table's start (the address bar's view), kept for the invoke
  context: ({ input }) => ({ tableInput: input }),
  initial: 'active',
  states: {
    active: {
      invoke: [
        { id: 'table', src: 'table', systemId: channelListPageChildren.table, input: ({ context }) => context.tableInput },
        { id: 'channelListActions', src: 'channelListActions', systemId: channelListPageChildren.actions },
        { id: 'channelTest', src: 'channelTest', systemId: channelListPageChildren.test },
        { id: 'channelTags', src: 'channelTags', systemId: channelListPageChildren.tags },
        {
          id: 'relayEmitted',
          src: 'relayEmitted',
          input: {
            systemIds: [channelListPageChildren.table, channelListPageChildren.actions, channelListPageChildren.test, channelListPageChildren.tags],
          },
        },
      ],
      on: {
        'test.result': { actions: { type: 'patchRow', params: ({ event }) => ({ result: event.result }) } },
        'channels.deleted': { actions: ['reloadRows', 'reloadTags'] },
        'channels.tagEdited': { actions: 'reloadRows' },
        'bulk.valueChosen': { actions: { type: 'requestBulk', params: ({ event }) => ({ action: event.action, value: event.value }) } },
        notify: { actions: { type: 'notify', params: ({ event }) => event } },
        navigate: { actions: { type: 'navigate', params: ({ event }) => event } },
        // the table settled or its view changed: the tag counts are read again with its rows, so
        // the filter's count agrees with the channels the filter shows
        'query.changed': { actions: [{ type: 'writeQuery', params: ({ event }) => event }, 'reloadTags'] },
      },
    },
  },
});

export type ChannelListPageMachine = typeof channelListPageMachine;
