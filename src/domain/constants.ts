import type { NoticeLevel } from './message';

/**
 * Roles, statuses, log types and the business constants of spec §4 and §9 (contract §1.4, §3.2,
 * §3.3, §5.1). Everything visible is a label KEY (`domain.*`), translated by the views.
 *
 * Colours: one-api names Semantic UI colours; the console uses Chakra v3 `colorPalette` names.
 * The mapping (see `paletteOf`) is: green→green, red→red, yellow→yellow, orange→orange,
 * olive→teal, teal→cyan, blue→blue, violet→purple, purple→purple, pink→pink, brown→orange,
 * grey→gray, black→gray. A one-api "basic" (uncoloured) label becomes gray.
 */

/** A Chakra v3 colour palette used for badges and labels. */
export type Palette = 'gray' | 'red' | 'orange' | 'yellow' | 'green' | 'teal' | 'cyan' | 'blue' | 'purple' | 'pink';

/** One of one-api's Semantic UI colour names (as in the channel type catalogue). */
export type SemanticColor =
  | 'red' | 'orange' | 'yellow' | 'olive' | 'green' | 'teal' | 'blue'
  | 'violet' | 'purple' | 'pink' | 'brown' | 'grey' | 'black';

const palettes: Readonly<Record<SemanticColor, Palette>> = {
  green: 'green',
  red: 'red',
  yellow: 'yellow',
  orange: 'orange',
  olive: 'teal',
  teal: 'cyan',
  blue: 'blue',
  violet: 'purple',
  purple: 'purple',
  pink: 'pink',
  brown: 'orange',
  grey: 'gray',
  black: 'gray',
};

/** The Chakra palette standing in for a one-api Semantic UI colour. */
export const paletteOf = (color: SemanticColor): Palette => palettes[color];

/**
 * A numbered value with its label key and badge colour; `tooltipKey` when one-api shows a popup.
 * The keys are literal types (`'domain.role.admin'`, not `string`), so a view hands them to its
 * translator as they are and a key missing from the catalogue fails to compile there.
 */
export interface Labelled<K extends string = string, T extends string = string> {
  readonly value: number;
  readonly labelKey: K;
  readonly color: Palette;
  readonly tooltipKey?: T;
}

/** A table of labelled values; its label (and tooltip) keys keep their literal types. */
const labelledTable = <K extends string, T extends string = never>(entries: readonly Labelled<K, T>[]): readonly Labelled<K, T>[] =>
  entries;

/** The entry of a value, else the table's 'unknown' entry carrying the value. */
const lookup =
  <K extends string, T extends string, U extends string>(table: readonly Labelled<K, T>[], unknown: Labelled<U, never>) =>
  (value: number): Labelled<K | U, T> =>
    table.find((entry) => entry.value === value) ?? { ...unknown, value };

// ---------------------------------------------------------------------------------------------
// Roles (spec §4, contract §1.4)

export const roleCommon = 1;
export const roleAdmin = 10;
export const roleRoot = 100;

/** The three roles one-api assigns. */
export const roles = labelledTable([
  { value: roleCommon, labelKey: 'domain.role.common', color: 'gray' },
  { value: roleAdmin, labelKey: 'domain.role.admin', color: 'yellow' },
  { value: roleRoot, labelKey: 'domain.role.root', color: 'orange' },
]);
const unknownRole = { value: -1, labelKey: 'domain.role.unknown', color: 'red' } as const;

/** The role entry for a number; any other number is 'unknown identity'. */
export const roleOf = lookup(roles, unknownRole);

/** Admin is role >= 10; no stored user (undefined) is neither admin nor root. */
export const isAdmin = (role: number | undefined): boolean => role !== undefined && role >= roleAdmin;

/** Root is role >= 100. */
export const isRoot = (role: number | undefined): boolean => role !== undefined && role >= roleRoot;

// ---------------------------------------------------------------------------------------------
// User status (spec §4)

export const userStatusActivated = 1;
export const userStatusBanned = 2;

export const userStatuses = labelledTable([
  { value: userStatusActivated, labelKey: 'domain.userStatus.activated', color: 'green' },
  { value: userStatusBanned, labelKey: 'domain.userStatus.banned', color: 'red' },
]);
const unknownUserStatus = { value: -1, labelKey: 'domain.userStatus.unknown', color: 'gray' } as const;

/** The user status entry; anything but 1 and 2 is unknown. */
export const userStatusOf = lookup(userStatuses, unknownUserStatus);

/** The manage action of the enable/disable button: an activated user is disabled, others enabled. */
export const userToggleAction = (status: number): 'enable' | 'disable' =>
  status === userStatusActivated ? 'disable' : 'enable';

// ---------------------------------------------------------------------------------------------
// Channel status (spec §4) and the default test model live with the channel rules (./channelStatus).

export {
  channelStatusAutoDisabled,
  channelStatusEnabled,
  channelStatusManuallyDisabled,
  channelStatuses,
  channelStatusOf,
  defaultTestModel,
  nextChannelStatus,
} from './channelStatus';

// ---------------------------------------------------------------------------------------------
// Token status (spec §4)

export const tokenStatusEnabled = 1;
export const tokenStatusDisabled = 2;
export const tokenStatusExpired = 3;
export const tokenStatusExhausted = 4;

export const tokenStatuses = labelledTable([
  { value: tokenStatusEnabled, labelKey: 'domain.tokenStatus.enabled', color: 'green' },
  { value: tokenStatusDisabled, labelKey: 'domain.tokenStatus.disabled', color: 'red' },
  { value: tokenStatusExpired, labelKey: 'domain.tokenStatus.expired', color: 'yellow' },
  { value: tokenStatusExhausted, labelKey: 'domain.tokenStatus.exhausted', color: 'gray' },
]);
const unknownTokenStatus = { value: -1, labelKey: 'domain.tokenStatus.unknown', color: 'gray' } as const;

/** The token status entry; anything but 1..4 is unknown. */
export const tokenStatusOf = lookup(tokenStatuses, unknownTokenStatus);

/** The toggle sets 1 or 2: an enabled token is disabled, any other is enabled. */
export const nextTokenStatus = (status: number): number =>
  status === tokenStatusEnabled ? tokenStatusDisabled : tokenStatusEnabled;

// ---------------------------------------------------------------------------------------------
// Redemption status (spec §4)

export const redemptionStatusUnused = 1;
export const redemptionStatusDisabled = 2;
export const redemptionStatusUsed = 3;

export const redemptionStatuses = labelledTable([
  { value: redemptionStatusUnused, labelKey: 'domain.redemptionStatus.unused', color: 'green' },
  { value: redemptionStatusDisabled, labelKey: 'domain.redemptionStatus.disabled', color: 'red' },
  { value: redemptionStatusUsed, labelKey: 'domain.redemptionStatus.used', color: 'gray' },
]);
const unknownRedemptionStatus = { value: -1, labelKey: 'domain.redemptionStatus.unknown', color: 'gray' } as const;

/** The redemption status entry; anything but 1..3 is unknown. */
export const redemptionStatusOf = lookup(redemptionStatuses, unknownRedemptionStatus);

/** A used code cannot be toggled (the button is disabled). */
export const canToggleRedemption = (status: number): boolean => status !== redemptionStatusUsed;

/** The toggle sets 1 or 2: an unused code is disabled, any other is re-enabled. */
export const nextRedemptionStatus = (status: number): number =>
  status === redemptionStatusUnused ? redemptionStatusDisabled : redemptionStatusUnused;

// ---------------------------------------------------------------------------------------------
// Log types (spec §4; contract §3.2 adds 5 "test", which rows may carry)

export const logTypeAll = 0;
export const logTypeTopUp = 1;
export const logTypeConsume = 2;
export const logTypeManage = 3;
export const logTypeSystem = 4;
export const logTypeTest = 5;

/** Every log type a row or the filter can carry (0 is the filter's "all"). */
export const logTypes = labelledTable([
  { value: logTypeAll, labelKey: 'domain.logType.all', color: 'gray' },
  { value: logTypeTopUp, labelKey: 'domain.logType.topUp', color: 'green' },
  { value: logTypeConsume, labelKey: 'domain.logType.consume', color: 'teal' },
  { value: logTypeManage, labelKey: 'domain.logType.manage', color: 'orange' },
  { value: logTypeSystem, labelKey: 'domain.logType.system', color: 'purple' },
  { value: logTypeTest, labelKey: 'domain.logType.test', color: 'purple' },
]);
const unknownLogType = { value: -1, labelKey: 'domain.logType.unknown', color: 'gray' } as const;

/** The options of the log-type dropdown (spec §4: 0 all, 1..4). */
export const logTypeFilterOptions = logTypes.filter((t) => t.value <= logTypeSystem);

/** The log type entry; unknown numbers get the 'unknown' label. */
export const logTypeOf = lookup(logTypes, unknownLogType);

// ---------------------------------------------------------------------------------------------
// Business constants (spec §9, contract §3.2, §3.3, §5.1)

/** Rows per server page; must equal the server's ItemsPerPage. */
export const pageSize = 10;
/** Pager sibling range. */
export const paginationSiblingRange = 1;

/** Create-form defaults of a token (the edit form starts from the stored row). */
export const tokenDefaults = { remain_quota: 500000, expired_time: -1, unlimited_quota: false } as const;
/** Create-form defaults of a redemption batch. */
export const redemptionDefaults = { quota: 100000, count: 1 } as const;
/** Azure (type 3) API version used when `other` is empty. */
export const defaultAzureApiVersion = '2024-03-01-preview';

export const passwordMinLength = 8;
export const passwordMaxLength = 20;
export const usernameMaxLength = 12;
/** Usernames in the user table are truncated to this many characters. */
export const usernameDisplayLength = 15;

/** E-mail code / reset request button cooldown. */
export const resendCooldownSeconds = 30;
/** A WeChat verification code is valid this long. */
export const wechatCodeValidMinutes = 3;
/** OAuth callback retry wait = this × attempt number. */
export const oauthRetryBaseMs = 2000;

/** Response-time band limits (ms): up to 1 s fast, 3 s ok, 5 s slow, above bad. */
export const responseTimeThresholdsMs = { fast: 1000, ok: 3000, slow: 5000 } as const;

/** Toast auto-close times per level (spec §9). */
export const toastDurationMs: Readonly<Record<NoticeLevel, number>> = {
  success: 1500,
  info: 3000,
  error: 5000,
  warning: 10000,
  notice: 20000,
};
/** Notices stay open until closed, whatever their nominal duration. */
export const isStickyToast = (level: NoticeLevel): boolean => level === 'notice';

/** Width (px) at or below which the layout is the mobile one and toasts go top-centre. */
export const mobileBreakpointPx = 600;
export const isMobileWidth = (width: number): boolean => width <= mobileBreakpointPx;

/** Default log-clean target: this many seconds before now (30 days). */
export const logCleanDefaultOffsetSeconds = 2592000;
/** Default log filter end: this many seconds after now (start is 0). */
export const logDefaultRangeAheadSeconds = 3600;

/** Seconds added by each expiry quick button; 'never' is the -1 sentinel. */
export const expiryQuickSeconds = { month: 30 * 86400, day: 86400, hour: 3600, minute: 60 } as const;
export type ExpiryQuick = 'never' | keyof typeof expiryQuickSeconds;
/** The expiry quick buttons in display order with their label keys. */
export const expiryQuickOptions: readonly { readonly id: ExpiryQuick; readonly labelKey: `domain.expiry.${ExpiryQuick}` }[] = [
  { id: 'never', labelKey: 'domain.expiry.never' },
  { id: 'month', labelKey: 'domain.expiry.month' },
  { id: 'day', labelKey: 'domain.expiry.day' },
  { id: 'hour', labelKey: 'domain.expiry.hour' },
  { id: 'minute', labelKey: 'domain.expiry.minute' },
];
/** `expired_time` for a quick button pressed at `nowSeconds`. */
export const expiryFromQuick = (quick: ExpiryQuick, nowSeconds: number): number =>
  quick === 'never' ? -1 : nowSeconds + expiryQuickSeconds[quick];

/** Logo path when the status has none. */
export const defaultLogo = '/logo.png';
/** The bootstrap root account (contract §3.3); logging in with it shows '请立刻修改默认密码！'. */
export const defaultRootUsername = 'root';
export const defaultRootPassword = '123456';
/** True when a login used the bootstrap credentials (go to /user/edit with a warning). */
export const isDefaultRootLogin = (username: string, password: string): boolean =>
  username === defaultRootUsername && password === defaultRootPassword;

/** Token keys are shown and copied with this prefix. */
export const tokenKeyPrefix = 'sk-';
/** SMTP port hint. */
export const defaultSmtpPort = 587;
/** Popup hover delays. */
export const popupDelayMs = { open: 50, close: 70 } as const;
/** On-demand page load timeout. */
export const lazyLoadTimeoutMs = 120000;
/** The footer re-reads the stored status this often, this many times. */
export const footerPoll = { intervalMs: 200, times: 5 } as const;

/** The one-api default QuotaPerUnit, used when the option is not a positive number (./ratioPrices re-exports it). */
export const defaultQuotaPerUnit = 500000;
