import type { MessageKey, MessageKeySuffix } from './message';
/**
 * The option sections of the settings page (spec §2 "Settings", §3 "Option", contract §2.11 and
 * §3.4) as data: which tab shows them, which option keys they hold, how each is edited and
 * which catalogue keys label it. The settings machine saves a section's changed values together;
 * the views render a section from this description alone.
 */

/** The tabs of /setting: personal for everyone, the other three for root only (spec §6). */
export type SettingsTab = 'personal' | 'operation' | 'system' | 'other';
export type OptionTab = Exclude<SettingsTab, 'personal'>;

export const settingsTabs: readonly SettingsTab[] = ['personal', 'operation', 'system', 'other'];
export const optionTabs: readonly OptionTab[] = ['operation', 'system', 'other'];

export const isSettingsTab = (value: string): value is SettingsTab => (settingsTabs as readonly string[]).includes(value);
export const isOptionTab = (tab: SettingsTab): tab is OptionTab => tab !== 'personal';

/**
 * How an option is edited. Booleans flip and save at once ('true'/'false'); `secret` values are
 * hidden by the server and an empty box means "unchanged"; `whitelist` is a comma-separated list
 * edited as tags; `theme` is a choice among `themeChoices`.
 */
export type OptionKind = 'boolean' | 'text' | 'number' | 'textarea' | 'json' | 'secret' | 'whitelist' | 'theme';

export interface OptionField {
  readonly key: string;
  readonly kind: OptionKind;
  /** Catalogue key of the label (`settings.option.<key>`). */
  readonly labelKey: MessageKey;
  /** Catalogue key of the helper line under the input, if any. */
  readonly hintKey?: MessageKey;
  /** Catalogue key of the placeholder, if any. */
  readonly placeholderKey?: MessageKey;
  /** Number inputs: the smallest and largest value (as numberRules allows) and the step. */
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
}

export type OperationSectionId = 'general' | 'monitor' | 'quota' | 'ratio';
export type SystemSectionId = 'login' | 'emailDomain' | 'smtp' | 'github' | 'lark' | 'wechat' | 'messagePusher' | 'turnstile' | 'server';
export type OtherSectionId = 'notice' | 'systemName' | 'theme' | 'logo' | 'homePage' | 'about' | 'footer';
export type SectionId = OperationSectionId | SystemSectionId | OtherSectionId;

export interface OptionSection {
  readonly id: SectionId;
  readonly tab: OptionTab;
  /** Catalogue key of the section heading (`settings.section.<id>`). */
  readonly titleKey: MessageKey;
  /** Catalogue key of a line under the heading, if any. */
  readonly hintKey?: MessageKey;
  readonly fields: readonly OptionField[];
}

/** The server accepts these themes only (contract §2.11.2: `无效的主题` otherwise). */
export type ThemeChoice = 'default' | 'berry' | 'air';
export const themeChoices: readonly ThemeChoice[] = ['default', 'berry', 'air'];
/** Whether a stored theme is one the server accepts. */
export const isThemeChoice = (value: string): value is ThemeChoice => (themeChoices as readonly string[]).includes(value);

type FieldExtra = Omit<OptionField, 'key' | 'kind' | 'labelKey'>;
const field = (key: MessageKeySuffix<'settings.option.'>, kind: OptionKind, extra: FieldExtra = {}): OptionField => ({
  key,
  kind,
  labelKey: `settings.option.${key}`,
  ...extra,
});
const hinted = (key: MessageKeySuffix<'settings.option.'> & MessageKeySuffix<'settings.hint.'>, kind: OptionKind, extra: FieldExtra = {}): OptionField =>
  field(key, kind, { hintKey: `settings.hint.${key}`, ...extra });
const section = (
  id: SectionId,
  tab: OptionTab,
  fields: readonly OptionField[],
  hintKey?: `settings.sectionHint.${SectionId}` & MessageKey,
): OptionSection => ({
  id,
  tab,
  titleKey: `settings.section.${id}`,
  ...(hintKey === undefined ? {} : { hintKey }),
  fields,
});

export const optionSections: readonly OptionSection[] = [
  // Operation (spec §2): general, monitor, quota, ratio, each saved separately
  section('general', 'operation', [
    field('TopUpLink', 'text', { placeholderKey: 'settings.placeholder.TopUpLink' }),
    field('ChatLink', 'text', { placeholderKey: 'settings.placeholder.ChatLink' }),
    hinted('QuotaPerUnit', 'number', { step: 0.01, min: 0 }),
    hinted('RetryTimes', 'number', { step: 1, min: 0, max: 10 }),
    field('LogConsumeEnabled', 'boolean'),
    field('DisplayInCurrencyEnabled', 'boolean'),
    field('DisplayTokenStatEnabled', 'boolean'),
    field('ApproximateTokenEnabled', 'boolean'),
  ]),
  section('monitor', 'operation', [
    hinted('ChannelDisableThreshold', 'number', { min: 0, max: 86_400, step: 1 }),
    hinted('QuotaRemindThreshold', 'number', { min: 0, step: 1 }),
    field('AutomaticDisableChannelEnabled', 'boolean'),
    field('AutomaticEnableChannelEnabled', 'boolean'),
  ]),
  section('quota', 'operation', [
    field('QuotaForNewUser', 'number', { min: 0, step: 1 }),
    hinted('PreConsumedQuota', 'number', { min: 0, step: 1 }),
    field('QuotaForInviter', 'number', { min: 0, step: 1 }),
    field('QuotaForInvitee', 'number', { min: 0, step: 1 }),
  ]),
  section('ratio', 'operation', [hinted('ModelRatio', 'json'), hinted('CompletionRatio', 'json'), hinted('GroupRatio', 'json')]),

  // System (spec §2): switches, whitelist, SMTP, OAuth apps, WeChat server, pusher, bot check, address
  section('login', 'system', [
    field('PasswordLoginEnabled', 'boolean'),
    field('PasswordRegisterEnabled', 'boolean'),
    field('EmailVerificationEnabled', 'boolean'),
    field('GitHubOAuthEnabled', 'boolean'),
    field('WeChatAuthEnabled', 'boolean'),
    field('RegisterEnabled', 'boolean'),
    field('TurnstileCheckEnabled', 'boolean'),
    // Ours (one-api has no two-factor sign-in); the server's default is off (no row).
    field('TwoFactorRequiredForAdmins', 'boolean'),
  ]),
  section(
    'emailDomain',
    'system',
    [field('EmailDomainRestrictionEnabled', 'boolean'), hinted('EmailDomainWhitelist', 'whitelist')],
    'settings.sectionHint.emailDomain',
  ),
  section(
    'smtp',
    'system',
    [
      field('SMTPServer', 'text'),
      hinted('SMTPPort', 'number', { min: 1, max: 65_535, step: 1, placeholderKey: 'settings.placeholder.SMTPPort' }),
      field('SMTPAccount', 'text'),
      field('SMTPFrom', 'text'),
      hinted('SMTPToken', 'secret'),
    ],
    'settings.sectionHint.smtp',
  ),
  section('github', 'system', [field('GitHubClientId', 'text'), hinted('GitHubClientSecret', 'secret')], 'settings.sectionHint.github'),
  section('lark', 'system', [field('LarkClientId', 'text'), hinted('LarkClientSecret', 'secret')], 'settings.sectionHint.lark'),
  section(
    'wechat',
    'system',
    [field('WeChatServerAddress', 'text'), hinted('WeChatServerToken', 'secret'), field('WeChatAccountQRCodeImageURL', 'text')],
    'settings.sectionHint.wechat',
  ),
  section('messagePusher', 'system', [field('MessagePusherAddress', 'text'), hinted('MessagePusherToken', 'secret')], 'settings.sectionHint.messagePusher'),
  section('turnstile', 'system', [field('TurnstileSiteKey', 'text'), hinted('TurnstileSecretKey', 'secret')], 'settings.sectionHint.turnstile'),
  section('server', 'system', [hinted('ServerAddress', 'text', { placeholderKey: 'settings.placeholder.ServerAddress' })]),

  // Other (personalisation, spec §2)
  section('notice', 'other', [hinted('Notice', 'textarea')]),
  section('systemName', 'other', [field('SystemName', 'text')]),
  section('theme', 'other', [hinted('Theme', 'theme')]),
  section('logo', 'other', [field('Logo', 'text', { placeholderKey: 'settings.placeholder.Logo' })]),
  section('homePage', 'other', [hinted('HomePageContent', 'textarea')]),
  section('about', 'other', [hinted('About', 'textarea')]),
  section('footer', 'other', [hinted('Footer', 'textarea')]),
];

const byId = new Map(optionSections.map((s) => [s.id, s] as const));

/** The section with this id (every SectionId has one). */
export const sectionOf = (id: SectionId): OptionSection => byId.get(id)!;

/** The sections of a tab, in page order (none for the personal tab). */
export const sectionsOfTab = (tab: SettingsTab): readonly OptionSection[] => optionSections.filter((s) => s.tab === tab);

/** Every option field of the page, in page order. */
export const optionFields: readonly OptionField[] = optionSections.flatMap((s) => s.fields);

/** The field of an option key, or undefined for a key no section shows. */
export const fieldOf = (key: string): OptionField | undefined => optionFields.find((f) => f.key === key);

/** The section that holds an option key, or undefined. */
export const sectionOfKey = (key: string): OptionSection | undefined => optionSections.find((s) => s.fields.some((f) => f.key === key));

/** The keys a section saves with its button: every field except the booleans (they save at once). */
export const savedKeysOf = (section: OptionSection): readonly string[] =>
  section.fields.filter((f) => f.kind !== 'boolean').map((f) => f.key);

/** A section has a save button when it has something besides switches. */
export const hasSaveButton = (section: OptionSection): boolean => savedKeysOf(section).length > 0;

/** The option keys of a tab's sections. */
export const keysOfTab = (tab: SettingsTab): readonly string[] => sectionsOfTab(tab).flatMap((s) => s.fields.map((f) => f.key));

/**
 * Options that `GET /api/status` (or the cached notice) reflects (contract §2.2.1): after saving
 * one, the console reloads the status so the header, footer and quota display follow.
 */
export const statusOptionKeys: ReadonlySet<string> = new Set([
  'SystemName',
  'Logo',
  'Footer',
  'Notice',
  'ChatLink',
  'TopUpLink',
  'QuotaPerUnit',
  'DisplayInCurrencyEnabled',
  'ServerAddress',
  'EmailVerificationEnabled',
  'GitHubOAuthEnabled',
  'GitHubClientId',
  'LarkClientId',
  'WeChatAuthEnabled',
  'WeChatAccountQRCodeImageURL',
  'TurnstileCheckEnabled',
  'TurnstileSiteKey',
  // our status extension `password_login` (the login page hides the password form when off)
  'PasswordLoginEnabled',
]);

export const affectsStatus = (keys: readonly string[]): boolean => keys.some((k) => statusOptionKeys.has(k));

/**
 * JSON text laid out for reading: two-space indentation, one entry a line. Text that is not
 * JSON stays as it is (the save then names the option and refuses it).
 */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** An option's stored value as the page edits it: JSON options (the ratio tables) pretty-printed. */
export const editableValueOf = (key: string, value: string): string => (fieldOf(key)?.kind === 'json' && value.trim() !== '' ? prettyJson(value) : value);

/** Splits the EmailDomainWhitelist value into entries (empty pieces dropped). */
export const whitelistEntries = (value: string): readonly string[] =>
  value
    .split(',')
    .map((d) => d.trim())
    .filter((d) => d !== '');

/** Joins whitelist entries into the option value. */
export const whitelistValue = (entries: readonly string[]): string => entries.join(',');
