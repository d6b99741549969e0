import { describe, expect, it } from 'vitest';
import * as v from '../../../src/domain/validation';
import { renderMessage } from '../../../src/i18n';

/** What a failing verdict shows in zh: null when silent, undefined when it passed. */
const said = (verdict: v.Verdict | v.TokenFormResult | v.AddResult, lang: 'zh' | 'en' = 'zh'): string | null | undefined => {
  if (verdict.ok) return undefined;
  return verdict.message === null ? null : renderMessage(lang, verdict.message);
};

describe('registration (spec §5)', () => {
  const ok = { username: 'alice', password: '12345678', password2: '12345678' };
  it('passes a complete form', () => {
    expect(v.validateRegistration(ok)).toEqual({ ok: true });
  });
  it('empty username or password is silent', () => {
    expect(v.validateRegistration({ ...ok, username: '' })).toEqual({ ok: false, message: null });
    expect(v.validateRegistration({ ...ok, password: '', password2: '' })).toEqual({ ok: false, message: null });
    expect(v.validateRegistration({ username: '', password: 'short', password2: 'x' })).toEqual({ ok: false, message: null });
  });
  it("a password shorter than 8 gives '密码长度不得小于 8 位！'", () => {
    expect(said(v.validateRegistration({ ...ok, password: '1234567', password2: '1234567' }))).toBe('密码长度不得小于 8 位！');
    expect(said(v.validateRegistration({ ...ok, password: 'a', password2: 'b' }))).toBe('密码长度不得小于 8 位！');
  });
  it("differing passwords give '两次输入的密码不一致'", () => {
    expect(said(v.validateRegistration({ ...ok, password2: '12345679' }))).toBe('两次输入的密码不一致');
    expect(said(v.validateRegistration({ ...ok, password2: '12345679' }), 'en')).toBe('The two passwords do not match');
  });
  it('checks only the minimum length (20+ characters and long usernames pass)', () => {
    const long = 'x'.repeat(40);
    expect(v.validateRegistration({ username: 'a-very-long-username', password: long, password2: long }).ok).toBe(true);
  });
});

describe('bot check', () => {
  it('passes when disabled or when a token arrived', () => {
    expect(v.checkTurnstile({ enabled: false, token: '', english: false })).toEqual({ ok: true });
    expect(v.checkTurnstile({ enabled: true, token: 'tok', english: true })).toEqual({ ok: true });
  });
  it('stops with the Chinese wait message', () => {
    expect(said(v.checkTurnstile({ enabled: true, token: '', english: false }))).toBe('请稍后几秒重试，Turnstile 正在检查用户环境！');
  });
  it('the reset request shows the English sentence in both languages', () => {
    const english = 'please retry in a few seconds, Turnstile is checking the user environment!';
    expect(said(v.checkTurnstile({ enabled: true, token: '', english: true }))).toBe(english);
    expect(said(v.checkTurnstile({ enabled: true, token: '', english: true }), 'en')).toBe(english);
  });
});

describe('silent rules', () => {
  it('e-mail code and reset request do nothing with an empty or blank e-mail', () => {
    for (const fn of [v.validateEmailForCode, v.validateResetRequest]) {
      expect(fn('')).toEqual({ ok: false, message: null });
      expect(fn('   ')).toEqual({ ok: false, message: null });
      expect(fn('a@b.c')).toEqual({ ok: true });
    }
  });
  it('login needs both fields', () => {
    expect(v.validateLogin({ username: 'a', password: 'b' })).toEqual({ ok: true });
    expect(v.validateLogin({ username: '', password: 'b' })).toEqual({ ok: false, message: null });
    expect(v.validateLogin({ username: 'a', password: '' })).toEqual({ ok: false, message: null });
  });
  it('binding does nothing without a code', () => {
    expect(v.validateBindCode('')).toEqual({ ok: false, message: null });
    expect(v.validateBindCode(' ')).toEqual({ ok: false, message: null });
    expect(v.validateBindCode('123456')).toEqual({ ok: true });
  });
  it('user create does nothing without username or password', () => {
    expect(v.validateUserCreate({ username: '', password: 'x' })).toEqual({ ok: false, message: null });
    expect(v.validateUserCreate({ username: 'x', password: '' })).toEqual({ ok: false, message: null });
    expect(v.validateUserCreate({ username: 'x', password: 'y' })).toEqual({ ok: true });
  });
});

describe('self-delete', () => {
  it("must type the own username exactly, else '请输入你的账户名以确认删除！'", () => {
    expect(v.validateSelfDelete('alice', 'alice')).toEqual({ ok: true });
    expect(said(v.validateSelfDelete('Alice', 'alice'))).toBe('请输入你的账户名以确认删除！');
    expect(said(v.validateSelfDelete('', 'alice'))).toBe('请输入你的账户名以确认删除！');
    expect(said(v.validateSelfDelete('alice ', 'alice'))).toBe('请输入你的账户名以确认删除！');
  });
});

describe('integers', () => {
  it('parses typed integers; junk is null', () => {
    expect(v.parseInteger('42')).toBe(42);
    expect(v.parseInteger(' 42.9 ')).toBe(42);
    expect(v.parseInteger('-3')).toBe(-3);
    expect(v.parseInteger(7.8)).toBe(7);
    expect(v.parseInteger('')).toBeNull();
    expect(v.parseInteger('abc')).toBeNull();
    expect(v.parseInteger(Number.NaN)).toBeNull();
  });
});

describe('operation settings', () => {
  it('ratios must be valid JSON, with the three spec messages', () => {
    expect(v.validateRatioJson('ModelRatio', '{"gpt-4":15}')).toEqual({ ok: true });
    expect(v.validateRatioJson('GroupRatio', '"a string parses"')).toEqual({ ok: true });
    expect(said(v.validateRatioJson('ModelRatio', '{'))).toBe('模型倍率不是合法的 JSON 字符串');
    expect(said(v.validateRatioJson('GroupRatio', '{x:1}'))).toBe('分组倍率不是合法的 JSON 字符串');
    expect(said(v.validateRatioJson('CompletionRatio', ''))).toBe('补全倍率不是合法的 JSON 字符串');
  });
  it('isValidJson accepts any JSON value', () => {
    expect(['{}', '[]', '1', 'null', '"x"', ' {"a": [1, 2]} '].every(v.isValidJson)).toBe(true);
    expect(['', '{', "{'a':1}", 'undefined', '{"a":1,}'].some(v.isValidJson)).toBe(false);
  });
  it('only changed values are saved and empty secrets are not re-sent', () => {
    const original = { SystemName: 'One API', SMTPToken: '', GitHubClientSecret: '', TurnstileSecretKey: '', Footer: '' };
    const edited = { SystemName: 'Gateway', SMTPToken: '', GitHubClientSecret: 'new', TurnstileSecretKey: '', Footer: '' };
    expect(v.changedOptions(original, edited)).toEqual([
      ['SystemName', 'Gateway'],
      ['GitHubClientSecret', 'new'],
    ]);
    expect(v.changedOptions({ Notice: 'x' }, { Notice: '' })).toEqual([['Notice', '']]);
    expect(v.changedOptions({}, { New: 'v' })).toEqual([['New', 'v']]);
  });
  it('secret option keys end in Token, Secret or SecretKey', () => {
    expect(['SMTPToken', 'WeChatServerToken', 'MessagePusherToken', 'GitHubClientSecret', 'LarkClientSecret', 'TurnstileSecretKey'].every(v.isSecretOptionKey)).toBe(true);
    expect(['TurnstileSiteKey', 'GitHubClientId', 'SMTPAccount', 'TokenCount'].some(v.isSecretOptionKey)).toBe(false);
  });
  it("boolean options flip between 'true' and 'false'", () => {
    expect(v.toggledOptionValue('true')).toBe('false');
    expect(v.toggledOptionValue('false')).toBe('true');
    expect(v.toggledOptionValue('')).toBe('true');
  });
  it('only turning PasswordLoginEnabled off and TwoFactorRequiredForAdmins on need confirmation', () => {
    expect(v.toggleNeedsConfirmation('TwoFactorRequiredForAdmins', '')).toBe(true);
    expect(v.toggleNeedsConfirmation('TwoFactorRequiredForAdmins', 'false')).toBe(true);
    expect(v.toggleNeedsConfirmation('TwoFactorRequiredForAdmins', 'true')).toBe(false);
    expect(v.toggleNeedsConfirmation('PasswordLoginEnabled', 'true')).toBe(true);
    expect(v.toggleNeedsConfirmation('PasswordLoginEnabled', 'false')).toBe(false);
    expect(v.toggleNeedsConfirmation('RegisterEnabled', 'true')).toBe(false);
  });
  it('whitelist entries are added only when non-empty and new', () => {
    expect(v.addWhitelistDomain(['gmail.com'], ' qq.com ')).toEqual({ ok: true, list: ['gmail.com', 'qq.com'] });
    expect(v.addWhitelistDomain(['gmail.com'], 'gmail.com')).toEqual({ ok: false, message: null });
    expect(v.addWhitelistDomain(['gmail.com'], '  ')).toEqual({ ok: false, message: null });
  });
  it('the server address loses its trailing slashes', () => {
    expect(v.normaliseServerAddress('https://gw.example.com/')).toBe('https://gw.example.com');
    expect(v.normaliseServerAddress(' https://gw.example.com// ')).toBe('https://gw.example.com');
    expect(v.normaliseServerAddress('https://gw.example.com')).toBe('https://gw.example.com');
  });
});

describe('channel form', () => {
  const config: v.ChannelConfig = { region: '', ak: '', sk: '', user_id: '', vertex_ai_project_id: '', vertex_ai_adc: '' };
  const form: v.ChannelFormValues = {
    type: 1,
    name: 'main',
    key: 'sk-x',
    base_url: '',
    other: '',
    models: ['gpt-4o'],
    model_mapping: '',
    config,
  };
  it('passes a complete form', () => {
    expect(v.validateChannelForm(form, false)).toEqual({ ok: true });
  });
  it('on create, name and key are required', () => {
    const nameAndKey = '请填写渠道名称和渠道密钥！';
    expect(said(v.validateChannelForm({ ...form, name: '' }, false))).toBe(nameAndKey);
    expect(said(v.validateChannelForm({ ...form, key: '' }, false))).toBe(nameAndKey);
    expect(said(v.validateChannelForm({ ...form, key: '  ' }, false))).toBe(nameAndKey);
    expect(said(v.validateChannelForm({ ...form, key: '' }, false), 'en')).toBe('Please fill in the channel name and channel key!');
    expect(v.validateChannelForm({ ...form, key: '' }, true)).toEqual({ ok: true });
  });
  it('except type 43, at least one model', () => {
    expect(said(v.validateChannelForm({ ...form, models: [] }, false))).toBe('请至少选择一个模型！');
    expect(said(v.validateChannelForm({ ...form, models: [] }, true))).toBe('请至少选择一个模型！');
    expect(v.validateChannelForm({ ...form, type: 43, models: [] }, false)).toEqual({ ok: true });
  });
  it('a non-empty model_mapping must be valid JSON', () => {
    expect(said(v.validateChannelForm({ ...form, model_mapping: '{"a":' }, false))).toBe('模型映射必须是合法的 JSON 格式！');
    expect(said(v.validateChannelForm({ ...form, model_mapping: '{"a":' }, false), 'en')).toBe('Model mapping must be valid JSON format!');
    expect(v.validateChannelForm({ ...form, model_mapping: '{"gpt-4-0314":"gpt-4"}' }, false)).toEqual({ ok: true });
    expect(v.validateChannelForm({ ...form, model_mapping: '   ' }, false)).toEqual({ ok: true });
  });
  it('checks in the spec order: name/key, then models, then mapping', () => {
    const all = { ...form, name: '', models: [], model_mapping: '{' };
    expect(said(v.validateChannelForm(all, false))).toBe('请填写渠道名称和渠道密钥！');
    expect(said(v.validateChannelForm(all, true))).toBe('请至少选择一个模型！');
  });
  it('type 33 and 42 keys come from their three fields (so they satisfy the key rule)', () => {
    const aws = { ...form, type: 33, key: '', config: { ...config, ak: 'AK', sk: 'SK', region: 'us-east-1' } };
    expect(v.validateChannelForm(aws, false)).toEqual({ ok: true });
    expect(v.normaliseChannelForm(aws).key).toBe('AK|SK|us-east-1');
    const vertex = { ...form, type: 42, key: '', config: { ...config, region: 'us-central1', vertex_ai_project_id: 'p1', vertex_ai_adc: '{"k":1}' } };
    expect(v.normaliseChannelForm(vertex).key).toBe('us-central1|p1|{"k":1}');
    const partial = { ...form, type: 33, key: '', config: { ...config, ak: 'AK' } };
    expect(said(v.validateChannelForm(partial, false))).toBe('请填写渠道名称和渠道密钥！');
  });
  it('composeChannelKey leaves other types and incomplete configs alone', () => {
    const full = { ...config, ak: 'a', sk: 's', region: 'r', vertex_ai_project_id: 'p', vertex_ai_adc: 'c' };
    expect(v.composeChannelKey(1, 'k', full)).toBe('k');
    expect(v.composeChannelKey(33, 'k', full)).toBe('a|s|r');
    expect(v.composeChannelKey(42, 'k', full)).toBe('r|p|c');
    expect(v.composeChannelKey(42, 'k', { ...full, vertex_ai_adc: '' })).toBe('k');
  });
  it('normalises base_url and the type 3 API version', () => {
    expect(v.normaliseChannelForm({ ...form, base_url: 'https://x.example.com/' }).base_url).toBe('https://x.example.com');
    expect(v.stripTrailingSlash('https://x//')).toBe('https://x');
    expect(v.stripTrailingSlash('')).toBe('');
    expect(v.normaliseChannelForm({ ...form, type: 3 }).other).toBe('2024-03-01-preview');
    expect(v.normaliseChannelForm({ ...form, type: 3, other: '2023-05-15' }).other).toBe('2023-05-15');
    expect(v.normaliseChannelForm({ ...form, type: 1 }).other).toBe('');
  });
  it('normalisation keeps extra fields of the caller', () => {
    const withExtra = { ...form, priority: 3 };
    expect(v.normaliseChannelForm(withExtra).priority).toBe(3);
  });
  it('custom model names: no duplicates, not empty', () => {
    expect(v.addCustomModel(['gpt-4o'], ' my-model ')).toEqual({ ok: true, list: ['gpt-4o', 'my-model'] });
    expect(v.addCustomModel(['gpt-4o'], 'gpt-4o')).toEqual({ ok: false, message: null });
    expect(v.addCustomModel(['gpt-4o'], '')).toEqual({ ok: false, message: null });
  });
  it('fill models merges without duplicates; a type change fills defaults only when none are chosen', () => {
    expect(v.mergeModels(['a', 'b'], ['b', 'c', 'a', 'd'])).toEqual(['a', 'b', 'c', 'd']);
    expect(v.modelsAfterTypeChange([], ['x', 'y'])).toEqual(['x', 'y']);
    expect(v.modelsAfterTypeChange(['a'], ['x', 'y'])).toEqual(['a']);
  });
  it('inline priority: empty ignored; weight clamps negatives to 0', () => {
    expect(v.parseInlinePriority('')).toBeNull();
    expect(v.parseInlinePriority('  ')).toBeNull();
    expect(v.parseInlinePriority('5')).toBe(5);
    expect(v.parseInlinePriority('-2')).toBe(-2);
    expect(v.parseInlinePriority('x')).toBeNull();
    expect(v.parseInlineWeight('')).toBeNull();
    expect(v.parseInlineWeight('-4')).toBe(0);
    expect(v.parseInlineWeight('7')).toBe(7);
    expect(v.clampWeight(-1)).toBe(0);
    expect(v.clampWeight(3)).toBe(3);
  });
});

describe('token form', () => {
  const base: v.TokenFormValues = { name: 'default', expiredTime: -1, remainQuota: '500000' };
  it('passes and converts to integers', () => {
    expect(v.validateTokenForm(base, false)).toEqual({ ok: true, expiredTime: -1, remainQuota: 500000 });
    expect(v.validateTokenForm({ ...base, expiredTime: '-1', remainQuota: 12.7 }, false)).toEqual({ ok: true, expiredTime: -1, remainQuota: 12 });
    expect(v.validateTokenForm({ ...base, remainQuota: 'lots' }, false)).toEqual({ ok: true, expiredTime: -1, remainQuota: 0 });
  });
  it('parses a date-time expiry', () => {
    expect(v.validateTokenForm({ ...base, expiredTime: '2024-02-15 12:26:40' }, false, 0)).toEqual({ ok: true, expiredTime: 1708000000, remainQuota: 500000 });
    expect(v.validateTokenForm({ ...base, expiredTime: '2024-02-15T20:26' }, false, 480)).toMatchObject({ expiredTime: 1708000000 - 40 });
  });
  it('name required on create only', () => {
    expect(said(v.validateTokenForm({ ...base, name: ' ' }, false))).toBe('请填写令牌名称！');
    expect(v.validateTokenForm({ ...base, name: '' }, true).ok).toBe(true);
  });
  it("a bad expiry gives 'expiry time format error!'", () => {
    expect(said(v.validateTokenForm({ ...base, expiredTime: 'tomorrow' }, false))).toBe('过期时间格式错误！');
    expect(said(v.validateTokenForm({ ...base, expiredTime: '' }, false), 'en')).toBe('Expiry time format error!');
    expect(said(v.validateTokenForm({ ...base, expiredTime: Number.NaN }, false))).toBe('过期时间格式错误！');
  });
  it('parseExpiry handles -1, numbers and text', () => {
    expect(v.parseExpiry(-1)).toBe(-1);
    expect(v.parseExpiry(' -1 ')).toBe(-1);
    expect(v.parseExpiry(1708000000.9)).toBe(1708000000);
    expect(v.parseExpiry('2024-02-15', 0)).toBe(1707955200);
    expect(v.parseExpiry('nope')).toBeNull();
  });
});

describe('redemption and top-up', () => {
  it('redemption create requires a name', () => {
    expect(said(v.validateRedemptionCreate({ name: '' }))).toBe('请填写兑换码名称！');
    expect(v.validateRedemptionCreate({ name: 'promo' })).toEqual({ ok: true });
    expect(v.validateRedemptionCreate({ name: '' }, true)).toEqual({ ok: true });
  });
  it("an empty code gives 'please enter a top-up code!'", () => {
    expect(said(v.validateRedeemCode(''))).toBe('请输入兑换码！');
    expect(said(v.validateRedeemCode('  '), 'en')).toBe('Please enter a top-up code!');
    expect(v.validateRedeemCode('abc')).toEqual({ ok: true });
  });
  it("no link gives 'the super administrator has not set a top-up link!'", () => {
    expect(said(v.validateTopUpLink(''))).toBe('超级管理员未设置充值链接！');
    expect(said(v.validateTopUpLink(''), 'en')).toBe('The super administrator has not set a top-up link!');
    expect(v.validateTopUpLink('https://pay.example.com')).toEqual({ ok: true });
  });
});
