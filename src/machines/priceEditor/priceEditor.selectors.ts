import type { SnapshotFrom } from 'xstate';
import type { Message } from '../../domain/message';
import { filterModelRows, type GroupRow, type ModelRow, type PriceScale } from '../../domain/priceEditor';
import { changesOf, problemsOf, type PriceEditorContext, type priceEditorMachine, type PriceTableId, type RatioTexts } from './priceEditor.machine';

type Snapshot = SnapshotFrom<typeof priceEditorMachine>;

/** At most this many model rows are drawn (566 default models would make the tab slow); the search finds the rest. */
export const priceEditorRowLimit = 50;

/** The options are loading. */
export const selectIsLoading = (s: Snapshot): boolean => s.hasTag('loading');
/** Loading failed: the retry button. */
export const selectLoadFailed = (s: Snapshot): boolean => s.matches('loadFailed');
/** A save runs: inputs and buttons are disabled. */
export const selectIsSaving = (s: Snapshot): boolean => s.matches('saving');
/** The last save stored everything (until the next edit). */
export const selectIsSaved = (s: Snapshot): boolean => s.matches({ open: 'saved' });
/** Why the last save failed (until the next edit), or null. */
export const selectSaveError = (s: Snapshot): Message | null => (s.matches({ open: 'saveFailed' }) ? s.context.error : null);
export const selectScale = (s: Snapshot): PriceScale => s.context.scale;
export const selectSearch = (s: Snapshot): string => s.context.search;
export const selectModes = (s: Snapshot): PriceEditorContext['modes'] => s.context.modes;
export const selectMode = (table: PriceTableId) => (s: Snapshot) => s.context.modes[table];
export const selectModels = (s: Snapshot): readonly ModelRow[] => s.context.models;
export const selectGroups = (s: Snapshot): readonly GroupRow[] => s.context.groups;
export const selectJson = (s: Snapshot): RatioTexts => s.context.json;
/** The model rows the search keeps (all of them, the view draws the first `priceEditorRowLimit`). */
export const selectShownModels = (s: Snapshot): readonly ModelRow[] => filterModelRows(s.context.models, s.context.search);
/** The problems, by cell (`<rowId>:<cell>`) and by option key (JSON mode). */
export const selectProblems = (s: Snapshot) => problemsOf(s.context);
/** How many problems stand in the way of saving. */
export const selectProblemCount = (s: Snapshot): number => {
  const { cells, json } = problemsOf(s.context);
  return Object.keys(cells).length + Object.keys(json).length;
};
/** Something differs from the server's values. */
export const selectHasChanges = (s: Snapshot): boolean => s.matches('open') && changesOf(s.context).length > 0;
