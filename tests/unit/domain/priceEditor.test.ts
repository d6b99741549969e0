import { describe, expect, it } from 'vitest';
import { renderMessage } from '../../../src/i18n';
import {
  cellKey,
  cellNumber,
  filterModelRows,
  groupProblems,
  groupRowsOf,
  jsonProblem,
  maxPriceOf,
  modelProblems,
  modelRowsOf,
  newGroupRow,
  newModelRow,
  priceOfRatio,
  priceScaleOf,
  ratioJson,
  ratioOfPrice,
  ratiosOfGroups,
  ratiosOfModels,
  sameRatios,
  withInput,
  withOutput,
  type ModelRow,
  type PriceScale,
} from '../../../src/domain/priceEditor';

const usd: PriceScale = { unit: 'usd', quotaPerUnit: 500000 };
const quota: PriceScale = { unit: 'quota', quotaPerUnit: 500000 };

const rows = (models: Record<string, number>, completions: Record<string, number> = {}, scale = usd) => modelRowsOf(models, completions, scale);
const row = (list: readonly ModelRow[], name: string) => list.find((r) => r.name === name)!;
const texts = (problems: Readonly<Record<string, { key: string } | { text: string }>>, lang: 'zh' | 'en' = 'zh') =>
  Object.fromEntries(Object.entries(problems).map(([k, m]) => [k, renderMessage(lang, m as never)]));

describe('price editor: conversion', () => {
  it('ratio 1 is $2 per 1M tokens at QuotaPerUnit 500000, or 1,000,000 quota; other QuotaPerUnit scale the dollars', () => {
    expect(priceOfRatio(1, usd)).toBe(2);
    expect(priceOfRatio(1, quota)).toBe(1_000_000);
    expect(priceOfRatio(1, { unit: 'usd', quotaPerUnit: 1_000_000 })).toBe(1);
    expect(ratioOfPrice(2, usd)).toBe(1);
    expect(ratioOfPrice(1_000_000, quota)).toBe(1);
    expect(priceScaleOf('true', '500000')).toEqual(usd);
    expect(priceScaleOf('false', '')).toEqual(quota);
    expect(priceScaleOf('true', '-3')).toEqual(usd);
  });

  it('round-trips ratio → price → ratio within float tolerance, in both units, for awkward values', () => {
    const ratios = [0, 1, 2.5, 0.075, 0.0001, 1 / 3, 0.7, 15, 60, 123456.789, 1e-7];
    for (const scale of [usd, quota, { unit: 'usd' as const, quotaPerUnit: 7 }, { unit: 'usd' as const, quotaPerUnit: 1234567.89 }]) {
      for (const r of ratios) {
        const back = ratioOfPrice(priceOfRatio(r, scale), scale);
        expect(Math.abs(back - r)).toBeLessThanOrEqual(Math.abs(r) * 1e-12 + 1e-18);
      }
    }
  });

  it('builds one row per model of ModelRatio ∪ CompletionRatio, sorted, with the output price from the completion ratio in effect', () => {
    const list = rows({ 'gpt-4o': 2.5, 'claude-3-haiku': 0.125, 'openrouter/auto': -500000 }, { 'gpt-4o': 4, 'only-completion': 2 });
    expect(list.map((r) => r.name)).toEqual(['claude-3-haiku', 'gpt-4o', 'only-completion', 'openrouter/auto']);
    expect(row(list, 'gpt-4o')).toMatchObject({ input: '5', output: '20', outputEdited: false });
    // claude-3 has no entry: the built-in rule (×5)
    expect(row(list, 'claude-3-haiku')).toMatchObject({ input: '0.25', output: '1.25' });
    expect(row(list, 'only-completion')).toMatchObject({ input: '', output: '' });
    expect(rows({ 'gpt-4o': 2.5 }, {}, quota)[0]).toMatchObject({ input: '2500000', output: '10000000' });
  });

  it('an untouched table gives the options back exactly (the kept negative default included)', () => {
    const models = { 'gpt-4o': 2.5, 'claude-3-haiku': 0.125, 'openrouter/auto': -500000, odd: 1 / 3 };
    const completions = { 'gpt-4o': 4, 'only-completion': 2 };
    const back = ratiosOfModels(rows(models, completions), usd);
    expect(back.models).toEqual(models);
    expect(back.completions).toEqual(completions);
  });

  it('typing an input price sets the model ratio; the output follows at the same completion ratio until it is typed', () => {
    let list = rows({ 'gpt-4o': 2.5 }, { 'gpt-4o': 4 });
    list = list.map((r) => withInput(r, '6'));
    expect(list[0]).toMatchObject({ input: '6', output: '24' });
    expect(ratiosOfModels(list, usd)).toEqual({ models: { 'gpt-4o': 3 }, completions: { 'gpt-4o': 4 } });
    list = list.map((r) => withOutput(r, '18'));
    expect(ratiosOfModels(list, usd)).toEqual({ models: { 'gpt-4o': 3 }, completions: { 'gpt-4o': 3 } });
    // typing the input again no longer moves a typed output
    expect(withInput(list[0]!, '9').output).toBe('18');
  });

  it('a model under a built-in rule keeps no CompletionRatio entry when only its input price changes', () => {
    const list = rows({ 'claude-3-haiku': 0.125 }).map((r) => withInput(r, '1'));
    expect(list[0]!.output).toBe('5');
    expect(ratiosOfModels(list, usd)).toEqual({ models: { 'claude-3-haiku': 0.5 }, completions: {} });
  });

  it('a renamed model carries its ratios; a removed one disappears; an added one is written', () => {
    let list = rows({ a: 1, b: 2 }, { a: 3 });
    list = list.map((r) => (r.name === 'a' ? { ...r, name: 'a2' } : r)).filter((r) => r.name !== 'b');
    list = [{ ...withOutput(withInput({ ...newModelRow('n1'), name: ' new ' }, '1'), '4') }, ...list];
    expect(ratiosOfModels(list, usd)).toEqual({ models: { new: 0.5, a2: 1 }, completions: { new: 4, a2: 3 } });
  });

  it('quota prices convert back too', () => {
    const list = rows({ m: 1 }, {}, quota).map((r) => withInput(r, '250000'));
    expect(ratiosOfModels(list, quota).models).toEqual({ m: 0.25 });
  });

  it('groups: untouched values kept, typed ones parsed, renames and additions written', () => {
    let list = groupRowsOf({ default: 1, vip: 0.5 });
    expect(list.map((g) => [g.name, g.multiplier])).toEqual([
      ['default', '1'],
      ['vip', '0.5'],
    ]);
    expect(ratiosOfGroups(list)).toEqual({ default: 1, vip: 0.5 });
    list = [...list.map((g) => (g.name === 'vip' ? { ...g, name: 'svip', multiplier: '0.25' } : g)), { ...newGroupRow('n1'), name: 'x', multiplier: '2' }];
    expect(ratiosOfGroups(list)).toEqual({ default: 1, svip: 0.25, x: 2 });
  });

  it('keeps the baseline text when the map says the same (order aside), else pretty-prints', () => {
    const base = '{\n  "b": 2,\n  "a": 1\n}';
    expect(ratioJson({ a: 1, b: 2 }, base)).toBe(base);
    expect(ratioJson({ a: 1, b: 3 }, base)).toBe('{\n  "a": 1,\n  "b": 3\n}');
    expect(ratioJson({}, '')).toBe('{}');
    expect(sameRatios({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });
});

describe('price editor: validation', () => {
  it('reads numbers strictly: empty, words, NaN, Infinity, hex and trailing junk are not numbers', () => {
    for (const bad of ['', ' ', 'abc', 'NaN', 'Infinity', '-Infinity', '0x10', '1,5', '1.2.3', '5$', '1e999']) expect(cellNumber(bad), bad).toBeNull();
    expect(cellNumber(' 2.5 ')).toBe(2.5);
    expect(cellNumber('-1')).toBe(-1);
    expect(cellNumber('.5')).toBe(0.5);
    expect(cellNumber('1e3')).toBe(1000);
  });

  it('marks each bad cell, naming the model and the field', () => {
    const base = rows({ 'gpt-4o': 2.5, 'gpt-4': 15, 'glm-4': 0.1, 'o1': 7.5, 'x': 1 }, { 'gpt-4o': 4 });
    const edited = base.map((r) => {
      switch (r.name) {
        case 'gpt-4o':
          return withInput(r, '-1');
        case 'gpt-4':
          return withInput(r, 'abc');
        case 'glm-4':
          return withInput(r, '');
        case 'o1':
          return withOutput(r, 'NaN');
        default:
          return withInput(r, '2000000');
      }
    });
    const problems = modelProblems(edited, usd);
    const id = (name: string) => row(edited, name).id;
    expect(texts(problems)).toEqual({
      [cellKey(id('gpt-4o'), 'input')]: 'gpt-4o 的输入价格不能为负数',
      [cellKey(id('gpt-4'), 'input')]: 'gpt-4 的输入价格不是数字',
      [cellKey(id('glm-4'), 'input')]: 'glm-4 的输入价格不能为空',
      [cellKey(id('o1'), 'output')]: 'o1 的输出价格不是数字',
      [cellKey(id('x'), 'input')]: 'x 的输入价格不能大于 1000000',
    });
    expect(texts(problems, 'en')[cellKey(id('gpt-4o'), 'input')]).toBe('The input price of gpt-4o must not be negative');
  });

  it('the price limit is $1,000,000 per 1M tokens, the same amount in quota when shown in quota', () => {
    expect(maxPriceOf(usd)).toBe(1_000_000);
    expect(maxPriceOf(quota)).toBe(500_000_000_000);
    const ok = rows({ m: 1 }, {}, quota).map((r) => withInput(r, '2000000'));
    expect(modelProblems(ok, quota)).toEqual({});
  });

  it('refuses empty and repeated names, and an output price without an input price', () => {
    const base = rows({ a: 1, b: 1 });
    const list = [
      withOutput(withInput({ ...newModelRow('n1'), name: '' }, '1'), '1'),
      withOutput(withInput({ ...newModelRow('n2'), name: 'a ' }, '0'), '3'),
      ...base,
    ];
    expect(texts(modelProblems(list, usd))).toEqual({
      'n1:name': '模型名称不能为空',
      'n2:name': '模型名称 a 重复',
      'n2:output': 'a 的输入价格为 0 时，输出价格只能为 0',
      [`${row(base, 'a').id}:name`]: '模型名称 a 重复',
    });
  });

  it('a new row starts with its empty cells marked; loaded cells are not judged until typed in', () => {
    expect(Object.keys(modelProblems([newModelRow('n1')], usd)).sort()).toEqual(['n1:input', 'n1:name', 'n1:output']);
    expect(modelProblems(rows({ 'openrouter/auto': -500000, only: 1 }, { other: 2 }), usd)).toEqual({});
  });

  it('groups: empty, repeated, negative, non-numeric and absurd multipliers are marked', () => {
    const list = [
      ...groupRowsOf({ default: 1, vip: 2 }).map((g) => (g.name === 'vip' ? { ...g, multiplier: '-0.5' } : { ...g, multiplier: 'x' })),
      { ...newGroupRow('n1'), name: 'vip', multiplier: '1e7' },
      { ...newGroupRow('n2'), name: ' ', multiplier: '1' },
    ];
    expect(texts(groupProblems(list))).toEqual({
      'g0:multiplier': 'default 的倍率不是数字',
      'g1:name': '分组名称 vip 重复',
      'g1:multiplier': 'vip 的倍率不能为负数',
      'n1:name': '分组名称 vip 重复',
      'n1:multiplier': 'vip 的倍率不能大于 1000000',
      'n2:name': '分组名称不能为空',
    });
  });

  it('checks the JSON texts: syntax first, then the values', () => {
    expect(renderMessage('zh', jsonProblem('ModelRatio', '{"gpt-4":')!)).toBe('模型倍率不是合法的 JSON 字符串');
    expect(renderMessage('en', jsonProblem('GroupRatio', '{"vip":-1}')!)).toContain('(vip is not)');
    expect(jsonProblem('ModelRatio', '{"openrouter/auto":-500000,"a":1}')).toBeNull();
  });

  it('search keeps names containing the text (any case) and rows still unnamed', () => {
    const list = [newModelRow('n1'), ...rows({ 'GPT-4o': 1, claude: 1 })];
    expect(filterModelRows(list, ' gpt ').map((r) => r.name)).toEqual(['', 'GPT-4o']);
    expect(filterModelRows(list, '')).toHaveLength(3);
  });
});
