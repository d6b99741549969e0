import type { SnapshotFrom } from 'xstate';
import type { Message } from '../../domain/message';
import { classifyContent, type ContentKind, type PageKind, type pageContentMachine } from './pageContent.machine';

type Snapshot = SnapshotFrom<typeof pageContentMachine>;

/** Where the content load is. */
export type PageContentPhase = 'loading' | 'ready' | 'failed';

export const selectPhase = (s: Snapshot): PageContentPhase => {
  if (s.matches({ content: 'ready' })) return 'ready';
  if (s.matches({ content: 'failed' })) return 'failed';
  return 'loading';
};

export const selectKind = (s: Snapshot): PageKind => s.context.kind;
/** True while the server's value is being fetched. */
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy');
/** The text on show (cached copy or server value); '' when there is none. */
export const selectContent = (s: Snapshot): string => s.context.content ?? '';
/** How to show it: pending (nothing yet), empty (the built-in default), url (a frame), markdown. */
export const selectContentKind = (s: Snapshot): ContentKind => classifyContent(s.context.content, s.hasTag('busy'));
/** The cached copy is on show while the server's value is on its way. */
export const selectIsCachedCopy = (s: Snapshot): boolean =>
  s.context.content !== null && !s.context.fresh && s.hasTag('busy');
/** The load's failure while failed, else null. */
export const selectError = (s: Snapshot): Message | null => s.context.error;
/** A new notice (Markdown) on show, else null. */
export const selectNotice = (s: Snapshot): string | null =>
  s.matches({ notice: 'showing' }) ? s.context.notice : null;
/** Whether `content.retry` would do anything now. */
export const selectCanRetry = (s: Snapshot): boolean => s.can({ type: 'content.retry' });
