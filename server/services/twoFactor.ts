import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../db/schema';
import { needsSealing, openSecret, sealSecret, type TotpKey } from './totpSecretBox';

/**
 * Two-factor sign-in with TOTP (RFC 6238: SHA-1, 6 digits, 30 s), stored in our own tables
 * (server/db/migrations/twoFactor.ts), never in one-api's `users`. A code is accepted for the
 * current step ±1 and each step only once per user (the conditional update of `last_step` is the
 * check, so two concurrent requests with one code cannot both pass). Recovery codes are random,
 * stored as SHA-256 and usable once (again a conditional update). The secret is stored sealed
 * (AES-256-GCM, server/services/totpSecretBox.ts); a plaintext row from before is sealed at its
 * next use.
 */

type Db = Kysely<Database>;

export const totpPeriodSeconds = 30;
export const totpDigits = 6;
export const recoveryCodeCount = 10;
/** How long the second step of a login may take (seconds). */
export const challengeLifetimeSeconds = 300;
/** Wrong codes allowed on one challenge before the login must restart. */
export const challengeMaxAttempts = 5;

/** The TOTP generator of `secret` (base32) for `label` at `issuer`. */
export const totpOf = (secret: string, issuer: string, label: string): TOTP =>
  new TOTP({ issuer, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: totpDigits, period: totpPeriodSeconds });

/** A new random secret (160 bits), base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** Whether `input` looks like a TOTP code (6 digits, spaces allowed). */
export const isTotpCode = (input: string): boolean => /^\d{6}$/.test(input.replaceAll(' ', ''));

/** The recovery code alphabet (no 0/1/i/l/o to avoid misreading). */
const recoveryAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A new recovery code: `xxxxx-xxxxx` (about 50 bits). */
export function newRecoveryCode(): string {
  const part = () => Array.from({ length: 5 }, () => recoveryAlphabet[randomInt(recoveryAlphabet.length)]).join('');
  return `${part()}-${part()}`;
}

/** The stored form of a recovery code (case, spaces and dashes do not matter). */
export const hashRecoveryCode = (code: string): string =>
  createHash('sha256').update(code.toLowerCase().replace(/[\s-]/g, '')).digest('hex');

/** A new login challenge id: 32 random bytes, hex. */
export const newChallengeId = (): string => randomBytes(32).toString('hex');

/** The user's TOTP row, if any. */
export const totpRow = (db: Db, userId: number) => db.selectFrom('oa_user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** Whether `userId` has two-factor sign-in on. */
export async function hasTwoFactor(db: Db, userId: number): Promise<boolean> {
  const row = await totpRow(db, userId);
  return row !== undefined && row.enabled_at !== null;
}

/**
 * Checks `code` against the user's secret at `nowMs` and records its step, so the same step is
 * refused afterwards. True when accepted. A plaintext secret (written before secrets were sealed)
 * is sealed with `key` on the way.
 */
export async function acceptTotp(db: Db, key: TotpKey, userId: number, code: string, nowMs: number): Promise<boolean> {
  const row = await totpRow(db, userId);
  if (row === undefined) return false;
  if (needsSealing(key, row.secret)) {
    // Conditional on the value read, so a concurrent setup's new secret is not overwritten.
    await db
      .updateTable('oa_user_totp')
      .set({ secret: sealSecret(key, userId, row.secret) })
      .where('user_id', '=', userId)
      .where('secret', '=', row.secret)
      .execute();
  }
  const secret = openSecret(key, userId, row.secret);
  if (secret === null || !isTotpCode(code)) return false;
  const token = code.replaceAll(' ', '');
  const delta = totpOf(secret, '', 'x').validate({ token, timestamp: nowMs, window: 1 });
  if (delta === null) return false;
  const step = Math.floor(nowMs / 1000 / totpPeriodSeconds) + delta;
  const result = await db
    .updateTable('oa_user_totp')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Uses one of the user's recovery codes; true when it existed and was unused. */
export async function acceptRecoveryCode(db: Db, userId: number, code: string, nowSeconds: number): Promise<boolean> {
  const result = await db
    .updateTable('oa_user_recovery_codes')
    .set({ used_at: nowSeconds })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashRecoveryCode(code))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Replaces the user's recovery codes with new ones; returns them (shown once). */
export async function replaceRecoveryCodes(db: Db, userId: number, nowSeconds: number): Promise<string[]> {
  const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('oa_user_recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('oa_user_recovery_codes')
      .values(codes.map((code) => ({ user_id: userId, code_hash: hashRecoveryCode(code), created_at: nowSeconds, used_at: null })))
      .execute();
  });
  return codes;
}

/** How many unused recovery codes the user has. */
export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('oa_user_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Removes the user's two-factor data (disable, or account deletion). */
export async function removeTwoFactor(db: Db, userId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('oa_user_recovery_codes').where('user_id', '=', userId).execute();
    await trx.deleteFrom('oa_user_totp').where('user_id', '=', userId).execute();
    await trx.deleteFrom('oa_login_challenges').where('user_id', '=', userId).execute();
  });
}
