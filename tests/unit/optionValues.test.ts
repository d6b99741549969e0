import { describe, expect, it } from 'vitest';
import { editableValueOf, prettyJson } from '../../src/domain/optionSections';

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
