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
  updateChannelsByTag,
  type ChannelBody,
} from '../services/channel';
import { channelFieldsRefusal } from '../services/channelFields';
import { listTagCounts, readTag, readTagEdit, readTagsField } from '../services/channelTags';
import { updateAllBalances, updateChannelBalance } from '../services/channelBalance';
import { cancelTestRun, currentTestRun, findTestRun, startBatchTest, startTestRun, testChannelById } from '../services/channelTest';
import { readOptions } from '../services/options';
import { describeErrors, goStrings } from '../http/validate';
import { ChannelTestRunRequest } from '../../src/domain/channel';
import { announce } from '../services/clusterSync';

/**
 * Channel management (contract §2.9) under /api/channel and the group list (§2.2.4) under
 * /api/group, all behind the Admin guard, including channel tests (§2.9.9, §2.9.10) and balance
 * queries (§2.9.11, §2.9.12), plus the recorded test runs under /api/channel/test_run (live
 * progress of a batch test, its results and cancelling it; not in one-api).
 */

type Ctx = Context<AppEnv>;

/** Paths of the channel test / balance routes: never read as an id. */
const reservedIds: ReadonlySet<string> = new Set(['test', 'update_balance', 'test_run']);
/** Paths added here (not in one-api): never read as an id by `DELETE /:id` either. */
const ownPaths: ReadonlySet<string> = new Set(['test_run', 'tag', 'tags']);

/** Query of `GET /api/channel/search`: `keyword` (absent = ""), `tag` (absent or "" = any). */
const SearchQuery = t.partial({ keyword: t.string, tag: t.string });
/** Query of `GET /api/channel/`: `tag` (absent or "" = any). */
const TagQuery = t.partial({ tag: t.string });

/** Query of `GET /api/channel/test/:id`: `model` (absent = the channel's test model). */
const TestQuery = t.partial({ model: t.string });
/** Query of `GET /api/channel/test`: `scope` (absent = all). */
const ScopeQuery = t.partial({ scope: t.string });
/** Query of `GET /api/channel/test_run/:id`: `after` (absent = 0). */
const AfterQuery = t.partial({ after: t.string });

/** The `:id` path parameter as Go's `strconv.Atoi` reads it. */
const idParam = (c: Ctx): E.Either<string, number> => goAtoi(c.req.param('id') ?? '');

/** A channel body and its `tags` (undefined = not given: unchanged on PUT, none on POST). */
interface ChannelRequest {
  readonly body: ChannelBody;
  readonly tags: readonly string[] | undefined;
}

/**
 * Reads the body as JSON (whatever the Content-Type) and binds it like one-api's `ShouldBindJSON`,
 * plus our optional `tags` array.
 */
async function readChannelBody(c: Ctx): Promise<E.Either<string, ChannelRequest>> {
  const text = await c.req.text();
  if (text.trim() === '') return E.left('EOF');
  let value: unknown;
  try {
    value = JSON.parse(text, goStrings);
  } catch (error) {
    return E.left(error instanceof Error ? error.message : String(error));
  }
  // priority, weight, models and group: the check an edit by tag makes too (same messages)
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const refusal = channelFieldsRefusal(c, value as Record<string, unknown>);
    if (refusal !== null) return E.left(refusal);
  }
  const body = decodeChannelBody(value);
  if (E.isLeft(body)) return body;
  const refusal = checkStorable(body.right);
  if (refusal !== null) return E.left(refusal);
  const tags = readTagsField(value);
  return E.isLeft(tags) ? tags : E.right({ body: body.right, tags: tags.right });
}

/** The `tag` filter of a list or search query: undefined = any; Left = a message naming it. */
function tagFilter(raw: string | undefined): E.Either<string, string | undefined> {
  if (raw === undefined || raw === '') return E.right(undefined);
  return readTag(raw, 'tag');
}

/** `GET /api/channel/?p=`: one page, id desc, keys hidden. */
async function list(c: Ctx): Promise<Response> {
  const query = decodeQuery(c, TagQuery);
  const tag = tagFilter(E.isRight(query) ? query.right.tag : undefined);
  if (E.isLeft(tag)) return fail(c, tag.left);
  return ok(c, await listChannels(c.get('deps').db, pageIndex(c), tag.right));
}

/** `GET /api/channel/search?keyword=`: every match, keys hidden. */
async function search(c: Ctx): Promise<Response> {
  const query = decodeQuery(c, SearchQuery);
  const keyword = E.isRight(query) ? (query.right.keyword ?? '') : '';
  const tag = tagFilter(E.isRight(query) ? query.right.tag : undefined);
  if (E.isLeft(tag)) return fail(c, tag.left);
  return ok(c, await searchChannels(c.get('deps').db, keyword, tag.right));
}

/** Keeps `/test` and `/update_balance` (other methods) from being read as an id: the catch-all's 404. */
const notReserved: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (reservedIds.has(c.req.param('id') ?? '')) return invalidUrl(c);
  await next();
};

/** Keeps `DELETE /api/channel/test_run` (no id) from being read as a channel id. */
const notOwnPath: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (ownPaths.has(c.req.param('id') ?? '')) return invalidUrl(c);
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
  const created = await createChannels(db, body.right.body, Math.floor(now() / 1000), body.right.tags);
  return E.isLeft(created) ? fail(c, created.left) : ok(c);
}

/** `PUT /api/channel/`: partial update, abilities rebuilt; `data` = the stored channel, key hidden. */
async function update(c: Ctx): Promise<Response> {
  const body = await readChannelBody(c);
  if (E.isLeft(body)) return fail(c, body.left);
  const updated = await updateChannel(c.get('deps').db, body.right.body, body.right.tags);
  return E.isLeft(updated) ? fail(c, updated.left) : ok(c, updated.right);
}

/** `GET /api/channel/tags`: every tag in use with its channel count, by tag (not in one-api). */
async function tags(c: Ctx): Promise<Response> {
  return ok(c, await listTagCounts(c.get('deps').db));
}

/**
 * `PUT /api/channel/tag` `{tag, priority?, weight?, models?, group?, status?}`: sets those fields
 * on every channel carrying the tag in one transaction; `data` = `{count}` (not in one-api).
 */
async function updateByTag(c: Ctx): Promise<Response> {
  const text = await c.req.text();
  if (text.trim() === '') return fail(c, 'invalid tag edit: empty body');
  let value: unknown;
  try {
    value = JSON.parse(text, goStrings);
  } catch (error) {
    return fail(c, `invalid tag edit: body is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const edit = readTagEdit(value, (record) => channelFieldsRefusal(c, record, { requireItems: true }));
  if (E.isLeft(edit)) return fail(c, edit.left);
  return ok(c, { count: await updateChannelsByTag(c.get('deps').db, edit.right) });
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
async function testAll(c: Ctx): Promise<Response> {
  const query = decodeQuery(c, ScopeQuery);
  const started = await startBatchTest(c.get('deps'), E.isRight(query) ? (query.right.scope ?? '') : '');
  return E.isLeft(started) ? fail(c, started.left) : ok(c);
}

/** Prefix of every refusal of a bad `POST /api/channel/test_run` body. */
const badRunRequest = 'invalid test run request';

/** Reads the body of `POST /api/channel/test_run`; Left = a readable reason. */
async function readRunRequest(c: Ctx): Promise<E.Either<string, ChannelTestRunRequest>> {
  const text = await c.req.text();
  const expected = 'expected {"scope":"all"|"disabled"} or {"ids":[channel ids]}';
  if (text.trim() === '') return E.left(`${badRunRequest}: empty body, ${expected}`);
  let value: unknown;
  try {
    value = JSON.parse(text, goStrings);
  } catch (error) {
    return E.left(`${badRunRequest}: body is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const decoded = ChannelTestRunRequest.decode(value);
  if (E.isRight(decoded)) return decoded;
  const reasons = decoded.left.map((e) => e.message ?? describeErrors([e]));
  return E.left(`${badRunRequest}: ${[...new Set(reasons)].join('; ')}`);
}

/** `POST /api/channel/test_run` `{scope}` or `{ids}`: starts a recorded run; `data` = the run. */
async function startRun(c: Ctx): Promise<Response> {
  const request = await readRunRequest(c);
  if (E.isLeft(request)) return fail(c, request.left);
  const run = await startTestRun(c.get('deps'), request.right);
  return E.isLeft(run) ? fail(c, run.left) : ok(c, run.right);
}

/** `GET /api/channel/test_run`: the run in progress, else the latest one, else null. */
async function currentRun(c: Ctx): Promise<Response> {
  return ok(c, await currentTestRun(c.get('deps')));
}

/** `after` of `GET /api/channel/test_run/:id`: a non-negative integer, 0 when absent. */
function afterParam(c: Ctx): E.Either<string, number> {
  const query = decodeQuery(c, AfterQuery);
  const raw = E.isRight(query) ? query.right.after : undefined;
  if (raw === undefined) return E.right(0);
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(n) ? E.right(n) : E.left(`invalid after: expected a non-negative integer, got ${JSON.stringify(raw)}`);
}

/** `GET /api/channel/test_run/:id?after=N`: the run with the results of index N and later. */
async function getRun(c: Ctx): Promise<Response> {
  const id = idParam(c);
  if (E.isLeft(id)) return fail(c, id.left);
  const after = afterParam(c);
  if (E.isLeft(after)) return fail(c, after.left);
  const run = await findTestRun(c.get('deps'), id.right, after.right);
  return E.isLeft(run) ? fail(c, run.left) : ok(c, run.right);
}

/** `DELETE /api/channel/test_run/:id`: cancels a running run; `data` = the run once it has ended. */
async function cancelRun(c: Ctx): Promise<Response> {
  const id = idParam(c);
  if (E.isLeft(id)) return fail(c, id.left);
  const run = await cancelTestRun(c.get('deps'), id.right);
  return E.isLeft(run) ? fail(c, run.left) : ok(c, run.right);
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
  // Every write here may change what relay selection sees: other processes are told (clusterSync).
  app.use('*', async (c, next) => {
    await next();
    if (c.req.method !== 'GET') announce(c.get('deps').db, 'channels');
  });
  app.get('/', adminAuth, list);
  app.get('/search', adminAuth, search);
  app.get('/models', adminAuth, (c) => json(c, modelCatalogue));
  app.get('/tags', adminAuth, tags);
  app.put('/tag', adminAuth, updateByTag);
  app.get('/test', adminAuth, testAll);
  app.get('/test/:id', adminAuth, testOne);
  app.post('/test_run', adminAuth, startRun);
  app.get('/test_run', adminAuth, currentRun);
  app.get('/test_run/:id', adminAuth, getRun);
  app.delete('/test_run/:id', adminAuth, cancelRun);
  app.get('/update_balance', adminAuth, balanceAll);
  app.get('/update_balance/:id', adminAuth, balanceOne);
  app.get('/:id', notReserved, adminAuth, getOne);
  app.post('/', adminAuth, create);
  app.put('/', adminAuth, update);
  app.delete('/disabled', adminAuth, removeDisabled);
  app.delete('/:id', notOwnPath, adminAuth, remove);
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
