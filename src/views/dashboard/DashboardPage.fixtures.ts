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
