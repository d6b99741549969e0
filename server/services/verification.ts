import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * E-mail verification codes and password-reset tokens (contract §2.3.4–§2.3.6, §2.3.10, §3.2).
 * one-api keeps them in process memory keyed by purpose + e-mail; here they live in the
 * `verification_codes` table (fix §6 #10: multi-node safe, survives a restart), stored as a
 * SHA-256 hash. A new code replaces the previous one for the same purpose and e-mail; a code
 * is valid 10 minutes and is consumed by its first successful use (fix §6 #10: one-api lets
 * registration reuse an e-mail code). After `maxAttempts` wrong guesses the code is dropped.
 */

type Db = Kysely<Database>;

/** What a code is for: `v` e-mail verification, `r` password reset (one-api's purpose letters). */
export type CodePurpose = 'v' | 'r';

/** Validity of a code (contract §3.2), seconds. */
export const codeValiditySeconds = 600;

/** Wrong guesses after which a code is dropped (a 6-hex code must not be brute-forced). */
export const maxAttempts = 5;

/** A UUID without dashes: 32 lowercase hex characters. */
const uuidHex = (): string => randomUUID().replaceAll('-', '');

/** A new e-mail code: the first 6 hex characters of a UUID. */
export const newEmailCode = (): string => uuidHex().slice(0, 6);

/** A new reset token: 32 hex characters. */
export const newResetToken = (): string => uuidHex();

/** A new password after a reset (one-api: the first 12 hex characters of a UUID). */
export const newResetPassword = (): string => uuidHex().slice(0, 12);

const hashOf = (code: string): string => createHash('sha256').update(code, 'utf8').digest('hex');

/** Stores `code` for `purpose` + `email` at `nowSeconds`, replacing any previous code; drops expired codes. */
export async function storeCode(db: Db, purpose: CodePurpose, email: string, code: string, nowSeconds: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('verification_codes').where('created_at', '<=', nowSeconds - codeValiditySeconds).execute();
    await trx.deleteFrom('verification_codes').where('purpose', '=', purpose).where('email', '=', email).execute();
    await trx
      .insertInto('verification_codes')
      .values({ purpose, email, code_hash: hashOf(code), created_at: nowSeconds, attempts: 0 })
      .execute();
  });
}

/** Constant-time comparison of two hex hashes. */
const sameHash = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A code taken by `consumeCode`, which `restoreCode` can put back (e.g. when the action then failed). */
export interface ConsumedCode {
  readonly purpose: CodePurpose;
  readonly email: string;
  readonly codeHash: string;
  readonly createdAt: number;
}

/**
 * Checks `code` for `purpose` + `email` and, when it matches and is younger than 10 minutes,
 * deletes it (exactly one concurrent caller wins). Returns the consumed code, or null. A wrong
 * guess counts an attempt; the code is dropped after `maxAttempts` of them.
 */
export async function consumeCode(
  db: Db,
  purpose: CodePurpose,
  email: string,
  code: string,
  nowSeconds: number,
): Promise<ConsumedCode | null> {
  if (email === '' || code === '') return null;
  const row = await db
    .selectFrom('verification_codes')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('email', '=', email)
    .executeTakeFirst();
  if (row === undefined) return null;
  if (nowSeconds - row.created_at >= codeValiditySeconds) {
    await db.deleteFrom('verification_codes').where('purpose', '=', purpose).where('email', '=', email).where('created_at', '=', row.created_at).execute();
    return null;
  }
  if (!sameHash(row.code_hash, hashOf(code))) {
    // Both steps are conditional updates, so concurrent wrong guesses cannot exceed the limit.
    await db
      .updateTable('verification_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('purpose', '=', purpose)
      .where('email', '=', email)
      .where('code_hash', '=', row.code_hash)
      .execute();
    await db
      .deleteFrom('verification_codes')
      .where('purpose', '=', purpose)
      .where('email', '=', email)
      .where('attempts', '>=', maxAttempts)
      .execute();
    return null;
  }
  const deleted = await db
    .deleteFrom('verification_codes')
    .where('purpose', '=', purpose)
    .where('email', '=', email)
    .where('code_hash', '=', row.code_hash)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== 1) return null;
  return { purpose, email, codeHash: row.code_hash, createdAt: row.created_at };
}

/** Puts a consumed code back unless a newer code was stored meanwhile. */
export async function restoreCode(db: Db, consumed: ConsumedCode): Promise<void> {
  try {
    await restoreOnce(db, consumed);
  } catch {
    // A concurrent store won the key: the newer code stays.
  }
}

async function restoreOnce(db: Db, consumed: ConsumedCode): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('verification_codes')
      .select('created_at')
      .where('purpose', '=', consumed.purpose)
      .where('email', '=', consumed.email)
      .executeTakeFirst();
    if (current !== undefined) return;
    await trx
      .insertInto('verification_codes')
      .values({ purpose: consumed.purpose, email: consumed.email, code_hash: consumed.codeHash, created_at: consumed.createdAt, attempts: 0 })
      .execute();
  });
}
