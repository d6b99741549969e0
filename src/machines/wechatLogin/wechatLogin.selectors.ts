import type { SnapshotFrom } from 'xstate';
import type { Message } from '../../domain/message';
import type { wechatLoginMachine } from './wechatLogin.machine';

type Snapshot = SnapshotFrom<typeof wechatLoginMachine>;

/** The dialog is shown while open or submitting. */
export const selectIsOpen = (s: Snapshot): boolean => !s.matches('closed');
export const selectIsSubmitting = (s: Snapshot): boolean => s.hasTag('busy');
export const selectError = (s: Snapshot): Message | null => s.context.error;
