import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import { cors } from 'hono/cors';
import { modelCatalogue } from '../services/channel';
import { readOptions } from '../services/options';
import { mediaHandler } from './audio';
import { relayAuth, sendRelayError, type RelayAuthEnv } from './auth';
import { openAiRequestOf } from './messagesApi';
import { relayHandler, type RelayEnv } from './pipeline';
import { proxyHandler } from './proxy';
import { responsesHandler } from './responses';
import { relayCorsHeaders, relayError, type MediaMode, type RelayMode } from './types';

/**
 * The /v1 application (contract §4.1, §4.12): CORS for any origin, token auth on every route,
 * the relay modes handed to the pipeline, the model list, the OpenAI legacy billing endpoints,
 * and 501 for every other /v1 path. Mount it after `provideDeps` (request id and deps), as
 * server/http/server.ts does. Every error is an OpenAI-style `{error:{...}}` body, never the
 * /api envelope; an unexpected exception is a 500 without details.
 */

type Ctx = Context<RelayAuthEnv>;

/** The POST routes relayed by the pipeline, with their mode. */
const relayedRoutes: ReadonlyArray<readonly [string, RelayMode]> = [
  ['/v1/chat/completions', 'chat'],
  ['/v1/completions', 'completions'],
  ['/v1/embeddings', 'embeddings'],
  ['/v1/engines/:model/embeddings', 'embeddings'],
  ['/v1/moderations', 'moderations'],
  ['/v1/images/generations', 'images'],
  ['/v1/edits', 'edits'],
];

/** The audio and image-edit routes (server/relay/audio.ts), with their mode. */
const mediaRoutes: ReadonlyArray<readonly [string, MediaMode]> = [
  ['/v1/audio/speech', 'speech'],
  ['/v1/audio/transcriptions', 'transcriptions'],
  ['/v1/audio/translations', 'translations'],
  ['/v1/images/edits', 'image_edits'],
];

/** `/v1/messages` answers in Anthropic's format, its errors included. */
const messagesFormat: MiddlewareHandler<RelayEnv> = async (c, next) => {
  c.set('relayFormat', 'anthropic');
  await next();
};

/** The Messages request as the OpenAI chat request the pipeline relays (a request it cannot translate is a 400 naming why). */
const messagesBody: MiddlewareHandler<RelayEnv> = async (c, next) => {
  const body = c.var.relayBody;
  const translated = openAiRequestOf(body.json ?? {});
  if (typeof translated === 'string') return sendRelayError(c, relayError(400, translated, 'invalid_request', 'invalid_request_error'));
  c.set('relayBody', { raw: JSON.stringify(translated), json: translated, model: body.model });
  await next();
};

/** The header of @hono/node-server's "response already sent" marker. */
const alreadySentHeader = 'x-hono-already-sent';

/** one-api's CORS preflight for relay and billing routes: any origin and header, 204 cached 12 h. */
const preflight = cors({
  origin: '*',
  allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
  // No allowHeaders: the preflight's requested headers are echoed. A literal `*` (one-api) does
  // not cover `Authorization` in browsers, which would block every browser client.
  maxAge: 12 * 60 * 60,
  credentials: true,
});

/**
 * one-api's CORS for relay and billing routes. Preflights go to Hono's `cors`; other requests get
 * the same two headers set on the route's own response once it exists. (Hono's `cors` sets them
 * on `c.res` before the route runs, and the route's response is then rebuilt around it: its body
 * became a web stream, which cost about a tenth of the relay's CPU per request.)
 */
const relayCors: MiddlewareHandler = async (c, next) => {
  if (c.req.method === 'OPTIONS') return preflight(c, next);
  await next();
  // A stream written to the Node response itself carries them already (eventSink.ts).
  if (c.res.headers.has(alreadySentHeader)) return;
  for (const [name, value] of Object.entries(relayCorsHeaders)) c.res.headers.set(name, value);
};

// ---------------------------------------------------------------------------------------------
// GET /v1/models, /v1/models/:model

/** A catalogue model object (`GET /api/channel/models` shape). */
type CatalogueModel = (typeof modelCatalogue.data)[number];

/** Catalogue objects by id; for ids listed twice the later one wins, as in one-api's map. */
const catalogueById: ReadonlyMap<string, CatalogueModel> = new Map(modelCatalogue.data.map((m) => [m.id, m]));

/** The object one-api lists for a model missing from the catalogue. */
const customModel = (id: string) => ({ id, object: 'model', created: 1626777600, owned_by: 'custom', permission: null, root: id, parent: null });

/** `names` as model objects: catalogue entries in catalogue order (first occurrence), then the others in `names` order. */
export function modelObjects(names: readonly string[]): unknown[] {
  const wanted = new Set(names.filter((n) => n !== ''));
  const listed: unknown[] = [];
  for (const model of modelCatalogue.data) {
    if (!wanted.delete(model.id)) continue;
    listed.push(model);
  }
  for (const name of wanted) listed.push(customModel(name));
  return listed;
}

/** The token's model restriction, else the distinct models of enabled abilities in the owner's group. */
async function usableModels(c: Ctx): Promise<string[]> {
  const { token, group } = c.var.caller;
  if (token.models !== null && token.models !== '') return token.models.split(',');
  const rows = await c.var.deps.db
    .selectFrom('abilities')
    .select('model')
    .distinct()
    .where('group', '=', group)
    .where('enabled', '=', true)
    .orderBy('model')
    .execute();
  return rows.map((r) => r.model);
}

/** `GET /v1/models/:model`: the catalogue object, or HTTP 200 with a `model_not_found` error (one-api; clients rely on it). */
function retrieveModel(c: Ctx): Response {
  const id = c.req.param('model') ?? '';
  const model = catalogueById.get(id);
  if (model !== undefined) return c.json(model);
  return c.json({ error: { message: `The model '${id}' does not exist`, type: 'invalid_request_error', param: 'model', code: 'model_not_found' } });
}

// ---------------------------------------------------------------------------------------------
// OpenAI legacy billing

/** The options the billing endpoints read. */
const billingKeys = ['DisplayTokenStatEnabled', 'DisplayInCurrencyEnabled', 'QuotaPerUnit'] as const;

/** What one-api reports for an unlimited token. */
const unlimitedAmount = 100000000;

/** Runs a billing handler; a failure is HTTP 200 with an `{error}` object, as in one-api. */
async function billing(c: Ctx, body: (display: { tokenStat: boolean; perUnit: number | null }) => unknown): Promise<Response> {
  try {
    const options = await readOptions(c.var.deps.db, billingKeys);
    const perUnit = options.num('QuotaPerUnit');
    const display = {
      tokenStat: options.bool('DisplayTokenStatEnabled'),
      perUnit: options.bool('DisplayInCurrencyEnabled') ? (perUnit === 0 ? 1 : perUnit) : null,
    };
    return c.json(body(display));
  } catch (error) {
    console.error('[relay] billing:', error);
    return c.json({ error: { message: error instanceof Error ? error.message : String(error), type: 'upstream_error' } });
  }
}

/** `GET /dashboard/billing/subscription` (contract §4.12). */
function subscription(c: Ctx): Promise<Response> {
  const { token, user } = c.var.caller;
  return billing(c, ({ tokenStat, perUnit }) => {
    // Fix of one-api's inverted error check (contract §6 #39): with DisplayTokenStatEnabled off
    // one-api reads the user's used quota only when reading the quota failed, so it reports the
    // remaining quota alone. Here the total is remaining + used, as in the token branch.
    const quota = tokenStat ? token.remain_quota + token.used_quota : user.quota + user.used_quota;
    const amount = tokenStat && token.unlimited_quota ? unlimitedAmount : perUnit === null ? quota : quota / perUnit;
    const accessUntil = tokenStat && token.expired_time > 0 ? token.expired_time : 0;
    return {
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: amount,
      hard_limit_usd: amount,
      system_hard_limit_usd: amount,
      access_until: accessUntil,
    };
  });
}

/** `GET /dashboard/billing/usage`: used quota × 100 (cents when shown in currency). */
function usage(c: Ctx): Promise<Response> {
  const { token, user } = c.var.caller;
  return billing(c, ({ tokenStat, perUnit }) => {
    const used = tokenStat ? token.used_quota : user.used_quota;
    return { object: 'list', total_usage: (perUnit === null ? used : used / perUnit) * 100 };
  });
}

// ---------------------------------------------------------------------------------------------
// The application

/** one-api's answer for relay routes it does not implement (sent after token auth; one-api's distributor answered 503 first). */
const notImplemented = (c: Ctx): Response =>
  c.json({ error: { message: 'API not implemented', type: 'one_api_error', param: '', code: 'api_not_implemented' } }, 501);

/** The /v1 and /dashboard/billing routes. */
export function relayRoutes(): Hono<RelayEnv> {
  const app = new Hono<RelayEnv>({ strict: false });
  for (const path of ['/v1', '/v1/*', '/dashboard/billing/*']) app.use(path, relayCors);

  for (const [path, mode] of relayedRoutes) app.post(path, relayAuth(mode), relayHandler(mode));
  for (const [path, mode] of mediaRoutes) app.post(path, relayAuth(mode), mediaHandler(mode));
  // Anthropic's Messages API from any channel: errors in its format from the first step on
  app.post('/v1/messages', messagesFormat, relayAuth('chat'), messagesBody, relayHandler('chat'));

  app.get('/v1/models', relayAuth(null), async (c) => c.json({ object: 'list', data: modelObjects(await usableModels(c)) }));
  // `{.+}`: catalogue ids may contain slashes (`@cf/meta/llama-3.1-8b-instruct`).
  app.get('/v1/models/:model{.+}', relayAuth(null), retrieveModel);

  for (const prefix of ['', '/v1']) {
    app.use(`${prefix}/dashboard/billing/*`, compress());
    app.get(`${prefix}/dashboard/billing/subscription`, relayAuth(null), subscription);
    app.get(`${prefix}/dashboard/billing/usage`, relayAuth(null), usage);
  }

  // OpenAI's Responses API, passed through to OpenAI-type channels (responses.ts)
  app.post('/v1/responses', relayAuth('chat'), responsesHandler);
  // the transparent proxy to a type 43 channel (proxy.ts)
  app.all('/v1/oneapi/proxy/:channelid', relayAuth(null), proxyHandler);
  app.all('/v1/oneapi/proxy/:channelid/*', relayAuth(null), proxyHandler);

  app.all('/v1', relayAuth(null), notImplemented);
  app.all('/v1/*', relayAuth(null), notImplemented);

  app.onError((error, c) => {
    console.error(`[relay] ${c.req.method} ${c.req.path}:`, error);
    return sendRelayError(c, relayError(500, 'internal server error', undefined, 'one_api_panic'));
  });
  return app;
}
