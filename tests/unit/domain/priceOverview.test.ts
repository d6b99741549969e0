import { describe, expect, it } from 'vitest';
import { priceRowLimit, priceTableOf, ratioText, shownPrices } from '../../../src/domain/priceOverview';

const options = {
  modelRatio: JSON.stringify({ 'gpt-4o': 2.5, 'deepseek-chat': 0.07, 'meta/llama-3-70b-instruct': 0.325 }),
  completionRatio: JSON.stringify({ 'deepseek-chat': 2 }),
  groupRatio: JSON.stringify({ vip: 0.8, default: 1 }),
  quotaPerUnit: '500000',
};

describe('the price overview of the ratio options (contract §3.5, §4.6)', () => {
  it('prices every model in $ per 1M tokens, sorted by name; groups sorted', () => {
    const table = priceTableOf(options);
    expect(table.quotaPerUnit).toBe(500000);
    expect(table.modelRatioValid && table.completionRatioValid).toBe(true);
    expect(table.rows?.map((r) => [r.model, r.input, r.output, r.completionSource])).toEqual([
      ['deepseek-chat', 0.14, 0.28, 'configured'],
      ['gpt-4o', 5, 20, 'rule'],
      ['meta/llama-3-70b-instruct', 0.65, null, 'default'],
    ]);
    expect(table.groups).toEqual([
      { group: 'default', ratio: 1 },
      { group: 'vip', ratio: 0.8 },
    ]);
  });
  it('another QuotaPerUnit scales the prices; a blank or invalid one is the default', () => {
    expect(priceTableOf({ ...options, quotaPerUnit: '1000000' }).rows?.find((r) => r.model === 'gpt-4o')?.input).toBe(2.5);
    expect(priceTableOf({ ...options, quotaPerUnit: 'x' }).quotaPerUnit).toBe(500000);
  });
  it('invalid JSON: no rows (or no groups), and which option is at fault', () => {
    const bad = priceTableOf({ ...options, modelRatio: '{"a":', groupRatio: '[1]' });
    expect([bad.modelRatioValid, bad.completionRatioValid, bad.rows, bad.groups]).toEqual([false, true, null, null]);
    expect(priceTableOf({ ...options, completionRatio: '{"a":"x"}' }).rows).toBeNull();
    expect(shownPrices(bad, '')).toEqual({ rows: [], matching: 0, total: 0, limited: false });
  });
  it('the filter keeps the names containing it, case-insensitive; at most the limit is shown', () => {
    const table = priceTableOf(options);
    const gpt = shownPrices(table, ' GPT ');
    expect(gpt.rows.map((r) => r.model)).toEqual(['gpt-4o']);
    expect([gpt.matching, gpt.total, gpt.limited]).toEqual([1, 3, false]);
    const many = priceTableOf({ ...options, modelRatio: JSON.stringify(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`m${i}`, 1]))) });
    const all = shownPrices(many, '');
    expect([all.rows.length, all.matching, all.total, all.limited]).toEqual([priceRowLimit, 60, 60, true]);
  });
  it('ratios are shown with at most six significant digits', () => {
    expect([2.5, 0.1 + 0.2, 1 / 3, 100].map(ratioText)).toEqual(['2.5', '0.3', '0.333333', '100']);
  });
});
