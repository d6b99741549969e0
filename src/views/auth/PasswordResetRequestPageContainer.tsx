import { useSelector } from '@xstate/react';
import {
  passwordResetRequestMachine,
  selectCanRequest,
  selectIsSending,
  selectSecondsLeft,
} from '../../machines/passwordResetRequest';
import { useMachineActor } from '../app/machineRegistry';
import { PasswordResetRequestPageView } from './PasswordResetRequestPageView';
import { Turnstile, useTurnstile } from './Turnstile';

export interface PasswordResetRequestPageContainerProps {
  /** status.turnstile_check */
  readonly turnstileEnabled: boolean;
  /** status.turnstile_site_key */
  readonly turnstileSiteKey: string;
}

/** The reset-mail workflow (passwordResetRequest machine) and its bot check. */
export function PasswordResetRequestPageContainer({ turnstileEnabled, turnstileSiteKey }: PasswordResetRequestPageContainerProps) {
  const actorRef = useMachineActor(passwordResetRequestMachine, { turnstileEnabled });
  const turnstile = useTurnstile();
  const sending = useSelector(actorRef, selectIsSending);
  const canRequest = useSelector(actorRef, selectCanRequest);
  const secondsLeft = useSelector(actorRef, selectSecondsLeft);
  return (
    <PasswordResetRequestPageView
      sending={sending}
      canRequest={canRequest}
      secondsLeft={secondsLeft}
      turnstile={turnstileEnabled ? <Turnstile actorRef={turnstile.actorRef} siteKey={turnstileSiteKey} /> : undefined}
      onRequest={(email) => actorRef.send({ type: 'reset.request', email, turnstileToken: turnstile.token })}
    />
  );
}
