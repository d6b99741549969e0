import { describe, expect, it } from 'vitest';
import {
  affectsStatus,
  fieldOf,
  hasSaveButton,
  isSettingsTab,
  keysOfTab,
  optionFields,
  optionSections,
  savedKeysOf,
  sectionOf,
  sectionOfKey,
  sectionsOfTab,
  statusOptionKeys,
  whitelistEntries,
  whitelistValue,
} from '../../../src/domain/optionSections';
import { isSecretOptionKey } from '../../../src/domain/validation';
import { isMessageKey } from '../../../src/i18n';

/** Every option of spec §3 "Option" (system, personalisation, operation) plus the Lark app. */
const specKeys = [
  'PasswordLoginEnabled', 'PasswordRegisterEnabled', 'EmailVerificationEnabled', 'GitHubOAuthEnabled', 'GitHubClientId',
  'GitHubClientSecret', 'LarkClientId', 'LarkClientSecret', 'Notice', 'SMTPServer', 'SMTPPort', 'SMTPAccount', 'SMTPFrom',
  'SMTPToken', 'ServerAddress', 'Footer', 'WeChatAuthEnabled', 'WeChatServerAddress', 'WeChatServerToken',
  'WeChatAccountQRCodeImageURL', 'MessagePusherAddress', 'MessagePusherToken', 'TurnstileCheckEnabled', 'TurnstileSiteKey',
  'TurnstileSecretKey', 'RegisterEnabled', 'EmailDomainRestrictionEnabled', 'EmailDomainWhitelist', 'About', 'SystemName',
  'Logo', 'HomePageContent', 'Theme', 'QuotaForNewUser', 'QuotaForInviter', 'QuotaForInvitee', 'QuotaRemindThreshold',
  'PreConsumedQuota', 'ModelRatio', 'CompletionRatio', 'GroupRatio', 'TopUpLink', 'ChatLink', 'QuotaPerUnit',
  'AutomaticDisableChannelEnabled', 'AutomaticEnableChannelEnabled', 'ChannelDisableThreshold', 'LogConsumeEnabled',
  'DisplayInCurrencyEnabled', 'DisplayTokenStatEnabled', 'ApproximateTokenEnabled', 'RetryTimes',
  // ours: two-factor sign-in required for admins (one-api has no two-factor sign-in)
  'TwoFactorRequiredForAdmins',
];

describe('option sections', () => {
  it('show every option of the spec exactly once', () => {
    const keys = optionFields.map((f) => f.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual([...specKeys].sort());
  });

  it('lay out the tabs as the spec says', () => {
    expect(sectionsOfTab('operation').map((s) => s.id)).toEqual(['general', 'monitor', 'quota', 'ratio']);
    expect(sectionsOfTab('system').map((s) => s.id)).toEqual([
      'login', 'emailDomain', 'smtp', 'github', 'lark', 'wechat', 'messagePusher', 'turnstile', 'server',
    ]);
    expect(sectionsOfTab('other').map((s) => s.id)).toEqual(['notice', 'systemName', 'theme', 'logo', 'homePage', 'about', 'footer']);
    expect(sectionsOfTab('personal')).toEqual([]);
    expect(keysOfTab('operation')).toContain('ModelRatio');
  });

  it('edit each option with the right kind and number bounds', () => {
    expect(fieldOf('QuotaPerUnit')).toMatchObject({ kind: 'number', step: 0.01 });
    expect(fieldOf('RetryTimes')).toMatchObject({ kind: 'number', step: 1, min: 0 });
    expect(fieldOf('ChannelDisableThreshold')).toMatchObject({ kind: 'number', min: 0 });
    expect(fieldOf('SMTPPort')).toMatchObject({ kind: 'number', placeholderKey: 'settings.placeholder.SMTPPort' });
    expect(fieldOf('ModelRatio')?.kind).toBe('json');
    expect(fieldOf('EmailDomainWhitelist')?.kind).toBe('whitelist');
    expect(fieldOf('Theme')?.kind).toBe('theme');
    expect(fieldOf('Nope')).toBeUndefined();
    for (const f of optionFields) {
      // every key ending in Enabled is a switch; every hidden key is a secret box
      // (TwoFactorRequiredForAdmins, ours, is a switch named after what it requires)
      expect(f.kind === 'boolean', f.key).toBe(f.key.endsWith('Enabled') || f.key === 'TwoFactorRequiredForAdmins');
      if (f.key !== 'TurnstileSecretKey') expect(f.kind === 'secret', f.key).toBe(isSecretOptionKey(f.key));
    }
  });

  it('label everything through the catalogue', () => {
    for (const s of optionSections) {
      expect(isMessageKey(s.titleKey), s.titleKey).toBe(true);
      if (s.hintKey !== undefined) expect(isMessageKey(s.hintKey), s.hintKey).toBe(true);
      for (const f of s.fields)
        for (const key of [f.labelKey, f.hintKey, f.placeholderKey]) if (key !== undefined) expect(isMessageKey(key), key).toBe(true);
    }
  });

  it('save the non-switch fields with the section button', () => {
    expect(savedKeysOf(sectionOf('general'))).toEqual(['TopUpLink', 'ChatLink', 'QuotaPerUnit', 'RetryTimes']);
    expect(hasSaveButton(sectionOf('login'))).toBe(false);
    expect(hasSaveButton(sectionOf('emailDomain'))).toBe(true);
    expect(sectionOfKey('SMTPToken')?.id).toBe('smtp');
    expect(sectionOfKey('Nope')).toBeUndefined();
  });

  it('know which options the status reflects', () => {
    expect(affectsStatus(['RetryTimes', 'SystemName'])).toBe(true);
    expect(affectsStatus(['RetryTimes', 'ModelRatio'])).toBe(false);
    for (const key of statusOptionKeys) expect(fieldOf(key), key).toBeDefined();
  });

  it('read tabs and whitelists', () => {
    expect(isSettingsTab('system')).toBe(true);
    expect(isSettingsTab('admin')).toBe(false);
    expect(whitelistEntries(' gmail.com, ,qq.com ')).toEqual(['gmail.com', 'qq.com']);
    expect(whitelistEntries('')).toEqual([]);
    expect(whitelistValue(['a.com', 'b.com'])).toBe('a.com,b.com');
  });
});
