import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import { commandPaletteMachine, type PaletteCommandEvent } from '../../machines/commandPalette';
import {
  selectActiveIndex,
  selectIsOpen,
  selectIsSearching,
  selectQuery,
  selectResults,
  selectSearchError,
} from '../../machines/commandPalette/commandPalette.selectors';
import { selectLang } from '../../machines/preferences/preferences.selectors';
import { selectIsAdmin } from '../../machines/session/session.selectors';
import { useMachineActor } from '../app/machineRegistry';
import { PreferencesContext, SessionContext } from '../app/sessionContext';
import { CommandPaletteButton, platformShortcut } from './CommandPaletteButton';
import { CommandPaletteView } from './CommandPaletteView';

/** Ctrl+K, or ⌘K on macOS (either works everywhere: the label shows the platform's). */
const isPaletteShortcut = (e: KeyboardEvent): boolean => (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k';

/**
 * The command palette container (signed-in shell only): owns the commandPalette machine, opens it
 * from the header button and from Ctrl+K / ⌘K anywhere, and runs the commands it emits on the
 * app's preferences and session actors. Navigation and notices go through the shell's effects.
 */
export function CommandPalette() {
  const actorRef = useMachineActor(commandPaletteMachine);
  const session = SessionContext.useActorRef();
  const preferences = PreferencesContext.useActorRef();
  const isAdmin = SessionContext.useSelector(selectIsAdmin);
  const open = useSelector(actorRef, selectIsOpen);
  const query = useSelector(actorRef, selectQuery);
  const results = useSelector(actorRef, selectResults);
  const activeIndex = useSelector(actorRef, selectActiveIndex);
  const searching = useSelector(actorRef, selectIsSearching);
  const error = useSelector(actorRef, selectSearchError);
  const shortcut = platformShortcut(typeof navigator === 'undefined' ? '' : navigator.platform || navigator.userAgent);

  // A DOM shortcut and the commands the machine emits: effects, not state.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isPaletteShortcut(e) || e.repeat) return;
      e.preventDefault();
      actorRef.send({ type: 'palette.toggle', isAdmin });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actorRef, isAdmin]);
  useEffect(() => {
    const sub = actorRef.on('command', ({ command }: PaletteCommandEvent) => {
      if (command === 'theme.toggle') preferences.send({ type: 'colorMode.toggle' });
      else if (command === 'lang.toggle') preferences.send({ type: 'lang.set', lang: selectLang(preferences.getSnapshot()) === 'zh' ? 'en' : 'zh' });
      else session.send({ type: 'logout.request' });
    });
    return () => sub.unsubscribe();
  }, [actorRef, preferences, session]);

  return (
    <>
      <CommandPaletteButton shortcut={shortcut} onOpen={() => actorRef.send({ type: 'palette.open', isAdmin })} />
      <CommandPaletteView
        open={open}
        query={query}
        results={results}
        activeIndex={activeIndex}
        searching={searching}
        error={error}
        shortcut={shortcut}
        onQueryChange={(value) => actorRef.send({ type: 'query.change', value })}
        onClose={() => actorRef.send({ type: 'palette.close' })}
        onMove={(step) => actorRef.send({ type: step === 1 ? 'selection.next' : 'selection.previous' })}
        onSelect={(index) => actorRef.send({ type: 'selection.set', index })}
        onRun={(index) => {
          actorRef.send({ type: 'selection.set', index });
          actorRef.send({ type: 'selection.run' });
        }}
        onRetry={() => actorRef.send({ type: 'search.retry' })}
      />
    </>
  );
}
