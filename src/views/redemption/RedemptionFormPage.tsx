import { useSelector } from '@xstate/react';
import type { QuotaDisplay } from '../../domain/format';
import {
  redemptionFormMachine,
  selectCreatedKeys,
  selectForm,
  selectIsBusy,
  selectIsCopying,
  selectIsEdit,
  selectIsLoading,
  selectIsSaving,
  selectKeysFile,
  selectLoadFailed,
  selectProblem,
} from '../../machines/redemptionForm';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { RedemptionFormPageView } from './RedemptionFormPageView';

/** Route page for /redemption/add (`id` null) and /redemption/edit/:id (redemptionForm machine). */
export function RedemptionFormPage({ id, quotaDisplay }: { readonly id: number | null; readonly quotaDisplay: QuotaDisplay }) {
  // a save answered 401 waits for the session's sign-in dialog, then saves again
  const session = SessionContext.useActorRef();
  const actorRef = useMachineActor(redemptionFormMachine, { id, session });
  const form = useSelector(actorRef, selectForm);
  const isEdit = useSelector(actorRef, selectIsEdit);
  const loading = useSelector(actorRef, selectIsLoading);
  const loadFailed = useSelector(actorRef, selectLoadFailed);
  const busy = useSelector(actorRef, selectIsBusy);
  const saving = useSelector(actorRef, selectIsSaving);
  const problem = useSelector(actorRef, selectProblem);
  const keys = useSelector(actorRef, selectCreatedKeys);
  const keysFile = useSelector(actorRef, selectKeysFile);
  const copying = useSelector(actorRef, selectIsCopying);
  return (
    <RedemptionFormPageView
      form={form}
      isEdit={isEdit}
      loading={loading}
      loadFailed={loadFailed}
      busy={busy}
      saving={saving}
      problem={problem}
      keys={keys}
      keysFile={keysFile}
      copying={copying}
      quotaDisplay={quotaDisplay}
      onChange={(field, value) => actorRef.send({ type: 'field.change', field, value })}
      onSubmit={() => actorRef.send({ type: 'form.submit' })}
      onRetry={() => actorRef.send({ type: 'form.retry' })}
      onCopyAll={() => actorRef.send({ type: 'keys.copy' })}
      onDownload={() => actorRef.send({ type: 'keys.download' })}
      onAgain={() => actorRef.send({ type: 'form.again' })}
    />
  );
}
