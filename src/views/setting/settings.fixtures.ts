import type { OptionEntry } from '../../domain/option';
import { valuesOf } from '../../machines/optionSettings';

/** What a fresh gateway lists (secrets hidden), for the settings stories. */
export const storyOptionEntries: OptionEntry[] = [
  { key: 'PasswordLoginEnabled', value: 'true' },
  { key: 'PasswordRegisterEnabled', value: 'true' },
  { key: 'EmailVerificationEnabled', value: 'false' },
  { key: 'GitHubOAuthEnabled', value: 'false' },
  { key: 'WeChatAuthEnabled', value: 'false' },
  { key: 'RegisterEnabled', value: 'true' },
  { key: 'TurnstileCheckEnabled', value: 'false' },
  { key: 'EmailDomainRestrictionEnabled', value: 'false' },
  { key: 'EmailDomainWhitelist', value: 'gmail.com,qq.com' },
  { key: 'SMTPPort', value: '587' },
  { key: 'LogConsumeEnabled', value: 'true' },
  { key: 'DisplayInCurrencyEnabled', value: 'true' },
  { key: 'DisplayTokenStatEnabled', value: 'true' },
  { key: 'ApproximateTokenEnabled', value: 'false' },
  { key: 'AutomaticDisableChannelEnabled', value: 'false' },
  { key: 'AutomaticEnableChannelEnabled', value: 'false' },
  { key: 'ChannelDisableThreshold', value: '5' },
  { key: 'QuotaRemindThreshold', value: '1000' },
  { key: 'QuotaForNewUser', value: '0' },
  { key: 'PreConsumedQuota', value: '500' },
  { key: 'QuotaForInviter', value: '0' },
  { key: 'QuotaForInvitee', value: '0' },
  { key: 'ModelRatio', value: '{"gpt-4":15,"gpt-3.5-turbo":0.75}' },
  { key: 'CompletionRatio', value: '{"gpt-4":2}' },
  { key: 'GroupRatio', value: '{"default":1,"vip":1}' },
  { key: 'QuotaPerUnit', value: '500000' },
  { key: 'RetryTimes', value: '0' },
  { key: 'SystemName', value: 'One API' },
  { key: 'Theme', value: 'default' },
];

export const storyOptionValues = valuesOf(storyOptionEntries);
