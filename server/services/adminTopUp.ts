import * as t from 'io-ts';
import type { Kysely } from 'kysely';
import { logTypeTopUp } from '../../src/domain/constants';
import type { Database } from '../db/schema';
import { logQuota, logQuotaKeys, readOptions } from './options';
import { GoInt, StoredString, type GoStruct } from './token';

/**
 * The API top-up (`POST /api/topup`, contract §2.6): an admin (in practice a payment site with
 * an admin access token) adds quota to a user. One transaction: a conditional relative update
 * (`quota = quota + ?` only while the result stays a safe integer, affected rows checked) and
 * the top-up log row; so parallel top-ups all land and a refused one writes nothing.
 * Deviation (contract §6 #37, fixed): an unknown `user_id` is refused instead of "succeeding"
 * with only a log row.
 */

type Db = Kysely<Database>;

/** Optional field: absent or null decode to undefined. */
const opt = <C extends t.Mixed>(codec: C) => t.union([codec, t.null, t.undefined]);

/** Body of `POST /api/topup`. */
export const AdminTopUpBody = t.partial({
  user_id: opt(GoInt),
  quota: opt(GoInt),
  remark: opt(StoredString),
});
export type AdminTopUpBody = t.TypeOf<typeof AdminTopUpBody>;

/** one-api's request struct (its decoder errors name it). */
export const goAdminTopUpRequest: GoStruct = {
  qualifiedName: 'controller.adminTopUpRequest',
  fields: { user_id: 'int', quota: 'int', remark: 'string' },
};

export const adminTopUpMessages = {
  negativeQuota: 'quota 不能为负数！',
  userNotFound: '用户不存在',
} as const;

/** What a top-up did. */
export type AdminTopUpResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'negative' | 'user_not_found' | 'overflow' };

/** Thrown inside the transaction to roll it back. */
class TopUpRefused extends Error {
  constructor(readonly reason: 'user_not_found' | 'overflow') {
    super(reason);
  }
}

/**
 * Adds `quota` (≥ 0) to user `userId` and writes the top-up log (type 1, `quota` = the amount,
 * content = `remark` or `通过 API 充值 <LogQuota>`), all or nothing.
 */
export async function adminTopUp(
  db: Db,
  request: { readonly userId: number; readonly quota: number; readonly remark: string; readonly nowSeconds: number; readonly requestId: string },
): Promise<AdminTopUpResult> {
  const { userId, quota, remark, nowSeconds, requestId } = request;
  if (quota < 0) return { ok: false, reason: 'negative' };
  try {
    await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('users')
        .set((eb) => ({ quota: eb('quota', '+', quota) }))
        .where('id', '=', userId)
        .where('quota', '<=', Number.MAX_SAFE_INTEGER - quota)
        .returning(['username'])
        .executeTakeFirst();
      if (updated === undefined) {
        const exists = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
        throw new TopUpRefused(exists === undefined ? 'user_not_found' : 'overflow');
      }
      const content = remark !== '' ? remark : `通过 API 充值 ${logQuota(quota, await readOptions(trx, logQuotaKeys))}`;
      await trx
        .insertInto('logs')
        .values({
          user_id: userId,
          created_at: nowSeconds,
          type: logTypeTopUp,
          content,
          username: updated.username ?? '',
          token_name: '',
          model_name: '',
          quota,
          prompt_tokens: 0,
          completion_tokens: 0,
          channel_id: 0,
          request_id: requestId,
          elapsed_time: 0,
          is_stream: false,
          system_prompt_reset: false,
        })
        .execute();
    });
    return { ok: true };
  } catch (error) {
    if (error instanceof TopUpRefused) return { ok: false, reason: error.reason };
    throw error;
  }
}
