import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { describeError, isApiError } from '../../domain/apiError';
import { formatQuota, type QuotaDisplay } from '../../domain/format';
import { msg, notify, type NotifyEvent } from '../../domain/message';
import type { User } from '../../domain/user';
import { validateRedeemCode, validateTopUpLink, type Verdict } from '../../domain/validation';

export interface TopUpInput {
  /** The session's user (ids for the top-up link until the fresh record arrives). */
  readonly user: User | null;
  /** How quotas are shown (status display_in_currency / quota_per_unit). */
  readonly quotaDisplay: QuotaDisplay;
}

export type TopUpEvent =
  | { readonly type: 'code.change'; readonly code: string }
  | { readonly type: 'redeem.submit' }
  /** The "top up" button, with status.top_up_link ('' when root has not set one). */
  | { readonly type: 'link.open'; readonly topUpLink: string }
  | { readonly type: 'account.reload' };

export interface TopUpContext {
  readonly user: User | null;
  readonly quotaDisplay: QuotaDisplay;
  /** The redemption code as typed. */
  readonly code: string;
  /** The link being opened (while the transaction id is made), else ''. */
  readonly pendingLink: string;
}

/** Emitted after a redemption with the account as the server now has it (the shell stores it). */
export interface UserRefreshed {
  readonly type: 'user.refreshed';
  readonly user: User;
}

export type TopUpEmitted = NotifyEvent | UserRefreshed;

/** `redeemCode`: POST /api/user/topup {key}; the quota added. */
export interface RedeemCodeInput {
  readonly key: string;
}

/** `openWindow` (an action provided at the composition root): the URL in a new tab. */
export interface OpenWindowParams {
  readonly url: string;
}

/**
 * The external top-up page (spec "Top-up page", contract §2.6): the configured link with
 * username, user_id and a random transaction_id appended as query parameters.
 */
export function topUpUrl(link: string, user: Pick<User, 'id' | 'username'>, transactionId: string): string {
  const query = new URLSearchParams({ username: user.username, user_id: String(user.id), transaction_id: transactionId });
  const base = link.trim();
  const separator = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${separator}${query.toString()}`;
}

/** Why a redemption is not sent: an empty code says 'please enter a top-up code!'. */
export const redeemVerdict = (code: string): Verdict => validateRedeemCode(code);

/** A failed redemption: a call that did not reach the server says 'Request failed' (spec §8). */
export function redeemFailure(error: unknown): NotifyEvent {
  if (!isApiError(error) || error._tag === 'Network') return notify('error', msg('topUp.requestFailed'));
  const d = describeError(error);
  return notify(d.level, d.message);
}

/**
 * The /topup page: loads the account (`loadSelf`) to show the remaining quota; "redeem" with an
 * empty code says 'please enter a top-up code!', else calls `redeemCode`, says how much was
 * added (in the quota display), empties the code, reloads the account and emits
 * `user.refreshed`; "top up" without a configured link says the super administrator has not set
 * one, else makes a transaction id (`createTransactionId`) and opens the link (`openWindow`).
 */
export const topUpMachine = setup({
  types: {
    context: {} as TopUpContext,
    input: {} as TopUpInput,
    events: {} as TopUpEvent,
    emitted: {} as TopUpEmitted,
    tags: {} as 'busy' | 'loading',
  },
  actors: {
    loadSelf: fromPromise<User>(() => {
      throw new Error('loadSelf not provided');
    }),
    redeemCode: fromPromise<number, RedeemCodeInput>(() => {
      throw new Error('redeemCode not provided');
    }),
    createTransactionId: fromPromise<string>(() => {
      throw new Error('createTransactionId not provided');
    }),
  },
  guards: {
    canRedeem: ({ context }) => redeemVerdict(context.code).ok,
    hasLink: (_, params: { topUpLink: string }) => validateTopUpLink(params.topUpLink).ok,
    hasUser: ({ context }) => context.user !== null,
  },
  actions: {
    /** Browser side effect provided at the composition root. */
    openWindow: (_, _params: OpenWindowParams) => {
      throw new Error('openWindow not provided');
    },
    takeUser: assign({ user: (_, params: { user: User }) => params.user }),
    setCode: assign({ code: (_, params: { code: string }) => params.code }),
    clearCode: assign({ code: '' }),
    rememberLink: assign({ pendingLink: (_, params: { topUpLink: string }) => params.topUpLink.trim() }),
    forgetLink: assign({ pendingLink: '' }),
    notifyRejection: enqueueActions(({ enqueue }, params: { verdict: Verdict }) => {
      if (!params.verdict.ok && params.verdict.message !== null) enqueue.emit(notify('info', params.verdict.message));
    }),
    notifyNoLink: emit(() => notify('error', msg('validation.topUp.noLink'))),
    notifyFailure: emit((_, params: { error: unknown }) => {
      const d = describeError(params.error);
      return notify(d.level, d.message);
    }),
    notifyRedeemFailure: emit((_, params: { error: unknown }) => redeemFailure(params.error)),
    notifyRedeemed: emit(({ context }, params: { quota: number }) =>
      notify('success', msg('topUp.redeemed', { quota: formatQuota(params.quota, context.quotaDisplay) })),
    ),
    emitRefreshed: emit((_, params: { user: User }): UserRefreshed => ({ type: 'user.refreshed', user: params.user })),
  },
}).createMachine({
  id: 'topUp',
  context: ({ input }) => ({ user: input.user, quotaDisplay: input.quotaDisplay, code: '', pendingLink: '' }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy', 'loading'],
      invoke: {
        id: 'loadSelf',
        src: 'loadSelf',
        input: undefined,
        onDone: { target: 'ready', actions: { type: 'takeUser', params: ({ event }) => ({ user: event.output }) } },
        onError: { target: 'ready', actions: { type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {
      on: {
        // the code is typed while nothing is being redeemed (the field is disabled meanwhile)
        'code.change': { actions: { type: 'setCode', params: ({ event }) => ({ code: event.code }) } },
        'redeem.submit': [
          { guard: 'canRedeem', target: 'redeeming' },
          { actions: { type: 'notifyRejection', params: ({ context }) => ({ verdict: redeemVerdict(context.code) }) } },
        ],
        'link.open': [
          {
            guard: { type: 'hasLink', params: ({ event }) => ({ topUpLink: event.topUpLink }) },
            target: 'openingLink',
            actions: { type: 'rememberLink', params: ({ event }) => ({ topUpLink: event.topUpLink }) },
          },
          { actions: 'notifyNoLink' },
        ],
        'account.reload': 'loading',
      },
    },
    redeeming: {
      tags: ['busy'],
      invoke: {
        id: 'redeemCode',
        src: 'redeemCode',
        input: ({ context }) => ({ key: context.code.trim() }),
        onDone: {
          target: 'refreshing',
          actions: [{ type: 'notifyRedeemed', params: ({ event }) => ({ quota: event.output }) }, 'clearCode'],
        },
        onError: { target: 'ready', actions: { type: 'notifyRedeemFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    refreshing: {
      tags: ['busy'],
      invoke: {
        id: 'loadSelf',
        src: 'loadSelf',
        input: undefined,
        onDone: {
          target: 'ready',
          actions: [
            { type: 'takeUser', params: ({ event }) => ({ user: event.output }) },
            { type: 'emitRefreshed', params: ({ event }) => ({ user: event.output }) },
          ],
        },
        // the code was redeemed; the quota shown is just older
        onError: 'ready',
      },
    },
    openingLink: {
      invoke: {
        id: 'createTransactionId',
        src: 'createTransactionId',
        input: undefined,
        onDone: [
          {
            guard: 'hasUser',
            target: 'ready',
            actions: [
              {
                type: 'openWindow',
                params: ({ context, event }) => ({ url: topUpUrl(context.pendingLink, context.user!, event.output) }),
              },
              'forgetLink',
            ],
          },
          { target: 'ready', actions: 'forgetLink' },
        ],
        onError: { target: 'ready', actions: [{ type: 'notifyFailure', params: ({ event }) => ({ error: event.error }) }, 'forgetLink'] },
      },
    },
  },
});
