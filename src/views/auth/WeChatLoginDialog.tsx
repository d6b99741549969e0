import { useSelector } from '@xstate/react';
import { selectError, selectIsOpen, selectIsSubmitting, wechatLoginMachine } from '../../machines/wechatLogin';
import { useMachineActor } from '../app/machineRegistry';
import { useForwardSignIn } from './useForwardSignIn';
import { WeChatLoginDialogView } from './WeChatLoginDialogView';

/** The login page's WeChat code login (wechatLogin machine); a signed-in user goes to the session. */
export function WeChatLoginDialog({ qrCodeUrl }: { readonly qrCodeUrl: string }) {
  const actorRef = useMachineActor(wechatLoginMachine);
  useForwardSignIn(actorRef);

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
