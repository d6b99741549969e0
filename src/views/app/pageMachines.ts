/**
 * The ids of the machines the composition root (src/main.tsx) provides with real actors,
 * by `implement(id, ...)`. The list is a type: `implement` accepts only these ids (and only
 * the id the machine itself declares), and `implementAll` refuses a list that leaves one out,
 * so a wrong or missing id fails to compile. Plain strings only: the machines' code loads
 * with their pages' chunks.
 */
export const pageMachineIds = [
  'register',
  'passwordResetRequest',
  'passwordResetConfirm',
  'oauthLaunch',
  'oauthCallback',
  'profileEdit',
  'wechatLogin',
  'turnstile',
  'pageContent',
  'channelTable',
  'channelListActions',
  'redemptionTable',
  'redemptionKeyCopy',
  'redemptionForm',
  'channelForm',
  'channelTest',
  'userTable',
  'userForm',
  'dashboard',
  'pricing',
  'optionSettings',
  'tokenTable',
  'tokenKeyCopy',
  'tokenForm',
  'topUp',
  'personalSettings',
  'selfDelete',
  'wechatBind',
  'emailBind',
  'twoFactorSettings',
  'logClean',
  'updateCheck',
  'logListPage',
  'logTable',
  'logStat',
  'logExport',
  'footer',
  'commandPalette',
] as const;

export type PageMachineId = (typeof pageMachineIds)[number];
