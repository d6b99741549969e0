import { useSearchParams } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import {
  passwordResetConfirmMachine,
  selectEmail,
  selectHasLink,
  selectIsBusy,
  selectIsDone,
  selectNeedsManualCopy,
  selectNewPassword,
} from '../../machines/passwordResetConfirm';
import { useMachineActor } from '../app/machineRegistry';
import { PasswordResetConfirmPageView } from './PasswordResetConfirmPageView';

/**
 * Route page for /user/reset?email=&token= (the link of the reset mail): posts the link,
 * then shows and copies the new password (passwordResetConfirm machine).
 */
export function PasswordResetConfirmPage() {
  const [params] = useSearchParams();
  const actorRef = useMachineActor(passwordResetConfirmMachine, {
    email: params.get('email') ?? '',
    token: params.get('token') ?? '',
  });
  const email = useSelector(actorRef, selectEmail);
  const hasLink = useSelector(actorRef, selectHasLink);
  const busy = useSelector(actorRef, selectIsBusy);
  const done = useSelector(actorRef, selectIsDone);
  const password = useSelector(actorRef, selectNewPassword);
  const needsManualCopy = useSelector(actorRef, selectNeedsManualCopy);
  return (
    <PasswordResetConfirmPageView
      email={email}
      hasLink={hasLink}
      busy={busy}
      done={done}
      password={password}
      needsManualCopy={needsManualCopy}
      onConfirm={() => actorRef.send({ type: 'reset.confirm' })}
    />
  );
}
