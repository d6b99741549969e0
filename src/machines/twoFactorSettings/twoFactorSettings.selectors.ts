import type { SnapshotFrom } from 'xstate';
import type { Message } from '../../domain/message';
import type { TwoFactorSetup, TwoFactorStatus } from '../../domain/twoFactor';
import type { twoFactorSettingsMachine } from './twoFactorSettings.machine';

type Snapshot = SnapshotFrom<typeof twoFactorSettingsMachine>;

/** Which part of the section shows. */
export type TwoFactorPanel = 'loading' | 'failed' | 'status' | 'setup' | 'codes' | 'disable' | 'regenerate';

export const selectTwoFactorPanel = (s: Snapshot): TwoFactorPanel => {
  if (s.matches('loading')) return 'loading';
  if (s.matches('failed')) return 'failed';
  if (s.matches('confirmingSetup') || s.matches('enabling')) return 'setup';
  if (s.matches('showingCodes') || s.matches('copyingCodes')) return 'codes';
  if (s.matches('disableForm') || s.matches('disabling')) return 'disable';
  if (s.matches('regenerateForm') || s.matches('regenerating')) return 'regenerate';
  return 'status';
};
export const selectTwoFactorStatus = (s: Snapshot): TwoFactorStatus | null => s.context.status;
export const selectTwoFactorSetup = (s: Snapshot): TwoFactorSetup | null => s.context.setup;
export const selectRecoveryCodes = (s: Snapshot): readonly string[] => s.context.recoveryCodes;
export const selectTwoFactorCode = (s: Snapshot): string => s.context.code;
export const selectTwoFactorPassword = (s: Snapshot): string => s.context.password;
export const selectTwoFactorError = (s: Snapshot): Message | null => s.context.error;
export const selectIsTwoFactorBusy = (s: Snapshot): boolean => s.hasTag('busy');
