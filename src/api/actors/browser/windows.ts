/* Opening a URL in a new tab; the window is a parameter that defaults to globalThis. */

export type WindowOpener = Pick<Window, 'open'>;

/** Opens `url` in a new tab without giving it access to this window. */
export function openWindow(url: string, win: Partial<WindowOpener> = globalThis): void {
  if (typeof win.open === 'function') win.open(url, '_blank', 'noopener,noreferrer');
}
