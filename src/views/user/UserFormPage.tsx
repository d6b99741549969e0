import { useSelector } from '@xstate/react';
import type { QuotaDisplay } from '../../domain/format';
import {
  selectCanSubmit,
  selectForm,
  selectGroupOptions,
  selectIsBusy,
  selectIsEdit,
  selectIsLoading,
  selectIsSaving,
  selectLoadFailed,
  selectFieldErrors,
  userFormMachine,
} from '../../machines/userForm';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { UserFormPageView } from './UserFormPageView';

/**
 * Route page for /user/add (`id` null) and /user/edit/:id (userForm machine). The route keys it
 * by id, so another id starts a fresh form.
 */
export function UserFormPage({ id, quotaDisplay }: { readonly id: number | null; readonly quotaDisplay: QuotaDisplay }) {
  // a save answered 401 waits for the session's sign-in dialog, then saves again
  const session = SessionContext.useActorRef();
  const actorRef = useMachineActor(userFormMachine, { id, session });
  const form = useSelector(actorRef, selectForm);
  const isEdit = useSelector(actorRef, selectIsEdit);
  const groupOptions = useSelector(actorRef, selectGroupOptions);
  const fieldErrors = useSelector(actorRef, selectFieldErrors);
  const loading = useSelector(actorRef, selectIsLoading);
  const loadFailed = useSelector(actorRef, selectLoadFailed);
  const busy = useSelector(actorRef, selectIsBusy);
  const saving = useSelector(actorRef, selectIsSaving);
  const canSubmit = useSelector(actorRef, selectCanSubmit);
  return (
    <UserFormPageView
      isEdit={isEdit}
      form={form}
      groupOptions={groupOptions}
      fieldErrors={fieldErrors}
      quotaDisplay={quotaDisplay}
      loading={loading}
      loadFailed={loadFailed}
      busy={busy}
      saving={saving}
      canSubmit={canSubmit}
      onChange={(field, value) => actorRef.send({ type: 'field.change', field, value })}
      onSubmit={() => actorRef.send({ type: 'form.submit' })}
      onRetry={() => actorRef.send({ type: 'form.retry' })}
      onCancel={() => actorRef.send({ type: 'form.cancel' })}
    />
  );
}
