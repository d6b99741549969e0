import { fromCallback, type ActorRefFrom, type EventObject } from 'xstate';
import type { sessionMachine } from '../session/session.machine';
import type { SessionRef } from './sessionWatch';

/** What `awaitSession` reports to the form that invoked it (once). */
export type AwaitSessionOutcome = { readonly type: 'session.restored' } | { readonly type: 'session.lost' };

export interface AwaitSessionInput {
  /** The app's session actor (src/machines/session). */
  readonly session: SessionRef;
}

type Session = ActorRefFrom<typeof sessionMachine>;
type SessionSnapshot = ReturnType<Session['getSnapshot']>;

/** The states in which the session is still being won back (the form keeps waiting). */
const isWaiting = (s: SessionSnapshot): boolean =>
  s.matches({ auth: 'expiring' }) || s.matches({ auth: 'reauthenticating' }) || s.matches({ auth: 'reauthSigningIn' });

/** The outcome a session snapshot means for a form saved by `userId`, or null while it is still undecided. */
export function outcomeOf(s: SessionSnapshot, userId: number | null): AwaitSessionOutcome | null {
  if (isWaiting(s)) return null;
  if (userId !== null && s.matches({ auth: 'signedIn' }) && s.context.user?.id === userId) return { type: 'session.restored' };
  return { type: 'session.lost' };
}

/**
 * A form's save answered 401: asks the session for the sign-in dialog (`reauth.request`) and
 * reports back `session.restored` when the same user is signed in again, or `session.lost`
 * (cancelled, someone else signed in, logged out, the two-factor handover, another tab signed out).
 * Invoked by the form machines (src/machines/form, profileEdit); provided at the composition root.
 */
export const awaitSession = fromCallback<EventObject, AwaitSessionInput>(({ input, sendBack }) => {
  const session = input.session as Session;
  const start = session.getSnapshot();
  const userId = start.context.user?.id ?? null;
  if (userId !== null && (start.matches({ auth: 'signedIn' }) || start.matches({ auth: 'expiring' }))) session.send({ type: 'reauth.request' });
  let told = false;
  const report = (s: SessionSnapshot): void => {
    if (told) return;
    const outcome = outcomeOf(s, userId);
    if (outcome === null) return;
    told = true;
    sendBack(outcome);
  };
  const sub = session.subscribe(report);
  report(session.getSnapshot());
  return () => sub.unsubscribe();
});
