import type { pricing as zh } from '../zh/pricing';

/** Area 'pricing' in English. */
export const pricing: Record<keyof typeof zh, string> = {
  'pricing.group': 'Your group: {group} (multiplier {ratio})',
  'pricing.unit.currency': 'Prices in US dollars per 1M tokens',
  'pricing.unit.quota': 'Prices in quota per 1M tokens',
  'pricing.search.label': 'Search models',
  'pricing.search.placeholder': 'Model name',
  'pricing.column.model': 'Model',
  'pricing.column.input': 'Input price',
  'pricing.column.output': 'Output price',
  'pricing.column.available': 'Status',
  'pricing.available': 'Available',
  'pricing.unavailable': 'Unavailable',
  'pricing.empty': 'No model is available to your group yet',
  'pricing.noMatch': 'No model matches',
  'pricing.count': '{shown} of {total} models',
  'pricing.loadFailed': 'Could not load the prices',
  'pricing.retry': 'Retry',
};
