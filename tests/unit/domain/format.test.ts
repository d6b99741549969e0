import { describe, expect, it } from 'vitest';
import * as f from '../../../src/domain/format';
import { renderMessage } from '../../../src/i18n';
import type { Message } from '../../../src/domain/message';

const zh = (m: Message) => renderMessage('zh', m);
const en = (m: Message) => renderMessage('en', m);
const raw: f.QuotaDisplay = { displayInCurrency: false, quotaPerUnit: 500000 };
const dollars: f.QuotaDisplay = { displayInCurrency: true, quotaPerUnit: 500000 };
const UTC = 0;
const CST = 480; // UTC+8

describe('formatNumber (contract §5.3 renderNumber)', () => {
  it('keeps numbers below 1e4 unchanged', () => {
    expect([0, 1, 42, 9999, 1234.5].map(f.formatNumber)).toEqual(['0', '1', '42', '9999', '1234.5']);
  });
  it('abbreviates from 1e4 (k), 1e6 (M), 1e9 (B) with one decimal', () => {
    expect(f.formatNumber(10000)).toBe('10.0k');
    expect(f.formatNumber(12345)).toBe('12.3k');
    expect(f.formatNumber(999999)).toBe('1000.0k');
    expect(f.formatNumber(1e6)).toBe('1.0M');
    expect(f.formatNumber(1234567)).toBe('1.2M');
    expect(f.formatNumber(1e9)).toBe('1.0B');
    expect(f.formatNumber(5e14)).toBe('500000.0B');
  });
  it('leaves negative numbers unchanged (as one-api)', () => {
    expect(f.formatNumber(-50000)).toBe('-50000');
  });
});

describe('quota', () => {
  it('in currency mode divides by quota_per_unit with 2 decimals and a $', () => {
    expect(f.formatQuota(500000, dollars)).toBe('$1.00');
    expect(f.formatQuota(1234567, dollars)).toBe('$2.47');
    expect(f.formatQuota(0, dollars)).toBe('$0.00');
    expect(f.formatQuota(750000, dollars, 3)).toBe('$1.500');
    // a negative quota (a token that went below zero through use): the sign before '$', never '$-0.00'
    expect(f.formatQuota(-1, dollars)).toBe('-$0.000002');
    expect(f.formatQuota(-500000, dollars)).toBe('-$1.00');
    expect(f.formatQuota(-2500, dollars)).toBe('-$0.01');
    expect(f.currencyText(-0.0000001)).toBe('-$0.0000001');
    expect(f.renderRemainQuota(-1, false, dollars)).toEqual({ text: '-$0.000002' });
    expect(f.quotaEquivalent(-1, dollars)).toEqual({ key: 'domain.quota.equivalent', params: { amount: '-$0.000002' } });
    for (const q of [-1, -7, -250, -499_999]) expect(f.formatQuota(q, dollars)).not.toMatch(/\$-|^-\$0\.0+$/);
  });
  it('otherwise shows the abbreviated number', () => {
    expect(f.formatQuota(500000, raw)).toBe('500.0k');
    expect(f.formatQuota(900, raw)).toBe('900');
  });
  it('a missing or broken quota_per_unit counts as 1', () => {
    expect(f.formatQuota(3, { displayInCurrency: true, quotaPerUnit: 0 })).toBe('$3.00');
    expect(f.formatQuota(3, { displayInCurrency: true, quotaPerUnit: Number.NaN })).toBe('$3.00');
    expect(f.effectiveQuotaPerUnit(-5)).toBe(1);
    expect(f.effectiveQuotaPerUnit(500000)).toBe(500000);
  });
  it('converts between quota and currency', () => {
    expect(f.quotaToCurrency(1000000, 500000)).toBe(2);
    expect(f.currencyToQuota(2.5, 500000)).toBe(1250000);
    expect(f.currencyToQuota(0.1234567, 10)).toBe(1);
  });
  it('the equivalent-amount hint exists only in currency mode', () => {
    expect(f.quotaEquivalent(500000, raw)).toBeNull();
    expect(zh(f.quotaEquivalent(500000, dollars)!)).toBe('等价金额：$1.00');
    expect(en(f.quotaEquivalent(250000, dollars)!)).toBe('Equivalent: $0.50');
  });
});

describe('timestamps', () => {
  it('formats epoch seconds as YYYY-MM-DD HH:mm:ss at an offset', () => {
    expect(f.formatTimestamp(0, UTC)).toBe('1970-01-01 00:00:00');
    expect(f.formatTimestamp(1708000000, UTC)).toBe('2024-02-15 12:26:40');
    expect(f.formatTimestamp(1708000000, CST)).toBe('2024-02-15 20:26:40');
    expect(f.formatTimestamp(1708000000, -300)).toBe('2024-02-15 07:26:40');
    expect(f.formatTimestamp(1708041600, CST)).toBe('2024-02-16 08:00:00');
  });
  it('defaults to the local zone', () => {
    const ts = 1708000000;
    const offset = -new Date(ts * 1000).getTimezoneOffset();
    expect(f.formatTimestamp(ts)).toBe(f.formatTimestamp(ts, offset));
  });
  it('renders datetime-local values', () => {
    expect(f.toDateTimeLocal(1708000000, UTC)).toBe('2024-02-15T12:26');
    expect(f.toDateTimeLocal(1708000000, CST)).toBe('2024-02-15T20:26');
    expect(f.toDateTimeLocal(1708000000)).toBe(f.toDateTimeLocal(1708000000, -new Date(1708000000000).getTimezoneOffset()));
  });
  it('parses date-times in the usual shapes', () => {
    expect(f.parseDateTime('2024-02-15 12:26:40', UTC)).toBe(1708000000);
    expect(f.parseDateTime('2024-02-15T12:26:40', UTC)).toBe(1708000000);
    expect(f.parseDateTime('2024-02-15T20:26:40', CST)).toBe(1708000000);
    expect(f.parseDateTime('2024-02-15T12:26', UTC)).toBe(1708000000 - 40);
    expect(f.parseDateTime('2024-02-15', UTC)).toBe(1707955200);
    expect(f.parseDateTime('  2024-2-5 1:02  ', UTC)).toBe(Date.UTC(2024, 1, 5, 1, 2) / 1000);
  });
  it('parses local time by default', () => {
    expect(f.parseDateTime('2024-02-15 12:26:40')).toBe(new Date(2024, 1, 15, 12, 26, 40).getTime() / 1000);
  });
  it('rejects what is not a real date-time', () => {
    for (const bad of ['', 'abc', '2024-02-30 00:00', '2023-02-29', '2024-13-01', '2024-02-15 24:00', '2024-02-15 12:60', '2024-02-15 12:00:60', '15/02/2024', '2024-02-15T12']) {
      expect(f.parseDateTime(bad, UTC), bad).toBeNull();
    }
    expect(f.parseDateTime('2024-02-29', UTC)).not.toBeNull();
  });
  it('round-trips through the datetime-local form', () => {
    const ts = 1708000020; // whole minute
    expect(f.parseDateTime(f.toDateTimeLocal(ts, CST), CST)).toBe(ts);
  });
});

describe('token and redemption cells', () => {
  it("expiry -1 is 'never expires'", () => {
    expect(zh(f.renderExpiry(-1))).toBe('永不过期');
    expect(en(f.renderExpiry(-1))).toBe('Never expires');
    expect(zh(f.renderExpiry(1708000000, UTC))).toBe('2024-02-15 12:26:40');
  });
  it("remaining quota is 'unlimited' for unlimited tokens", () => {
    expect(zh(f.renderRemainQuota(100, true, raw))).toBe('无限制');
    expect(zh(f.renderRemainQuota(500000, false, dollars))).toBe('$1.00');
  });
  it("redeemed time 0 is 'not yet redeemed'", () => {
    expect(zh(f.renderRedeemedTime(0))).toBe('尚未兑换');
    expect(en(f.renderRedeemedTime(0))).toBe('Not yet redeemed');
    expect(zh(f.renderRedeemedTime(1708000000, CST))).toBe('2024-02-15 20:26:40');
  });
});

describe('formatBalance (spec §9)', () => {
  it('dollars for 1 and 8', () => {
    expect(f.formatBalance(1, 12.345, raw)).toEqual({ kind: 'amount', text: '$12.35' });
    expect(f.formatBalance(8, 0, raw)).toEqual({ kind: 'amount', text: '$0.00' });
  });
  it('yuan for 4, 12, 36, 44', () => {
    for (const type of [4, 12, 36, 44]) expect(f.formatBalance(type, 3.5, raw)).toEqual({ kind: 'amount', text: '¥3.50' });
  });
  it('yuan after /10000 for 5', () => {
    expect(f.formatBalance(5, 123456, raw)).toEqual({ kind: 'amount', text: '¥12.35' });
  });
  it('quota format for 10 and 13', () => {
    expect(f.formatBalance(10, 123456, raw)).toEqual({ kind: 'amount', text: '123.5k' });
    expect(f.formatBalance(13, 1000000, dollars)).toEqual({ kind: 'amount', text: '$2.00' });
  });
  it('not supported for the others', () => {
    for (const type of [2, 3, 20, 43, 0, 77]) expect(f.formatBalance(type, 5, raw)).toEqual({ kind: 'unsupported' });
    expect(zh({ key: f.balanceUnsupportedKey })).toBe('不支持');
  });
});

describe('response time (spec §4, §9)', () => {
  it('bands at 0, 1 s, 3 s, 5 s', () => {
    const bands = [0, 1, 1000, 1001, 3000, 3001, 5000, 5001, 60000].map(f.responseBandOf);
    expect(bands).toEqual(['untested', 'fast', 'fast', 'ok', 'ok', 'slow', 'slow', 'bad', 'bad']);
  });
  it('colours: gray, green, olive (teal), yellow, red', () => {
    expect([0, 500, 2000, 4000, 9000].map((ms) => f.responseTimeBand(ms).color)).toEqual(['gray', 'green', 'teal', 'yellow', 'red']);
  });
  it("labels: 'not tested' or seconds with 2 decimals", () => {
    expect(zh(f.responseTimeBand(0).label)).toBe('未测试');
    expect(en(f.responseTimeBand(0).label)).toBe('Not tested');
    expect(zh(f.responseTimeBand(1234).label)).toBe('1.23 秒');
    expect(en(f.responseTimeBand(812).label)).toBe('0.81 s');
    expect(zh(f.responseTimeBand(5001).label)).toBe('5.00 秒');
    expect(f.secondsText(1005)).toBe('1.00');
  });
  it('log elapsed-time colours use strict bounds and an orange step', () => {
    expect([0, 999, 1000, 2999, 3000, 4999, 5000, 9999, 10000].map(f.elapsedTimeColor)).toEqual([
      'green', 'green', 'teal', 'teal', 'yellow', 'yellow', 'orange', 'orange', 'red',
    ]);
  });
});

describe('text helpers', () => {
  it('truncates usernames to 15 characters with ...', () => {
    expect(f.truncateUsername('short')).toBe('short');
    expect(f.truncateUsername('abcdefghijklmno')).toBe('abcdefghijklmno');
    expect(f.truncateUsername('abcdefghijklmnop')).toBe('abcdefghijkl...');
    expect(f.truncateUsername('abcdefghijklmnop')).toHaveLength(15);
    expect(f.truncateUsername('abcdefgh', 5)).toBe('ab...');
  });
  it('counts code points, never splitting a character', () => {
    const name = '😀'.repeat(16);
    expect(Array.from(f.truncateUsername(name))).toHaveLength(15);
    expect(f.truncateUsername(name).startsWith('😀'.repeat(12))).toBe(true);
    expect(f.truncateText('用户名很长很长很长很长很长很长很长', 15)).toBe('用户名很长很长很长很长很...');
  });
  it('a limit under 4 still ends with the ellipsis', () => {
    expect(f.truncateText('abcdef', 2)).toBe('...');
  });
  it('splits groups; empty means default', () => {
    expect(f.groupNames('default,vip')).toEqual(['default', 'vip']);
    expect(f.groupNames(' vip , ,svip ')).toEqual(['vip', 'svip']);
    expect(f.groupNames('')).toEqual(['default']);
    expect(f.groupNames(null)).toEqual(['default']);
    expect(f.groupNames(undefined)).toEqual(['default']);
  });
  it('group colours: vip/pro yellow, svip/premium red, others gray', () => {
    expect(['vip', 'pro', 'svip', 'premium', 'default', 'VIP'].map(f.groupColor)).toEqual(['yellow', 'yellow', 'red', 'red', 'gray', 'gray']);
  });
  it("shows token keys with 'sk-'", () => {
    expect(f.displayTokenKey('abc')).toBe('sk-abc');
  });
});

describe('log defaults (spec §9)', () => {
  it('range 0 .. now + 1 h; clean target now − 30 days', () => {
    expect(f.defaultLogRange(1_000_000)).toEqual({ start: 0, end: 1_003_600 });
    expect(f.defaultLogCleanTarget(1708000000)).toBe(1708000000 - 2592000);
  });
});

describe('wrapParts: where a model name may wrap', () => {
  it('cuts after - / . : and _, and the parts join back to the name', () => {
    expect(f.wrapParts('gpt-4o-mini')).toEqual(['gpt-', '4o-', 'mini']);
    expect(f.wrapParts('meta-llama/Llama-3.1-70B:free')).toEqual(['meta-', 'llama/', 'Llama-', '3.', '1-', '70B:', 'free']);
    expect(f.wrapParts('text_embedding')).toEqual(['text_', 'embedding']);
    const name = 'claude-3-5-sonnet-20241022';
    expect(f.wrapParts(name).join('')).toBe(name);
  });
  it('keeps a name without cut points whole, and an empty one empty', () => {
    expect(f.wrapParts('qwen')).toEqual(['qwen']);
    expect(f.wrapParts('')).toEqual([]);
    expect(f.wrapParts('a--b')).toEqual(['a-', '-', 'b']);
  });
});
