/**
 * The ids of the machines the composition root provides with real actors, by `implement(id, ...)`,
 * grouped by wiring area. The entry wires the `shell` area (src/main.tsx); every other area has a
 * module of its own (src/wiring/<area>.ts) that loads beside the pages needing it (`withWiring`).
 * The lists are types: `implement` accepts only these ids (and only the id the machine itself
 * declares), `implementArea` refuses an area's list that leaves one of its ids out, and the
 * composition root's loaders name every lazy area, so a wrong or missing id fails to compile.
 * Plain strings only: the machines' code loads with their pages' chunks.
 */
export const pageMachineAreas = {
  /** Wired by the entry: the shell (footer) and the login page (its alternate logins). */
  shell: ['footer', 'oauthLaunch', 'wechatLogin'],
  auth: ['register', 'passwordResetRequest', 'passwordResetConfirm', 'oauthCallback'],
  /** The Turnstile check: the sign-up and reset pages, and the e-mail binding in the settings. */
  turnstile: ['turnstile'],
  home: ['pageContent'],
  channel: ['channelTable', 'channelListActions', 'channelTags', 'channelForm', 'channelTest'],
  token: ['tokenTable', 'tokenKeyCopy', 'tokenForm'],
  redemption: ['redemptionTable', 'redemptionKeyCopy', 'redemptionForm'],
  user: ['userTable', 'userForm', 'profileEdit'],
  log: ['logListPage', 'logTable', 'logStat', 'logExport'],
  dashboard: ['dashboard'],
  pricing: ['pricing'],
  topup: ['topUp'],
  setting: [
    'optionSettings',
    'priceEditor',
    'personalSettings',
    'selfDelete',
    'wechatBind',
    'emailBind',
    'twoFactorSettings',
    'logClean',
    'updateCheck',
  ],
  palette: ['commandPalette'],
} as const;

/** A wiring area: a group of machines wired together. */
export type WiringArea = keyof typeof pageMachineAreas;
/** The areas that load on demand (all but the entry's `shell`). */
export type LazyWiringArea = Exclude<WiringArea, 'shell'>;
/** The machine ids of an area. */
export type AreaMachineId<A extends WiringArea> = (typeof pageMachineAreas)[A][number];
export type PageMachineId = AreaMachineId<WiringArea>;

/** Every page machine id, area by area. */
export const pageMachineIds: readonly PageMachineId[] = Object.values(pageMachineAreas).flat();

const pageMachineIdSet: ReadonlySet<string> = new Set(pageMachineIds);
export const isPageMachineId = (id: string): id is PageMachineId => pageMachineIdSet.has(id);
