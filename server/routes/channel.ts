import { Hono, type Context, type MiddlewareHandler } from 'hono';
import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { adminAuth } from '../http/auth';
import { fail, invalidUrl, json, ok } from '../http/envelope';
import type { AppEnv } from '../http/env';
import { decodeQuery, pageIndex } from '../http/validate';
import {
  checkStorable,
  createChannels,
  decodeChannelBody,
  deleteChannel,
  deleteDisabledChannels,
  findChannel,
  goAtoi,
  groupNames,
  listChannels,
  modelCatalogue,
  recordNotFound,
  searchChannels,
  updateChannel,
  type ChannelBody,
} from '../services/channel';
import { updateAllBalances, updateChannelBalance } from '../services/channelBalance';
import { startBatchTest, testChannelById } from '../services/channelTest';
import { readOptions } from '../services/options';
import { goStrings } from '../http/validate';

/**
 * Channel management (contract §2.9) under /api/channel and the group list (§2.2.4) under
 * /api/group, all behind the Admin guard, including channel tests (§2.9.9, §2.9.10) and balance
 * queries (§2.9.11, §2.9.12).
 */

type Ctx = Context<AppEnv>;

/** Paths of the channel test / balance routes: never read as an id. */
const reservedIds: ReadonlySet<string> = new Set(['test', 'update_balance']);

/** Query of `GET /api/channel/search`: `keyword` (absent = ""). */
const SearchQuery = t.partial({ keyword: t.string });

/** Query of `GET /api/channel/test/:id`: `model` (absent = the channel's test model). */
const TestQuery = t.partial({ model: t.string });
/** Query of `GET /api/channel/test`: `scope` (absent = all). */
const ScopeQuery = t.partial({ scope: t.string });

/** The `:id` path parameter as Go's `strconv.Atoi` reads it. */
const idParam = (c: Ctx): E.Either<string, number> => goAtoi(c.req.param('id') ?? '');

/** Reads the body as JSON (whatever the Content-Type) and binds it like one-api's `ShouldBindJSON`. */
async function readChannelBody(c: Ctx): Promise<E.Either<string, ChannelBody>> {
  const text = await c.req.text();
  if (text.trim() === '') return E.left('EOF');
  let value: unknown;
  try {
    value = JSON.parse(text, goStrings);
  } catch (error) {
    return E.left(error instanceof Error ? error.message : String(error));
  }
  const body = decodeChannelBody(value);
  if (E.isLeft(body)) return body;
  const refusal = checkStorable(body.right);
  return refusal === null ? body : E.left(refusal);
}

/** `GET /api/channel/?p=`: one page, id desc, keys hidden. */
async function list(c: Ctx): Promise<Response> {
  return ok(c, await listChannels(c.get('deps').db, pageIndex(c)));
}

/** `GET /api/channel/search?keyword=`: every match, keys hidden. */
async function search(c: Ctx): Promise<Response> {
  const query = decodeQuery(c, SearchQuery);
  const keyword = E.isRight(query) ? (query.right.keyword ?? '') : '';
  return ok(c, await searchChannels(c.get('deps').db, keyword));
}

/** Keeps `/test` and `/update_balance` (other methods) from being read as an id: the catch-all's 404. */
const notReserved: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (reservedIds.has(c.req.param('id') ?? '')) return invalidUrl(c);
  await next();
};

/** `GET /api/channel/:id`: one channel, key hidden. */
async function getOne(c: Ctx): Promise<Response> {
  const id = idParam(c);
  if (E.isLeft(id)) return fail(c, id.left);
  const channel = await findChannel(c.get('deps').db, id.right);
  return channel === undefined ? fail(c, recordNotFound) : ok(c, channel);
}

/** `POST /api/channel/`: one channel per key line, with abilities. */
async function create(c: Ctx): Promise<Response> {
  const body = await readChannelBody(c);
  if (E.isLeft(body)) return fail(c, body.left);
  const { db, now } = c.get('deps');
  const created = await createChannels(db, body.right, Math.floor(now() / 1000));
  return E.isLeft(created) ? fail(c, created.left) : ok(c);
}

/** `PUT /api/channel/`: partial update, abilities rebuilt; `data` = the stored channel, key hidden. */
async function update(c: Ctx): Promise<Response> {
  const body = await readChannelBody(c);
  if (E.isLeft(body)) return fail(c, body.left);
  const updated = await updateChannel(c.get('deps').db, body.right);
  return E.isLeft(updated) ? fail(c, updated.left) : ok(c, updated.right);
}

/** `DELETE /api/channel/:id`: the channel and its abilities; no existence check. */
async function remove(c: Ctx): Promise<Response> {
  const id = idParam(c);
  if (E.isLeft(id)) return fail(c, id.left);
  await deleteChannel(c.get('deps').db, id.right);
  return ok(c);
}

/** `DELETE /api/channel/disabled`: `data` = number of deleted channels. */
async function removeDisabled(c: Ctx): Promise<Response> {
  return ok(c, await deleteDisabledChannels(c.get('deps').db));
}

/** `GET /api/channel/test/:id?model=`: one test; answers `{success, message, time, modelName}` (not enveloped). */
async function testOne(c: Ctx): Promise<Response> {
  const id = idParam(c);
  if (E.isLeft(id)) return fail(c, id.left);
  const query = decodeQuery(c, TestQuery);
  const model = E.isRight(query) ? (query.right.model ?? '') : '';
  const answer = await testChannelById(c.get('deps'), id.right, model);
  return E.isLeft(answer) ? fail(c, answer.left) : json(c, answer.right);
}

/** `GET /api/channel/test?scope=all|disabled`: starts a background run and answers at once. */
function testAll(c: Ctx): Response {
  const query = decodeQuery(c, ScopeQuery);
  const started = startBatchTest(c.get('deps'), E.isRight(query) ? (query.right.scope ?? '') : '');
  return E.isLeft(started) ? fail(c, started.left) : ok(c);
}

/** `GET /api/channel/update_balance/:id`: `{success, message, balance}` (balance at top level). */
async function balanceOne(c: Ctx): Promise<Response> {
  const id = idParam(c);
  if (E.isLeft(id)) return fail(c, id.left);
  const balance = await updateChannelBalance(c.get('deps'), id.right);
  return E.isLeft(balance) ? fail(c, balance.left) : json(c, { success: true, message: '', balance: balance.right });
}

/** `GET /api/channel/update_balance`: refreshes every enabled channel's balance, then answers success. */
async function balanceAll(c: Ctx): Promise<Response> {
  await updateAllBalances(c.get('deps'));
  return ok(c);
}

/** Routes mounted at /api/channel (static paths registered before `:id`). */
export function channelRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get('/', adminAuth, list);
  app.get('/search', adminAuth, search);
  app.get('/models', adminAuth, (c) => json(c, modelCatalogue));
  app.get('/test', adminAuth, testAll);
  app.get('/test/:id', adminAuth, testOne);
  app.get('/update_balance', adminAuth, balanceAll);
  app.get('/update_balance/:id', adminAuth, balanceOne);
  app.get('/:id', notReserved, adminAuth, getOne);
  app.post('/', adminAuth, create);
  app.put('/', adminAuth, update);
  app.delete('/disabled', adminAuth, removeDisabled);
  app.delete('/:id', adminAuth, remove);
  return app;
}

/** Routes mounted at /api/group: `GET /` = the GroupRatio keys. */
export function groupRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  app.get('/', adminAuth, async (c) => {
    const options = await readOptions(c.get('deps').db, ['GroupRatio']);
    return ok(c, groupNames(options.str('GroupRatio')));
  });
  return app;
}
