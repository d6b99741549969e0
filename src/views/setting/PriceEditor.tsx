import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectPriceEditor, type optionSettingsMachine } from '../../machines/optionSettings';
import {
  initialPriceEditorContext,
  type priceEditorMachine,
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
import { PriceEditorView } from './PriceEditorView';

type Problems = ReturnType<typeof selectProblems>;

/** Problems are computed from the snapshot: equal when they say the same. */
const sameProblems = (a: Problems, b: Problems): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Shown rows are filtered anew from the snapshot: equal when they are the same rows. */
const sameRows = <R,>(a: readonly R[], b: readonly R[]): boolean => a.length === b.length && a.every((r, i) => r === b[i]);

const noop = () => undefined;

/** The section before its editor runs (a frozen page): the loading line. */
function PriceEditorWaiting() {
  const c = initialPriceEditorContext;
  return (
    <PriceEditorView
      loading
      loadFailed={false}
      saving={false}
      saved={false}
      saveError={null}
      scale={c.scale}
      modes={c.modes}
      search=""
      models={c.models}
      totalModels={0}
      rowLimit={priceEditorRowLimit}
      groups={c.groups}
      json={c.json}
      cellProblems={{}}
      jsonProblems={{}}
      problemCount={0}
      hasChanges={false}
      onRetry={noop}
      onSearch={noop}
      onAddModel={noop}
      onRemoveModel={noop}
      onRenameModel={noop}
      onPrice={noop}
      onAddGroup={noop}
      onRemoveGroup={noop}
      onRenameGroup={noop}
      onMultiplier={noop}
      onToggleMode={noop}
      onJson={noop}
      onSave={noop}
    />
  );
}

/**
 * The ratio section of the operation settings: the settings page's child priceEditor machine (it
 * loads and saves the ratio options), so its unsaved edits outlive this panel while other tabs show.
 */
export function PriceEditor({ page }: { readonly page: ActorRefFrom<typeof optionSettingsMachine> }) {
  const editor = useSelector(page, selectPriceEditor);
  return editor === undefined ? <PriceEditorWaiting /> : <PriceEditorPanel actor={editor} />;
}

/** The price editor drawn from its machine's actor. */
export function PriceEditorPanel({ actor }: { readonly actor: ActorRefFrom<typeof priceEditorMachine> }) {
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
