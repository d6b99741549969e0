import type { SnapshotFrom } from 'xstate';
import type { footerMachine } from './footer.machine';

type Snapshot = SnapshotFrom<typeof footerMachine>;

/** The configured footer HTML (raw: the view sanitises it); '' means the default footer. */
export const selectFooterHtml = (s: Snapshot): string => s.context.footerHtml;
/** Still looking for a stored footer. */
export const selectIsPolling = (s: Snapshot): boolean => s.hasTag('busy');
/** Re-reads done so far (0..5). */
export const selectRereads = (s: Snapshot): number => s.context.rereads;
