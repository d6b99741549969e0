import type { DashboardRow } from '../../domain/dashboard';

/** Fixtures of the dashboard stories: a fixed "now" (2026-11-23 12:00 UTC) and usage over three days. */
export const storyNow = 1_795_435_200;

const row = (Day: string, ModelName: string, RequestCount: number, Quota: number, PromptTokens: number, CompletionTokens: number): DashboardRow => ({
  Day,
  ModelName,
  RequestCount,
  Quota,
  PromptTokens,
  CompletionTokens,
});

/** 3 models over 3 of the last 7 days: 42 requests, quota 250000, 12600 tokens. */
export const usageRows: readonly DashboardRow[] = [
  row('2026-11-18', 'gpt-4o', 10, 60000, 2000, 1000),
  row('2026-11-18', 'gpt-4o-mini', 5, 10000, 500, 500),
  row('2026-11-21', 'claude-3.5-sonnet', 12, 120000, 3000, 2000),
  row('2026-11-23', 'gpt-4o', 15, 60000, 2600, 1000),
];

/** Nine models on one day: six get a colour, the rest are "others". */
export const manyModelRows: readonly DashboardRow[] = Array.from({ length: 9 }, (_, i) =>
  row('2026-11-23', `model-${i + 1}`, 9 - i, (9 - i) * 1000, 100, 100),
);

export const phoneViewport = {
  parameters: {
    viewport: {
      options: { phone375: { name: 'Phone 375', styles: { width: '375px', height: '667px' }, type: 'mobile' } },
    },
  },
  globals: { viewport: { value: 'phone375' } },
};

/**
 * Tiny amounts (a few quota a day: millionths of a dollar at 500000 a unit), the largest model last
 * in the alphabet so a legend sorted by name would differ from one sorted by usage.
 * zeta-small 13 quota, alpha-tiny 2: 15 in all, 8 on the busiest day.
 */
export const smallAmountRows: readonly DashboardRow[] = [
  row('2026-11-20', 'zeta-small', 3, 8, 40, 20),
  row('2026-11-21', 'alpha-tiny', 1, 2, 10, 5),
  row('2026-11-23', 'zeta-small', 2, 5, 30, 10),
];

/** Requests without any charge (free models): no usage, so the quota lasts forever. */
export const freeRows: readonly DashboardRow[] = usageRows.map((r) => ({ ...r, Quota: 0 }));

/** Long provider-style model names (no spaces) that must wrap only at '-', '/', '.', ':'. */
export const longModelRows: readonly DashboardRow[] = [
  row('2026-11-21', 'meta-llama/Llama-3.1-405B-Instruct-Turbo', 9, 90000, 3000, 1000),
  row('2026-11-22', 'anthropic.claude-3-5-sonnet-20241022-v2:0', 6, 60000, 2000, 800),
  row('2026-11-23', 'gpt-4o-mini-2024-07-18', 3, 3000, 900, 100),
];
