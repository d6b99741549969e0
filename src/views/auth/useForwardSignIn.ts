import { useEffect } from 'react';
import type { AnyActorRef } from 'xstate';
import type { SignedInEvent } from '../../machines/oauthCallback/signedIn';
import { SessionContext } from '../app/sessionContext';

/** Hands a user signed in by a page's machine (OAuth callback, WeChat code) to the app session. */
export function useForwardSignIn(actorRef: AnyActorRef): void {
  const session = SessionContext.useActorRef();
  useEffect(() => {
    const sub = actorRef.on('signedIn', (e: SignedInEvent) => {
      session.send({ type: 'session.signedIn', user: e.user, to: e.to });
    });
    return () => sub.unsubscribe();
  }, [actorRef, session]);
}
