import type { SnapshotFrom } from 'xstate';
import type { PaletteItem } from '../../domain/commandPalette';
import type { Message } from '../../domain/message';
import { resultsOf, type commandPaletteMachine } from './commandPalette.machine';

type Snapshot = SnapshotFrom<typeof commandPaletteMachine>;

/** The dialog is shown. */
export const selectIsOpen = (s: Snapshot): boolean => s.hasTag('open');
export const selectQuery = (s: Snapshot): string => s.context.query;
/** A search is waiting for a pause in typing or on its way. */
export const selectIsSearching = (s: Snapshot): boolean => s.matches({ open: 'searching' }) || s.matches({ open: 'debouncing' });
/** Why the last search failed (shown in the list), or null. */
export const selectSearchError = (s: Snapshot): Message | null => (s.matches({ open: 'failed' }) ? s.context.error : null);
export const selectActiveIndex = (s: Snapshot): number => s.context.activeIndex;

// The results are derived from the context: one array per context, so `useSelector` sees a stable value.
const cache = new WeakMap<object, readonly PaletteItem[]>();
/** What the list shows, grouped, in the order the arrow keys walk. */
export const selectResults = (s: Snapshot): readonly PaletteItem[] => {
  const known = cache.get(s.context);
  if (known !== undefined) return known;
  const results = resultsOf(s.context);
  cache.set(s.context, results);
  return results;
};
