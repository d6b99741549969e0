import type { SnapshotFrom } from 'xstate';
import type { TokenForm, TokenFormProblem } from '../../domain/tokenForm';
import type { tokenFormMachine } from './tokenForm.machine';

type Snapshot = SnapshotFrom<typeof tokenFormMachine>;

export const selectForm = (s: Snapshot): TokenForm => s.context.form;
/** Edit (/token/edit/:id) rather than create (/token/add). */
export const selectIsEdit = (s: Snapshot): boolean => s.context.id !== null;
/** The models the caller may use (`GET /api/user/available_models`). */
export const selectAvailableModels = (s: Snapshot): readonly string[] => s.context.availableModels;
export const selectModelFilter = (s: Snapshot): string => s.context.modelFilter;
/** The rule the last submit broke, with its field (null: nothing to say). */
export const selectProblem = (s: Snapshot): TokenFormProblem | null => s.context.problem;
/** The token (and the models) are being loaded: a progress line instead of the fields. */
export const selectIsLoading = (s: Snapshot): boolean => s.hasTag('loading');
/** The token could not be loaded: the retry button. */
export const selectLoadFailed = (s: Snapshot): boolean => s.matches('loadFailed');
/** A call runs or the form is done: inputs and buttons are disabled. */
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy') || s.status === 'done';
/** The save runs: the button spins. */
export const selectIsSaving = (s: Snapshot): boolean => s.matches('saving');
/** The submit button answers (editing). */
export const selectCanSubmit = (s: Snapshot): boolean => s.can({ type: 'form.submit' });
