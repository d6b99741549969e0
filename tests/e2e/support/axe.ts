/** axe (WCAG 2 A/AA rules) on a page as it is now, once it has come to rest. */
import { AxeBuilder } from '@axe-core/playwright';
import { expect } from 'vitest';
import type { Page, Request } from 'playwright';

/** The requests of a page still on their way, and when the last one began or ended. */
export interface PageRequests {
  readonly pending: Set<Request>;
  last: number;
}

/** Starts following the requests of `page` (before its first navigation, so none is missed). */
export function watchRequests(page: Page): PageRequests {
  const requests: PageRequests = { pending: new Set(), last: Date.now() };
  page.on('request', (r) => {
    requests.pending.add(r);
    requests.last = Date.now();
  });
  const ended = (r: Request) => {
    if (requests.pending.delete(r)) requests.last = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return requests;
}

/** How long the network must have been silent: a response's follow-up request starts well within it. */
const quietMs = 250;

/**
 * Waits until the page is still: no request on its way for a while (the data has come) and no
 * finite CSS animation or transition running for a few frames in a row (entrance transitions
 * have ended, so colours are measured at rest). Spinners (infinite animations) do not count.
 */
export async function untilStill(page: Page, requests: PageRequests): Promise<void> {
  await expect
    .poll(() => requests.pending.size === 0 && Date.now() - requests.last >= quietMs, { timeout: 60_000, interval: 50 })
    .toBe(true);
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let still = 0;
        const frame = () => {
          const moving = document
            .getAnimations()
            .some((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
          still = moving ? 0 : still + 1;
          if (still >= 3) resolve();
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}

/**
 * The serious and critical WCAG 2 A/AA violations on the page as it is now, one line each.
 * axe runs inside the page itself (`axe.run`, "legacy mode") rather than in every frame with the
 * results put together in an extra blank page: the same rules, one page fewer per scan. That
 * mode skips cross-origin frames, and the console has none (checked).
 */
export async function graveViolations(page: Page): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const foreign = page.frames().filter((f) => f !== page.mainFrame() && f.url() !== 'about:blank' && new URL(f.url()).origin !== origin);
  expect(foreign.map((f) => f.url())).toEqual([]);
  // an element fading in (a toast that just appeared) is drawn half transparent: axe would judge
  // its contrast on the blend, so finite animations run out first (spinners go on: infinite)
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).setLegacyMode().analyze();
  expect(result.passes.length).toBeGreaterThan(0);
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
