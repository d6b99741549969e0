import { useState } from 'react';

/**
 * Whether `open` has held since the component mounted. A closed Chakra dialog is not in the page,
 * yet its root starts its state machine and resolves its styles on every render of the page: a
 * list page drew its closed dialogs in its first render, before the list was asked for. Drawn
 * from the first opening on, a dialog stays mounted, so it closes with its animation and opens
 * again as before.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

