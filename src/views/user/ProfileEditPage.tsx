import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import type { User } from '../../domain/user';
import {
  profileEditMachine,
  selectCanSubmit,
  selectForm,
  selectIsBusy,
  selectIsLoading,
  selectIsSaving,
  selectLoadFailed,
  type ProfileSaved,
} from '../../machines/profileEdit';
import { useMachineActor } from '../app/machineRegistry';
import { ProfileEditPageView } from './ProfileEditPageView';

/**
 * Route page for /user/edit (own profile; profileEdit machine). `onSaved` receives the account
 * as the server has it after a save, so the shell can show the new name.
 */
export function ProfileEditPage({ onSaved }: { readonly onSaved: (user: User) => void }) {
  const actorRef = useMachineActor(profileEditMachine);
  useEffect(() => {
    const sub = actorRef.on('profile.saved', (e: ProfileSaved) => onSaved(e.user));
    return () => sub.unsubscribe();
  }, [actorRef, onSaved]);
  const form = useSelector(actorRef, selectForm);
  const loading = useSelector(actorRef, selectIsLoading);
  const loadFailed = useSelector(actorRef, selectLoadFailed);
  const busy = useSelector(actorRef, selectIsBusy);
  const saving = useSelector(actorRef, selectIsSaving);
  const canSubmit = useSelector(actorRef, selectCanSubmit);
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
    />
  );
}
