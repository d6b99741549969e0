import { Hono, type Context } from 'hono';
import * as E from 'fp-ts/Either';
import { adminAuth } from '../http/auth';
import { fail, localize, ok } from '../http/envelope';
import type { AppEnv } from '../http/env';
import { AdminTopUpBody, adminTopUp, adminTopUpMessages, goAdminTopUpRequest } from '../services/adminTopUp';
import { decodeGoJson } from '../services/token';
import { numberRules } from '../../src/domain/numberRules';
import { checkFields } from '../services/numberRanges';

/**
 * `POST /api/topup` (contract §2.6, guard `Admin`): body `{user_id, quota, remark}`; success has
 * no data. Refusals: a body Go could not decode → the decoder's error text; `quota` missing →
 * i18n `invalid_parameter` (ours: one-api would add 0); negative → `quota 不能为负数！`; unknown
 * user → `用户不存在` (contract §6 #37 fixed); a total beyond a safe integer → `invalid_parameter`.
 */

type Ctx = Context<AppEnv>;

/** `POST /api/topup`. */
async function topUp(c: Ctx): Promise<Response> {
  const body = decodeGoJson(await c.req.text(), goAdminTopUpRequest, AdminTopUpBody);
  if (E.isLeft(body)) return fail(c, body.left);
  const { user_id: userId, quota, remark } = body.right;
  if (quota === undefined || quota === null) return fail(c, localize(c, 'invalid_parameter'));
  if (quota < 0) return fail(c, adminTopUpMessages.negativeQuota);
  // 0 stays accepted (a logged no-op, as one-api); past 10^15 at once is refused by name.
  const invalid = checkFields(c, [['quota', numberRules.balance, quota]]);
  if (invalid !== null) return fail(c, invalid);
  const result = await adminTopUp(c.get('deps').db, {
    userId: userId ?? 0,
    quota,
    remark: remark ?? '',
    nowSeconds: Math.floor(c.get('deps').now() / 1000),
    requestId: c.get('requestId'),
  });
  if (result.ok) return ok(c);
  switch (result.reason) {
    case 'negative':
      return fail(c, adminTopUpMessages.negativeQuota);
    case 'user_not_found':
      return fail(c, adminTopUpMessages.userNotFound);
    case 'overflow':
      return fail(c, localize(c, 'invalid_parameter'));
  }
}

/** Routes mounted at /api/topup. */
export function adminTopUpRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.post('/', adminAuth, topUp);
  return app;
}
