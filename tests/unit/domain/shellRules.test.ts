import { describe, expect, it } from 'vitest';
import { defaultQuotaDisplay, quotaDisplayOf, routeIdOf, routeAccessOf, routeAudienceOf } from '../../../src/domain/shellRules';
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

describe('route access by role', () => {
  const admin = [
    '/channel', '/channel/add', '/channel/edit/3', '/channel/clone/3',
    '/user', '/user/add', '/user/edit/7', '/redemption', '/redemption/add', '/redemption/edit/2',
  ];
  const own = ['/token', '/token/add', '/topup', '/log', '/setting', '/dashboard', '/user/edit', '/user/edit/'];

  it('marks the channel, redemption and user areas admin, except the own profile and the reset link', () => {
    for (const path of admin) expect(routeAudienceOf(path), path).toBe('admin');
    for (const path of own) expect(routeAudienceOf(path), path).toBe('user');
    expect(routeAudienceOf('/user/reset')).toBe('public');
    expect(routeAudienceOf('/users')).toBe('user');
    expect(routeAudienceOf('/channels')).toBe('user');
  });

  it('sends the signed-out to /login, common users to 403 on admin routes, and lets admins and root in', () => {
    expect(routeAccessOf('admin', { role: null, pending: false })).toBe('login');
    expect(routeAccessOf('user', { role: null, pending: false })).toBe('login');
    expect(routeAccessOf('admin', { role: 1, pending: false })).toBe('forbidden');
    expect(routeAccessOf('admin', { role: 0, pending: false })).toBe('forbidden');
    expect(routeAccessOf('user', { role: 1, pending: false })).toBe('allow');
    expect(routeAccessOf('admin', { role: 10, pending: false })).toBe('allow');
    expect(routeAccessOf('admin', { role: 100, pending: false })).toBe('allow');
    expect(routeAccessOf('public', { role: null, pending: false })).toBe('allow');
  });

  it('decides nothing while a login is in flight (the loading state, not the page, not a 403)', () => {
    for (const role of [null, 1, 10, 100]) {
      expect(routeAccessOf('admin', { role, pending: true })).toBe('pending');
      expect(routeAccessOf('user', { role, pending: true })).toBe('pending');
    }
    expect(routeAccessOf('public', { role: null, pending: true })).toBe('allow');
  });
});
