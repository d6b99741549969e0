import { useState, type ReactNode } from 'react';

/**
 * Its children (one or more dialogs) only from the first time `open` is true. A closed dialog's
 * root still starts its state machine and resolves its styles, on every render of the page: a list
 * page drew its closed dialogs in its first render, before the list was asked for. Once opened they
 * stay mounted, so they close with their animation and open again as before.
 */
export function OpenedOnce({ open, children }: { readonly open: boolean; readonly children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open ? children : null;
}
