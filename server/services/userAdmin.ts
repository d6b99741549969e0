import { randomInt } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import * as t from 'io-ts';
import { logTypeSystem, roleCommon, roleRoot, userStatusActivated } from '../../src/domain/constants';
import type { Database, UserRow } from '../db/schema';
import { endUserSessions } from '../http/session';
import { logQuota, logQuotaKeys, readOptions } from './options';
import { hashPassword } from './password';
import { removeTwoFactor } from './twoFactor';
import { newAccessToken } from '../db/bootstrap';

/**
 * User account helpers shared by the account and admin user routes (contract §2.3.3, §2.4,
 * §2.5): one-api's field validation rules, user creation with its quota and log side effects,
 * soft delete, the log writer and the `LogQuota` text.
 */

type Db = Kysely<Database>;
type Executor = Db | Transaction<Database>;

/** Field limits of the User model (contract §3.2): username ≤ 12, display name ≤ 20, password 8–20, e-mail ≤ 50. */
export const userLimits = { username: 12, displayName: 20, passwordMin: 8, passwordMax: 20, email: 50, group: 32 } as const;

/** Characters counted as Go's validator does (runes, not UTF-16 units). */
export const runeLength = (s: string): number => [...s].length;

/** PostgreSQL text cannot hold NUL; such strings are refused as invalid input before any write. */
export const hasNul = (s: string): boolean => s.includes('\u0000');

/** A JSON field Go would decode into a string: string, null or absent. */
export const optString = t.union([t.string, t.null, t.undefined]);
/** A JSON field Go would decode into an int: an integer within int64 (beyond → Go's decode error), null or absent. */
export const optInt = t.union([t.refinement(t.Int, (n) => n >= -(2 ** 63) && n < 2 ** 63, 'Int64'), t.null, t.undefined]);

/** Every field of one-api's User struct with its Go type; a wrong type fails decoding, unknown keys are ignored. */
export const UserBody = t.partial({
  id: optInt,
  username: optString,
  password: optString,
  display_name: optString,
  role: optInt,
  status: optInt,
  email: optString,
  github_id: optString,
  wechat_id: optString,
  lark_id: optString,
  oidc_id: optString,
  verification_code: optString,
  access_token: optString,
  quota: optInt,
  used_quota: optInt,
  request_count: optInt,
  group: optString,
  aff_code: optString,
  inviter_id: optInt,
});
export type UserBody = t.TypeOf<typeof UserBody>;

/** A string field with Go's zero value for null/absent. */
export const str = (v: string | null | undefined): string => v ?? '';
/** An int field with Go's zero value for null/absent. */
export const int = (v: number | null | undefined): number => v ?? 0;

/** Whether a number fits the int64 columns without losing precision in JS. */
export const isSafeQuota = (n: number): boolean => Number.isSafeInteger(n);

/** A single validator failure, as go-playground/validator names it. */
export interface FieldError {
  readonly field: 'Username' | 'Password' | 'DisplayName' | 'Email';
  readonly tag: 'max' | 'min';
}

/**
 * one-api's `validate` tags on User, in struct field order. `password` is checked only when
 * non-empty (callers pass undefined for "unchanged").
 */
export function validateUserFields(f: {
  readonly username: string;
  readonly password?: string;
  readonly displayName: string;
  readonly email: string;
}): FieldError[] {
  const errors: FieldError[] = [];
  if (runeLength(f.username) > userLimits.username) errors.push({ field: 'Username', tag: 'max' });
  if (f.password !== undefined) {
    if (runeLength(f.password) < userLimits.passwordMin) errors.push({ field: 'Password', tag: 'min' });
    else if (runeLength(f.password) > userLimits.passwordMax) errors.push({ field: 'Password', tag: 'max' });
  }
  if (runeLength(f.displayName) > userLimits.displayName) errors.push({ field: 'DisplayName', tag: 'max' });
  if (runeLength(f.email) > userLimits.email) errors.push({ field: 'Email', tag: 'max' });
  return errors;
}

/** Whether `error` is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown };
  return e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || (typeof e.message === 'string' && e.message.includes('UNIQUE constraint failed'));
}

/** Whether a unique violation concerns `users.username` (SQLite names the column, PostgreSQL the constraint). */
export function isUsernameViolation(error: unknown): boolean {
  if (!isUniqueViolation(error)) return false;
  const e = error as { message?: unknown; constraint?: unknown; detail?: unknown };
  return [e.message, e.constraint, e.detail].some((v) => typeof v === 'string' && v.includes('username'));
}

const alphanumeric = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** `n` random characters from `[0-9a-zA-Z]`. */
export const randomAlphanumeric = (n: number): string =>
  Array.from({ length: n }, () => alphanumeric[randomInt(alphanumeric.length)]).join('');


/** Writes a log row (type, content) for `userId`, with the username as stored at write time. */
export async function recordLog(db: Executor, userId: number, type: number, content: string, nowSeconds: number): Promise<void> {
  const user = await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
  await db
    .insertInto('logs')
    .values({ user_id: userId, created_at: nowSeconds, type, content, username: user?.username ?? '', channel_id: 0 })
    .execute();
}

/** Adds `amount` (> 0) to a user's quota with a single relative update inside the caller's transaction. */
export async function addQuota(trx: Executor, userId: number, amount: number): Promise<void> {
  await trx
    .updateTable('users')
    .set({ quota: sql<number>`quota + ${amount}` })
    .where('id', '=', userId)
    .execute();
}

/** What creating a user needs. */
export interface NewUserInput {
  readonly username: string;
  readonly password: string;
  readonly displayName: string;
  readonly email: string;
  /** The inviter resolved from an aff code (registration only). */
  readonly inviterId: number;
}

/** Outcome of `createUser`. */
export type CreateUserResult = { readonly kind: 'created'; readonly id: number } | { readonly kind: 'duplicate' };

/** A fresh aff code: 4 alphanumerics not used by any user. */
async function freshAffCode(db: Executor): Promise<string> {
  for (;;) {
    const code = randomAlphanumeric(4);
    const taken = await db.selectFrom('users').select('id').where('aff_code', '=', code).executeTakeFirst();
    if (taken === undefined) return code;
  }
}

/**
 * Creates a common user as one-api does (contract §2.3.3 side effects), in one transaction:
 * the row with QuotaForNewUser, access token and aff code; the new-user log; invitee and
 * inviter bonuses with their logs; the default unlimited token.
 */
export async function createUser(db: Db, input: NewUserInput, nowSeconds: number): Promise<CreateUserResult> {
  // A clash on a generated value (aff code, access token, token key) is retried; a username clash is final.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await insertUserOnce(db, input, nowSeconds);
    } catch (error) {
      if (isUsernameViolation(error)) return { kind: 'duplicate' };
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/** One attempt of `createUser`. */
async function insertUserOnce(db: Db, input: NewUserInput, nowSeconds: number): Promise<CreateUserResult> {
  const options = await readOptions(db, ['QuotaForNewUser', 'QuotaForInviter', 'QuotaForInvitee', ...logQuotaKeys]);
  const quotaForNewUser = Math.trunc(options.num('QuotaForNewUser'));
  const quotaForInvitee = Math.trunc(options.num('QuotaForInvitee'));
  const quotaForInviter = Math.trunc(options.num('QuotaForInviter'));
  const hash = input.password === '' ? '' : await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('users').select('id').where('username', '=', input.username).executeTakeFirst();
    if (existing !== undefined) return { kind: 'duplicate' } as const;
    const row = await trx
      .insertInto('users')
      .values({
        username: input.username,
        password: hash,
        display_name: input.displayName,
        role: roleCommon,
        status: userStatusActivated,
        email: input.email,
        github_id: '',
        wechat_id: '',
        lark_id: '',
        oidc_id: '',
        access_token: newAccessToken(),
        quota: quotaForNewUser,
        used_quota: 0,
        request_count: 0,
        group: 'default',
        aff_code: await freshAffCode(trx),
        inviter_id: input.inviterId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = row.id;
    if (quotaForNewUser > 0) {
      await recordLog(trx, id, logTypeSystem, `新用户注册赠送 ${logQuota(quotaForNewUser, options)}`, nowSeconds);
    }
    if (input.inviterId !== 0) {
      if (quotaForInvitee > 0) {
        await addQuota(trx, id, quotaForInvitee);
        await recordLog(trx, id, logTypeSystem, `使用邀请码赠送 ${logQuota(quotaForInvitee, options)}`, nowSeconds);
      }
      if (quotaForInviter > 0) {
        await addQuota(trx, input.inviterId, quotaForInviter);
        await recordLog(trx, input.inviterId, logTypeSystem, `邀请用户赠送 ${logQuota(quotaForInviter, options)}`, nowSeconds);
      }
    }
    await trx
      .insertInto('tokens')
      .values({
        user_id: id,
        key: randomAlphanumeric(48),
        status: 1,
        name: 'default',
        created_time: nowSeconds,
        accessed_time: nowSeconds,
        expired_time: -1,
        remain_quota: -1,
        unlimited_quota: true,
        used_quota: 0,
        models: null,
        subnet: '',
      })
      .execute();
    return { kind: 'created', id } as const;
  });
}

/** The inviter owning aff code `code`, or 0 (unknown codes are ignored). */
export async function inviterIdOf(db: Db, code: string): Promise<number> {
  if (code === '' || hasNul(code)) return 0;
  const row = await db.selectFrom('users').select('id').where('aff_code', '=', code).orderBy('id').executeTakeFirst();
  return row?.id ?? 0;
}

/**
 * Soft delete (contract §2.5.7): username → `deleted_<32 hex>`, status 3, and every session of
 * the user ends at once (our equivalent of one-api's ban list). Its two-factor data (secret,
 * recovery codes, pending login challenges) is removed: nothing of it may outlive the account.
 */
export async function softDeleteUser(db: Db, userId: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ username: `deleted_${newAccessToken()}`, status: 3 })
    .where('id', '=', userId)
    .execute();
  await endUserSessions(db, userId);
  await removeTwoFactor(db, userId);
}

/** one-api's "may manage target" rule: a higher role, or root. */
export const mayManage = (callerRole: number, targetRole: number): boolean => callerRole > targetRole || callerRole === roleRoot;

/** Parses a path id as Go's `strconv.Atoi` would: a number, or Go's error text. */
export function parseAtoi(raw: string): { readonly ok: true; readonly value: number } | { readonly ok: false; readonly message: string } {
  if (!/^[+-]?\d+$/.test(raw)) return { ok: false, message: `strconv.Atoi: parsing ${JSON.stringify(raw)}: invalid syntax` };
  const value = BigInt(raw);
  if (value > 9223372036854775807n || value < -9223372036854775808n) {
    return { ok: false, message: `strconv.Atoi: parsing ${JSON.stringify(raw)}: value out of range` };
  }
  return { ok: true, value: Number(value) };
}

/** The user with `id` when `id` is a safe integer, else undefined. */
export async function userById(db: Db, id: number): Promise<UserRow | undefined> {
  if (!Number.isSafeInteger(id)) return undefined;
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}
