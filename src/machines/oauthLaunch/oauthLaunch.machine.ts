import { assign, emit, fromPromise, setup } from 'xstate';
import { describeApiError, type ApiError } from '../../domain/apiError';
import { notify, type NotifyEvent } from '../../domain/message';

export type OAuthProvider = 'github' | 'lark';

export interface OAuthLaunchInput {
  /** The console's own origin (e.g. `https://console.example.com`): Lark's callback is `<origin>/oauth/lark`. */
  readonly origin: string;
}

export type OAuthLaunchEvent = {
  readonly type: 'oauth.launch';
  readonly provider: OAuthProvider;
  /** From the status: `github_client_id` or `lark_client_id`. */
  readonly clientId: string;
};

export interface OAuthLaunchContext {
  readonly origin: string;
  /** The launch in flight (its state is being fetched), else null. */
  readonly pending: { readonly provider: OAuthProvider; readonly clientId: string } | null;
}

/** The provider's authorisation page (contract §2.3.8 "Console redirect URLs"). */
export function authorizeUrl(provider: OAuthProvider, clientId: string, state: string, origin: string): string {
  const q = encodeURIComponent;
  switch (provider) {
    case 'github':
      return `https://github.com/login/oauth/authorize?client_id=${q(clientId)}&state=${q(state)}&scope=user:email`;
    case 'lark':
      return `https://open.feishu.cn/open-apis/authen/v1/index?redirect_uri=${q(`${origin}/oauth/lark`)}&app_id=${q(clientId)}&state=${q(state)}`;
  }
}

/**
 * The login page's GitHub / Lark buttons: fetch a fresh OAuth state from the server, then open
 * the provider's authorisation page in a new window. One launch at a time; a failure shows the
 * API error and the buttons are ready again.
 */
export const oauthLaunchMachine = setup({
  types: {
    context: {} as OAuthLaunchContext,
    input: {} as OAuthLaunchInput,
    events: {} as OAuthLaunchEvent,
    emitted: {} as NotifyEvent,
    tags: {} as 'busy',
  },
  actors: {
    fetchOAuthState: fromPromise<string>(() => {
      throw new Error('fetchOAuthState not provided');
    }),
  },
  actions: {
    /** Browser side effect (window.open in a new window), provided at the composition root. */
    openWindow: (_, _params: { url: string }) => {
      throw new Error('openWindow not provided');
    },
    remember: assign({ pending: (_, params: { provider: OAuthProvider; clientId: string }) => params }),
    forget: assign({ pending: null }),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeApiError(params.error as ApiError);
      return notify(d.level, d.message);
    }),
  },
}).createMachine({
  id: 'oauthLaunch',
  context: ({ input }) => ({ origin: input.origin, pending: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'oauth.launch': {
          target: 'fetchingState',
          actions: {
            type: 'remember',
            params: ({ event }) => ({ provider: event.provider, clientId: event.clientId }),
          },
        },
      },
    },
    fetchingState: {
      tags: ['busy'],
      invoke: {
        id: 'fetchOAuthState',
        src: 'fetchOAuthState',
        input: () => undefined,
        onDone: {
          target: 'idle',
          actions: [
            {
              type: 'openWindow',
              params: ({ context, event }) => {
                const p = context.pending!;
                return { url: authorizeUrl(p.provider, p.clientId, event.output, context.origin) };
              },
            },
            'forget',
          ],
        },
        onError: {
          target: 'idle',
          actions: [{ type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) }, 'forget'],
        },
      },
    },
  },
});
