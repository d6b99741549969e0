import { BlockList, isIP } from 'node:net';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import * as E from 'fp-ts/Either';
import type { Context, MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  roleAdmin,
  tokenStatusEnabled,
  tokenStatusExhausted,
  tokenStatusExpired,
  userStatusActivated,
} from '../../src/domain/constants';
import { precompile } from '../db/precompiled';
import type { Database, TokenRow, UserRow } from '../db/schema';
import type { AppEnv } from '../http/env';
import { jsonShapeRefusal, readLimited } from '../http/bodyGuard';
import { parseNetwork, requestIp } from '../http/clientIp';
import { goAtoi } from '../services/channel';
import { anthropicErrorBody } from './messagesApi';
import { isMultipartMode, readMultipartBody } from './multipart';
import { MarkedRows } from './callerCache';
import { StatementGroups } from './pgBatch';
import { goKind } from './request';
import { relayError, type RelayBody, type RelayError, type RelayFormat, type RelayMode, type RelayVariables } from './types';

/**
 * Relay token authentication (contract §4.2): the `Authorization: Bearer sk-<key>[-<channelId>]`
 * credential is checked in one-api's order (steps 1–13) with one-api's statuses and messages,
 * and the request body is read once (model for routing and the token's model restriction).
 * On success the middleware sets `caller` (token, fresh owner row, group, pinned channel) and
 * `relayBody` (raw text, parsed JSON, model) for the pipeline.
 *
 * Cost per request: one token query, one user query, and at most one small update (the
 * token's `accessed_time`, skipped when it already holds the current second). No options are
 * read. The automatic status changes (expired → 3, exhausted → 4) are conditional updates so
 * a concurrent console edit is never overwritten.
 */

/** The Hono environment after this middleware (same shape as the pipeline's `RelayEnv`). */
export interface RelayAuthEnv {
  Variables: AppEnv['Variables'] & RelayVariables;
}

/** Largest accepted relay request body, after gzip decoding (bytes): room for images sent inline as base64. */
export const maxRelayBodyBytes = 32 * 1024 * 1024;

/**
 * Deepest nesting of arrays and objects accepted in a relay body, checked by a linear scan before
 * JSON.parse (a body nested 100,000 levels deep overflowed the parser's stack). Tool and response
 * schemas nest a few dozen levels at most.
 */
export const maxRelayBodyDepth = 128;

/**
 * Most array items and object members accepted in a relay body (JSON.parse of a million small
 * objects held the event loop most of a second). OpenAI takes at most 300,000 tokens of
 * pre-tokenised embeddings input per request, the largest honest count of values.
 */
export const maxRelayBodyMembers = 400_000;

/** one-api's texts (contract §4.2, §4.3). */
export const relayAuthMessages = {
  noToken: '未提供令牌',
  invalidToken: '无效的令牌',
  lookupFailed: '令牌验证失败',
  expired: '该令牌已过期',
  unavailable: '该令牌状态不可用',
  exhausted: '该令牌额度已用尽',
  banned: '用户已被封禁',
  pinNotAllowed: '普通用户不支持指定渠道',
  invalidChannelId: '无效的渠道 Id',
  exhaustedNamed: (name: string, id: number) => `令牌 ${name}（#${id}）额度已用尽`,
  subnet: (subnet: string, ip: string) => `该令牌只能在指定网段使用：${subnet}，当前 ip：${ip}`,
  modelNotAllowed: (model: string) => `该令牌无权使用模型：${model}`,
  bodyTooLarge: `request body too large (limit ${maxRelayBodyBytes / 1024 / 1024} MB)`,
  bodyTooDeep: `request body nested too deeply (limit ${maxRelayBodyDepth} levels of arrays and objects)`,
  bodyTooMany: `request body has too many values (limit ${maxRelayBodyMembers} array items and object members)`,
  badGzip: (detail: string) => `invalid gzip request body: ${detail}`,
  unmarshal: (detail: string) => `common.UnmarshalBodyReusable failed: ${detail}`,
  contentType: (type: string) => `unsupported Content-Type ${type}: relay requests must be application/json`,
} as const;

/**
 * Sends `err` as one-api's relay error body `{error:{message,type[,param,code]}}` with its HTTP
 * status, the message suffixed with ` (request id: <id>)` as every final relay error is.
 */
export function sendRelayError<V extends { requestId: string }>(c: Context<{ Variables: V }>, err: RelayError): Response {
  const vars = c.var as { requestId?: string; relayFormat?: RelayFormat };
  const message = vars.requestId === undefined ? err.error.message : `${err.error.message} (request id: ${vars.requestId})`;
  if (vars.relayFormat === 'anthropic') return c.json(anthropicErrorBody(err, message), err.status as ContentfulStatusCode);
  return c.json({ error: { ...err.error, message } }, err.status as ContentfulStatusCode);
}

// ---------------------------------------------------------------------------------------------
// Step 1: the credential

/** The key and the optional pinned channel (raw text after the first `-`). */
export interface Credential {
  readonly key: string;
  readonly pin: string | null;
}

/** Strips one `Bearer ` and one `sk-` prefix, then splits on `-`: part 0 = key, part 1 = channel pin. */
export function parseCredential(header: string): Credential {
  let rest = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : header;
  if (rest.startsWith('sk-')) rest = rest.slice(3);
  const parts = rest.split('-');
  return { key: parts[0] ?? '', pin: parts.length > 1 ? (parts[1] ?? '') : null };
}

// ---------------------------------------------------------------------------------------------
// Steps 4–8: the stored token's state

/** Why a token is refused, and the status to persist for steps 7 and 8. */
interface TokenRefusal {
  readonly error: RelayError;
  readonly newStatus: number | null;
}

/** Steps 4–8 for `token` at `nowSeconds`; null when the token may be used. */
export function tokenRefusal(token: TokenRow, nowSeconds: number): TokenRefusal | null {
  const refuse = (message: string, newStatus: number | null = null): TokenRefusal => ({ error: relayError(401, message), newStatus });
  if (token.status === tokenStatusExhausted) return refuse(relayAuthMessages.exhaustedNamed(token.name ?? '', token.id));
  if (token.status === tokenStatusExpired) return refuse(relayAuthMessages.expired);
  if (token.status !== tokenStatusEnabled) return refuse(relayAuthMessages.unavailable);
  if (token.expired_time !== -1 && token.expired_time < nowSeconds) return refuse(relayAuthMessages.expired, tokenStatusExpired);
  if (!token.unlimited_quota && token.remain_quota <= 0) return refuse(relayAuthMessages.exhausted, tokenStatusExhausted);
  return null;
}

// ---------------------------------------------------------------------------------------------
// Step 9: subnets

/** Parsed subnet lists by their text (a token's list rarely changes; bounded so it cannot grow forever). */
const subnetCache = new Map<string, BlockList>();
const subnetCacheLimit = 1000;

/** The CIDRs of a comma list; entries that do not parse match nothing (one-api logs and skips them). */
function blockListOf(subnets: string): BlockList {
  const cached = subnetCache.get(subnets);
  if (cached !== undefined) return cached;
  const list = new BlockList();
  for (const entry of subnets.split(',')) {
    const network = entry.includes('/') ? parseNetwork(entry) : null;
    if (network !== null) list.addSubnet(network.address, network.prefix, network.family);
  }
  if (subnetCache.size >= subnetCacheLimit) subnetCache.clear();
  subnetCache.set(subnets, list);
  return list;
}

/** Whether `ip` lies in one of the comma-separated CIDRs (IPv4 and IPv6); an unknown ip ('') never does. */
export function ipInSubnets(ip: string, subnets: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  return blockListOf(subnets).check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

// ---------------------------------------------------------------------------------------------
// Step 11: the body and the requested model

const gunzipAsync = promisify(gunzip);

/** Reads the whole body up to `maxRelayBodyBytes`, gunzipping it when `Content-Encoding: gzip`. */
async function readBodyBytes(c: Context): Promise<E.Either<RelayError, Buffer>> {
  const tooLarge = E.left(relayError(413, relayAuthMessages.bodyTooLarge));
  const declared = Number(c.req.header('Content-Length') ?? Number.NaN);
  if (declared > maxRelayBodyBytes) return tooLarge;
  // A declared length within the limit is enforced by the HTTP parser: read it in one go (the
  // node server's fast path, no web stream). Otherwise (chunked) count while streaming.
  const bytes = Number.isSafeInteger(declared) ? Buffer.from(await c.req.raw.arrayBuffer()) : await readStreamLimited(c);
  if (bytes === null) return tooLarge;
  if ((c.req.header('Content-Encoding') ?? '').trim().toLowerCase() !== 'gzip') return E.right(bytes);
  try {
    return E.right(await gunzipAsync(bytes, { maxOutputLength: maxRelayBodyBytes }));
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return tooLarge;
    return E.left(relayError(400, relayAuthMessages.badGzip(error instanceof Error ? error.message : String(error))));
  }
}

/** Reads a body of unknown length; null as soon as it exceeds `maxRelayBodyBytes`. */
const readStreamLimited = async (c: Context): Promise<Buffer | null> =>
  c.req.raw.body === null ? Buffer.alloc(0) : readLimited(c.req.raw.body, maxRelayBodyBytes);

/** Modes whose unparsable body is refused at once (one-api: paths /v1/completions, /v1/chat/completions, /v1/images). */
const strictModes: ReadonlySet<RelayMode> = new Set(['chat', 'completions', 'images', 'speech']);

/** The parsed object and body `model` as one-api's `ModelRequest` decoding sees them, or the decoder's error. */
function decodeModelRequest(raw: string): E.Either<string, { json: Record<string, unknown> | null; model: string }> {
  if (raw.trim() === '') return E.left('unexpected end of JSON input');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return E.left(error instanceof Error ? error.message : String(error));
  }
  if (value === null) return E.right({ json: null, model: '' });
  if (typeof value !== 'object' || Array.isArray(value)) {
    return E.left(`json: cannot unmarshal ${goKind(value)} into Go value of type ModelRequest`);
  }
  const json = value as Record<string, unknown>;
  const model = json.model;
  if (model === undefined || model === null) return E.right({ json, model: '' });
  if (typeof model !== 'string') {
    return E.left(`json: cannot unmarshal ${goKind(model)} into Go struct field ModelRequest.model of type string`);
  }
  return E.right({ json, model });
}

/** The model a route uses when the body names none (contract §4.2 "Model defaults"). */
function defaultModel(mode: RelayMode, pathModel: string | undefined): string {
  if (mode === 'moderations') return 'text-moderation-stable';
  if (mode === 'embeddings') return pathModel ?? '';
  if (mode === 'images' || mode === 'image_edits') return 'dall-e-2';
  if (mode === 'transcriptions' || mode === 'translations') return 'whisper-1';
  return '';
}

/**
 * Whether a request's Content-Type lets its body be read as JSON: absent, `application/json` or a
 * `+json` type. Deviation: one-api bound other types as forms (a JSON body sent by `curl -d` then
 * lost its model and got a misleading "model is required"); here they get a 415 naming the type.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return true;
  const type = (header.split(';')[0] ?? '').trim().toLowerCase();
  return type === '' || type === 'application/json' || type.endsWith('+json');
}

/** Step 11: reads the body once and finds the requested model. */
async function readRelayBody(c: Context, mode: RelayMode): Promise<E.Either<RelayError, RelayBody>> {
  const contentType = c.req.header('Content-Type');
  if (isMultipartMode(mode)) {
    // a form (audio files, image edits): size-limited like any body, then parsed (multipart.ts)
    const bytes = await readBodyBytes(c);
    return E.isLeft(bytes) ? bytes : readMultipartBody(bytes.right, contentType, defaultModel(mode, undefined));
  }
  if (!isJsonContentType(contentType)) return E.left(relayError(415, relayAuthMessages.contentType(contentType ?? '')));
  const bytes = await readBodyBytes(c);
  if (E.isLeft(bytes)) return bytes;
  const raw = bytes.right.toString('utf8');
  const shape = jsonShapeRefusal(raw, maxRelayBodyDepth, maxRelayBodyMembers);
  if (shape === 'too_deep') return E.left(relayError(400, relayAuthMessages.bodyTooDeep, 'request_too_deep', 'invalid_request_error'));
  if (shape === 'too_many') return E.left(relayError(413, relayAuthMessages.bodyTooMany, 'request_too_large', 'invalid_request_error'));
  const decoded = decodeModelRequest(raw);
  if (E.isLeft(decoded)) {
    // Lenient modes go on without a model (one-api ignores the error there; the relay refuses the body later).
    return strictModes.has(mode)
      ? E.left(relayError(400, relayAuthMessages.unmarshal(decoded.left)))
      : E.right({ raw, json: null, model: '', decodeError: decoded.left });
  }
  const { json, model } = decoded.right;
  return E.right({ raw, json, model: model === '' ? defaultModel(mode, c.req.param('model')) : model });
}

/** Step 12: a non-empty `models` list admits exactly its (untrimmed) entries; no model requested passes. */
export const modelAllowed = (models: string | null, model: string): boolean =>
  models === null || models === '' || model === '' || models.split(',').includes(model);

// ---------------------------------------------------------------------------------------------
// The middleware

/** Sets a token's status from 1 to `status` (steps 7–8); a failure is logged, the refusal stands. */
async function persistStatus(c: Context<RelayAuthEnv>, token: TokenRow, status: number): Promise<void> {
  try {
    await c.var.deps.db
      .updateTable('tokens')
      .set({ status })
      .where('id', '=', token.id)
      .where('status', '=', tokenStatusEnabled)
      .execute();
  } catch (error) {
    console.error(`[relay] token ${token.id}: status update failed:`, error);
  }
}

// The statements of every relay request (compiled once per dialect).
type Db = Kysely<Database>;
const tokenByKey = precompile(1, (db: Db, key: string) => db.selectFrom('tokens').selectAll().where('key', '=', key));
const userById = precompile(1, (db: Db, id: number) => db.selectFrom('users').selectAll().where('id', '=', id));
const touchToken = precompile(2, (db: Db, seconds: number, id: number) => db.updateTable('tokens').set({ accessed_time: seconds }).where('id', '=', id));

/**
 * The second each token's `accessed_time` was last written by this process: the requests of one
 * token within a second all read the old value before the first one's write lands, and each wrote
 * the same second again (on PostgreSQL, hundreds of updates a second of a row every reservation
 * and settlement locks too). Kept for a bounded number of tokens.
 */
const touchedAt = new WeakMap<Db, Map<number, number>>();
const touchedLimit = 10_000;

/** Whether this process still has to write `seconds` as the token's `accessed_time` on `db` (and notes that it will). */
function firstTouch(db: Db, tokenId: number, seconds: number): boolean {
  let touched = touchedAt.get(db);
  if (touched === undefined) {
    touched = new Map();
    touchedAt.set(db, touched);
  }
  if (touched.get(tokenId) === seconds) return false;
  if (touched.size >= touchedLimit) touched.clear();
  touched.set(tokenId, seconds);
  return true;
}

/**
 * PostgreSQL: the token and user reads of the requests of one event-loop turn, each kind in one
 * statement (see pgBatch.ts: a pooled connection carries one statement per turn). SQLite reads
 * at once (`readRows`).
 */
const tokenReads = new StatementGroups<string, TokenRow | undefined>(
  async (db, keys) => {
    const rows = await db.selectFrom('tokens').selectAll().where('key', 'in', [...new Set(keys)]).execute();
    // char(48): PostgreSQL pads a shorter key with spaces (and compares without them)
    const byKey = new Map(rows.map((row) => [String(row.key).trimEnd(), row]));
    return keys.map((key) => byKey.get(key.trimEnd()));
  },
  async (db, key) => (await tokenByKey.readRows(db, key))[0],
  (a, b) => (a < b ? -1 : a > b ? 1 : 0),
);
const userReads = new StatementGroups<number, UserRow | undefined>(
  async (db, ids) => {
    const rows = await db.selectFrom('users').selectAll().where('id', 'in', [...new Set(ids)]).execute();
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    return ids.map((id) => byId.get(id));
  },
  async (db, id) => (await userById.readRows(db, id))[0],
  (a, b) => a - b,
);

/**
 * SQLite: the token and user rows of relay requests, kept while no write that counts touched their
 * table (see callerCache.ts: a status, key, model list, expiry, group or role change, a deletion,
 * a token's remain crossing 0). Their balances may be old: the reservation reads those. The routes
 * without a body (models, billing figures) read the rows every time.
 */
const keptTokens = new MarkedRows<string, TokenRow>('tokens', 10_000);
const keptUsers = new MarkedRows<number, UserRow>('users', 10_000);

/** Finds the token by key (`kept`: a kept row may do): Right(undefined) when absent, Left on a database error. */
async function findToken(c: Context<RelayAuthEnv>, key: string, kept: boolean): Promise<E.Either<unknown, TokenRow | undefined>> {
  // Keys are 48 characters (char(48)): a longer one cannot match, no query needed.
  if (key.length > 48) return E.right(undefined);
  try {
    const { db, dialect } = c.var.deps;
    if (dialect === 'postgres') return E.right(await tokenReads.run(db, key));
    const read = async () => (await tokenByKey.readRows(db, key))[0];
    return E.right(kept ? await keptTokens.get(db, key, read) : await read());
  } catch (error) {
    return E.left(error);
  }
}

/** Finds the user by id (`kept`: a kept row may do); throws on a database error. */
async function findUser(deps: RelayAuthEnv['Variables']['deps'], id: number, kept: boolean): Promise<UserRow | undefined> {
  if (deps.dialect === 'postgres') return userReads.run(deps.db, id);
  const read = async () => (await userById.readRows(deps.db, id))[0];
  return kept ? keptUsers.get(deps.db, id, read) : read();
}

/**
 * The token guard of relay routes. `mode` = the relay mode of the route (its body is read and
 * its model checked), or null for routes without a body (model list, billing, not-implemented
 * routes): their body is not read and a pinned channel id is not validated (nothing routes).
 */
export function relayAuth(mode: RelayMode | null): MiddlewareHandler<RelayAuthEnv> {
  return async (c, next) => {
    const fail = (error: RelayError) => sendRelayError(c, error);
    const deps = c.var.deps;
    // Anthropic's SDKs send the key as `x-api-key` (read when there is no Authorization header)
    const apiKey = c.req.header('x-api-key');
    const credential = parseCredential(c.req.header('Authorization') ?? (apiKey === undefined ? '' : `Bearer ${apiKey}`));
    if (credential.key === '') return fail(relayError(401, relayAuthMessages.noToken));
    const found = await findToken(c, credential.key, mode !== null);
    if (E.isLeft(found)) {
      console.error('[relay] token lookup failed:', found.left);
      return fail(relayError(401, relayAuthMessages.lookupFailed));
    }
    const token = found.right;
    if (token === undefined) return fail(relayError(401, relayAuthMessages.invalidToken));
    const nowSeconds = Math.floor(deps.now() / 1000);
    const refusal = tokenRefusal(token, nowSeconds);
    if (refusal !== null) {
      if (refusal.newStatus !== null) await persistStatus(c, token, refusal.newStatus);
      return fail(refusal.error);
    }
    const subnet = token.subnet ?? '';
    if (subnet !== '') {
      const ip = requestIp(c, deps.config);
      if (!ipInSubnets(ip, subnet)) return fail(relayError(403, relayAuthMessages.subnet(subnet, ip)));
    }
    let user: UserRow | undefined;
    try {
      user = await findUser(deps, token.user_id ?? 0, mode !== null);
    } catch (error) {
      return fail(relayError(500, error instanceof Error ? error.message : String(error)));
    }
    if (user?.status !== userStatusActivated) return fail(relayError(403, relayAuthMessages.banned));
    let body: RelayBody = { raw: '', json: null, model: '' };
    if (mode !== null) {
      const read = await readRelayBody(c, mode);
      if (E.isLeft(read)) {
        if (read.left.status === 413) c.header('Connection', 'close');
        return fail(read.left);
      }
      body = read.right;
    }
    if (!modelAllowed(token.models, body.model)) return fail(relayError(403, relayAuthMessages.modelNotAllowed(body.model)));
    let pinnedChannelId: number | null = null;
    if (credential.pin !== null) {
      if (user.role < roleAdmin) return fail(relayError(403, relayAuthMessages.pinNotAllowed));
      if (mode !== null) {
        const id = goAtoi(credential.pin);
        if (E.isLeft(id)) return fail(relayError(400, relayAuthMessages.invalidChannelId));
        pinnedChannelId = id.right;
      }
    }
    if (token.accessed_time !== nowSeconds && firstTouch(deps.db, token.id, nowSeconds)) {
      // Bookkeeping only: a failed write is logged, the request goes on.
      await touchToken
        .execute(deps.db, nowSeconds, token.id)
        .catch((error: unknown) => console.error(`[relay] token ${token.id}: accessed_time update failed:`, error));
    }
    c.set('caller', { token, user, group: user.group, pinnedChannelId });
    c.set('relayBody', body);
    await next();
  };
}
