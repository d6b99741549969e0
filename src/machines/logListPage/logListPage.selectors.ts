import type { SnapshotFrom } from 'xstate';
import type { LogScope } from '../../domain/logQuery';
import type { logListPageMachine } from './logListPage.machine';

type Snapshot = SnapshotFrom<typeof logListPageMachine>;

/** Whose logs the page lists. */
export const selectScope = (s: Snapshot): LogScope => s.context.scope;
/** The admin filters and columns show. */
export const selectIsAdminScope = (s: Snapshot): boolean => s.context.scope === 'admin';
/** When the page opened (Unix seconds), the base of the form's default end; 0 until the clock answers. */
export const selectOpenedAt = (s: Snapshot): number => s.context.openedAt ?? 0;
