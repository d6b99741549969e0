import { useState, type ReactNode } from 'react';

/**
 * Its children (a dialog) only from the first time `open` is true. A list page mounts with its
 * dialogs closed, and a closed dialog's root still starts its state machine and resolves its
 * styles on every page mount; once opened the dialog stays mounted, so closing it animates as
 * before.
 */
export function OpenedOnce({ open, children }: { readonly open: boolean; readonly children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open ? children : null;
}
