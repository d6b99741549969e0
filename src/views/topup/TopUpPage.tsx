import { useSelector } from '@xstate/react';
import {
  selectCode,
  selectIsBusy,
  selectIsLoading,
  selectIsOpeningLink,
  selectIsRedeeming,
  selectRemainingQuotaText,
  topUpMachine,
} from '../../machines/topUp';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { TopUpPageView } from './TopUpPageView';

/**
 * Route page for /topup (topUp machine, no props): the machine follows the session (user, top-up
 * link, quota display) and hands it the account after a redemption.
 */
export function TopUpPage() {
  const session = SessionContext.useActorRef();
  const actorRef = useMachineActor(topUpMachine, { session });
  const remainingQuota = useSelector(actorRef, selectRemainingQuotaText);
  const loading = useSelector(actorRef, selectIsLoading);
  const code = useSelector(actorRef, selectCode);
  const redeeming = useSelector(actorRef, selectIsRedeeming);
  const openingLink = useSelector(actorRef, selectIsOpeningLink);
  const busy = useSelector(actorRef, selectIsBusy);
  return (
    <TopUpPageView
      remainingQuota={remainingQuota}
      loading={loading}
      code={code}
      redeeming={redeeming}
      openingLink={openingLink}
      busy={busy}
      onCodeChange={(value) => actorRef.send({ type: 'code.change', code: value })}
      onRedeem={() => actorRef.send({ type: 'redeem.submit' })}
      onTopUp={() => actorRef.send({ type: 'link.open' })}
    />
  );
}
