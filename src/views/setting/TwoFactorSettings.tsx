import { useSelector } from '@xstate/react';
import {
  selectIsTwoFactorBusy,
  selectRecoveryCodes,
  selectTwoFactorCode,
  selectTwoFactorError,
  selectTwoFactorPanel,
  selectTwoFactorPassword,
  selectTwoFactorSetup,
  selectTwoFactorStatus,
  twoFactorSettingsMachine,
} from '../../machines/twoFactorSettings';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { TwoFactorSettingsView } from './TwoFactorSettingsView';

/** The two-factor section of the personal settings tab (its own page-scoped machine). */
export function TwoFactorSettings() {
  const session = SessionContext.useActorRef();
  const actor = useMachineActor(twoFactorSettingsMachine, { session });
  const panel = useSelector(actor, selectTwoFactorPanel);
  const status = useSelector(actor, selectTwoFactorStatus);
  const setup = useSelector(actor, selectTwoFactorSetup);
  const recoveryCodes = useSelector(actor, selectRecoveryCodes);
  const code = useSelector(actor, selectTwoFactorCode);
  const password = useSelector(actor, selectTwoFactorPassword);
  const error = useSelector(actor, selectTwoFactorError);
  const busy = useSelector(actor, selectIsTwoFactorBusy);
  return (
    <TwoFactorSettingsView
      panel={panel}
      status={status}
      setup={setup}
      recoveryCodes={recoveryCodes}
      code={code}
      password={password}
      error={error}
      busy={busy}
      onReload={() => actor.send({ type: 'status.reload' })}
      onSetup={() => actor.send({ type: 'setup.start' })}
      onConfirmSetup={() => actor.send({ type: 'setup.confirm' })}
      onDisableOpen={() => actor.send({ type: 'disable.open' })}
      onDisableConfirm={() => actor.send({ type: 'disable.confirm' })}
      onRegenerateOpen={() => actor.send({ type: 'regenerate.open' })}
      onRegenerateConfirm={() => actor.send({ type: 'regenerate.confirm' })}
      onCancel={() => actor.send({ type: 'form.cancel' })}
      onCodeChange={(value) => actor.send({ type: 'code.change', value })}
      onPasswordChange={(value) => actor.send({ type: 'password.change', value })}
      onCopyCodes={() => actor.send({ type: 'codes.copy' })}
      onDismissCodes={() => actor.send({ type: 'codes.dismiss' })}
    />
  );
}
