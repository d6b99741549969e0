import { useSelector } from '@xstate/react';
import type { QuotaDisplay } from '../../domain/format';
import {
  pricingMachine,
  selectError,
  selectGroup,
  selectGroupRatio,
  selectModelCount,
  selectPhase,
  selectSearch,
  selectShownModels,
  selectSort,
} from '../../machines/pricing';
import { useMachineActor } from '../app/machineRegistry';
import { PricingPageView } from './PricingPageView';

export interface PricingPageProps {
  readonly quotaDisplay: QuotaDisplay;
}

/** Route page for /pricing (pricing machine). */
export function PricingPage({ quotaDisplay }: PricingPageProps) {
  const actorRef = useMachineActor(pricingMachine);
  return (
    <PricingPageView
      phase={useSelector(actorRef, selectPhase)}
      group={useSelector(actorRef, selectGroup)}
      groupRatio={useSelector(actorRef, selectGroupRatio)}
      models={useSelector(actorRef, selectShownModels)}
      total={useSelector(actorRef, selectModelCount)}
      search={useSelector(actorRef, selectSearch)}
      sort={useSelector(actorRef, selectSort)}
      error={useSelector(actorRef, selectError)}
      quotaDisplay={quotaDisplay}
      onSearch={(text) => actorRef.send({ type: 'search.change', text })}
      onSort={(key) => actorRef.send({ type: 'sort.toggle', key })}
      onRetry={() => actorRef.send({ type: 'pricing.retry' })}
    />
  );
}
