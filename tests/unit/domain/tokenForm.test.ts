import { describe, expect, it } from 'vitest';
import type { Token } from '../../../src/domain/token';
import {
  checkSubnet,
  checkTokenForm,
  emptyTokenForm,
  expiryAfter,
  expiryText,
  filterModels,
  isIPv4,
  isIPv6,
  isSubnetEntry,
  modelOptions,
  modelsOf,
  modelsText,
  parseQuotaText,
  subnetPayloadOf,
  toggleModel,
  tokenFormOf,
  tokenPayloadOf,
} from '../../../src/domain/tokenForm';

const token: Token = {
  id: 3,
  name: 'ci',
  key: 'abc',
  status: 1,
  created_time: 1_700_000_000,
  expired_time: 1_700_086_400,
  remain_quota: 1234,
  unlimited_quota: false,
  used_quota: 0,
  models: 'gpt-4o, gpt-4o-mini,,gpt-4o',
  subnet: '10.0.0.0/8',
};

describe('token form values', () => {
  it('create defaults: quota 500000, never expires, limited, no restriction (spec §3)', () => {
    expect(emptyTokenForm).toEqual({ name: '', models: [], subnet: '', expiry: '', remainQuota: '500000', unlimited: false });
  });

  it('edit starts from the stored token (models split, expiry as datetime-local text)', () => {
    expect(tokenFormOf(token, 0)).toEqual({
      name: 'ci',
      models: ['gpt-4o', 'gpt-4o-mini'],
      subnet: '10.0.0.0/8',
      expiry: '2023-11-15T22:13:20',
      remainQuota: '1234',
      unlimited: false,
    });
    expect(tokenFormOf({ ...token, expired_time: -1, models: null, subnet: null, unlimited_quota: true }, 0)).toMatchObject({
      models: [],
      subnet: '',
      expiry: '',
      unlimited: true,
    });
  });

  it('quick expiry: never = -1, a month = 30 days, a day, an hour, a minute from now', () => {
    const now = 1_700_000_000;
    expect(expiryAfter('never', now)).toBe(-1);
    expect(expiryAfter('month', now)).toBe(now + 30 * 86400);
    expect(expiryAfter('day', now)).toBe(now + 86400);
    expect(expiryAfter('hour', now)).toBe(now + 3600);
    expect(expiryAfter('minute', now + 0.7)).toBe(now + 60);
    expect(expiryText(-1)).toBe('');
    expect(expiryText(now + 86400, 480)).toBe('2023-11-16T06:13:20');
  });

  it('models: comma string <-> list, toggle, options keep chosen ones, filter', () => {
    expect(modelsOf(' a , b,a,, ')).toEqual(['a', 'b']);
    expect(modelsOf(null)).toEqual([]);
    expect(modelsText(['a', 'b'])).toBe('a,b');
    expect(modelsText([])).toBe('');
    expect(toggleModel(['a'], 'b')).toEqual(['a', 'b']);
    expect(toggleModel(['a', 'b'], 'a')).toEqual(['b']);
    expect(modelOptions(['a', 'b'], ['c', 'a'])).toEqual(['a', 'b', 'c']);
    expect(filterModels(['gpt-4o', 'claude-3', 'GPT-3.5'], ' gpt ')).toEqual(['gpt-4o', 'GPT-3.5']);
    expect(filterModels(['x'], '')).toEqual(['x']);
  });
});

describe('IP restriction', () => {
  it('recognises IPv4 and IPv6 addresses', () => {
    for (const ok of ['0.0.0.0', '192.168.1.1', '255.255.255.255']) expect(isIPv4(ok), ok).toBe(true);
    for (const bad of ['256.1.1.1', '01.2.3.4', '1.2.3', '1.2.3.4.5', 'a.b.c.d', '']) expect(isIPv4(bad), bad).toBe(false);
    for (const ok of ['::', '::1', '2001:db8::', 'fe80::1:2', '2001:db8:0:0:0:0:0:1', '::ffff:10.0.0.1', '1:2:3:4:5:6:7::'])
      expect(isIPv6(ok), ok).toBe(true);
    for (const bad of ['1:2:3:4:5:6:7:8:9', '1::2::3', ':1', '1:2', 'fe80::1%eth0', '12345::', '2001:db8::g', '1:2:3:4:5:6:7:8::'])
      expect(isIPv6(bad), bad).toBe(false);
  });

  it('accepts CIDRs and plain addresses, with prefixes within the address size', () => {
    for (const ok of ['10.0.0.0/8', '1.2.3.4/32', '0.0.0.0/0', '2001:db8::/32', '::/0', '::1/128', '1.2.3.4', '::1'])
      expect(isSubnetEntry(ok), ok).toBe(true);
    for (const bad of ['10.0.0.0/33', '::/129', '1.2.3.4/', '1.2.3.4/x', '/8', 'localhost', '10.0.0.0/08a'])
      expect(isSubnetEntry(bad), bad).toBe(false);
  });

  it('empty means any address; the first bad entry is named', () => {
    expect(checkSubnet('')).toBeNull();
    expect(checkSubnet(' , ')).toBeNull();
    expect(checkSubnet('10.0.0.0/8, 192.168.1.1')).toBeNull();
    expect(checkSubnet('10.0.0.0/8, 300.1.1.1/24, nope')).toEqual({ key: 'tokenForm.subnetInvalid', params: { entry: '300.1.1.1/24' } });
  });

  it('sends plain addresses as one-address networks (the server takes CIDRs only)', () => {
    expect(subnetPayloadOf(' 10.0.0.0/8 , 192.168.1.1,, ::1 ')).toBe('10.0.0.0/8,192.168.1.1/32,::1/128');
    expect(subnetPayloadOf('')).toBe('');
  });
});

describe('token form submit', () => {
  const filled = { ...emptyTokenForm, name: 'ci' };

  it('create needs a name; edit does not', () => {
    expect(checkTokenForm({ ...filled, name: '  ' }, false)).toEqual({ field: 'name', message: { key: 'validation.token.nameRequired' } });
    expect(checkTokenForm({ ...filled, name: '' }, true)).toBeNull();
  });

  it("an expiry that does not parse says 'expiry time format error!'", () => {
    expect(checkTokenForm({ ...filled, expiry: '2024-13-01T00:00' }, false)).toEqual({
      field: 'expiry',
      message: { key: 'validation.token.expiryInvalid' },
    });
    expect(checkTokenForm({ ...filled, expiry: 'tomorrow' }, false)?.field).toBe('expiry');
  });

  it('a quota must be a whole number unless unlimited; then the IP restriction', () => {
    expect(checkTokenForm({ ...filled, remainQuota: '12x' }, false)).toEqual({ field: 'remainQuota', message: { key: 'tokenForm.quotaInvalid' } });
    expect(checkTokenForm({ ...filled, remainQuota: '12x', unlimited: true }, false)).toBeNull();
    expect(checkTokenForm({ ...filled, subnet: '1.2.3.4/40' }, false)?.field).toBe('subnet');
  });

  it('the payload carries integers, the models as a comma string and the normalised subnet', () => {
    expect(
      tokenPayloadOf(
        { name: ' ci ', models: ['gpt-4o', 'gpt-4o-mini'], subnet: '10.0.0.1', expiry: '2023-11-15T22:13:20', remainQuota: ' 1000 ', unlimited: false },
        false,
        0,
      ),
    ).toEqual({
      name: 'ci',
      remain_quota: 1000,
      expired_time: 1_700_086_400,
      unlimited_quota: false,
      models: 'gpt-4o,gpt-4o-mini',
      subnet: '10.0.0.1/32',
    });
    expect(tokenPayloadOf(filled, false)).toEqual({
      name: 'ci',
      remain_quota: 500000,
      expired_time: -1,
      unlimited_quota: false,
      models: '',
      subnet: '',
    });
    expect(tokenPayloadOf({ ...filled, remainQuota: 'lots', unlimited: true }, false)?.remain_quota).toBe(0);
    expect(tokenPayloadOf({ ...filled, name: '' }, false)).toBeNull();
    // an edit round-trips the stored values
    expect(tokenPayloadOf(tokenFormOf(token, 0), true, 0)).toMatchObject({ expired_time: token.expired_time, remain_quota: 1234 });
  });

  it('parses quotas as whole numbers only', () => {
    expect(parseQuotaText('-5')).toBe(-5);
    expect(parseQuotaText('1.5')).toBeNull();
    expect(parseQuotaText('')).toBeNull();
  });
});
