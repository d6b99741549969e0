import { useSelector } from '@xstate/react';
import type { QuotaDisplay } from '../../domain/format';
import {
  selectAvailableModels,
  selectCanSubmit,
  selectForm,
  selectIsBusy,
  selectIsEdit,
  selectIsLoading,
  selectIsSaving,
  selectLoadFailed,
  selectModelFilter,
  selectProblem,
  tokenFormMachine,
} from '../../machines/tokenForm';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { TokenFormPageView } from './TokenFormPageView';

/** Unix seconds of the click that pressed a quick expiry button. */
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * Route page for /token/add (`id` null) and /token/edit/:id (tokenForm machine). The route keys
 * it by id, so another id starts a fresh form.
 */
export function TokenFormPage({ id, quotaDisplay }: { readonly id: number | null; readonly quotaDisplay: QuotaDisplay }) {
  // a save answered 401 waits for the session's sign-in dialog, then saves again
  const session = SessionContext.useActorRef();
  const actorRef = useMachineActor(tokenFormMachine, { id, session });
  const form = useSelector(actorRef, selectForm);
  const isEdit = useSelector(actorRef, selectIsEdit);
  const availableModels = useSelector(actorRef, selectAvailableModels);
  const modelFilter = useSelector(actorRef, selectModelFilter);
  const problem = useSelector(actorRef, selectProblem);
  const loading = useSelector(actorRef, selectIsLoading);
  const loadFailed = useSelector(actorRef, selectLoadFailed);
  const busy = useSelector(actorRef, selectIsBusy);
  const saving = useSelector(actorRef, selectIsSaving);
  const canSubmit = useSelector(actorRef, selectCanSubmit);
  return (
    <TokenFormPageView
      isEdit={isEdit}
      form={form}
      availableModels={availableModels}
      modelFilter={modelFilter}
      problem={problem}
      quotaDisplay={quotaDisplay}
      loading={loading}
      loadFailed={loadFailed}
      busy={busy}
      saving={saving}
      canSubmit={canSubmit}
      onChange={(field, value) => actorRef.send({ type: 'field.change', field, value })}
      onToggleModel={(model) => actorRef.send({ type: 'models.toggle', model })}
      onClearModels={() => actorRef.send({ type: 'models.clear' })}
      onFilterModels={(text) => actorRef.send({ type: 'models.filter', text })}
      onQuickExpiry={(preset) => actorRef.send({ type: 'expiry.quick', preset, now: nowSeconds() })}
      onToggleUnlimited={() => actorRef.send({ type: 'unlimited.toggle' })}
      onSubmit={() => actorRef.send({ type: 'form.submit' })}
      onRetry={() => actorRef.send({ type: 'form.retry' })}
      onCancel={() => actorRef.send({ type: 'form.cancel' })}
    />
  );
}
