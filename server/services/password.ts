import bcrypt from 'bcryptjs';

/**
 * Password hashing compatible with one-api (Go's bcrypt, default cost 10, `$2a$` hashes).
 * bcryptjs writes `$2b$`; for passwords under 255 bytes `$2a$` and `$2b$` compute the same hash,
 * so the prefix is rewritten to `$2a$`, which every Go bcrypt version reads.
 */

/** bcrypt cost factor (Go's `bcrypt.DefaultCost`). */
export const bcryptCost = 10;

/** A hash of a fixed random string, compared against when no user matches (keeps timing even). */
const decoyHash = '$2a$10$8oaa1/sLtsZGPoIy7I2Y0O3n1VVczK158YSn6NrjkG7SEt1ZajN8e';

/** Hashes `password` with bcrypt cost 10 and a `$2a$` prefix. */
export async function hashPassword(password: string): Promise<string> {
  const hash = await bcrypt.hash(password, bcryptCost);
  return hash.replace(/^\$2[by]\$/, '$2a$');
}

/** Whether `password` matches a `$2a$`/`$2b$`/`$2y$` bcrypt `hash`; false for empty or malformed hashes. */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (hash === null || hash === '') return false;
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}

/** Spends the time of one comparison and returns false (used when the user does not exist). */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  await verifyPassword(password, decoyHash);
  return false;
}
