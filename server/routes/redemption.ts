import { Hono, type Context } from 'hono';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { adminAuth, currentUser, userAuth } from '../http/auth';
import { fail, ok } from '../http/envelope';
import type { AppEnv } from '../http/env';
import { decodeQuery, pageIndex } from '../http/validate';
import { intRange, numberRules } from '../../src/domain/numberRules';
import { checkFields } from '../services/numberRanges';
import {
  checkRedemptionCreate,
  createRedemptions,
  deleteRedemption,
  findRedemption,
  goRedemption,
  goTopUpRequest,
  listRedemptions,
  redeem,
  RedemptionBody,
  redemptionJson,
  redemptionMessages,
  searchRedemptions,
  TopUpBody,
  updateRedemption,
} from '../services/redemption';
import { decodeGoJson, goAtoi } from '../services/token';

/**
 * Redemption codes (contract §2.8, guard `Admin`) and redeeming one for the caller
 * (`POST /api/user/topup`, §2.4.6, guard `User`).
 */

type Ctx = Context<AppEnv>;

const SearchQuery = t.partial({ keyword: t.string });
const UpdateQuery = t.partial({ status_only: t.string });


const nowSeconds = (c: Ctx): number => Math.floor(c.get('deps').now() / 1000);

/** `GET /api/redemption/?p=`. */
async function list(c: Ctx): Promise<Response> {
  const rows = await listRedemptions(c.get('deps').db, pageIndex(c));
  return ok(c, rows.map(redemptionJson));
}

/** `GET /api/redemption/search?keyword=`. */
async function search(c: Ctx): Promise<Response> {
  const query = decodeQuery(c, SearchQuery);
  const keyword = E.isRight(query) ? (query.right.keyword ?? '') : '';
  const rows = await searchRedemptions(c.get('deps').db, keyword);
  return ok(c, rows.map(redemptionJson));
}

/** `GET /api/redemption/:id`. */
async function getOne(c: Ctx): Promise<Response> {
  const id = goAtoi(c.req.param('id') ?? '');
  if (!id.ok) return fail(c, id.message);
  if (id.value === 0) return fail(c, redemptionMessages.idRequired);
  const row = await findRedemption(c.get('deps').db, id.value);
  return row === undefined ? fail(c, redemptionMessages.notFound) : ok(c, redemptionJson(row));
}

/** `POST /api/redemption/`: `count` codes, all or none; `data` = the new keys. */
async function create(c: Ctx): Promise<Response> {
  const body = decodeGoJson(await c.req.text(), goRedemption, RedemptionBody);
  if (E.isLeft(body)) return fail(c, body.left);
  const invalid = checkRedemptionCreate(body.right) ?? checkFields(c, [['quota', numberRules.redemptionQuotaOnCreate, body.right.quota]]);
  if (invalid !== null) return fail(c, invalid);
  const { name = '', quota = 0, count = 0 } = body.right;
  const keys = await createRedemptions(c.get('deps').db, currentUser(c).id, name ?? '', quota ?? 0, count ?? 0, nowSeconds(c));
  return ok(c, keys);
}

/** `PUT /api/redemption/` (name and quota) and `?status_only=true` (status only). */
async function update(c: Ctx): Promise<Response> {
  const query = decodeQuery(c, UpdateQuery);
  const statusOnly = E.isRight(query) && (query.right.status_only ?? '') !== '';
  const body = decodeGoJson(await c.req.text(), goRedemption, RedemptionBody);
  if (E.isLeft(body)) return fail(c, body.left);
  const id = body.right.id ?? 0;
  if (id === 0) return fail(c, redemptionMessages.idRequired);
  const { db } = c.get('deps');
  if ((await findRedemption(db, id)) === undefined) return fail(c, redemptionMessages.notFound);
  const invalid = statusOnly
    ? checkFields(c, [['status', intRange(1, 3), body.right.status ?? 0]])
    : checkFields(c, [['quota', numberRules.amount, body.right.quota ?? 0]]);
  if (invalid !== null) return fail(c, invalid);
  const changes = statusOnly
    ? { status: body.right.status ?? 0 }
    : { name: body.right.name ?? '', quota: body.right.quota ?? 0 };
  const row = await updateRedemption(db, id, changes);
  return row === undefined ? fail(c, redemptionMessages.notFound) : ok(c, redemptionJson(row));
}

/** `DELETE /api/redemption/:id` (a non-numeric id counts as 0, as in one-api). */
async function remove(c: Ctx): Promise<Response> {
  const parsed = goAtoi(c.req.param('id') ?? '');
  const id = parsed.ok ? parsed.value : 0;
  if (id === 0) return fail(c, redemptionMessages.idRequired);
  return (await deleteRedemption(c.get('deps').db, id)) ? ok(c) : fail(c, redemptionMessages.notFound);
}

/** `POST /api/user/topup`: redeems a code for the caller; `data` = the credited quota. */
async function topUp(c: Ctx): Promise<Response> {
  const body = decodeGoJson(await c.req.text(), goTopUpRequest, TopUpBody);
  if (E.isLeft(body)) return fail(c, body.left);
  const result = await redeem(c.get('deps').db, {
    key: body.right.key ?? '',
    userId: currentUser(c).id,
    nowSeconds: nowSeconds(c),
    requestId: c.get('requestId'),
  });
  return result.ok ? ok(c, result.quota) : fail(c, result.message);
}

/** Routes mounted at /api/redemption. */
export function redemptionRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get('/', adminAuth, list);
  app.get('/search', adminAuth, search);
  app.get('/:id', adminAuth, getOne);
  app.post('/', adminAuth, create);
  app.put('/', adminAuth, update);
  app.delete('/:id', adminAuth, remove);
  return app;
}

/** Mounted at /api/user: only `POST /topup`. */
export function topUpRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.post('/topup', userAuth, topUp);
  return app;
}
