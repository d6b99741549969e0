import { describe, expect, it } from 'vitest';
import { defaultQuotaDisplay, quotaDisplayOf, routeIdOf } from '../../../src/domain/shellRules';
import { selectQuotaDisplay } from '../../../src/machines/session/session.selectors';

describe('quota display (spec §9)', () => {
  it('follows the status: currency or raw, at its quota_per_unit', () => {
    expect(quotaDisplayOf({ display_in_currency: true, quota_per_unit: 1000 })).toEqual({ displayInCurrency: true, quotaPerUnit: 1000 });
    expect(quotaDisplayOf({ display_in_currency: false, quota_per_unit: 500000 })).toEqual({ displayInCurrency: false, quotaPerUnit: 500000 });
  });
  it('before a status is known: raw quota at 500000 per unit', () => {
    expect(quotaDisplayOf(null)).toEqual({ displayInCurrency: false, quotaPerUnit: 500000 });
    expect(quotaDisplayOf(null)).toBe(defaultQuotaDisplay);
  });
  it('the session selector answers one object per status', () => {
    const status = { display_in_currency: true, quota_per_unit: 1000 };
    const snap = (s: unknown) => ({ context: { status: s } }) as never;
    expect(selectQuotaDisplay(snap(status))).toBe(selectQuotaDisplay(snap(status)));
    expect(selectQuotaDisplay(snap({ ...status }))).toEqual(selectQuotaDisplay(snap(status)));
    expect(selectQuotaDisplay(snap(null))).toBe(defaultQuotaDisplay);
  });
});

describe('the :id of an edit route', () => {
  it('is null on an add route, the number when it is one, else 0 (never found)', () => {
    expect(routeIdOf(undefined)).toBeNull();
    expect(routeIdOf('42')).toBe(42);
    expect(routeIdOf('007')).toBe(7);
    expect(['abc', '-1', '1.5', '', '1234567890'].map(routeIdOf)).toEqual([0, 0, 0, 0, 0]);
  });
});
