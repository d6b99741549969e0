import { assign, fromPromise, setup } from 'xstate';

export type TurnstileEvent =
  /** The widget's box is on the page: load the provider's script (once). */
  | { readonly type: 'widget.mounted' }
  /** After a failed load, "retry" was pressed. */
  | { readonly type: 'load.retry' }
  /** The provider solved the challenge and handed over a token. */
  | { readonly type: 'token.received'; readonly token: string }
  /** The provider's token expired or the challenge timed out: a new one is needed. */
  | { readonly type: 'token.expired' }
  /** The provider reported a challenge error (it shows its own message and retries). */
  | { readonly type: 'challenge.failed' };

export interface TurnstileContext {
  /** The provider's token once the challenge is solved, else null. */
  readonly token: string | null;
}

/**
 * The bot check (Cloudflare Turnstile) of the registration and reset pages.
 * idle -> (widget.mounted) loading: `loadTurnstile` injects the provider's script once and
 * resolves when it is ready -> ready: the widget renders the challenge -> solved: a token is
 * held (sent with the request as `turnstile=`); it expires back to ready. A script that does
 * not load leaves the check `failed` ('Failed to load Turnstile.'), with a retry.
 */
export const turnstileMachine = setup({
  types: {
    context: {} as TurnstileContext,
    events: {} as TurnstileEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadTurnstile: fromPromise<void>(() => {
      throw new Error('loadTurnstile not provided');
    }),
  },
  actions: {
    takeToken: assign({ token: (_, params: { token: string }) => params.token }),
    dropToken: assign({ token: null }),
  },
}).createMachine({
  id: 'turnstile',
  context: { token: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'widget.mounted': 'loading' },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadTurnstile',
        src: 'loadTurnstile',
        input: undefined,
        onDone: 'ready',
        onError: 'failed',
      },
    },
    ready: {
      on: {
        'token.received': {
          target: 'solved',
          actions: { type: 'takeToken', params: ({ event }) => ({ token: event.token }) },
        },
      },
    },
    solved: {
      on: {
        'token.received': {
          target: 'solved',
          actions: { type: 'takeToken', params: ({ event }) => ({ token: event.token }) },
        },
        'token.expired': { target: 'ready', actions: 'dropToken' },
        'challenge.failed': { target: 'ready', actions: 'dropToken' },
      },
    },
    failed: {
      tags: ['error'],
      on: { 'load.retry': 'loading' },
    },
  },
});
