import { describe, expect, it } from 'vitest';
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { decodeAt, reportErrors, showValue } from '../../../src/api/decode';
import { listOf } from '../../../src/api/lists';
import { Channel, ChannelTypeModels } from '../../../src/domain/channel';
import { Token } from '../../../src/domain/token';

const reportOf = <A>(codec: t.Decoder<unknown, A>, value: unknown, at = 'data'): string => {
  const result = decodeAt(codec, value, 'GET /api/x', at);
  if (E.isRight(result)) throw new Error('expected a decode failure');
  if (result.left._tag !== 'Decode') throw new Error('expected a Decode error');
  expect(result.left.call).toBe('GET /api/x');
  return result.left.report;
};

describe('decode reports', () => {
  it('pass values through on success', () => {
    expect(decodeAt(t.number, 3, 'GET /api/x', 'data')).toEqual(E.right(3));
  });

  it('name a missing required field inside a list', () => {
    expect(reportOf(listOf(Token), [{ id: 1, name: 'a', key: 'k', status: 1, created_time: 0, expired_time: -1, remain_quota: 0, unlimited_quota: false }])).toBe(
      'data.0.used_quota: expected number, got undefined',
    );
  });

  it('collapse a union into one issue (nullable fields)', () => {
    const channel = { id: 7, type: 1, name: 'c', status: 1, models: 'm', group: 'default', priority: 'high' };
    expect(reportOf(Channel, channel)).toBe('data.priority: expected (number | null), got "high"');
  });

  it('name record keys', () => {
    expect(reportOf(ChannelTypeModels, { '1': ['gpt-4o'], '43': 'none' })).toBe('data.43: expected (Array<string> | null), got "none"');
  });

  it('report a whole object when the value is not one', () => {
    expect(reportOf(Token, 'token')).toBe('data: expected object, got "token"');
  });

  it('use (body) for the root path', () => {
    expect(reportOf(t.type({ a: t.string }), 5, '')).toBe('(body): expected { a: string }, got 5');
  });

  it('list at most three problems and count the rest', () => {
    const report = reportOf(t.array(t.number), ['a', 'b', 'c', 'd', 'e']);
    expect(report).toBe('data.0: expected number, got "a"; data.1: expected number, got "b"; data.2: expected number, got "c" (+2 more)');
  });

  it('stay short for long values', () => {
    const report = reportOf(t.number, 'x'.repeat(500));
    expect(report.length).toBeLessThan(80);
    expect(report).toMatch(/^data: expected number, got "x+…$/);
  });

  it('show values as short text', () => {
    expect(showValue(undefined)).toBe('undefined');
    expect(showValue(null)).toBe('null');
    expect(showValue({ a: [1] })).toBe('{"a":[1]}');
    expect(showValue(() => 1)).toBe('function');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(showValue(cyclic)).toBe('object');
  });

  it('has a fallback for an empty error list', () => {
    expect(reportErrors([], 'data')).toBe('data: invalid value');
  });
});
