import { useState, type ReactNode } from 'react';

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

/** Its children (one or more dialogs) only from the first time `open` is true (`useOpenedOnce`). */
export function OpenedOnce({ open, children }: { readonly open: boolean; readonly children: ReactNode }) {
  return useOpenedOnce(open) ? children : null;
}
