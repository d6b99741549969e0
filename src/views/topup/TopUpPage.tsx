import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import { formatQuota, type QuotaDisplay } from '../../domain/format';
import type { User } from '../../domain/user';
import {
  selectCode,
  selectIsBusy,
  selectIsLoading,
  selectIsOpeningLink,
  selectIsRedeeming,
  selectRemainingQuota,
  topUpMachine,
  type UserRefreshed,
} from '../../machines/topUp';
import { useMachineActor } from '../app/machineRegistry';
import { TopUpPageView } from './TopUpPageView';

export interface TopUpPageProps {
  /** The signed-in user (username and id for the top-up link until the account loads). */
  readonly user: User | null;
  /** status.top_up_link ('' when not configured). */
  readonly topUpLink: string;
  readonly quotaDisplay: QuotaDisplay;
  /** The account after a redemption, so the shell stores the new quota. */
  readonly onUserUpdated: (user: User) => void;
}

/** Route page for /topup (topUp machine). */
export function TopUpPage({ user, topUpLink, quotaDisplay, onUserUpdated }: TopUpPageProps) {
  const actorRef = useMachineActor(topUpMachine, { user, quotaDisplay });
  useEffect(() => {
    const sub = actorRef.on('user.refreshed', (e: UserRefreshed) => onUserUpdated(e.user));
    return () => sub.unsubscribe();
  }, [actorRef, onUserUpdated]);
  const quota = useSelector(actorRef, selectRemainingQuota);
  const loading = useSelector(actorRef, selectIsLoading);
  const code = useSelector(actorRef, selectCode);
  const redeeming = useSelector(actorRef, selectIsRedeeming);
  const openingLink = useSelector(actorRef, selectIsOpeningLink);
  const busy = useSelector(actorRef, selectIsBusy);
  return (
    <TopUpPageView
      remainingQuota={quota === null ? null : formatQuota(quota, quotaDisplay)}
      loading={loading}
      code={code}
      redeeming={redeeming}
      openingLink={openingLink}
      busy={busy}
      onCodeChange={(value) => actorRef.send({ type: 'code.change', code: value })}
      onRedeem={() => actorRef.send({ type: 'redeem.submit' })}
      onTopUp={() => actorRef.send({ type: 'link.open', topUpLink })}
    />
  );
}
