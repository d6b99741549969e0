import { describe, expect, it } from 'vitest';
import { bcryptCost, hashPassword, verifyAgainstDecoy, verifyPassword } from '../../server/services/password';

describe('password hashing', () => {
  it('writes Go-style $2a$ hashes with cost 10', async () => {
    const hash = await hashPassword('123456');
    expect(hash).toMatch(/^\$2a\$10\$[./A-Za-z0-9]{53}$/);
    expect(bcryptCost).toBe(10);
    expect(await verifyPassword('123456', hash)).toBe(true);
    expect(await verifyPassword('1234567', hash)).toBe(false);
  });

  it('accepts $2a$ (Go), $2b$ and $2y$ hashes of the same password', async () => {
    // OpenBSD bcrypt test vector (cost 5): password "U*U".
    const vector = '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW';
    expect(await verifyPassword('U*U', vector)).toBe(true);
    expect(await verifyPassword('U*U', vector.replace('$2a$', '$2b$'))).toBe(true);
    expect(await verifyPassword('U*U', vector.replace('$2a$', '$2y$'))).toBe(true);
    expect(await verifyPassword('U*V', vector)).toBe(false);
  });

  it('never matches an empty, null or malformed hash', async () => {
    expect(await verifyPassword('', '')).toBe(false);
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
    expect(await verifyAgainstDecoy('anything')).toBe(false);
  });
});
