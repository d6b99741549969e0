import { describe, expect, it } from 'vitest';
import { checkNumber, numericOptionRules } from '../../../src/domain/numberRules';
import { editableValueOf, optionFields, prettyJson } from '../../../src/domain/optionSections';

describe('JSON options as edited', () => {
  it('pretty-prints JSON with two spaces, one entry a line', () => {
    expect(prettyJson('{"gpt-4":15,"gpt-3.5-turbo":0.75}')).toBe('{\n  "gpt-4": 15,\n  "gpt-3.5-turbo": 0.75\n}');
    expect(prettyJson('{}')).toBe('{}');
  });
  it('leaves text that is not JSON as it is (the save names the option and refuses it)', () => {
    expect(prettyJson('{"gpt-4":')).toBe('{"gpt-4":');
  });
  it('only the JSON options are laid out; other values and empty ones stay', () => {
    expect(editableValueOf('GroupRatio', '{"default":1}')).toBe('{\n  "default": 1\n}');
    expect(editableValueOf('CompletionRatio', '')).toBe('');
    expect(editableValueOf('Notice', '{"a":1}')).toBe('{"a":1}');
    expect(editableValueOf('RetryTimes', '3')).toBe('3');
  });
});

describe('numeric options', () => {
  it('every number field of the page has a range rule, shared by the console and the server', () => {
    const numberKeys = optionFields.filter((f) => f.kind === 'number').map((f) => f.key);
    expect(numberKeys.filter((k) => numericOptionRules[k] === undefined)).toEqual([]);
    expect(Object.keys(numericOptionRules).sort()).toEqual([...numberKeys].sort());
  });
  it("a field's min and max attributes are values its rule accepts", () => {
    for (const f of optionFields.filter((field) => field.kind === 'number')) {
      const rule = numericOptionRules[f.key]!;
      if (f.max !== undefined) expect(checkNumber(rule, String(f.max)), f.key).toBeNull();
      if (f.min !== undefined && f.min > 0) expect(checkNumber(rule, String(f.min)), f.key).toBeNull();
    }
  });
  it('RetryTimes -3 (saved once by mistake) and the other reported values are refused', () => {
    expect(checkNumber(numericOptionRules.RetryTimes!, '-3')).not.toBeNull();
    expect(checkNumber(numericOptionRules.ChannelDisableThreshold!, '0')).not.toBeNull();
    expect(checkNumber(numericOptionRules.QuotaPerUnit!, '0')).not.toBeNull();
    expect(checkNumber(numericOptionRules.PreConsumedQuota!, '0')).toBeNull();
  });
});
