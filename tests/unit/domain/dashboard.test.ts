import { describe, expect, it } from 'vitest';
import {
  customRange,
  dailySeries,
  dayCountOf,
  dayOf,
  daysLeft,
  daysOf,
  modelTotals,
  parseDay,
  rangeOfPreset,
  totalsOf,
  type DashboardRow,
} from '../../../src/domain/dashboard';

/** 2026-11-23 12:00 UTC. */
const now = 1_795_435_200;
const rows: DashboardRow[] = [
  { Day: '2026-11-21', ModelName: 'gpt-4o', RequestCount: 2, Quota: 100, PromptTokens: 10, CompletionTokens: 5 },
  { Day: '2026-11-23', ModelName: 'gpt-4o', RequestCount: 1, Quota: 50, PromptTokens: 4, CompletionTokens: 1 },
  { Day: '2026-11-23', ModelName: 'claude-3.5', RequestCount: 4, Quota: 400, PromptTokens: 40, CompletionTokens: 20 },
];

describe('dashboard domain', () => {
  it('presets are whole local days ending today', () => {
    expect(rangeOfPreset('today', now, 0)).toEqual({ start: 1_795_392_000, end: 1_795_478_399 });
    const week = rangeOfPreset('7d', now, 480);
    expect(dayOf(week.start, 480)).toBe('2026-11-17');
    expect(dayOf(week.end, 480)).toBe('2026-11-23');
    expect(dayCountOf(rangeOfPreset('90d', now, -300))).toBe(90);
  });
  it('custom ranges: real days, end not before start, at most 366 days', () => {
    expect(customRange('2026-11-01', '2026-11-02', 0)).toEqual({ range: { start: parseDay('2026-11-01', 0), end: parseDay('2026-11-03', 0)! - 1 } });
    expect(customRange('2026-02-30', '2026-03-01', 0)).toEqual({ problem: 'invalidDate' });
    expect(customRange('2026-11-02', '2026-11-01', 0)).toEqual({ problem: 'endBeforeStart' });
    expect(customRange('2025-01-01', '2026-01-01', 0)).toEqual({ range: expect.anything() });
    expect(customRange('2025-01-01', '2026-01-02', 0)).toEqual({ problem: 'tooLong' });
  });
  it('the per-day series is zero-filled over every day of the range', () => {
    const days = daysOf(rangeOfPreset('7d', now, 0), 0);
    expect(days).toHaveLength(7);
    const series = dailySeries(rows, days, 'quota');
    expect(series.map((p) => p.total)).toEqual([0, 0, 0, 0, 100, 0, 450]);
    expect(series[6]!.byModel).toEqual({ 'claude-3.5': 400, 'gpt-4o': 50 });
    expect(dailySeries(rows, days, 'tokens')[4]!.total).toBe(15);
  });
  it('totals per model and overall', () => {
    expect(totalsOf(rows)).toEqual({ requests: 7, quota: 550, promptTokens: 54, completionTokens: 26, tokens: 80 });
    expect(modelTotals(rows).find((m) => m.model === 'gpt-4o')).toMatchObject({ requests: 3, quota: 150 });
  });
  it('days left: remaining over the daily average; none without usage', () => {
    expect(daysLeft(700, 70, 7)).toBe(70);
    expect(daysLeft(700, 0, 7)).toBeNull();
    expect(daysLeft(-5, 70, 7)).toBe(0);
  });
});
