import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { logCleanMachine, selectIsClearing, selectIsConfirming, selectLastCount, selectTarget } from '../../machines/logClean';
import { useMachineActor } from '../app/machineRegistry';
import { LogCleanPanelView } from './LogCleanPanelView';

/** The clear-history-logs panel of the operation settings (its own logClean machine). */
export function LogCleanPanel() {
  // When the panel opened (a constant, not workflow state): the default target counts from it.
  const [openedAt] = useState(() => Math.floor(Date.now() / 1000));
  const actor = useMachineActor(logCleanMachine, { now: openedAt });
  const target = useSelector(actor, selectTarget);
  const confirming = useSelector(actor, selectIsConfirming);
  const clearing = useSelector(actor, selectIsClearing);
  const lastCount = useSelector(actor, selectLastCount);
  return (
    <LogCleanPanelView
      target={target}
      confirming={confirming}
      clearing={clearing}
      lastCount={lastCount}
      onTargetChange={(value) => actor.send({ type: 'target.change', value })}
      onRequest={() => actor.send({ type: 'clean.request' })}
      onConfirm={() => actor.send({ type: 'confirm.accept' })}
      onCancel={() => actor.send({ type: 'confirm.cancel' })}
    />
  );
}
