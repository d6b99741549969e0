import { assign, emit, fromPromise, setup } from 'xstate';
import { notify, type Message, type NotifyEvent } from '../../domain/message';

/** Emitted when the clipboard refused: the page puts the text into the list's search box. */
export interface KeyCopyFailed {
  readonly type: 'search.fill';
  readonly text: string;
}

export type KeyCopyEmitted = NotifyEvent | KeyCopyFailed;

export type KeyCopyEvent = { readonly type: 'copy.request'; readonly text: string };

export interface KeyCopyOptions {
  /** Machine id, also the registry key (`redemptionKeyCopy`, `tokenKeyCopy` …). */
  readonly id: string;
  /** The success toast (never the copied text itself). */
  readonly copied: Message;
  /** The warning when the clipboard refused (the spec's "please copy manually … search box"). */
  readonly copyFailed: Message;
}

/**
 * Copies a key (or a link made from it) to the clipboard (`copyText`). Success says `copied`; a
 * refusal says `copyFailed` and emits `search.fill` with the text, which the list page turns into
 * its table's `search.input` (spec §8). A new request while one runs replaces it. One chart for
 * every list that copies keys (redemption codes, tokens).
 */
export function createKeyCopyMachine({ id, copied, copyFailed }: KeyCopyOptions) {
  return setup({
    types: {
      context: {} as { readonly text: string },
      events: {} as KeyCopyEvent,
      emitted: {} as KeyCopyEmitted,
      tags: {} as 'busy',
    },
    actors: {
      copyText: fromPromise<void, { readonly text: string }>(() => {
        throw new Error('copyText not provided');
      }),
    },
    actions: {
      setText: assign({ text: (_, params: { text: string }) => params.text }),
      notifyCopied: emit(() => notify('success', copied)),
      notifyCopyFailed: emit(() => notify('warning', copyFailed)),
      fillSearch: emit(({ context }): KeyCopyFailed => ({ type: 'search.fill', text: context.text })),
    },
  }).createMachine({
    id,
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
}

export type KeyCopyMachine = ReturnType<typeof createKeyCopyMachine>;
