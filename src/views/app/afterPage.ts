import { useEffect } from 'react';

/**
 * When the parts of the shell that no page needs in order to be drawn (footer, toaster, command
 * palette, the header's drawer and account menu) load: once the first routed page has been
 * committed and the browser is idle, so that their download, evaluation, styles and layout do not
 * compete with the page (and, on a list, with its first request). A console that never draws a
 * routed page (a redirect, a story) only delays them up to `latestMs`; a toast asked for early
 * opens the gate at once.
 */

/** The longest the deferred parts wait for a page (ms). */
const latestMs = 8000;
/** How long the browser may stay busy after the page before they load anyway (ms). */
const idleTimeoutMs = 1000;

let open: (() => void) | undefined;
let gate: Promise<void> | undefined;

const idle = (): Promise<void> =>
  new Promise((resolve) => {
    if ('requestIdleCallback' in window) requestIdleCallback(() => resolve(), { timeout: idleTimeoutMs });
    else setTimeout(resolve);
  });

/** Resolves once the first page has been drawn and the browser is idle (at the latest `latestMs` after first asked). */
export function afterPage(): Promise<void> {
  gate ??= new Promise<void>((resolve) => {
    open = resolve;
    setTimeout(resolve, latestMs);
  }).then(idle);
  return gate;
}

/** The deferred parts may load when the browser is next idle (the page is there, or a toast is asked for). */
export function openDeferred(): void {
  void afterPage();
  open?.();
}

/** `load`, started only after the first page (for `lazy()`). */
export const loadAfterPage =
  <T>(load: () => Promise<T>) =>
  (): Promise<T> =>
    afterPage().then(load);

/** Rendered beside a routed page inside its Suspense boundary: commits with the page, not with its placeholder. */
export function PageShown(): null {
  useEffect(openDeferred, []);
  return null;
}
