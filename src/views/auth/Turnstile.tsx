import { useCallback } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectPhase, selectToken, turnstileMachine } from '../../machines/turnstile';
import { useMachineActor } from '../app/machineRegistry';
import { TurnstileView } from './TurnstileView';

export type TurnstileActorRef = ActorRefFrom<typeof turnstileMachine>;

/**
 * The page's bot-check actor (the provided turnstile machine) and its current token ('' while
 * there is none). The page sends the token with its request; its workflow checks it.
 */
export function useTurnstile(): { readonly actorRef: TurnstileActorRef; readonly token: string } {
  const actorRef = useMachineActor(turnstileMachine);
  const token = useSelector(actorRef, selectToken);
  return { actorRef, token };
}

/** The bot-check widget for `actorRef`: the provider's events become the machine's events. */
export function Turnstile({ actorRef, siteKey }: { readonly actorRef: TurnstileActorRef; readonly siteKey: string }) {
  const phase = useSelector(actorRef, selectPhase);
  const onMounted = useCallback(() => actorRef.send({ type: 'widget.mounted' }), [actorRef]);
  const onToken = useCallback((token: string) => actorRef.send({ type: 'token.received', token }), [actorRef]);
  const onExpired = useCallback(() => actorRef.send({ type: 'token.expired' }), [actorRef]);
  const onChallengeError = useCallback(() => actorRef.send({ type: 'challenge.failed' }), [actorRef]);
  const onRetry = useCallback(() => actorRef.send({ type: 'load.retry' }), [actorRef]);
  return (
    <TurnstileView
      siteKey={siteKey}
      phase={phase}
      onMounted={onMounted}
      onToken={onToken}
      onExpired={onExpired}
      onChallengeError={onChallengeError}
      onRetry={onRetry}
    />
  );
}

/** The bot-check settings of the server status (off while the status is unknown). */
export function turnstileSettings(status: {
  readonly turnstile_check: boolean;
  readonly turnstile_site_key: string;
} | null): { readonly enabled: boolean; readonly siteKey: string } {
  return status === null ? { enabled: false, siteKey: '' } : { enabled: status.turnstile_check, siteKey: status.turnstile_site_key };
}
