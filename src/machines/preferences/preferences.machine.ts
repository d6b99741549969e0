import { assign, emit, fromCallback, fromPromise, sendTo, setup, type EventObject } from 'xstate';
import { notify, type NotifyEvent } from '../../domain/message';
import type { ColorMode, Lang } from '../../domain/preferences';

export interface PreferencesInput {
  readonly lang: Lang;
  readonly colorMode: ColorMode;
}

export interface PreferencesContext extends PreferencesInput {
  /** The language whose catalogue is loading (state `switchingLang`), else null. */
  readonly pendingLang: Lang | null;
}

export type PreferencesEvent =
  | { readonly type: 'lang.set'; readonly lang: Lang }
  | { readonly type: 'colorMode.toggle' };

/** Sent to `applyPreferences` on start and after every change. */
export interface PreferencesChanged extends PreferencesInput {
  readonly type: 'preferences.changed';
}

export interface LoadCatalogueInput {
  readonly lang: Lang;
}

/**
 * The viewer's language (zh/en) and light/dark mode. The long-lived `applyPreferences` actor
 * (provided in src/main.tsx) stores them and applies them to the page (html lang, the dark
 * class); it receives a `preferences.changed` event on start and after each change.
 *
 * Only the active language's catalogue is loaded. Choosing another language first loads its
 * catalogue (`loadCatalogue`, state `switchingLang`, tagged `busy`); the page keeps the current
 * language and stays usable meanwhile, and switches once the catalogue is there. A failed load
 * keeps the current language and says so. Choosing the current language while another loads
 * cancels the switch.
 */
export const preferencesMachine = setup({
  types: {
    context: {} as PreferencesContext,
    input: {} as PreferencesInput,
    events: {} as PreferencesEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    applyPreferences: fromCallback<EventObject>(() => {
      throw new Error('applyPreferences not provided');
    }),
    loadCatalogue: fromPromise<void, LoadCatalogueInput>(() => {
      throw new Error('loadCatalogue not provided');
    }),
  },
  actions: {
    setPendingLang: assign({ pendingLang: (_, params: { lang: Lang }) => params.lang }),
    adoptPendingLang: assign(({ context }) => ({ lang: context.pendingLang ?? context.lang, pendingLang: null })),
    clearPendingLang: assign({ pendingLang: null }),
    toggleColorMode: assign({ colorMode: ({ context }) => (context.colorMode === 'dark' ? 'light' : 'dark') }),
    apply: sendTo(
      'applyPreferences',
      ({ context }): PreferencesChanged => ({ type: 'preferences.changed', lang: context.lang, colorMode: context.colorMode }),
    ),
    notifyLoadFailed: emit(() => notify('error', { key: 'shell.lang.loadFailed' })),
  },
  guards: {
    isCurrentLang: ({ context }, params: { lang: Lang }) => params.lang === context.lang,
  },
}).createMachine({
  id: 'preferences',
  context: ({ input }) => ({ lang: input.lang, colorMode: input.colorMode, pendingLang: null }),
  invoke: { id: 'applyPreferences', src: 'applyPreferences' },
  initial: 'ready',
  on: {
    'colorMode.toggle': { actions: ['toggleColorMode', 'apply'] },
  },
  states: {
    ready: {
      entry: 'apply',
      on: {
        'lang.set': [
          { guard: { type: 'isCurrentLang', params: ({ event }) => ({ lang: event.lang }) } },
          { target: 'switchingLang', actions: { type: 'setPendingLang', params: ({ event }) => ({ lang: event.lang }) } },
        ],
      },
    },
    switchingLang: {
      tags: ['busy'],
      invoke: {
        id: 'loadCatalogue',
        src: 'loadCatalogue',
        input: ({ context }) => ({ lang: context.pendingLang ?? context.lang }),
        onDone: { target: 'ready', actions: 'adoptPendingLang' },
        onError: { target: 'ready', actions: ['clearPendingLang', 'notifyLoadFailed'] },
      },
      on: {
        'lang.set': [
          { guard: { type: 'isCurrentLang', params: ({ event }) => ({ lang: event.lang }) }, target: 'ready', actions: 'clearPendingLang' },
          // (with two languages this cannot happen today; a third would restart the load)
          { target: 'switchingLang', reenter: true, actions: { type: 'setPendingLang', params: ({ event }) => ({ lang: event.lang }) } },
        ],
      },
    },
  },
});
