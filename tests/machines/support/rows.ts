import { tokenStatusEnabled } from '../../../src/domain/constants';
import type { Token } from '../../../src/domain/token';

/** A token row as the server lists it: enabled, limited to 500,000, nothing used; `over` changes fields. */
export const tokenRow = (id: number, name: string, over: Partial<Token> = {}): Token => ({
  id,
  name,
  key: `k${id}`.padEnd(48, 'x'),
  status: tokenStatusEnabled,
  created_time: 1_763_000_000 + id,
  expired_time: -1,
  remain_quota: 500000,
  unlimited_quota: false,
  used_quota: 0,
  ...over,
});
