import { fromPromise, type PromiseActorLogic } from 'xstate';
import { refusedError } from '../../domain/apiError';
import type { MessageKey } from '../../i18n';

/**
 * Loads Cloudflare Turnstile's script for the bot-check widget (spec §7: the widget loads its
 * script from the provider's challenge host on first render). Explicit rendering: the widget
 * renders the challenge into its own box once `window.turnstile` is there.
 */
export const turnstileScriptUrl = 'https://challenges.cloudflare.com/turnstile/v0/api.js';
const scriptSrc = `${turnstileScriptUrl}?render=explicit`;

/** How long the script may take before the load counts as failed. */
export const turnstileLoadTimeout = 15_000;

/** The part of the page the loader touches; the defaults are the browser's globals. */
export interface TurnstileEnv {
  readonly document: Pick<Document, 'createElement' | 'querySelector' | 'head'>;
  /** Where the script publishes `turnstile` (the window). */
  readonly host: object;
  readonly setTimeout: (fn: () => void, ms: number) => unknown;
  readonly clearTimeout: (handle: never) => void;
}

const defaultEnv = (): TurnstileEnv => ({
  document: globalThis.document,
  host: globalThis,
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => {
    globalThis.clearTimeout(handle);
  },
});

/** The provider's API is present once `turnstile.render` exists on the host. */
export function isTurnstileReady(host: object): boolean {
  const api = (host as { turnstile?: { render?: unknown } }).turnstile;
  return typeof api === 'object' && api !== null && typeof api.render === 'function';
}

const pending = new WeakMap<object, Promise<void>>();

/**
 * Injects the script once per page and resolves when `turnstile` is ready. Rejects when the
 * script fails to load, loads without publishing `turnstile`, or takes longer than `timeoutMs`;
 * a failed script tag is removed so the next call tries again.
 */
export function loadTurnstileScript(env: TurnstileEnv = defaultEnv(), timeoutMs = turnstileLoadTimeout): Promise<void> {
  if (isTurnstileReady(env.host)) return Promise.resolve();
  const inFlight = pending.get(env.host);
  if (inFlight !== undefined) return inFlight;

  const loading = new Promise<void>((resolve, reject) => {
    const existing = env.document.querySelector<HTMLScriptElement>(`script[src^="${turnstileScriptUrl}"]`);
    const script = existing ?? env.document.createElement('script');
    const settle = (error: Error | null) => {
      env.clearTimeout(timer as never);
      script.removeEventListener('load', onLoad);
      script.removeEventListener('error', onError);
      if (error === null) {
        resolve();
        return;
      }
      script.remove();
      reject(error);
    };
    const onLoad = () => {
      settle(isTurnstileReady(env.host) ? null : new Error('error.turnstileApi'));
    };
    const onError = () => {
      settle(new Error('error.turnstileLoad'));
    };
    script.addEventListener('load', onLoad);
    script.addEventListener('error', onError);
    const timer = env.setTimeout(() => {
      settle(new Error('error.turnstileTimeout'));
    }, timeoutMs);
    if (existing === null) {
      script.src = scriptSrc;
      script.async = true;
      env.document.head.appendChild(script);
    }
  });
  // Said to the user as a catalogue message (translated), never the fixed text of an Error.
  const promise = loading.catch((e: unknown) => {
    throw refusedError('turnstile', { key: (e instanceof Error ? e.message : 'error.turnstileLoad') as MessageKey });
  });
  pending.set(env.host, promise);
  // A failure is not cached: the next load (the widget's retry) injects the script again.
  promise.catch(() => pending.delete(env.host));
  return promise;
}

/** Promise actor logic for the turnstile machine's `loadTurnstile`. */
export const loadTurnstile: PromiseActorLogic<void> = fromPromise(() => loadTurnstileScript());
