import type { SnapshotFrom } from 'xstate';
import type { ChannelTagCount } from '../../domain/channel';
import type { Message } from '../../domain/message';
import { checkTagEdit, tagCountOf, type channelTagsMachine, type TagEditDraft } from './channelTags.machine';

type Snapshot = SnapshotFrom<typeof channelTagsMachine>;

/** Every tag in use with its channel count (the filter's and the dialog's options). */
export const selectTagCounts = (s: Snapshot): readonly ChannelTagCount[] => s.context.tags;
/** The tag list is being read. */
export const selectIsLoadingTags = (s: Snapshot): boolean => s.matches({ list: 'loading' });
/** Where the dialog is: closed, editing, confirming or saving. */
export const selectTagEditStep = (s: Snapshot): 'closed' | 'editing' | 'confirming' | 'saving' => {
  if (s.matches({ edit: 'editing' })) return 'editing';
  if (s.matches({ edit: 'confirming' })) return 'confirming';
  if (s.matches({ edit: 'saving' })) return 'saving';
  return 'closed';
};
export const selectTagEditDraft = (s: Snapshot): TagEditDraft => s.context.draft;
export const selectTagEditProblem = (s: Snapshot): Message | null => s.context.problem;
/** How many channels the edit will change (the chosen tag's count as last listed). */
export const selectTagEditCount = (s: Snapshot): number => tagCountOf(s.context.tags, s.context.draft.tag);
/** Whether the draft would be accepted (the submit button's state is not derived from it: a refusal explains). */
export const selectIsTagEditValid = (s: Snapshot): boolean => 'edit' in checkTagEdit(s.context.draft);
