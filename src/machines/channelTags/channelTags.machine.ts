import { assign, emit, fromPromise, raise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import {
  channelStatusEnabled,
  channelStatusManuallyDisabled,
  channelTagEditFields,
  parseInlineNumber,
  type ChannelTagCount,
  type ChannelTagEdit,
  type ChannelTagEditField,
} from '../../domain/channel';
import { msg, notify, type Message, type NotifyEvent } from '../../domain/message';

/** The edit-by-tag dialog as typed: the tag, which fields change, and their values. */
export interface TagEditDraft {
  readonly tag: string;
  /** The fields the person chose to change. */
  readonly fields: readonly ChannelTagEditField[];
  readonly priority: string;
  readonly weight: string;
  readonly models: string;
  readonly group: string;
  /** '1' enable, '2' disable. */
  readonly status: string;
}

export interface ChannelTagsContext {
  /** Every tag in use with its channel count (`GET /api/channel/tags`); empty until loaded. */
  readonly tags: readonly ChannelTagCount[];
  readonly draft: TagEditDraft;
  /** Why the last submit was refused (cleared by the next change). */
  readonly problem: Message | null;
}

export type ChannelTagsEvent =
  | { readonly type: 'tags.reload' }
  | { readonly type: 'tagEdit.open'; readonly tag?: string }
  | { readonly type: 'tagEdit.tag'; readonly tag: string }
  | { readonly type: 'tagEdit.field'; readonly field: ChannelTagEditField; readonly on: boolean }
  | { readonly type: 'tagEdit.value'; readonly field: ChannelTagEditField; readonly value: string }
  | { readonly type: 'tagEdit.submit' }
  | { readonly type: 'tagEdit.confirm' }
  | { readonly type: 'tagEdit.back' }
  | { readonly type: 'tagEdit.cancel' };

/** The channels of a tag were changed: the page reloads the table. */
export interface ChannelsTagEdited {
  readonly type: 'channels.tagEdited';
  readonly tag: string;
  readonly count: number;
}

export type ChannelTagsEmitted = NotifyEvent | ChannelsTagEdited;

/** `updateChannelsByTag`'s input. */
export interface UpdateChannelsByTagInput {
  readonly edit: ChannelTagEdit;
}

export const emptyTagEditDraft: TagEditDraft = { tag: '', fields: [], priority: '', weight: '', models: '', group: '', status: String(channelStatusManuallyDisabled) };

/** The request of a draft (values trimmed, numbers parsed), or why it cannot be sent. */
export function checkTagEdit(draft: TagEditDraft): { readonly edit: ChannelTagEdit } | { readonly problem: Message } {
  const tag = draft.tag.trim();
  if (tag === '') return { problem: msg('channels.tagEdit.needTag') };
  if (draft.fields.length === 0) return { problem: msg('channels.tagEdit.needField') };
  let edit: ChannelTagEdit = { tag };
  for (const field of channelTagEditFields) {
    if (!draft.fields.includes(field)) continue;
    switch (field) {
      case 'priority':
      case 'weight': {
        const n = parseInlineNumber(draft[field].trim(), field);
        if (n === null) return { problem: msg(field === 'priority' ? 'channels.tagEdit.needPriority' : 'channels.tagEdit.needWeight') };
        edit = { ...edit, [field]: n };
        break;
      }
      case 'models':
        if (draft.models.split(',').every((m) => m.trim() === '')) return { problem: msg('channels.bulk.value.needModel') };
        edit = { ...edit, models: draft.models.trim() };
        break;
      case 'group':
        if (draft.group.split(',').every((g) => g.trim() === '')) return { problem: msg('channels.bulk.value.needGroup') };
        edit = { ...edit, group: draft.group.trim() };
        break;
      case 'status':
        edit = { ...edit, status: draft.status === String(channelStatusEnabled) ? channelStatusEnabled : channelStatusManuallyDisabled };
        break;
    }
  }
  return { edit };
}

/** How many channels carry `tag` as last listed (0 when unknown). */
export const tagCountOf = (tags: readonly ChannelTagCount[], tag: string): number => tags.find((t) => t.tag === tag.trim())?.count ?? 0;

/**
 * Channel tags on the channel list (not in one-api), as parallel regions:
 * - `list`: the tags in use with their channel counts (`fetchTags`), for the toolbar's tag filter
 *   and the edit-by-tag dialog; `tags.reload` reads them again;
 * - `edit`: the edit-by-tag dialog (opening it reads the counts again): choose a tag and the fields
 *   to change (priority, weight, models, group, enable/disable), confirm with the number of
 *   channels that will change, then
 *   `updateChannelsByTag`; the result is a toast and `channels.tagEdited` (the page reloads the
 *   table), and the tag counts are read again.
 */
export const channelTagsMachine = setup({
  types: {
    context: {} as ChannelTagsContext,
    events: {} as ChannelTagsEvent,
    emitted: {} as ChannelTagsEmitted,
    tags: {} as 'busy',
  },
  actors: {
    fetchTags: fromPromise<readonly ChannelTagCount[]>(() => {
      throw new Error('fetchTags not provided');
    }),
    updateChannelsByTag: fromPromise<number, UpdateChannelsByTagInput>(() => {
      throw new Error('updateChannelsByTag not provided');
    }),
  },
  actions: {
    storeTags: assign({ tags: (_, params: { tags: readonly ChannelTagCount[] }) => [...params.tags] }),
    notifyError: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
    openDraft: assign(({ context }, params: { tag: string | undefined }) => ({
      draft: { ...emptyTagEditDraft, tag: params.tag ?? context.tags[0]?.tag ?? '' },
      problem: null,
    })),
    setTag: assign({ draft: ({ context }, params: { tag: string }) => ({ ...context.draft, tag: params.tag }), problem: () => null }),
    setField: assign({
      draft: ({ context }, params: { field: ChannelTagEditField; on: boolean }) => {
        const others = context.draft.fields.filter((f) => f !== params.field);
        return { ...context.draft, fields: channelTagEditFields.filter((f) => (f === params.field ? params.on : others.includes(f))) };
      },
      problem: () => null,
    }),
    setValue: assign({
      draft: ({ context }, params: { field: ChannelTagEditField; value: string }) => ({ ...context.draft, [params.field]: params.value }),
      problem: () => null,
    }),
    refuseDraft: assign({
      problem: ({ context }) => {
        const checked = checkTagEdit(context.draft);
        return 'problem' in checked ? checked.problem : null;
      },
    }),
    notifyEdited: emit((_, params: { tag: string; count: number }) =>
      notify('success', msg('channels.tagEdit.done', { tag: params.tag, count: params.count })),
    ),
    announceEdited: emit(
      (_, params: { tag: string; count: number }): ChannelsTagEdited => ({ type: 'channels.tagEdited', tag: params.tag, count: params.count }),
    ),
    reloadTags: raise({ type: 'tags.reload' as const }),
  },
  guards: {
    isDraftAccepted: ({ context }) => 'edit' in checkTagEdit(context.draft),
  },
}).createMachine({
  id: 'channelTags',
  context: { tags: [], draft: emptyTagEditDraft, problem: null },
  type: 'parallel',
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'fetchTags',
            src: 'fetchTags',
            onDone: { target: 'ready', actions: { type: 'storeTags', params: ({ event }) => ({ tags: event.output }) } },
            onError: { target: 'failed', actions: { type: 'notifyError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        ready: { on: { 'tags.reload': 'loading' } },
        failed: { on: { 'tags.reload': 'loading' } },
      },
    },
    edit: {
      initial: 'closed',
      states: {
        closed: {
          // the counts are read again: the confirmation says how many channels carry the tag now
          on: {
            'tagEdit.open': { target: 'editing', actions: [{ type: 'openDraft', params: ({ event }) => ({ tag: event.tag }) }, 'reloadTags'] },
          },
        },
        editing: {
          on: {
            'tagEdit.tag': { actions: { type: 'setTag', params: ({ event }) => ({ tag: event.tag }) } },
            'tagEdit.field': { actions: { type: 'setField', params: ({ event }) => ({ field: event.field, on: event.on }) } },
            'tagEdit.value': { actions: { type: 'setValue', params: ({ event }) => ({ field: event.field, value: event.value }) } },
            'tagEdit.submit': [{ guard: 'isDraftAccepted', target: 'confirming' }, { actions: 'refuseDraft' }],
            'tagEdit.cancel': 'closed',
          },
        },
        confirming: {
          on: { 'tagEdit.confirm': 'saving', 'tagEdit.back': 'editing', 'tagEdit.cancel': 'closed' },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'updateChannelsByTag',
            src: 'updateChannelsByTag',
            input: ({ context }): UpdateChannelsByTagInput => {
              const checked = checkTagEdit(context.draft);
              return { edit: 'edit' in checked ? checked.edit : { tag: context.draft.tag.trim() } };
            },
            onDone: {
              target: 'closed',
              actions: [
                { type: 'notifyEdited', params: ({ context, event }) => ({ tag: context.draft.tag.trim(), count: event.output }) },
                { type: 'announceEdited', params: ({ context, event }) => ({ tag: context.draft.tag.trim(), count: event.output }) },
                'reloadTags',
              ],
            },
            onError: { target: 'editing', actions: { type: 'notifyError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
  },
});

export type ChannelTagsMachine = typeof channelTagsMachine;
