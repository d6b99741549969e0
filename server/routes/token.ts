import { Hono, type Context } from 'hono';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { currentUser, userAuth } from '../http/auth';
import { fail, ok } from '../http/envelope';
import type { AppEnv } from '../http/env';
import { decodeQuery, pageIndex } from '../http/validate';
import { intRange, numberRules } from '../../src/domain/numberRules';
import { checkFields } from '../services/numberRanges';
import {
  checkTokenFields,
  createToken,
  decodeGoJson,
  deleteOwnToken,
  findOwnToken,
  fullUpdateOf,
  goAtoi,
  goToken,
  listTokens,
  reenableError,
  searchTokens,
  TokenBody,
  tokenJson,
  tokenMessages,
  updateOwnToken,
} from '../services/token';

/**
 * Relay API keys of the caller (contract §2.7): list, search, get, create, update (full or
 * status only), delete. Guard `User`; every query is scoped to the caller's own tokens, admins
 * included.
 */

type Ctx = Context<AppEnv>;

/** Query strings: first value of each parameter, anything else ignored. */
const ListQuery = t.partial({ order: t.string });
const SearchQuery = t.partial({ keyword: t.string });
const UpdateQuery = t.partial({ status_only: t.string });


const nowSeconds = (c: Ctx): number => Math.floor(c.get('deps').now() / 1000);

/** The ranges of a full token body: remain_quota a balance (an unlimited token may keep -1), expired_time -1 or a Unix time. */
const tokenNumberRefusal = (c: Ctx, body: TokenBody): string | null =>
  checkFields(c, [
    ['remain_quota', body.unlimited_quota === true ? numberRules.unlimitedRemainQuota : numberRules.balance, body.remain_quota],
    ['expired_time', numberRules.expiry, body.expired_time],
  ]);

/** `GET /api/token/?p=&order=`. */
async function list(c: Ctx): Promise<Response> {
  const query = decodeQuery(c, ListQuery);
  const order = E.isRight(query) ? (query.right.order ?? '') : '';
  const rows = await listTokens(c.get('deps').db, currentUser(c).id, pageIndex(c), order);
  return ok(c, rows.map(tokenJson));
}

/** `GET /api/token/search?keyword=`. */
async function search(c: Ctx): Promise<Response> {
  const query = decodeQuery(c, SearchQuery);
  const keyword = E.isRight(query) ? (query.right.keyword ?? '') : '';
  const rows = await searchTokens(c.get('deps').db, currentUser(c).id, keyword);
  return ok(c, rows.map(tokenJson));
}

/** `GET /api/token/:id`. */
async function getOne(c: Ctx): Promise<Response> {
  const id = goAtoi(c.req.param('id') ?? '');
  if (!id.ok) return fail(c, id.message);
  if (id.value === 0) return fail(c, tokenMessages.idRequired);
  const row = await findOwnToken(c.get('deps').db, id.value, currentUser(c).id);
  return row === undefined ? fail(c, tokenMessages.notFound) : ok(c, tokenJson(row));
}

/** `POST /api/token/`. */
async function create(c: Ctx): Promise<Response> {
  const body = decodeGoJson(await c.req.text(), goToken, TokenBody);
  if (E.isLeft(body)) return fail(c, body.left);
  const invalid = checkTokenFields(body.right) ?? tokenNumberRefusal(c, body.right);
  if (invalid !== null) return fail(c, invalid);
  const row = await createToken(c.get('deps').db, currentUser(c).id, body.right, nowSeconds(c));
  return ok(c, tokenJson(row));
}

/** `PUT /api/token/` (all six editable fields) and `PUT /api/token/?status_only=true` (status only). */
async function update(c: Ctx): Promise<Response> {
  const query = decodeQuery(c, UpdateQuery);
  const statusOnly = E.isRight(query) && (query.right.status_only ?? '') !== '';
  const body = decodeGoJson(await c.req.text(), goToken, TokenBody);
  if (E.isLeft(body)) return fail(c, body.left);
  const invalid = checkTokenFields(body.right);
  if (invalid !== null) return fail(c, invalid);
  const id = body.right.id ?? 0;
  if (id === 0) return fail(c, tokenMessages.idRequired);
  const { db } = c.get('deps');
  const userId = currentUser(c).id;
  const stored = await findOwnToken(db, id, userId);
  if (stored === undefined) return fail(c, tokenMessages.notFound);
  const outOfRange = statusOnly ? checkFields(c, [['status', intRange(1, 4), body.right.status ?? 0]]) : tokenNumberRefusal(c, body.right);
  if (outOfRange !== null) return fail(c, outOfRange);
  const status = body.right.status ?? 0;
  if (status === 1) {
    const refused = reenableError(stored, nowSeconds(c));
    if (refused !== null) return fail(c, refused);
  }
  const changes = statusOnly ? { status } : fullUpdateOf(body.right);
  const row = await updateOwnToken(db, id, userId, changes);
  return row === undefined ? fail(c, tokenMessages.notFound) : ok(c, tokenJson(row));
}

/** `DELETE /api/token/:id` (a non-numeric id counts as 0, as in one-api). */
async function remove(c: Ctx): Promise<Response> {
  const parsed = goAtoi(c.req.param('id') ?? '');
  const id = parsed.ok ? parsed.value : 0;
  if (id === 0) return fail(c, tokenMessages.idRequired);
  const deleted = await deleteOwnToken(c.get('deps').db, id, currentUser(c).id);
  return deleted ? ok(c) : fail(c, tokenMessages.notFound);
}

/** Routes mounted at /api/token. */
export function tokenRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get('/', userAuth, list);
  app.get('/search', userAuth, search);
  app.get('/:id', userAuth, getOne);
  app.post('/', userAuth, create);
  app.put('/', userAuth, update);
  app.delete('/:id', userAuth, remove);
  return app;
}
