import { useCallback } from 'react';
import { useSelector } from '@xstate/react';
import { commandPaletteMachine } from '../../machines/commandPalette';
import {
  selectActiveIndex,
  selectIsOpen,
  selectIsSearching,
  selectQuery,
  selectResults,
  selectSearchError,
} from '../../machines/commandPalette/commandPalette.selectors';
import { selectIsAdmin } from '../../machines/session/session.selectors';
import { useMachineActor, useShortcut } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { CommandPaletteButton, platformShortcut } from './CommandPaletteButton';
import { CommandPaletteView } from './CommandPaletteView';

/** Ctrl+K, or ⌘K on macOS (either works everywhere: the label shows the platform's). */
const isPaletteShortcut = (e: KeyboardEvent): boolean => (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k';

/**
 * The command palette container (signed-in shell only): owns the commandPalette machine, opens it
 * from the header button and from Ctrl+K / ⌘K anywhere, and leaves navigation, notices and its
 * commands (theme, language, sign-out) to the shell's effects.
 */
export function CommandPalette() {
  const actorRef = useMachineActor(commandPaletteMachine);
  const isAdmin = SessionContext.useSelector(selectIsAdmin);
  const open = useSelector(actorRef, selectIsOpen);
  const query = useSelector(actorRef, selectQuery);
  const results = useSelector(actorRef, selectResults);
  const activeIndex = useSelector(actorRef, selectActiveIndex);
  const searching = useSelector(actorRef, selectIsSearching);
  const error = useSelector(actorRef, selectSearchError);
  const shortcut = platformShortcut(typeof navigator === 'undefined' ? '' : navigator.platform || navigator.userAgent);

  const toggle = useCallback(() => ({ type: 'palette.toggle' as const, isAdmin }), [isAdmin]);
  useShortcut(actorRef, isPaletteShortcut, toggle);

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
