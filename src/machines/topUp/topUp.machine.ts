import { assign, emit, enqueueActions, fromPromise, sendTo, setup } from 'xstate';
import { describeError, isApiError } from '../../domain/apiError';
import { formatQuota, type QuotaDisplay } from '../../domain/format';
import { msg, notify, type NotifyEvent } from '../../domain/message';
import type { User } from '../../domain/user';
import { validateRedeemCode, validateTopUpLink, type Verdict } from '../../domain/validation';
import { followSession, readSessionFacts, type SessionChanged, type SessionRef } from '../sessionWatch';

export interface TopUpInput {
  /**
   * The app's session actor: the user, the top-up link and the quota display are read from it
   * at start and follow it (`session.changed`); a redemption hands it the refreshed account.
   */
  readonly session: SessionRef;
}

export type TopUpEvent =
  | { readonly type: 'code.change'; readonly code: string }
  | { readonly type: 'redeem.submit' }
  /** The "top up" button: opens status.top_up_link. */
  | { readonly type: 'link.open' }
  | { readonly type: 'account.reload' }
  | SessionChanged;

export interface TopUpContext {
  readonly session: SessionRef;
  /** The account: the session's until the fresh record arrives (ids for the top-up link). */
  readonly user: User | null;
  /** How quotas are shown (status display_in_currency / quota_per_unit). */
  readonly quotaDisplay: QuotaDisplay;
  /** status.top_up_link ('' when root has not set one). */
  readonly topUpLink: string;
  /** The redemption code as typed. */
  readonly code: string;
  /** The link being opened (while the transaction id is made), else ''. */
  readonly pendingLink: string;
}

export type TopUpEmitted = NotifyEvent;

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
 * added (in the quota display), empties the code, reloads the account and hands it to the
 * session (`session.userUpdated`, the header and stored user follow); "top up" without a
 * configured link says the super administrator has not set one, else makes a transaction id
 * (`createTransactionId`) and opens the link (`openWindow`). The user, the link and the quota
 * display follow the session for as long as the page lives (`followSession`).
 */
export const topUpMachine = setup({
  types: {
    context: {} as TopUpContext,
    input: {} as TopUpInput,
    events: {} as TopUpEvent,
    emitted: {} as TopUpEmitted,
    tags: {} as 'busy' | 'loading',
    children: {} as { followSession: 'followSession'; loadSelf: 'loadSelf'; redeemCode: 'redeemCode'; createTransactionId: 'createTransactionId' },
  },
  actors: {
    followSession,
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
    hasLink: ({ context }) => validateTopUpLink(context.topUpLink).ok,
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
    takeFacts: assign((_, params: SessionChanged) => ({
      ...(params.changed.includes('user') && params.facts.user !== null ? { user: params.facts.user } : {}),
      quotaDisplay: params.facts.quotaDisplay,
      topUpLink: params.facts.topUpLink,
    })),
    rememberLink: assign({ pendingLink: ({ context }) => context.topUpLink.trim() }),
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
    tellSession: sendTo(
      ({ context }) => context.session,
      (_, params: { user: User }) => ({ type: 'session.userUpdated' as const, user: params.user }),
    ),
  },
}).createMachine({
  id: 'topUp',
  context: ({ input }) => {
    const facts = readSessionFacts(input.session);
    return { session: input.session, user: facts.user, quotaDisplay: facts.quotaDisplay, topUpLink: facts.topUpLink, code: '', pendingLink: '' };
  },
  invoke: { id: 'followSession', src: 'followSession', input: ({ context }) => ({ session: context.session }) },
  on: {
    'session.changed': { actions: { type: 'takeFacts', params: ({ event }) => event } },
  },
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
          { guard: 'hasLink', target: 'openingLink', actions: 'rememberLink' },
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
            { type: 'tellSession', params: ({ event }) => ({ user: event.output }) },
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
