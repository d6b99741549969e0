import { randomUUID } from 'node:crypto';
import * as t from 'io-ts';
import type { Kysely } from 'kysely';
import { redemptionStatusUnused, redemptionStatusUsed } from '../../src/domain/constants';
import type { Database, RedemptionRow } from '../db/schema';
import { logQuota, logQuotaKeys, readOptions } from './options';
import { GoInt, itemsPerPage, StoredString, type GoStruct } from './token';

/**
 * Redemption codes (contract §2.1.4, §2.8) and redeeming one (§2.4.6). Redeeming is one
 * transaction with conditional updates: the code flips 1 → 3 only if it is still 1 (checked by
 * affected rows), and the user's quota grows in SQL (`quota = quota + ?`), so a code credits
 * exactly once whatever the concurrency.
 */

type Db = Kysely<Database>;

/** Optional field: absent or null decode to undefined (Go zero value). */
const opt = <C extends t.Mixed>(codec: C) => t.union([codec, t.null, t.undefined]);

/** Body of `POST`/`PUT /api/redemption/` (one-api decodes both into a Redemption). */
export const RedemptionBody = t.partial({
  id: opt(GoInt),
  name: opt(StoredString),
  quota: opt(GoInt),
  count: opt(GoInt),
  status: opt(GoInt),
});
export type RedemptionBody = t.TypeOf<typeof RedemptionBody>;

/** Body of `POST /api/user/topup`. */
export const TopUpBody = t.partial({ key: opt(t.string) });

/** one-api's Redemption struct (every JSON field; `count` is request-only). */
export const goRedemption: GoStruct = {
  qualifiedName: 'model.Redemption',
  fields: {
    id: 'int', user_id: 'int', key: 'string', status: 'int', name: 'string', quota: 'int64',
    created_time: 'int64', redeemed_time: 'int64', count: 'int',
  },
};

/** one-api's top-up request struct. */
export const goTopUpRequest: GoStruct = { qualifiedName: 'controller.topUpRequest', fields: { key: 'string' }, rejectNul: false };

export const redemptionMessages = {
  nameLength: '兑换码名称长度必须在1-20之间',
  countPositive: '兑换码个数必须大于0',
  countMax: '一次兑换码批量生成的个数不能大于 100',
  idRequired: 'id 为空！',
  notFound: 'record not found',
  keyMissing: '未提供兑换码',
  keyInvalid: '兑换失败，无效的兑换码',
  keyUsed: '兑换失败，该兑换码已被使用',
  quotaInvalid: '兑换失败，该兑换码的额度无效',
  overflow: '兑换失败，充值后的额度超出上限',
} as const;

/** The Redemption object of contract §2.1.4 (`count` is always 0 in responses). */
export interface RedemptionJson {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  count: number;
}

/** Redemption JSON of a row (PostgreSQL pads `char(32)`: the key is trimmed). */
export const redemptionJson = (row: RedemptionRow): RedemptionJson => ({
  id: row.id,
  user_id: row.user_id ?? 0,
  key: (row.key ?? '').trimEnd(),
  status: row.status,
  name: row.name ?? '',
  quota: row.quota,
  created_time: row.created_time ?? 0,
  redeemed_time: row.redeemed_time ?? 0,
  count: 0,
});

/** The create checks (contract §2.8.4), or null. */
export function checkRedemptionCreate(body: RedemptionBody): string | null {
  const bytes = Buffer.byteLength(body.name ?? '', 'utf8');
  if (bytes === 0 || bytes > 20) return redemptionMessages.nameLength;
  const count = body.count ?? 0;
  if (count <= 0) return redemptionMessages.countPositive;
  if (count > 100) return redemptionMessages.countMax;
  return null;
}

/** A new redemption key: 32 lowercase hex digits. */
export const newRedemptionKey = (): string => randomUUID().replaceAll('-', '');

/** One page of codes, id desc. */
export const listRedemptions = (db: Db, page: number): Promise<RedemptionRow[]> =>
  db
    .selectFrom('redemptions')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(itemsPerPage)
    .offset(page * itemsPerPage)
    .execute();

/** Codes whose id equals `keyword` (when it is an integer) or whose name starts with it. */
export async function searchRedemptions(db: Db, keyword: string): Promise<RedemptionRow[]> {
  if (keyword.includes('\u0000')) return [];
  const asId = /^[+-]?\d+$/.test(keyword) ? Number(keyword) : Number.NaN;
  return db
    .selectFrom('redemptions')
    .selectAll()
    .where((eb) =>
      Number.isSafeInteger(asId)
        ? eb.or([eb('id', '=', asId), eb('name', 'like', `${keyword}%`)])
        : eb('name', 'like', `${keyword}%`),
    )
    .orderBy('id')
    .execute();
}

/** The code with `id`, or undefined. */
export const findRedemption = (db: Db, id: number): Promise<RedemptionRow | undefined> =>
  db.selectFrom('redemptions').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * Creates `count` codes in one transaction (all or none). As one-api's ORM, a zero quota takes
 * the column default 100.
 */
export async function createRedemptions(
  db: Db,
  creatorId: number,
  name: string,
  quota: number,
  count: number,
  nowSeconds: number,
): Promise<string[]> {
  const keys = Array.from({ length: count }, newRedemptionKey);
  await db
    .insertInto('redemptions')
    .values(
      keys.map((key) => ({
        user_id: creatorId,
        key,
        status: redemptionStatusUnused,
        name,
        quota: quota === 0 ? 100 : quota,
        created_time: nowSeconds,
        redeemed_time: 0,
      })),
    )
    .execute();
  return keys;
}

/** Writes `changes` to the code and returns the new row. */
export const updateRedemption = (
  db: Db,
  id: number,
  changes: { status: number } | { name: string; quota: number },
): Promise<RedemptionRow | undefined> =>
  db.updateTable('redemptions').set(changes).where('id', '=', id).returningAll().executeTakeFirst();

/** Deletes the code; false when there was none. */
export async function deleteRedemption(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('redemptions').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Outcome of a redemption attempt. */
export type RedeemResult = { ok: true; quota: number } | { ok: false; message: string };

/** Thrown inside the transaction to roll it back with a user-facing message. */
class RedeemRefused extends Error {}

/**
 * Redeems `key` for `userId` in one transaction: the code is marked used only if still unused
 * (conditional update, affected rows checked), the user's quota grows by the code's quota in
 * SQL, and the top-up log row (type 1, `quota` 0, the request id; contract §4.7) is written.
 */
export async function redeem(
  db: Db,
  request: { readonly key: string; readonly userId: number; readonly nowSeconds: number; readonly requestId: string },
): Promise<RedeemResult> {
  const { key, userId, nowSeconds, requestId } = request;
  if (key === '') return { ok: false, message: redemptionMessages.keyMissing };
  if (key.includes('\u0000') || key.trim() === '') return { ok: false, message: redemptionMessages.keyInvalid };
  try {
    const quota = await db.transaction().execute(async (trx) => {
      const code = await trx.selectFrom('redemptions').selectAll().where('key', '=', key).orderBy('id').executeTakeFirst();
      if (code === undefined) throw new RedeemRefused(redemptionMessages.keyInvalid);
      if (code.status !== redemptionStatusUnused) throw new RedeemRefused(redemptionMessages.keyUsed);
      // A code worth nothing or less (stored before the ranges were checked) must not take quota.
      if (!(code.quota > 0)) throw new RedeemRefused(redemptionMessages.quotaInvalid);
      const claimed = await trx
        .updateTable('redemptions')
        .set({ status: redemptionStatusUsed, redeemed_time: nowSeconds })
        .where('id', '=', code.id)
        .where('status', '=', redemptionStatusUnused)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new RedeemRefused(redemptionMessages.keyUsed);
      const user = await trx
        .updateTable('users')
        .set((eb) => ({ quota: eb('quota', '+', code.quota) }))
        .where('id', '=', userId)
        .where('quota', '<=', Number.MAX_SAFE_INTEGER - code.quota)
        .returning(['username'])
        .executeTakeFirst();
      if (user === undefined) {
        const exists = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
        throw new RedeemRefused(exists === undefined ? redemptionMessages.keyInvalid : redemptionMessages.overflow);
      }
      await trx
        .insertInto('logs')
        .values({
          user_id: userId,
          created_at: nowSeconds,
          type: 1,
          content: `通过兑换码充值 ${logQuota(code.quota, await readOptions(trx, logQuotaKeys))}`,
          username: user.username ?? '',
          token_name: '',
          model_name: '',
          quota: 0,
          prompt_tokens: 0,
          completion_tokens: 0,
          channel_id: 0,
          request_id: requestId,
          elapsed_time: 0,
          is_stream: false,
          system_prompt_reset: false,
        })
        .execute();
      return code.quota;
    });
    return { ok: true, quota };
  } catch (error) {
    if (error instanceof RedeemRefused) return { ok: false, message: error.message };
    throw error;
  }
}
