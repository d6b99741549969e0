import type { SnapshotFrom } from 'xstate';
import type { User } from '../../domain/user';
import type { emailBindMachine } from './emailBind.machine';
import type { personalSettingsMachine, ShownSecret } from './personalSettings.machine';
import type { selfDeleteMachine } from './selfDelete.machine';
import type { wechatBindMachine } from './wechatBind.machine';

type Settings = SnapshotFrom<typeof personalSettingsMachine>;
type SelfDelete = SnapshotFrom<typeof selfDeleteMachine>;
type WeChatBind = SnapshotFrom<typeof wechatBindMachine>;
type EmailBind = SnapshotFrom<typeof emailBindMachine>;

/** The account with its bindings (null until loaded). */
export const selectAccount = (s: Settings): User | null => s.context.user;
export const selectIsLoadingAccount = (s: Settings): boolean => s.hasTag('loading');
export const selectIsGeneratingToken = (s: Settings): boolean => s.matches('generatingToken') || s.matches('copyingToken');
export const selectIsCopyingInvite = (s: Settings): boolean => s.matches('fetchingInvite') || s.matches('copyingInvite');
export const selectIsSettingsBusy = (s: Settings): boolean => s.hasTag('busy');
/** What the clipboard refused, shown to copy by hand. */
export const selectShownSecret = (s: Settings): ShownSecret | null => s.context.shown;

export const selectDeleteOpen = (s: SelfDelete): boolean => !s.matches('closed') && !s.matches('deleted');
export const selectIsDeleting = (s: SelfDelete): boolean => s.matches('deleting') || s.matches('deleted');
export const selectDeleteConfirmation = (s: SelfDelete): string => s.context.confirmation;

export const selectWeChatOpen = (s: WeChatBind): boolean => !s.matches('closed');
export const selectIsBindingWeChat = (s: WeChatBind): boolean => s.matches('binding');

export const selectEmailOpen = (s: EmailBind): boolean => !s.matches('closed');
export const selectIsBindingEmail = (s: EmailBind): boolean => s.matches('binding');
export const selectEmailValue = (s: EmailBind): string => s.context.email;
export const selectEmailCode = (s: EmailBind): string => s.context.code;
export const selectIsSendingCode = (s: EmailBind): boolean => s.context.sender.phase === 'sending';
export const selectCodeSecondsLeft = (s: EmailBind): number => s.context.sender.secondsLeft;
/** The send-code button is usable: not sending and not counting down. */
export const selectCanSendCode = (s: EmailBind): boolean => s.context.sender.phase === 'ready';
