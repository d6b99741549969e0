import { describe, expect, it } from 'vitest';
import { amountDecimals, daysLeft, daysLeftText, maxDaysLeftShown, valueAxis } from '../../../src/domain/dashboard';
import { formatQuota } from '../../../src/domain/format';

const perUnit = 500000;
const money = { displayInCurrency: true, quotaPerUnit: perUnit };
/** The tick labels as the chart draws them. */
const labels = (max: number): string[] => {
  const axis = valueAxis(max, { unit: perUnit, minDecimals: 2 });
  return axis.ticks.map((v) => formatQuota(v, money, axis.decimals));
};

describe('valueAxis: ticks scaled to the data', () => {
  it('small amounts get as many decimals as the step needs, never a column of $0.00', () => {
    // $0.000016 at most (8 quota): step $0.000005
    expect(labels(8)).toEqual(['$0.000000', '$0.000005', '$0.000010', '$0.000015', '$0.000020']);
    // $0.00005 at most: step $0.00002
    expect(labels(25)).toEqual(['$0.00000', '$0.00002', '$0.00004', '$0.00006']);
    const small = labels(8);
    expect(new Set(small).size).toBe(small.length);
  });
  it('ordinary amounts keep two decimals; the top covers the largest value', () => {
    expect(labels(120000)).toEqual(['$0.00', '$0.10', '$0.20', '$0.30']);
    const axis = valueAxis(617_000_000, { unit: perUnit, minDecimals: 2 });
    expect(axis.decimals).toBe(2);
    expect(axis.top).toBeGreaterThanOrEqual(617_000_000);
    expect(axis.ticks.length).toBeLessThanOrEqual(6);
  });
  it('steps are 1, 2 or 5 × 10^k and the ticks exact multiples of it', () => {
    expect(valueAxis(1, {}).ticks).toEqual([0, 0.5, 1]);
    expect(valueAxis(0.3, {}).ticks).toEqual([0, 0.1, 0.2, 0.3]);
    expect(valueAxis(9, {}).ticks).toEqual([0, 5, 10]);
    expect(valueAxis(70, {}).ticks).toEqual([0, 20, 40, 60, 80]);
  });
  it('counts never get a fractional step', () => {
    expect(valueAxis(3, { whole: true })).toEqual({ ticks: [0, 1, 2, 3], top: 3, decimals: 0 });
    expect(valueAxis(1, { whole: true }).ticks).toEqual([0, 1]);
    expect(valueAxis(12600, { whole: true }).ticks).toEqual([0, 5000, 10000, 15000]);
  });
  it('no data (or nonsense) still draws an axis', () => {
    expect(valueAxis(0, { whole: true })).toEqual({ ticks: [0, 1], top: 1, decimals: 0 });
    expect(valueAxis(Number.NaN, { unit: perUnit, minDecimals: 2 }).ticks).toEqual([0, perUnit]);
    expect(valueAxis(10, { unit: 0 }).ticks).toEqual([0, 5, 10]);
  });
});

describe('amountDecimals: two significant digits of money', () => {
  it('keeps two decimals for ordinary amounts and zero', () => {
    expect(amountDecimals(0)).toBe(2);
    expect(amountDecimals(12.345)).toBe(2);
    expect(amountDecimals(0.5)).toBe(2);
    expect(amountDecimals(-3)).toBe(2);
  });
  it('adds decimals for small amounts, up to six', () => {
    expect(amountDecimals(0.012)).toBe(3);
    expect(amountDecimals(0.000016)).toBe(6);
    expect(amountDecimals(0.00000001)).toBe(6);
    expect(amountDecimals(0.00000001, 2, 8)).toBe(8);
  });
});

describe('daysLeftText: an estimate a person can read', () => {
  it('no usage lasts forever', () => {
    expect(daysLeftText(daysLeft(700, 0, 7))).toEqual({ kind: 'forever' });
    expect(daysLeftText(Number.POSITIVE_INFINITY)).toEqual({ kind: 'forever' });
  });
  it('a tiny usage against a large balance reads "more than 9,999"', () => {
    const days = daysLeft(1_000_000_000_000, 57, 1_754);
    expect(days).toBeGreaterThan(1e10);
    expect(daysLeftText(days)).toEqual({ kind: 'over', days: maxDaysLeftShown });
    expect(daysLeftText(10_000)).toEqual({ kind: 'over', days: 9_999 });
  });
  it('up to 9,999 days is the count itself', () => {
    expect(daysLeftText(9_999)).toEqual({ kind: 'days', days: 9_999 });
    expect(daysLeftText(19)).toEqual({ kind: 'days', days: 19 });
    expect(daysLeftText(0)).toEqual({ kind: 'days', days: 0 });
  });
});
