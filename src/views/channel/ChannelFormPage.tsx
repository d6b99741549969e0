import { useSelector } from '@xstate/react';
import {
  channelFormMachine,
  selectCanBatch,
  selectCanSubmit,
  selectCatalogue,
  selectForm,
  selectGroupOptions,
  selectIsBusy,
  selectIsClone,
  selectIsEdit,
  selectIsLoading,
  selectIsSaving,
  selectLoadFailed,
  selectProblem,
} from '../../machines/channelForm';
import { useT } from '../app/i18n';
import { useMachineActor } from '../app/machineRegistry';
import { SessionContext } from '../app/sessionContext';
import { ChannelFormPageView } from './ChannelFormPageView';

/**
 * Route page for /channel/add (`id` null), /channel/edit/:id and /channel/clone/:id (`clone`:
 * a new channel prefilled from that one) (channelForm machine). After a save or a cancel the
 * machine emits `navigate` to /channel, which the shell follows.
 */
export function ChannelFormPage({ id, clone = false }: { readonly id: number | null; readonly clone?: boolean }) {
  const t = useT();
  // a save answered 401 waits for the session's sign-in dialog, then saves again
  const session = SessionContext.useActorRef();
  const actorRef = useMachineActor(channelFormMachine, { id, clone, cloneSuffix: t('channelForm.cloneSuffix'), session });
  const form = useSelector(actorRef, selectForm);
  const isEdit = useSelector(actorRef, selectIsEdit);
  const isClone = useSelector(actorRef, selectIsClone);
  const loading = useSelector(actorRef, selectIsLoading);
  const loadFailed = useSelector(actorRef, selectLoadFailed);
  const busy = useSelector(actorRef, selectIsBusy);
  const saving = useSelector(actorRef, selectIsSaving);
  const canSubmit = useSelector(actorRef, selectCanSubmit);
  const canBatch = useSelector(actorRef, selectCanBatch);
  const groupOptions = useSelector(actorRef, selectGroupOptions);
  const catalogue = useSelector(actorRef, selectCatalogue);
  const problem = useSelector(actorRef, selectProblem);
  return (
    <ChannelFormPageView
      form={form}
      isEdit={isEdit}
      isClone={isClone}
      loading={loading}
      loadFailed={loadFailed}
      busy={busy}
      saving={saving}
      canSubmit={canSubmit}
      canBatch={canBatch}
      groupOptions={groupOptions}
      catalogue={catalogue}
      problem={problem}
      onChange={(field, value) => actorRef.send({ type: 'field.change', field, value })}
      onTypeChange={(value) => actorRef.send({ type: 'type.change', value })}
      onAddModel={(model) => actorRef.send({ type: 'models.add', model })}
      onRemoveModel={(model) => actorRef.send({ type: 'models.remove', model })}
      onFillRelated={() => actorRef.send({ type: 'models.fillRelated' })}
      onFillAll={() => actorRef.send({ type: 'models.fillAll' })}
      onClearModels={() => actorRef.send({ type: 'models.clear' })}
      onAddCustom={() => actorRef.send({ type: 'models.addCustom' })}
      onGroupsChange={(groups) => actorRef.send({ type: 'groups.change', groups })}
      onAddTags={() => actorRef.send({ type: 'tags.add' })}
      onRemoveTag={(tag) => actorRef.send({ type: 'tags.remove', tag })}
      onBatchToggle={() => actorRef.send({ type: 'batch.toggle' })}
      onSubmit={() => actorRef.send({ type: 'form.submit' })}
      onCancel={() => actorRef.send({ type: 'form.cancel' })}
      onRetry={() => actorRef.send({ type: 'form.retry' })}
    />
  );
}
