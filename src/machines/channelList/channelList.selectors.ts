import type { SnapshotFrom } from 'xstate';
import { groupNames } from '../../domain/format';
import type { channelTableMachine } from './channelList.machine';
import type { BulkValuePrompt, channelListActionsMachine } from './channelListActions.machine';

/** Selectors of the channel list's own workflows (the table has its own, in src/machines/table). */
type Snapshot = SnapshotFrom<typeof channelListActionsMachine>;

/** Detail mode: balance, weight and test-model columns shown. */
export const selectShowDetail = (s: Snapshot): boolean => s.context.showDetail;
/** The notice shows once the stored dismissal has been read and unless it was dismissed. */
export const selectNoticeShown = (s: Snapshot): boolean => s.matches({ prefs: 'ready' }) && !s.context.noticeDismissed;
/** "Delete disabled" waits for its confirmation. */
export const selectIsConfirmingDeleteDisabled = (s: Snapshot): boolean => s.matches({ deleteDisabled: 'confirming' });
/** The disabled channels are being deleted. */
export const selectIsDeletingDisabled = (s: Snapshot): boolean => s.matches({ deleteDisabled: 'deleting' });
/** The open value prompt of a bulk action, or null. */
export const selectBulkValuePrompt = (s: Snapshot): BulkValuePrompt | null => (s.matches({ bulkValue: 'closed' }) ? null : s.context.prompt);
/** The group names are being loaded for "set group". */
export const selectIsLoadingGroups = (s: Snapshot): boolean => s.matches({ bulkValue: 'loadingGroups' });
export const selectGroups = (s: Snapshot): readonly string[] => s.context.groups;

// Over the channel table's snapshot.
type TableSnap = SnapshotFrom<typeof channelTableMachine>;

/**
 * A value derived from the loaded rows, worked out again only when the rows change: the table's
 * other events (a page, a sort, a key typed, a selection) keep the same rows array, and a list of
 * 10,000 channels is not walked on each of them. One entry per selector: the last rows seen.
 */
const fromRows = <A>(derive: (rows: TableSnap['context']['rows']) => A): ((s: TableSnap) => A) => {
  let seen: TableSnap['context']['rows'] | undefined;
  let value: A;
  return (s) => {
    if (s.context.rows !== seen) {
      seen = s.context.rows;
      value = derive(seen);
    }
    return value;
  };
};

/** id -> name of every loaded channel (the bulk report names rows of other pages too). */
export const selectChannelNames = fromRows((rows): Readonly<Record<number, string>> => {
  const names: Record<number, string> = {};
  for (const r of rows) names[r.id] = r.name;
  return names;
});
/**
 * The group names of the loaded channels, each once, sorted (the group filter's options). Each
 * distinct group field is split once: thousands of channels share a few of them.
 */
export const selectGroupOptions = fromRows((rows): readonly string[] => {
  const fields = new Set<string | null | undefined>();
  for (const r of rows) fields.add(r.group);
  const names = new Set<string>();
  for (const field of fields) for (const name of groupNames(field)) names.add(name);
  return [...names].sort();
});
/** The type numbers of the loaded channels, each once, ascending (the type filter's options). */
export const selectTypeOptions = fromRows((rows): readonly number[] => [...new Set(rows.map((r) => r.type))].sort((a, b) => a - b));
