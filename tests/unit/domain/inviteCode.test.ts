import { describe, expect, it } from 'vitest';
import { inviteCodeOf, inviteCodeToUse } from '../../../src/domain/inviteCode';

describe('the inviter code (?aff=)', () => {
  it('is read from an invite link, trimmed; none without one', () => {
    expect(inviteCodeOf('?aff=Ab3x')).toBe('Ab3x');
    expect(inviteCodeOf('?x=1&aff=%20Ab3x%20')).toBe('Ab3x');
    expect(inviteCodeOf('')).toBe('');
    expect(inviteCodeOf('?aff=')).toBe('');
  });
  it("a link's code is used and remembered", () => {
    expect(inviteCodeToUse('Ab3x', 'Zz9q')).toEqual({ code: 'Ab3x', remember: true });
    expect(inviteCodeToUse(' Ab3x ', null)).toEqual({ code: 'Ab3x', remember: true });
  });
  it('without a link, the remembered code is used (and not stored again); else none', () => {
    expect(inviteCodeToUse('', 'Zz9q')).toEqual({ code: 'Zz9q', remember: false });
    expect(inviteCodeToUse('  ', null)).toEqual({ code: '', remember: false });
  });
});
