import { assign, emit, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import {
  moveIndex,
  noEntities,
  paletteResults,
  searchKeyword,
  type PaletteCommandEvent,
  type PaletteEntities,
  type PaletteItem,
} from '../../domain/commandPalette';
import { msg, navigate, notify, type Message, type NavigateEvent, type NotifyEvent } from '../../domain/message';

export type CommandPaletteEvent =
  /** Ctrl+K / ⌘K or the header button; the viewer's role as it is now (admins see more). */
  | { readonly type: 'palette.open'; readonly isAdmin: boolean }
  /** Ctrl+K while open toggles; Escape and the backdrop close. */
  | { readonly type: 'palette.toggle'; readonly isAdmin: boolean }
  | { readonly type: 'palette.close' }
  | { readonly type: 'query.change'; readonly value: string }
  | { readonly type: 'selection.next' }
  | { readonly type: 'selection.previous' }
  /** The pointer rests on an item. */
  | { readonly type: 'selection.set'; readonly index: number }
  /** Enter or a click: runs the selected item. */
  | { readonly type: 'selection.run' }
  | { readonly type: 'search.retry' };

export interface CommandPaletteContext {
  readonly query: string;
  readonly isAdmin: boolean;
  /** Index into `paletteResults(...)` of the selected item. */
  readonly activeIndex: number;
  /** What the last search found (for the keyword `searchedFor`). */
  readonly entities: PaletteEntities;
  readonly searchedFor: string;
  /** Why the last search failed, or null. */
  readonly error: Message | null;
}

/** `searchEntities`: the search APIs for a keyword (channels and users for admins only), all at once. */
export interface SearchEntitiesInput {
  readonly keyword: string;
  readonly isAdmin: boolean;
}

export type { PaletteCommandEvent };

export type CommandPaletteEmitted = NavigateEvent | NotifyEvent | PaletteCommandEvent;

/** The items the palette shows for its context, in the order the arrow keys walk them. */
export const resultsOf = (context: CommandPaletteContext): readonly PaletteItem[] =>
  paletteResults(context.query, context.isAdmin, context.searchedFor === searchKeyword(context.query) ? context.entities : noEntities);

/** The selected item, or undefined when nothing matches. */
export const activeItemOf = (context: CommandPaletteContext): PaletteItem | undefined => resultsOf(context)[context.activeIndex];

export const initialPaletteContext: CommandPaletteContext = {
  query: '',
  isAdmin: false,
  activeIndex: 0,
  entities: noEntities,
  searchedFor: '',
  error: null,
};

/** Delay between the last keystroke and the search (ms). */
export const searchDebounceMs = 250;

/**
 * The ⌘K / Ctrl+K command palette: closed, or open with a query. Pages and actions match at
 * once; after a pause in typing (`searchDebounce`) the search APIs look for channels, tokens and
 * users; a new keystroke stops the running search (its requests abort). Running an item closes
 * the palette and leaves as an emitted `navigate`, `command` or, for "test all channels", a
 * call of `testAllChannels` with a notice.
 */
export const commandPaletteMachine = setup({
  types: {
    context: {} as CommandPaletteContext,
    events: {} as CommandPaletteEvent,
    emitted: {} as CommandPaletteEmitted,
    tags: {} as 'busy' | 'open',
  },
  actors: {
    searchEntities: fromPromise<PaletteEntities, SearchEntitiesInput>(() => {
      throw new Error('searchEntities not provided');
    }),
    testAllChannels: fromPromise<void, void>(() => {
      throw new Error('testAllChannels not provided');
    }),
  },
  delays: {
    searchDebounce: searchDebounceMs,
  },
  guards: {
    hasKeyword: ({ context }) => searchKeyword(context.query) !== '',
    isKeyword: (_, params: { value: string }) => searchKeyword(params.value) !== '',
    hasResults: ({ context }) => resultsOf(context).length > 0,
    isNavigation: ({ context }) => activeItemOf(context)?.run.kind === 'navigate',
    isCommand: ({ context }) => activeItemOf(context)?.run.kind === 'command',
    isChannelTest: ({ context }) => activeItemOf(context)?.run.kind === 'testChannels' && context.isAdmin,
    isKnownIndex: ({ context }, params: { index: number }) => Number.isInteger(params.index) && params.index >= 0 && params.index < resultsOf(context).length,
  },
  actions: {
    reset: assign(({ event }) => ({ ...initialPaletteContext, isAdmin: 'isAdmin' in event ? event.isAdmin : false })),
    setQuery: assign({ query: (_, params: { value: string }) => params.value, activeIndex: 0, error: null }),
    move: assign({ activeIndex: ({ context }, params: { step: number }) => moveIndex(context.activeIndex, params.step, resultsOf(context).length) }),
    select: assign({ activeIndex: (_, params: { index: number }) => params.index }),
    setEntities: assign({
      entities: (_, params: { entities: PaletteEntities }) => params.entities,
      searchedFor: ({ context }) => searchKeyword(context.query),
      activeIndex: 0,
    }),
    setError: assign({ error: (_, params: { error: unknown }) => describeError(params.error).message }),
    emitNavigate: emit(({ context }) => {
      const run = activeItemOf(context)?.run;
      return navigate(run?.kind === 'navigate' ? run.to : '/');
    }),
    emitCommand: emit(({ context }) => {
      const run = activeItemOf(context)?.run;
      return { type: 'command' as const, command: run?.kind === 'command' ? run.command : 'theme.toggle' };
    }),
    notifyTestStarted: emit(() => notify('success', msg('palette.testChannels.started'))),
    notifyTestFailed: emit((_, params: { error: unknown }) => {
      const { level, message } = describeError(params.error);
      return notify(level, message);
    }),
  },
}).createMachine({
  id: 'commandPalette',
  context: initialPaletteContext,
  initial: 'closed',
  states: {
    closed: {
      on: {
        'palette.open': { target: 'open', actions: 'reset' },
        'palette.toggle': { target: 'open', actions: 'reset' },
      },
    },
    open: {
      tags: ['open'],
      initial: 'idle',
      on: {
        'palette.close': { target: 'closed' },
        'palette.toggle': { target: 'closed' },
        'query.change': [
          {
            guard: { type: 'isKeyword', params: ({ event }) => ({ value: event.value }) },
            target: '.debouncing', reenter: true,
            actions: { type: 'setQuery', params: ({ event }) => ({ value: event.value }) },
          },
          { target: '.idle', actions: { type: 'setQuery', params: ({ event }) => ({ value: event.value }) } },
        ],
        'selection.next': { actions: { type: 'move', params: { step: 1 } } },
        'selection.previous': { actions: { type: 'move', params: { step: -1 } } },
        'selection.set': {
          guard: { type: 'isKnownIndex', params: ({ event }) => ({ index: event.index }) },
          actions: { type: 'select', params: ({ event }) => ({ index: event.index }) },
        },
        'selection.run': [
          { guard: 'isNavigation', target: 'closed', actions: 'emitNavigate' },
          { guard: 'isCommand', target: 'closed', actions: 'emitCommand' },
          { guard: 'isChannelTest', target: 'testingChannels' },
        ],
      },
      states: {
        idle: {},
        /** Waiting for a pause in typing before searching. */
        debouncing: {
          after: { searchDebounce: { target: 'searching' } },
        },
        searching: {
          tags: ['busy'],
          invoke: {
            id: 'searchEntities',
            src: 'searchEntities',
            input: ({ context }) => ({ keyword: searchKeyword(context.query), isAdmin: context.isAdmin }),
            onDone: { target: 'idle', actions: { type: 'setEntities', params: ({ event }) => ({ entities: event.output }) } },
            onError: { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        failed: {
          on: { 'search.retry': { guard: 'hasKeyword', target: 'searching' } },
        },
      },
    },
    /** "Test all channels" was run: the palette is closed while the server accepts the run. */
    testingChannels: {
      tags: ['busy'],
      invoke: {
        id: 'testAllChannels',
        src: 'testAllChannels',
        input: () => undefined,
        onDone: { target: 'closed', actions: 'notifyTestStarted' },
        onError: { target: 'closed', actions: { type: 'notifyTestFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
