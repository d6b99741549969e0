import { emit, sendTo, type ActionArgs, type EventObject } from 'xstate';
import { msg, notify, type NotifyEvent } from '../../domain/message';
import type { ExternalSignIn } from '../../domain/twoFactor';
import type { User } from '../../domain/user';
import type { SessionRef } from './sessionWatch';

/** What a sign-in by another route answers (WeChat code, OAuth callback; only OAuth may answer a bind). */
export type SignInOutcome = { readonly bound: true } | ExternalSignIn;
type SignedInOutcome = Extract<SignInOutcome, { user: User }>;

type OutcomeParams = { readonly outcome: SignInOutcome };
type OutcomeDone = { readonly event: { readonly output: SignInOutcome } };

/**
 * The guard and actions of a machine that signs in by another route (WeChat code, OAuth
 * callback) and hands the outcome to the app's session: the user (`session.signedIn`, then to
 * `to`) or the second step (`session.secondFactorNeeded`: the login page asks for the code).
 * Named in the machine's `setup` (guards and actions); `signInOutcomes` is the chart's side.
 */
export const signInHandOver = <TContext extends { readonly session: SessionRef }, TEvent extends EventObject>(to: string) => ({
  isSecondFactorNeeded: (_: unknown, params: OutcomeParams) => !params.outcome.bound && params.outcome.secondFactor === true,
  tellSession: sendTo(
    ({ context }: ActionArgs<TContext, TEvent, TEvent>) => context.session,
    (_, params: OutcomeParams) => ({
      type: 'session.signedIn' as const,
      // Only reached when the outcome is neither a bind nor a second step (guarded), so the user is there.
      user: (params.outcome as SignedInOutcome).user,
      to,
      enrolmentRequired: (params.outcome as SignedInOutcome).enrolmentRequired === true,
    }),
  ),
  /** The session shows the second step on the login page and signs in from there. */
  handOverSecondFactor: sendTo(
    ({ context }: ActionArgs<TContext, TEvent, TEvent>) => context.session,
    () => ({ type: 'session.secondFactorNeeded' as const, to }),
  ),
  notifySignedIn: emit<TContext, TEvent, undefined, TEvent, NotifyEvent>(() => notify('success', msg('signIn.loggedIn'))),
});

/**
 * The `onDone` branches of the sign-in's invoke (after any of the machine's own, such as a bind):
 * a second step asked → `secondFactor` (handed over); otherwise → `signedIn` (the user handed to
 * the session, "signed in" said). `also` names actions both branches run last.
 */
export const signInOutcomes = <const TExtra extends string = never>(next: {
  readonly secondFactor: string;
  readonly signedIn: string;
  readonly also?: readonly TExtra[];
}) => {
  const also = next.also ?? [];
  return [
    {
      guard: { type: 'isSecondFactorNeeded' as const, params: ({ event }: OutcomeDone) => ({ outcome: event.output }) },
      target: next.secondFactor,
      actions: ['handOverSecondFactor' as const, ...also],
    },
    {
      target: next.signedIn,
      actions: [{ type: 'tellSession' as const, params: ({ event }: OutcomeDone) => ({ outcome: event.output }) }, 'notifySignedIn' as const, ...also],
    },
  ];
};
