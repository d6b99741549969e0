import type { SnapshotFrom } from 'xstate';
import type { Message } from '../../domain/message';
import { keysFileName, type redemptionFormMachine, type RedemptionField, type RedemptionForm } from './redemptionForm.machine';

type Snapshot = SnapshotFrom<typeof redemptionFormMachine>;

export const selectForm = (s: Snapshot): RedemptionForm => s.context.form;
/** Editing an existing code (no count field). */
export const selectIsEdit = (s: Snapshot): boolean => s.context.id !== null;
/** The code is being loaded: a progress line instead of the fields. */
export const selectIsLoading = (s: Snapshot): boolean => s.hasTag('loading');
export const selectLoadFailed = (s: Snapshot): boolean => s.matches('loadFailed');
/** A call runs: fields and buttons are disabled. */
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy');
export const selectIsSaving = (s: Snapshot): boolean => s.matches('saving');
/** The field the last submit found wrong, with what to say. */
export const selectProblem = (s: Snapshot): { readonly field: RedemptionField; readonly message: Message } | null => s.context.problem;
/** The keys of the batch just created (empty before). */
export const selectCreatedKeys = (s: Snapshot): readonly string[] => (s.matches('created') ? s.context.keys : emptyKeys);
const emptyKeys: readonly string[] = [];
/** The file the keys downloaded to. */
export const selectKeysFile = (s: Snapshot): string => (s.matches('created') ? keysFileName(s.context.createdName) : '');
export const selectIsCopying = (s: Snapshot): boolean => s.matches({ created: 'copying' });
export const selectIsDownloading = (s: Snapshot): boolean => s.matches({ created: 'downloading' });
