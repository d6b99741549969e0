import type { SnapshotFrom } from 'xstate';
import type { ChannelTypeModels } from '../../domain/channel';
import type { ChannelForm, ChannelFormProblem } from '../../domain/channelForm';
import { canBatchCreate } from '../../domain/channelTypes';
import { isEditingChannel, type channelFormMachine } from './channelForm.machine';

type Snapshot = SnapshotFrom<typeof channelFormMachine>;

export const selectForm = (s: Snapshot): ChannelForm => s.context.form;
/** Editing a stored channel (/channel/edit/:id) rather than creating one. */
export const selectIsEdit = (s: Snapshot): boolean => isEditingChannel(s.context);
/** Copying a stored channel (/channel/clone/:id): a create prefilled from it. */
export const selectIsClone = (s: Snapshot): boolean => s.context.clone;
/** The channel and the option lists are being loaded: a progress indicator instead of fields. */
export const selectIsLoading = (s: Snapshot): boolean => s.hasTag('loading');
/** The channel could not be loaded: show the retry button. */
export const selectLoadFailed = (s: Snapshot): boolean => s.matches('loadFailed');
/** A call is running: inputs and buttons are disabled. */
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy');
/** The save is running: the submit button spins. */
export const selectIsSaving = (s: Snapshot): boolean => s.matches('saving') || s.matches('saved');
/** The group names from the server (the view adds any the channel already has). */
export const selectGroupOptions = (s: Snapshot): readonly string[] => s.context.groupOptions;
/** The catalogue of model names (for the model picker). */
export const selectCatalogue = (s: Snapshot): readonly string[] => s.context.catalogue;
/** The per-type default model lists. */
export const selectTypeModels = (s: Snapshot): ChannelTypeModels => s.context.typeModels;
/** The rule the last submit broke and its field, until the form changes. */
export const selectProblem = (s: Snapshot): ChannelFormProblem | null => s.context.problem;
/** The batch option is offered: creating, and not type 33. */
export const selectCanBatch = (s: Snapshot): boolean => canBatchCreate(isEditingChannel(s.context), s.context.form.type);
/** The form accepts input and the submit button works. */
export const selectCanSubmit = (s: Snapshot): boolean => s.matches('editing');
