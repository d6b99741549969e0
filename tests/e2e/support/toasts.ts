/**
 * The console's toasts as a walk sees them: every toast collected as it appears (text and level),
 * and the check every walk ends with (no decode error, no error toast it did not expect).
 */
import { expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright';

export interface SeenToasts {
  /** Every toast text, in order of appearance. */
  readonly texts: string[];
  /** The texts of error toasts (and of any toast saying a response could not be decoded). */
  readonly errors: string[];
}

/**
 * Starts collecting the toasts `target` shows across navigations and reloads: one page, or every
 * page of a context (popups included).
 */
export async function watchToasts(target: Page | BrowserContext): Promise<SeenToasts> {
  const page = target as Pick<Page, 'exposeFunction' | 'addInitScript'>;
  const seen: SeenToasts = { texts: [], errors: [] };
  await page.exposeFunction('__toast', (text: string, type: string) => {
    seen.texts.push(text);
    if (type === 'error' || text.includes('格式不正确')) seen.errors.push(text);
  });
  await page.addInitScript(() => {
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-scope="toast"][data-part="description"]')) {
        if (el instanceof HTMLElement && el.dataset.seen !== '1') {
          el.dataset.seen = '1';
          const root = el.closest('[data-scope="toast"][data-part="root"]');
          const type = root?.getAttribute('data-type') ?? (root?.getAttribute('role') === 'alert' ? 'error' : '');
          void (window as unknown as { __toast: (t: string, type: string) => Promise<void> }).__toast(el.textContent ?? '', type);
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return seen;
}

/** Fails when the page showed an error toast other than the `expected` ones. */
export function expectNoUnexpectedErrors(toasts: SeenToasts, expected: readonly string[] = []): void {
  expect(toasts.errors.filter((t) => !expected.includes(t))).toEqual([]);
}

/**
 * Lets a toast under the pointer run out. Hovering a toast pauses it (as it should for someone
 * reading it), and Playwright leaves the pointer where it last clicked: a toast that shows up
 * there (they sit under the header's right end, over the toolbars' and the rows' ends) would stay
 * and take the next click meant for what it covers. Before every action on a page of `context`
 * while a paused toast shows, the pointer moves off to the window's top left corner (the header),
 * as a user moves on, and the toast runs out as it would then (warnings last 10 s, notices stay
 * until closed: `closeToasts`). No test drives the mouse step by step (`mouse.move` then `down`),
 * so moving it between actions changes nothing else.
 * Answers `context`.
 */
export async function letToastsRunOut(context: BrowserContext): Promise<BrowserContext> {
  const install = (page: Page) =>
    page.addLocatorHandler(
      page.locator('[data-scope="toast"][data-part="root"][data-paused]').first(),
      () => page.mouse.move(0, 0),
      { noWaitAfter: true },
    );
  context.on('page', (page) => void install(page));
  await Promise.all(context.pages().map(install));
  return context;
}

/**
 * Closes the toasts on show with their close buttons, as a user does to reach what they cover
 * (on a desktop window they sit under the header's right end, over the page), one at a time:
 * a toast on its way out covers its neighbours for a moment, so each is waited out before the
 * next click. A toast may also expire while it is being closed (success toasts last 1.5 s): each
 * is pinned by its id, and one that left on its own counts as closed. The toasts shown so far
 * were collected by `watchToasts` already.
 */
export async function closeToasts(page: Page): Promise<void> {
  const shown = page.locator('[data-scope="toast"][data-part="root"]');
  const open = shown.and(page.locator('[data-state="open"]'));
  const leaving = shown.and(page.locator('[data-state="closed"]'));
  const deadline = Date.now() + 30_000;
  for (;;) {
    // no toast on its way out (its ghost would take the click)
    await expect.poll(() => leaving.count(), { timeout: 10_000 }).toBe(0);
    const [id] = await open.evaluateAll((els) => els.map((el) => el.id));
    if (id === undefined) break;
    const toast = page.locator(`[id="${id}"]`);
    try {
      await toast.locator('[data-part="close-trigger"]').click({ timeout: 3_000 });
    } catch (error) {
      // left on its own meanwhile, or a neighbour moving past took the click: look again
      if (Date.now() > deadline) throw error;
      continue;
    }
    await toast.waitFor({ state: 'detached', timeout: 10_000 });
  }
  await expect.poll(() => shown.count(), { timeout: 10_000 }).toBe(0);
}
