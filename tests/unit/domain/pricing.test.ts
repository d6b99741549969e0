import { describe, expect, it } from 'vitest';
import { isRight } from 'fp-ts/Either';
import { Pricing, pricePerMillionText, toggledPricingSort } from '../../../src/domain/pricing';

describe('pricing display', () => {
  const usd = { displayInCurrency: true, quotaPerUnit: 500000 };
  it('ratio 1 (1M quota per 1M tokens) is $2 per 1M tokens at the default QuotaPerUnit', () => {
    expect(pricePerMillionText(1_000_000, usd)).toBe('$2');
    expect(pricePerMillionText(750_000, usd)).toBe('$1.5');
    expect(pricePerMillionText(62_500, usd)).toBe('$0.125');
  });
  it('in quota when the display currency is off', () => {
    expect(pricePerMillionText(1_250_000, { displayInCurrency: false, quotaPerUnit: 500000 })).toBe('1,250,000');
  });
  it('a header click starts ascending, the same one flips', () => {
    expect(toggledPricingSort({ key: 'model', direction: 'asc' }, 'input')).toEqual({ key: 'input', direction: 'asc' });
    expect(toggledPricingSort({ key: 'input', direction: 'asc' }, 'input')).toEqual({ key: 'input', direction: 'desc' });
  });
  it('the codec refuses a model without its availability', () => {
    expect(isRight(Pricing.decode({ group: 'vip', group_ratio: 0.5, models: [{ model: 'm', input_per_million: 1, output_per_million: 1 }] }))).toBe(false);
  });
});
