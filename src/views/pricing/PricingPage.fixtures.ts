import type { Pricing } from '../../domain/pricing';

/** A vip user's prices (multiplier 0.5), quota per 1M tokens. */
export const vipPricing: Pricing = {
  group: 'vip',
  group_ratio: 0.5,
  models: [
    { model: 'gpt-4o', input_per_million: 1_250_000, output_per_million: 5_000_000, available: true },
    { model: 'claude-3-haiku-20240307', input_per_million: 62_500, output_per_million: 312_500, available: true },
    { model: 'deepseek-chat', input_per_million: 250_000, output_per_million: 500_000, available: true },
    { model: 'gemini-1.5-pro-latest', input_per_million: 875_000, output_per_million: 2_625_000, available: false },
  ],
};
