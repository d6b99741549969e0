import type { SnapshotFrom } from 'xstate';
import type { ProfileBindings, ProfileErrors, profileEditMachine, ProfileForm } from './profileEdit.machine';

type Snapshot = SnapshotFrom<typeof profileEditMachine>;

export const selectForm = (s: Snapshot): ProfileForm => s.context.form;
/** The account is being loaded: the form shows a progress indicator instead of fields. */
export const selectIsLoading = (s: Snapshot): boolean => s.hasTag('loading');
/** The account could not be loaded: show the retry button. */
export const selectLoadFailed = (s: Snapshot): boolean => s.matches('loadFailed');
/** A call is running: inputs and the button are disabled. */
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy');
/** Saving or reloading after the save: the button shows its spinner. */
export const selectIsSaving = (s: Snapshot): boolean =>
  s.matches('saving') || s.matches('refreshing') || s.matches('awaitingSession') || s.matches('resaving');
/** The button answers now (editing). */
export const selectCanSubmit = (s: Snapshot): boolean => s.can({ type: 'profile.submit' });
/** The account's GitHub, WeChat and e-mail bindings (read-only here). */
export const selectBindings = (s: Snapshot): ProfileBindings => s.context.bindings;
/** Each field's broken rule from the last submit (empty: none). */
export const selectFieldErrors = (s: Snapshot): ProfileErrors => s.context.fieldErrors;
