import type { SessionRef } from './sessionWatch';

type ErrorArgs = { readonly event: { readonly error: unknown } };
type SessionArgs<TContext> = { readonly context: TContext };

/**
 * The states of a save that a 401 does not lose, for a machine that invokes `awaitSession` and
 * takes its `session.restored` / `session.lost`:
 * - `saving` runs `save`; a failure that `canAwait` (a guard taking `{ error }`) finds to be the
 *   session's end goes to `awaitingSession`, any other goes where `save.onError` says;
 * - `awaitingSession`: the session's sign-in dialog is open and the draft waits (`awaitSession`);
 *   the same user back → `resaving`; someone else signed in, or nobody → `left`;
 * - `resaving` sends the same payload once more (`save` as is: a second 401 is an ordinary failure);
 * - `left` is final: the page is left without saving (the session navigates).
 * Spread into the chart's `states` where `saving` belongs.
 */
export const sessionRecoveryStates = <
  TContext extends { readonly session?: SessionRef | null },
  const TGuard extends string,
  const TSrc extends string,
  TInput,
  const TDone,
  const TError,
>(
  canAwait: TGuard,
  save: {
    readonly id: TSrc;
    readonly src: TSrc;
    readonly input: (args: SessionArgs<TContext>) => TInput;
    readonly onDone: TDone;
    readonly onError: TError;
  },
) => ({
  saving: {
    tags: ['busy' as const],
    invoke: {
      ...save,
      onError: [
        // the session ended: wait for the sign-in dialog instead of losing the draft
        { guard: { type: canAwait, params: ({ event }: ErrorArgs) => ({ error: event.error }) }, target: 'awaitingSession' as const },
        save.onError,
      ],
    },
  },
  /** The save answered 401: the session's sign-in dialog is open; the draft waits. */
  awaitingSession: {
    tags: ['busy' as const],
    invoke: {
      id: 'awaitSession' as const,
      src: 'awaitSession' as const,
      // reached only through `canAwait`, which a machine without a session never passes
      input: ({ context }: SessionArgs<TContext>) => ({ session: context.session as SessionRef }),
    },
    on: {
      'session.restored': 'resaving' as const,
      'session.lost': 'left' as const,
    },
  },
  /** The same user signed in again: the same payload is sent once more (a second 401 is an ordinary failure). */
  resaving: { tags: ['busy' as const], invoke: save },
  left: { type: 'final' as const },
});
