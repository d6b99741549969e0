import { assign, fromCallback, sendTo, setup, type EventObject } from 'xstate';
import type { ColorMode, Lang } from '../../domain/preferences';

export interface PreferencesInput {
  readonly lang: Lang;
  readonly colorMode: ColorMode;
}

export type PreferencesContext = PreferencesInput;

export type PreferencesEvent =
  | { readonly type: 'lang.set'; readonly lang: Lang }
  | { readonly type: 'colorMode.toggle' };

/** Sent to `applyPreferences` on start and after every change. */
export interface PreferencesChanged extends PreferencesInput {
  readonly type: 'preferences.changed';
}

/**
 * The viewer's language (zh/en) and light/dark mode. The long-lived `applyPreferences` actor
 * (provided in src/main.tsx) stores them and applies them to the page (html lang, the dark
 * class); it receives a `preferences.changed` event on start and after each change.
 */
export const preferencesMachine = setup({
  types: {
    context: {} as PreferencesContext,
    input: {} as PreferencesInput,
    events: {} as PreferencesEvent,
  },
  actors: {
    applyPreferences: fromCallback<EventObject>(() => {
      throw new Error('applyPreferences not provided');
    }),
  },
  actions: {
    setLang: assign({ lang: (_, params: { lang: Lang }) => params.lang }),
    toggleColorMode: assign({ colorMode: ({ context }) => (context.colorMode === 'dark' ? 'light' : 'dark') }),
    apply: sendTo(
      'applyPreferences',
      ({ context }): PreferencesChanged => ({ type: 'preferences.changed', lang: context.lang, colorMode: context.colorMode }),
    ),
  },
}).createMachine({
  id: 'preferences',
  context: ({ input }) => ({ lang: input.lang, colorMode: input.colorMode }),
  invoke: { id: 'applyPreferences', src: 'applyPreferences' },
  initial: 'ready',
  states: {
    ready: {
      entry: 'apply',
      on: {
        'lang.set': { actions: [{ type: 'setLang', params: ({ event }) => ({ lang: event.lang }) }, 'apply'] },
        'colorMode.toggle': { actions: ['toggleColorMode', 'apply'] },
      },
    },
  },
});
