import { useSelector } from '@xstate/react';
import { selectError, selectIsOpen, selectIsSubmitting, wechatLoginMachine } from '../../machines/wechatLogin';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { WeChatLoginDialogView } from './WeChatLoginDialogView';

/** The login page's WeChat code login (wechatLogin machine); the machine hands a signed-in user to the session. */
export function WeChatLoginDialog({ qrCodeUrl }: { readonly qrCodeUrl: string }) {
  const session = SessionContext.useActorRef();
  const actorRef = useMachineActor(wechatLoginMachine, { session });

  const open = useSelector(actorRef, selectIsOpen);
  const submitting = useSelector(actorRef, selectIsSubmitting);
  const error = useSelector(actorRef, selectError);
  return (
    <WeChatLoginDialogView
      open={open}
      submitting={submitting}
      error={error}
      qrCodeUrl={qrCodeUrl}
      onOpen={() => actorRef.send({ type: 'dialog.open' })}
      onClose={() => actorRef.send({ type: 'dialog.close' })}
      onSubmit={(code) => actorRef.send({ type: 'code.submit', code })}
    />
  );
}
