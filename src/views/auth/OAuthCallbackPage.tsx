import { useSearchParams } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import {
  maxAttempts,
  oauthCallbackMachine,
  selectAttempt,
  selectLastError,
  selectPhase,
  selectRetryWaitSeconds,
  type OAuthProvider,
} from '../../machines/oauthCallback';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { OAuthCallbackPageView } from './OAuthCallbackPageView';

/**
 * Route page for /oauth/github and /oauth/lark: forwards the query's code and state to the
 * server (oauthCallback machine), which hands a signed-in user to the app session.
 */
export function OAuthCallbackPage({ provider }: { readonly provider: OAuthProvider }) {
  const [params] = useSearchParams();
  const session = SessionContext.useActorRef();
  const actorRef = useMachineActor(oauthCallbackMachine, {
    session,
    provider,
    code: params.get('code') ?? '',
    state: params.get('state') ?? '',
  });
  const phase = useSelector(actorRef, selectPhase);
  const attempt = useSelector(actorRef, selectAttempt);
  const retryInSeconds = useSelector(actorRef, selectRetryWaitSeconds);
  const lastError = useSelector(actorRef, selectLastError);
  return (
    <OAuthCallbackPageView
      provider={provider}
      phase={phase}
      attempt={attempt}
      maxAttempts={maxAttempts}
      retryInSeconds={retryInSeconds}
      lastError={lastError}
    />
  );
}
