import { describe, expect, it } from 'vitest';
import { roleAdmin, roleCommon, roleRoot } from '../../../src/domain/constants';
import { canManageUser } from '../../../src/domain/userRules';

describe('canManageUser (spec §4: super admins are not acted on from the user table)', () => {
  it('lets common users and admins be managed', () => {
    expect(canManageUser(roleCommon)).toBe(true);
    expect(canManageUser(roleAdmin)).toBe(true);
    expect([0, 2, 9, 11, 99].map(canManageUser)).toEqual([true, true, true, true, true]);
  });
  it('refuses the root role and anything above it', () => {
    expect(canManageUser(roleRoot)).toBe(false);
    expect([101, 1000].map(canManageUser)).toEqual([false, false]);
  });
});
