import { useSelector } from '@xstate/react';
import {
  registerMachine,
  selectCanSendCode,
  selectCodeSecondsLeft,
  selectIsRegistered,
  selectIsSendingCode,
  selectIsSubmitting,
} from '../../machines/register';
import { useMachineActor } from '../app/machineRegistry';
import { RegisterPageView } from './RegisterPageView';
import { Turnstile, useTurnstile } from './Turnstile';

export interface RegisterPageContainerProps {
  /** status.email_verification */
  readonly emailVerification: boolean;
  /** status.turnstile_check */
  readonly turnstileEnabled: boolean;
  /** status.turnstile_site_key */
  readonly turnstileSiteKey: string;
  /** `?aff=` of the invite link ('' without one). */
  readonly affCode: string;
}

/**
 * The registration workflow (register machine) and its bot check (turnstile machine) for the
 * given server flags. The submit and send-code events carry the current bot-check token.
 */
export function RegisterPageContainer({ emailVerification, turnstileEnabled, turnstileSiteKey, affCode }: RegisterPageContainerProps) {
  const actorRef = useMachineActor(registerMachine, { emailVerification, turnstileEnabled, affCode });
  const turnstile = useTurnstile();
  const submitting = useSelector(actorRef, selectIsSubmitting);
  const registered = useSelector(actorRef, selectIsRegistered);
  const sendingCode = useSelector(actorRef, selectIsSendingCode);
  const canSendCode = useSelector(actorRef, selectCanSendCode);
  const codeSecondsLeft = useSelector(actorRef, selectCodeSecondsLeft);
  return (
    <RegisterPageView
      emailVerification={emailVerification}
      submitting={submitting}
      registered={registered}
      sendingCode={sendingCode}
      canSendCode={canSendCode}
      codeSecondsLeft={codeSecondsLeft}
      turnstile={turnstileEnabled ? <Turnstile actorRef={turnstile.actorRef} siteKey={turnstileSiteKey} /> : undefined}
      onSubmit={(values) => actorRef.send({ type: 'register.submit', values, turnstileToken: turnstile.token })}
      onSendCode={(email) => actorRef.send({ type: 'code.send', email, turnstileToken: turnstile.token })}
    />
  );
}
