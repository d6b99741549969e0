import { describe, expect, it } from 'vitest';
import { logTypeConsume, logTypeManage, logTypeSystem, logTypeTest, logTypeTopUp } from '../../../src/domain/constants';
import { formatQuota } from '../../../src/domain/format';
import { logQuotaDecimals, logRowFields } from '../../../src/domain/log';

describe('logRowFields: what a row of each type shows', () => {
  it('a consume row shows tokens, quota, and the elapsed time and stream it carries', () => {
    expect(logRowFields({ type: logTypeConsume, quota: 8, elapsed_time: 1200, is_stream: false })).toEqual({
      tokens: true,
      quota: true,
      elapsed: true,
      stream: true,
    });
    expect(logRowFields({ type: logTypeConsume, quota: 8 })).toEqual({ tokens: true, quota: true, elapsed: false, stream: false });
    expect(logRowFields({ type: logTypeTest, quota: 0, elapsed_time: 300, is_stream: true })).toMatchObject({ tokens: true, elapsed: true });
  });
  it('a top-up shows its quota (when it carries one) only, even when the server sent an elapsed time or stream flag', () => {
    expect(logRowFields({ type: logTypeTopUp, quota: 500000, elapsed_time: 0, is_stream: false })).toEqual({
      tokens: false,
      quota: true,
      elapsed: false,
      stream: false,
    });
    // a redemption's top-up row carries 0 and names the amount in its content
    expect(logRowFields({ type: logTypeTopUp, quota: 0, elapsed_time: 0, is_stream: false }).quota).toBe(false);
  });
  it('manage and system notes show a quota only when they carry one', () => {
    expect(logRowFields({ type: logTypeManage, quota: 0, elapsed_time: 0, is_stream: false })).toEqual({
      tokens: false,
      quota: false,
      elapsed: false,
      stream: false,
    });
    expect(logRowFields({ type: logTypeSystem, quota: 0 }).quota).toBe(false);
    expect(logRowFields({ type: logTypeSystem, quota: 250000 }).quota).toBe(true);
    expect(logRowFields({ type: 99, quota: 0 })).toEqual({ tokens: false, quota: false, elapsed: false, stream: false });
  });
});

describe('log quota precision', () => {
  it('the total uses the rows\' decimals, so a total of small rows is not $0.00', () => {
    const money = { displayInCurrency: true, quotaPerUnit: 500000 };
    expect(formatQuota(8, money, logQuotaDecimals)).toBe('$0.000016');
    expect(formatQuota(16, money, logQuotaDecimals)).toBe('$0.000032');
  });
});
