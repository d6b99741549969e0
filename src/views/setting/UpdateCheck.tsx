import { useSelector } from '@xstate/react';
import { selectConsoleVersion, selectIsChecking, selectNewRelease, updateCheckMachine } from '../../machines/updateCheck';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { UpdateCheckView } from './UpdateCheckView';

/** The check-for-updates button of the personalisation settings (its own updateCheck machine). */
export function UpdateCheck() {
  const currentVersion = SessionContext.useSelector(selectConsoleVersion);
  const actor = useMachineActor(updateCheckMachine, { currentVersion });
  const checking = useSelector(actor, selectIsChecking);
  const release = useSelector(actor, selectNewRelease);
  return (
    <UpdateCheckView
      currentVersion={currentVersion}
      checking={checking}
      release={release}
      onCheck={() => actor.send({ type: 'check.request' })}
      onClose={() => actor.send({ type: 'dialog.close' })}
    />
  );
}
