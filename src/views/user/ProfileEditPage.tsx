import { useSelector } from '@xstate/react';
import {
  profileEditMachine,
  selectBindings,
  selectCanSubmit,
  selectFieldErrors,
  selectForm,
  selectIsBusy,
  selectIsLoading,
  selectIsSaving,
  selectLoadFailed,
} from '../../machines/profileEdit';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { ProfileEditPageView } from './ProfileEditPageView';

/**
 * Route page for /user/edit (own profile; profileEdit machine, no props): after a save the
 * machine hands the account to the session, so the header shows the new name.
 */
export function ProfileEditPage() {
  const session = SessionContext.useActorRef();
  const actorRef = useMachineActor(profileEditMachine, { session });
  const form = useSelector(actorRef, selectForm);
  const loading = useSelector(actorRef, selectIsLoading);
  const loadFailed = useSelector(actorRef, selectLoadFailed);
  const busy = useSelector(actorRef, selectIsBusy);
  const saving = useSelector(actorRef, selectIsSaving);
  const canSubmit = useSelector(actorRef, selectCanSubmit);
  const bindings = useSelector(actorRef, selectBindings);
  const fieldErrors = useSelector(actorRef, selectFieldErrors);
  return (
    <ProfileEditPageView
      form={form}
      loading={loading}
      loadFailed={loadFailed}
      busy={busy}
      saving={saving}
      canSubmit={canSubmit}
      onChange={(field, value) => actorRef.send({ type: 'field.change', field, value })}
      onSubmit={() => actorRef.send({ type: 'profile.submit' })}
      onRetry={() => actorRef.send({ type: 'profile.retry' })}
      bindings={bindings}
      fieldErrors={fieldErrors}
      onCancel={() => actorRef.send({ type: 'profile.cancel' })}
    />
  );
}
