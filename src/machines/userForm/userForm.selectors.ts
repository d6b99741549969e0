import type { SnapshotFrom } from 'xstate';
import type { Message } from '../../domain/message';
import type { UserForm, UserFormErrors, userFormMachine } from './userForm.machine';

type Snapshot = SnapshotFrom<typeof userFormMachine>;

export const selectForm = (s: Snapshot): UserForm => s.context.form;
/** Edit (/user/edit/:id) rather than create (/user/add). */
export const selectIsEdit = (s: Snapshot): boolean => s.context.id !== null;
export const selectGroupOptions = (s: Snapshot): readonly string[] => s.context.groupOptions;
/** Why the quota was refused at the last submit (null: nothing to say). */
export const selectQuotaProblem = (s: Snapshot): Message | null => s.context.problem?.quota ?? null;
const noErrors: UserFormErrors = {};
/** Each field's broken rule from the last submit (empty: none). */
export const selectFieldErrors = (s: Snapshot): UserFormErrors => s.context.problem ?? noErrors;
/** The user (and groups) are being loaded: a progress line instead of the fields. */
export const selectIsLoading = (s: Snapshot): boolean => s.hasTag('loading');
/** The user could not be loaded: the retry button. */
export const selectLoadFailed = (s: Snapshot): boolean => s.matches('loadFailed');
/** A call runs or the form is done: inputs and buttons are disabled. */
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy') || s.status === 'done';
/** The save runs: the button spins. */
export const selectIsSaving = (s: Snapshot): boolean => s.matches('saving');
/** The submit button answers: editing, and for create both username and password are filled (spec §5). */
export const selectCanSubmit = (s: Snapshot): boolean => s.can({ type: 'form.submit' });
