import { useSelector } from '@xstate/react';
import {
  priceEditorMachine,
  priceEditorRowLimit,
  selectGroups,
  selectHasChanges,
  selectIsLoading,
  selectIsSaved,
  selectIsSaving,
  selectJson,
  selectLoadFailed,
  selectModels,
  selectModes,
  selectProblems,
  selectSaveError,
  selectScale,
  selectSearch,
  selectShownModels,
} from '../../machines/priceEditor';
import { useMachineActor } from '../app/machineRegistry';
import { PriceEditorView } from './PriceEditorView';

type Problems = ReturnType<typeof selectProblems>;

/** Problems are computed from the snapshot: equal when they say the same. */
const sameProblems = (a: Problems, b: Problems): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Shown rows are filtered anew from the snapshot: equal when they are the same rows. */
const sameRows = <R,>(a: readonly R[], b: readonly R[]): boolean => a.length === b.length && a.every((r, i) => r === b[i]);

/** The ratio section of the operation settings: its own priceEditor machine (it loads and saves the ratio options). */
export function PriceEditor() {
  const actor = useMachineActor(priceEditorMachine);
  const loading = useSelector(actor, selectIsLoading);
  const loadFailed = useSelector(actor, selectLoadFailed);
  const saving = useSelector(actor, selectIsSaving);
  const saved = useSelector(actor, selectIsSaved);
  const saveError = useSelector(actor, selectSaveError);
  const scale = useSelector(actor, selectScale);
  const modes = useSelector(actor, selectModes);
  const search = useSelector(actor, selectSearch);
  const models = useSelector(actor, selectShownModels, sameRows);
  const totalModels = useSelector(actor, (s) => selectModels(s).length);
  const groups = useSelector(actor, selectGroups);
  const json = useSelector(actor, selectJson);
  const problems = useSelector(actor, selectProblems, sameProblems);
  const hasChanges = useSelector(actor, selectHasChanges);
  return (
    <PriceEditorView
      loading={loading}
      loadFailed={loadFailed}
      saving={saving}
      saved={saved}
      saveError={saveError}
      scale={scale}
      modes={modes}
      search={search}
      models={models}
      totalModels={totalModels}
      rowLimit={priceEditorRowLimit}
      groups={groups}
      json={json}
      cellProblems={problems.cells}
      jsonProblems={problems.json}
      problemCount={Object.keys(problems.cells).length + Object.keys(problems.json).length}
      hasChanges={hasChanges}
      onRetry={() => actor.send({ type: 'options.retry' })}
      onSearch={(value) => actor.send({ type: 'search.change', value })}
      onAddModel={() => actor.send({ type: 'model.add' })}
      onRemoveModel={(id) => actor.send({ type: 'model.remove', id })}
      onRenameModel={(id, value) => actor.send({ type: 'model.rename', id, value })}
      onPrice={(id, field, value) => actor.send({ type: 'price.change', id, field, value })}
      onAddGroup={() => actor.send({ type: 'group.add' })}
      onRemoveGroup={(id) => actor.send({ type: 'group.remove', id })}
      onRenameGroup={(id, value) => actor.send({ type: 'group.rename', id, value })}
      onMultiplier={(id, value) => actor.send({ type: 'multiplier.change', id, value })}
      onToggleMode={(table) => actor.send({ type: 'mode.toggle', table })}
      onJson={(key, value) => actor.send({ type: 'json.change', key, value })}
      onSave={() => actor.send({ type: 'prices.save' })}
    />
  );
}
