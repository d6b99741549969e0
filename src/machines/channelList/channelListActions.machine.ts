import { assign, emit, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import { msg, notify, type Message, type NotifyEvent } from '../../domain/message';
import { parseInlineNumber, type ChannelBulkValueAction } from '../../domain/channel';

/** What the page remembers locally: the detail toggle (`show_detail`) and the dismissed notice. */
export interface ChannelListPrefs {
  readonly showDetail: boolean;
  readonly noticeDismissed: boolean;
}

/** The value a bulk action asks for before its confirmation (priority, model, group). */
export interface BulkValuePrompt {
  readonly action: ChannelBulkValueAction;
  readonly value: string;
  /** Why the last submit was refused (cleared when the value changes). */
  readonly problem: Message | null;
}

export interface ChannelListActionsContext {
  readonly showDetail: boolean;
  readonly noticeDismissed: boolean;
  readonly prompt: BulkValuePrompt | null;
  /** Group names from `GET /api/group/` (for "set group"); empty until loaded or when that failed. */
  readonly groups: readonly string[];
}

export type ChannelListActionsEvent =
  | { readonly type: 'detail.toggle' }
  | { readonly type: 'notice.dismiss' }
  | { readonly type: 'deleteDisabled.request' }
  | { readonly type: 'deleteDisabled.accept' }
  | { readonly type: 'deleteDisabled.cancel' }
  | { readonly type: 'bulkValue.open'; readonly action: ChannelBulkValueAction }
  | { readonly type: 'bulkValue.input'; readonly value: string }
  | { readonly type: 'bulkValue.submit' }
  | { readonly type: 'bulkValue.cancel' };

/** The disabled channels were deleted: the page reloads the table. */
export interface ChannelsDeleted {
  readonly type: 'channels.deleted';
  readonly count: number;
}

/** The bulk value was accepted: the page sends `bulk.request {action, value}` to the table. */
export interface BulkValueChosen {
  readonly type: 'bulk.valueChosen';
  readonly action: ChannelBulkValueAction;
  readonly value: string;
}

export type ChannelListActionsEmitted = NotifyEvent | ChannelsDeleted | BulkValueChosen;

/** The accepted value of a bulk prompt (trimmed; the priority as an integer), or why not. */
export function checkBulkValue(action: ChannelBulkValueAction, text: string): { readonly value: string } | { readonly problem: Message } {
  const value = text.trim();
  switch (action) {
    case 'priority': {
      const n = parseInlineNumber(value, 'priority');
      return n === null ? { problem: msg('channels.bulk.value.needNumber') } : { value: String(n) };
    }
    case 'addModel':
    case 'removeModel':
      if (value === '') return { problem: msg('channels.bulk.value.needModel') };
      return value.includes(',') ? { problem: msg('channels.bulk.value.oneModel') } : { value };
    case 'setGroup':
      if (value === '') return { problem: msg('channels.bulk.value.needGroup') };
      return value.includes(',') ? { problem: msg('channels.bulk.value.oneGroup') } : { value };
  }
}

/**
 * The channel list's own workflows beside the table (spec §2 "Channel list"), as parallel regions:
 * - `prefs`: the detail toggle, remembered locally as `show_detail`, and the notice's dismissal
 *   (read once by `loadListPrefs`, written by the `storeShowDetail` / `storeNoticeDismissed` actions);
 * - `deleteDisabled`: "delete disabled" asks first, deletes every disabled channel, says how many
 *   and emits `channels.deleted` (the page reloads the table);
 * - `bulkValue`: the value a bulk action needs (priority, model, group) is asked for before the
 *   table's confirmation; "set group" loads the group names first. An accepted value is emitted as
 *   `bulk.valueChosen`.
 */
export const channelListActionsMachine = setup({
  types: {
    context: {} as ChannelListActionsContext,
    events: {} as ChannelListActionsEvent,
    emitted: {} as ChannelListActionsEmitted,
    tags: {} as 'busy',
  },
  actors: {
    loadListPrefs: fromPromise<ChannelListPrefs>(() => {
      throw new Error('loadListPrefs not provided');
    }),
    deleteDisabledChannels: fromPromise<number>(() => {
      throw new Error('deleteDisabledChannels not provided');
    }),
    fetchGroups: fromPromise<readonly string[]>(() => {
      throw new Error('fetchGroups not provided');
    }),
  },
  actions: {
    /** Browser side effect (local storage), provided at the composition root. */
    storeShowDetail: (_, _params: { show: boolean }) => {
      throw new Error('storeShowDetail not provided');
    },
    /** Browser side effect (local storage), provided at the composition root. */
    storeNoticeDismissed: () => {
      throw new Error('storeNoticeDismissed not provided');
    },
    applyPrefs: assign((_, params: { prefs: ChannelListPrefs }) => ({
      showDetail: params.prefs.showDetail,
      noticeDismissed: params.prefs.noticeDismissed,
    })),
    toggleDetail: assign({ showDetail: ({ context }) => !context.showDetail }),
    dismissNotice: assign({ noticeDismissed: () => true }),
    notifyError: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
    announceDeleted: emit((_, params: { count: number }): ChannelsDeleted => ({ type: 'channels.deleted', count: params.count })),
    notifyDeleted: emit((_, params: { count: number }) => notify('success', msg('channels.deleteDisabled.done', { count: params.count }))),
    openPrompt: assign({
      prompt: (_, params: { action: ChannelBulkValueAction }): BulkValuePrompt => ({ action: params.action, value: '', problem: null }),
    }),
    setValue: assign({
      prompt: ({ context }, params: { value: string }) =>
        context.prompt === null ? null : { ...context.prompt, value: params.value, problem: null },
    }),
    refuseValue: assign({
      prompt: ({ context }) => {
        const p = context.prompt;
        if (p === null) return null;
        const checked = checkBulkValue(p.action, p.value);
        return 'problem' in checked ? { ...p, problem: checked.problem } : p;
      },
    }),
    closePrompt: assign({ prompt: () => null }),
    storeGroups: assign({ groups: (_, params: { groups: readonly string[] }) => [...params.groups] }),
    announceValue: emit(({ context }): BulkValueChosen => {
      const p = context.prompt!;
      const checked = checkBulkValue(p.action, p.value);
      return { type: 'bulk.valueChosen', action: p.action, value: 'value' in checked ? checked.value : p.value };
    }),
  },
  guards: {
    isValueAccepted: ({ context }) => context.prompt !== null && 'value' in checkBulkValue(context.prompt.action, context.prompt.value),
    isGroupAction: (_, params: { action: ChannelBulkValueAction }) => params.action === 'setGroup',
  },
}).createMachine({
  id: 'channelListActions',
  context: { showDetail: false, noticeDismissed: false, prompt: null, groups: [] },
  type: 'parallel',
  states: {
    prefs: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadListPrefs',
            src: 'loadListPrefs',
            onDone: { target: 'ready', actions: { type: 'applyPrefs', params: ({ event }) => ({ prefs: event.output }) } },
            // nothing stored, or storage refused: the defaults stay
            onError: 'ready',
          },
        },
        ready: {
          on: {
            'detail.toggle': {
              actions: ['toggleDetail', { type: 'storeShowDetail', params: ({ context }) => ({ show: context.showDetail }) }],
            },
            'notice.dismiss': { actions: ['dismissNotice', 'storeNoticeDismissed'] },
          },
        },
      },
    },
    deleteDisabled: {
      initial: 'idle',
      states: {
        idle: { on: { 'deleteDisabled.request': 'confirming' } },
        confirming: {
          on: { 'deleteDisabled.accept': 'deleting', 'deleteDisabled.cancel': 'idle' },
        },
        deleting: {
          tags: ['busy'],
          invoke: {
            id: 'deleteDisabledChannels',
            src: 'deleteDisabledChannels',
            onDone: {
              target: 'idle',
              actions: [
                { type: 'notifyDeleted', params: ({ event }) => ({ count: event.output }) },
                { type: 'announceDeleted', params: ({ event }) => ({ count: event.output }) },
              ],
            },
            onError: { target: 'idle', actions: { type: 'notifyError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
    bulkValue: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'bulkValue.open': [
              {
                guard: { type: 'isGroupAction', params: ({ event }) => ({ action: event.action }) },
                target: 'loadingGroups',
                actions: { type: 'openPrompt', params: ({ event }) => ({ action: event.action }) },
              },
              { target: 'prompting', actions: { type: 'openPrompt', params: ({ event }) => ({ action: event.action }) } },
            ],
          },
        },
        loadingGroups: {
          invoke: {
            id: 'fetchGroups',
            src: 'fetchGroups',
            onDone: { target: 'prompting', actions: { type: 'storeGroups', params: ({ event }) => ({ groups: event.output }) } },
            // the group can still be typed
            onError: { target: 'prompting', actions: { type: 'notifyError', params: ({ event }) => ({ error: event.error }) } },
          },
          on: { 'bulkValue.cancel': { target: 'closed', actions: 'closePrompt' } },
        },
        prompting: {
          on: {
            'bulkValue.input': { actions: { type: 'setValue', params: ({ event }) => ({ value: event.value }) } },
            'bulkValue.submit': [
              { guard: 'isValueAccepted', target: 'closed', actions: ['announceValue', 'closePrompt'] },
              { actions: 'refuseValue' },
            ],
            'bulkValue.cancel': { target: 'closed', actions: 'closePrompt' },
          },
        },
      },
    },
  },
});
