import { useSelector } from '@xstate/react';
import {
  registerMachine,
  selectCanSendCode,
  selectCodeSecondsLeft,
  selectEmailVerification,
  selectFieldErrors,
  selectIsRegistered,
  selectIsSendingCode,
  selectIsSubmitting,
  selectTurnstileEnabled,
  type SessionRef,
} from '../../machines/register';
import { useMachineActor } from '../app/machineRegistry';
import { RegisterPageView } from './RegisterPageView';
import { Turnstile, useTurnstile } from './Turnstile';

export interface RegisterPageContainerProps {
  /** The app's session: the register machine takes the server's flags from its status. */
  readonly session: SessionRef;
  /** status.turnstile_site_key */
  readonly turnstileSiteKey: string;
  /** `?aff=` of the invite link ('' without one). */
  readonly affCode: string;
}

/**
 * The registration workflow (register machine) and its bot check (turnstile machine). The
 * server's flags are the machine's (it follows the session's status). The submit and send-code
 * events carry the current bot-check token.
 */
export function RegisterPageContainer({ session, turnstileSiteKey, affCode }: RegisterPageContainerProps) {
  const actorRef = useMachineActor(registerMachine, { session, affCode });
  const turnstile = useTurnstile();
  const emailVerification = useSelector(actorRef, selectEmailVerification);
  const turnstileEnabled = useSelector(actorRef, selectTurnstileEnabled);
  const submitting = useSelector(actorRef, selectIsSubmitting);
  const registered = useSelector(actorRef, selectIsRegistered);
  const sendingCode = useSelector(actorRef, selectIsSendingCode);
  const canSendCode = useSelector(actorRef, selectCanSendCode);
  const codeSecondsLeft = useSelector(actorRef, selectCodeSecondsLeft);
  const fieldErrors = useSelector(actorRef, selectFieldErrors);
  return (
    <RegisterPageView
      emailVerification={emailVerification}
      submitting={submitting}
      registered={registered}
      sendingCode={sendingCode}
      canSendCode={canSendCode}
      codeSecondsLeft={codeSecondsLeft}
      fieldErrors={fieldErrors}
      onFieldEdit={(field) => actorRef.send({ type: 'field.edit', field })}
      turnstile={turnstileEnabled ? <Turnstile actorRef={turnstile.actorRef} siteKey={turnstileSiteKey} /> : undefined}
      onSubmit={(values) => actorRef.send({ type: 'register.submit', values, turnstileToken: turnstile.token })}
      onSendCode={(email) => actorRef.send({ type: 'code.send', email, turnstileToken: turnstile.token })}
    />
  );
}
