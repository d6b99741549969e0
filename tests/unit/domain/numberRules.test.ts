import { describe, expect, it } from 'vitest';
import { msg } from '../../../src/domain/message';
import {
  checkNumber,
  checkRatioTable,
  fieldProblem,
  keptModelRatios,
  maxQuota,
  maxUnixTime,
  numberRules,
  numericOptionRules,
  optionValueProblem,
} from '../../../src/domain/numberRules';
import { checkTokenForm, emptyTokenForm } from '../../../src/domain/tokenForm';
import { renderMessage } from '../../../src/i18n';
import { checkRedemptionForm, emptyRedemptionForm } from '../../../src/machines/redemptionForm';
import { quotaProblemOf } from '../../../src/machines/userForm';
import { ratioProblems } from '../../../src/machines/optionSettings';

/** The number rules shared by the console and the server (issue 18 §4). */

describe('checkNumber', () => {
  it("a channel's priority and weight (one check for a channel write and an edit by tag): safe integers, the weight not negative", () => {
    const safe = Number.MAX_SAFE_INTEGER;
    for (const ok of [-safe, -3, 0, safe]) expect(checkNumber(numberRules.channelPriority, ok), String(ok)).toBeNull();
    for (const ok of [0, 1, safe]) expect(checkNumber(numberRules.channelWeight, ok), String(ok)).toBeNull();
    const priorityRange = { key: 'number.range', params: { min: -safe, max: safe } };
    const weightRange = { key: 'number.range', params: { min: 0, max: safe } };
    expect(checkNumber(numberRules.channelPriority, 1e308)).toEqual(priorityRange);
    expect(checkNumber(numberRules.channelPriority, -(2 ** 60))).toEqual(priorityRange);
    expect(checkNumber(numberRules.channelWeight, 2 ** 53)).toEqual(weightRange);
    expect(checkNumber(numberRules.channelWeight, -1)).toEqual(weightRange);
    for (const rule of [numberRules.channelPriority, numberRules.channelWeight]) expect(checkNumber(rule, 0.5)).toEqual({ key: 'number.integer', params: {} });
  });

  it('integers: in range passes; fractions, exponents, NaN, Infinity and text are not integers', () => {
    expect(checkNumber(numberRules.balance, 0)).toBeNull();
    expect(checkNumber(numberRules.balance, ' 42 ')).toBeNull();
    expect(checkNumber(numberRules.balance, maxQuota)).toBeNull();
    for (const bad of [1.5, '1.5', '1e3', Number.NaN, Number.POSITIVE_INFINITY, 'NaN', 'Infinity', 'abc', '', '4503599627370496.5', true, null]) {
      expect(checkNumber(numberRules.balance, bad), String(bad)).toEqual({ key: 'number.integer', params: {} });
    }
  });

  it('integers: below or above the range names both ends; `also` admits single values', () => {
    const range = { key: 'number.range', params: { min: 0, max: maxQuota } };
    expect(checkNumber(numberRules.balance, -1)).toEqual(range);
    expect(checkNumber(numberRules.balance, '-100')).toEqual(range);
    expect(checkNumber(numberRules.balance, maxQuota + 1)).toEqual(range);
    expect(checkNumber(numberRules.balance, 1e16)).toEqual(range);
    expect(checkNumber(numberRules.amount, 0)).toEqual({ key: 'number.range', params: { min: 1, max: maxQuota } });
    expect(checkNumber(numberRules.unlimitedRemainQuota, -1)).toBeNull();
    expect(checkNumber(numberRules.unlimitedRemainQuota, -2)).not.toBeNull();
    expect(checkNumber(numberRules.redemptionCount, 101)).toEqual({ key: 'number.range', params: { min: 1, max: 100 } });
    expect(checkNumber(numberRules.retryTimes, -3)).toEqual({ key: 'number.range', params: { min: 0, max: 10 } });
  });

  it('reals: finite numbers in range; QuotaPerUnit must be above 0', () => {
    expect(checkNumber(numberRules.seconds, '2.5')).toBeNull();
    expect(checkNumber(numberRules.seconds, '1e400')).toEqual({ key: 'number.number', params: {} });
    expect(checkNumber(numberRules.seconds, '-1')).toEqual({ key: 'number.positiveRange', params: { min: 0, max: 86_400 } });
    expect(checkNumber(numberRules.seconds, '0')).toEqual({ key: 'number.positiveRange', params: { min: 0, max: 86_400 } });
    expect(checkNumber(numberRules.seconds, '0.5')).toBeNull();
    expect(checkNumber(numberRules.quotaPerUnit, '0')).toEqual({ key: 'number.positiveRange', params: { min: 0, max: 1e9 } });
    expect(checkNumber(numberRules.quotaPerUnit, '500000')).toBeNull();
  });

  it('expiry: -1, or 0 up to the end of year 9999', () => {
    for (const ok of [-1, 0, 1_900_000_000, maxUnixTime]) expect(checkNumber(numberRules.expiry, ok), String(ok)).toBeNull();
    for (const bad of [-2, maxUnixTime + 1, 1.5]) expect(checkNumber(numberRules.expiry, bad)).toEqual({ key: 'number.expiry', params: { max: maxUnixTime } });
  });

  it('every numeric option has a rule', () => {
    expect(Object.keys(numericOptionRules).sort()).toEqual(
      ['ChannelDisableThreshold', 'PreConsumedQuota', 'QuotaForInvitee', 'QuotaForInviter', 'QuotaForNewUser', 'QuotaPerUnit', 'QuotaRemindThreshold', 'RetryTimes', 'SMTPPort'].sort(),
    );
  });
});

describe('checkRatioTable', () => {
  it('a JSON object of finite, non-negative numbers; else it names the first bad entry', () => {
    expect(checkRatioTable('{"a":1,"b":0}')).toBeNull();
    expect(checkRatioTable('[1]')).toEqual({ key: 'number.ratioTable', params: {} });
    expect(checkRatioTable('x')).toEqual({ key: 'number.ratioTable', params: {} });
    expect(checkRatioTable('{"a":1,"b":-1}')).toEqual({ key: 'number.ratioEntry', params: { entry: 'b' } });
    expect(checkRatioTable('{"a":"1"}')).toEqual({ key: 'number.ratioEntry', params: { entry: 'a' } });
    expect(checkRatioTable('{"a":1e999}')).toEqual({ key: 'number.ratioEntry', params: { entry: 'a' } });
  });

  it("keeps one-api's own openrouter/auto: -500000, only with that value", () => {
    expect(checkRatioTable('{"openrouter/auto":-500000}', keptModelRatios)).toBeNull();
    expect(checkRatioTable('{"openrouter/auto":-1}', keptModelRatios)).not.toBeNull();
  });
});

describe('console messages', () => {
  it('name the field by its label, in zh and en', () => {
    const problem = fieldProblem(numberRules.balance, '-5', 'number.field.remainQuota', msg('tokenForm.quotaInvalid'));
    expect(renderMessage('zh', problem!)).toBe('额度 必须在 0 到 1000000000000000 之间');
    expect(renderMessage('en', problem!)).toBe('Quota must be between 0 and 1000000000000000');
    expect(renderMessage('zh', optionValueProblem('RetryTimes', '-3')!)).toBe('失败重试次数 必须在 0 到 10 之间');
    expect(renderMessage('zh', optionValueProblem('GroupRatio', '"x"')!)).toBe('分组倍率 必须是 JSON 对象，值为非负数');
    expect(optionValueProblem('Notice', '-3')).toBeNull();
  });

  it("a form's own wording stays for text that is not a whole number", () => {
    expect(fieldProblem(numberRules.balance, 'abc', 'number.field.quota', msg('users.form.quotaInvalid'))).toEqual(msg('users.form.quotaInvalid'));
  });

  it('the redemption form refuses a quota of -100 or 0 before sending', () => {
    expect(checkRedemptionForm({ ...emptyRedemptionForm, name: 'promo', quota: '-100' }, false)).toEqual({
      field: 'quota',
      message: msg('number.range', { min: 1, max: maxQuota, field: 'number.field.redemptionQuota' }),
    });
    expect(checkRedemptionForm({ ...emptyRedemptionForm, name: 'promo', quota: '0' }, true)?.field).toBe('quota');
    expect(checkRedemptionForm({ ...emptyRedemptionForm, name: 'promo', quota: '100' }, false)).toBeNull();
  });

  it('the token form refuses a remaining quota of -5 unless unlimited', () => {
    expect(checkTokenForm({ ...emptyTokenForm, name: 't', remainQuota: '-5' }, false)?.field).toBe('remainQuota');
    expect(checkTokenForm({ ...emptyTokenForm, name: 't', remainQuota: '-5', unlimited: true }, false)).toBeNull();
  });

  it('the user form refuses a quota of -1 or beyond 10^15', () => {
    expect(quotaProblemOf('-1')).toEqual(msg('number.range', { min: 0, max: maxQuota, field: 'number.field.quota' }));
    expect(quotaProblemOf('10000000000000000')).not.toBeNull();
    expect(quotaProblemOf('1.5')).toEqual(msg('users.form.quotaInvalid'));
    expect(quotaProblemOf('500000')).toBeNull();
  });

  it('the settings page checks changed numeric options of a section before saving', () => {
    const baseline = { RetryTimes: '0', QuotaRemindThreshold: '1000', PreConsumedQuota: '500' };
    expect(ratioProblems({ baseline, drafts: { ...baseline, RetryTimes: '-3' } }, 'general')).toEqual({
      RetryTimes: msg('number.range', { min: 0, max: 10, field: 'settings.option.RetryTimes' }),
    });
    expect(ratioProblems({ baseline, drafts: { ...baseline, PreConsumedQuota: '-1' } }, 'quota')).toHaveProperty('PreConsumedQuota');
    expect(ratioProblems({ baseline, drafts: baseline }, 'general')).toEqual({});
  });
});
