import { describe, expect, it } from 'vitest';
import {
  builtInCompletionRatio,
  completionRatioOf,
  defaultQuotaPerUnit,
  filterPrices,
  formatPrice,
  groupMultipliers,
  inputPricePerMillion,
  modelPrices,
  parseQuotaPerUnit,
  parseRatioMap,
  splitChannelSuffix,
} from '../../../src/domain/ratioPrices';

describe('ratio prices', () => {
  it('parses a ratio option: a JSON object of finite numbers, else null', () => {
    expect(parseRatioMap('{"gpt-4":15,"glm-4-flash":0,"openrouter/auto":-500000}')).toEqual({
      'gpt-4': 15,
      'glm-4-flash': 0,
      'openrouter/auto': -500000,
    });
    expect(parseRatioMap('{}')).toEqual({});
    for (const bad of ['', 'nope', '[1,2]', 'null', '3', '{"a":"1"}', '{"a":null}', '{"a":{"b":1}}', '{"a":1,']) {
      expect(parseRatioMap(bad), bad).toBeNull();
    }
  });

  it('reads QuotaPerUnit leniently: a positive number, else 500000', () => {
    expect(parseQuotaPerUnit('500000')).toBe(500000);
    expect(parseQuotaPerUnit(' 1000.5 ')).toBe(1000.5);
    for (const bad of ['', '0', '-1', 'abc', 'Infinity']) expect(parseQuotaPerUnit(bad), bad).toBe(defaultQuotaPerUnit);
  });

  it('ratio 1 is $2 per 1M input tokens at the default QuotaPerUnit ($0.002 per 1K)', () => {
    expect(inputPricePerMillion(1)).toBe(2);
    expect(inputPricePerMillion(15)).toBe(30);
    expect(inputPricePerMillion(0.075)).toBeCloseTo(0.15, 12);
    // a QuotaPerUnit of 1M quota per dollar halves every price
    expect(inputPricePerMillion(1, 1_000_000)).toBe(1);
  });

  it('splits the channel-type suffix of a ModelRatio key', () => {
    expect(splitChannelSuffix('llama3-8b-8192(33)')).toEqual({ base: 'llama3-8b-8192', channelType: 33 });
    expect(splitChannelSuffix('gpt-4')).toEqual({ base: 'gpt-4', channelType: null });
    expect(splitChannelSuffix('a(b)')).toEqual({ base: 'a(b)', channelType: null });
  });

  it.each([
    ['gpt-3.5-turbo', 3],
    ['gpt-3.5-turbo-0125', 3],
    ['gpt-3.5-turbo-1106', 2],
    ['gpt-3.5-turbo-16k', 4 / 3],
    ['gpt-4o-2024-05-13', 3],
    ['gpt-4o', 4],
    ['gpt-4o-mini', 4],
    ['gpt-4-turbo', 3],
    ['gpt-4-0125-preview', 3],
    ['gpt-4', 2],
    ['gpt-4-32k', 2],
    ['o1-mini', 4],
    ['o3-mini', 1],
    ['chatgpt-4o-latest', 3],
    ['claude-3-opus-20240229', 5],
    ['claude-2.1', 3],
    ['mistral-large-latest', 3],
    ['gemini-1.5-pro', 3],
    ['deepseek-chat', 2],
    ['llama2-70b-4096', 1.25],
    ['llama3-8b-8192', 2],
    ['llama3-70b-8192', 0.79 / 0.59],
    ['command', 2],
    ['command-light-nightly', 2],
    ['command-r', 3],
    ['command-r-plus', 5],
    ['grok-beta', 3],
    ['qwen-turbo-internet', 1],
    ['text-embedding-3-small', 1],
    ['meta/llama-3-70b', null],
    ['mistralai/mixtral-8x7b-instruct-v0.1', null],
    ['ibm-granite/granite-20b-code-instruct-8k', null],
  ])('built-in completion ratio of %s is %s', (model, ratio) => {
    expect(builtInCompletionRatio(model)).toBe(ratio);
  });

  it('a configured completion ratio wins: the key, then its bare name, then the rules', () => {
    const configured = { 'deepseek-chat': 2, 'deepseek-reasoner': 3.98, 'llama3-8b-8192(33)': 2.5, 'whisper-1': 0 };
    expect(completionRatioOf('deepseek-reasoner', configured)).toEqual({ ratio: 3.98, source: 'configured' });
    expect(completionRatioOf('whisper-1', configured)).toEqual({ ratio: 0, source: 'configured' });
    expect(completionRatioOf('llama3-8b-8192(33)', configured)).toEqual({ ratio: 2.5, source: 'configured' });
    expect(completionRatioOf('deepseek-chat(36)', configured)).toEqual({ ratio: 2, source: 'configured' });
    expect(completionRatioOf('llama3-70b-8192(33)', {})).toEqual({ ratio: 0.79 / 0.59, source: 'rule' });
    expect(completionRatioOf('gpt-4o', configured)).toEqual({ ratio: 4, source: 'rule' });
    expect(completionRatioOf('meta/llama-3-8b', configured)).toEqual({ ratio: null, source: 'default' });
  });

  it('prices every ModelRatio model, sorted by name', () => {
    const rows = modelPrices({ 'gpt-4o': 2.5, 'deepseek-chat': 0.07, 'meta/llama-3-8b': 0.025, 'glm-4-flash': 0 }, { 'deepseek-chat': 2 });
    expect(rows.map((r) => r.model)).toEqual(['deepseek-chat', 'glm-4-flash', 'gpt-4o', 'meta/llama-3-8b']);
    const [deepseek, glm, gpt4o, llama] = rows;
    expect(gpt4o).toEqual({ model: 'gpt-4o', modelRatio: 2.5, completionRatio: 4, completionSource: 'rule', input: 5, output: 20 });
    expect(deepseek!.input).toBeCloseTo(0.14, 12);
    expect(deepseek!.output).toBeCloseTo(0.28, 12);
    expect(deepseek!.completionSource).toBe('configured');
    expect(glm).toMatchObject({ input: 0, output: 0, completionRatio: 1 });
    expect(llama).toMatchObject({ completionRatio: null, completionSource: 'default', output: null });
    expect(llama!.input).toBeCloseTo(0.05, 12);
    // the contract's worked example: gpt-4o costs 2.5 × (prompt + 4 × completion) quota, $2.5×2 per 1M input
    expect(modelPrices({ 'gpt-4o': 2.5 }, {}, 1_000_000)[0]).toMatchObject({ input: 2.5, output: 10 });
    expect(modelPrices({}, {})).toEqual([]);
  });

  it('filters by model name, case-insensitively; blank keeps all', () => {
    const rows = modelPrices({ 'gpt-4o': 2.5, 'GPT-4': 15, 'claude-3-haiku': 0.125 }, {});
    expect(filterPrices(rows, 'gpt').map((r) => r.model)).toEqual(['gpt-4o', 'GPT-4'].sort((a, b) => a.localeCompare(b)));
    expect(filterPrices(rows, '  HAIKU ').map((r) => r.model)).toEqual(['claude-3-haiku']);
    expect(filterPrices(rows, '   ')).toBe(rows);
    expect(filterPrices(rows, 'nothing')).toEqual([]);
  });

  it('lists the group multipliers sorted by name', () => {
    expect(groupMultipliers({ vip: 0.8, default: 1, svip: 0.5 })).toEqual([
      { group: 'default', ratio: 1 },
      { group: 'svip', ratio: 0.5 },
      { group: 'vip', ratio: 0.8 },
    ]);
    expect(groupMultipliers({})).toEqual([]);
  });

  it.each([
    [0, '0'],
    [2, '2'],
    [30, '30'],
    [0.15, '0.15'],
    [0.14, '0.14'],
    [2.6666666, '2.6667'],
    [0.00005, '0.00005'],
    [0.0000004, '0.0000004'],
    [0.123456, '0.1235'],
    [1234.56789, '1234.5679'],
    [-1000000, '-1000000'],
  ])('formats $%s as %s', (dollars, text) => {
    expect(formatPrice(dollars)).toBe(text);
  });
});
