import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import * as E from 'fp-ts/Either';
import type { Context } from 'hono';
import { request, type Dispatcher } from 'undici';
import { FreeListDispatcher } from './upstreamClient';
import { roleAdmin } from '../../src/domain/constants';
import { requestIdHeader } from '../http/env';
import { readLimited } from '../http/bodyGuard';
import { goAtoi } from '../services/channel';
import { maxRelayBodyBytes, modelAllowed, relayAuthMessages, sendRelayError } from './auth';
import { afterAnswer, refund, reserve, settle } from './billing';
import type { RelayEnv } from './pipeline';
import { goFixed2, pricingOf, type Pricing } from './pricing';
import { relaySettings } from './relaySettings';
import type { Reservation } from './reservations';
import { pinnedChannel } from './select';
import { relayCorsHeaders, relayError, type RelayCaller, type RelayChannel, type RelayError } from './types';

/**
 * The transparent proxy `/v1/oneapi/proxy/:channelid/*target` (contract §4.1, §4.5 "Proxy") to a
 * channel of type 43: the request's method, headers and body go to `<base_url><target>` with
 * `Authorization: <channel key>` (verbatim), and the answer comes back unchanged, streamed with
 * backpressure (the upstream is read only as fast as the client takes it; a client that leaves
 * stops the upstream).
 *
 * Fix of contract §6 #23 (one-api let any token holder pin any channel here, unbilled and unlogged):
 * - only channels of type 43 are proxied (400 otherwise), and the channel must be enabled (403);
 * - the channel must serve the caller's group (its `group` list: type 43 channels list no models,
 *   so they have no abilities), unless the caller is an admin (as `sk-<key>-<id>` pinning lets
 *   admins skip the group check);
 * - a proxy call counts as the model `oneapi-proxy` for the token's model restriction and for the
 *   price: each call costs `ceil(ModelRatio[oneapi-proxy] × GroupRatio × 1000)` (the price of 1000
 *   tokens of that pseudo-model; `oneapi-proxy(43)` or `oneapi-proxy` in ModelRatio), reserved
 *   before forwarding and settled once the upstream answered below 500, with one consume log
 *   (`proxy <METHOD> <path>`, no query: it may carry secrets); an upstream that does not answer,
 *   times out or answers 5xx is refunded and not logged.
 * The target cannot leave the channel's base URL: it is appended to it as text (never resolved as
 * a URL reference), the resulting URL must keep the base's origin and path prefix, and no segment
 * after the prefix may be `..` once percent-decoded (`..%2f`, `%2e%2e%5c`: an upstream behind a
 * decoding proxy would resolve them).
 */

type Ctx = Context<RelayEnv>;

/** The model a proxy call is restricted and priced as. */
export const proxyModel = 'oneapi-proxy';

/** Channel type Proxy (contract §3.6). */
export const proxyChannelType = 43;

/** The request path prefix before the channel id. */
const proxyPrefix = /^\/v1\/oneapi\/proxy\/[^/]*/;

/** Request headers not forwarded (hop-by-hop, recomputed, or the caller's own gateway credentials: its token and the console's session cookie). */
const droppedRequestHeaders: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'accept-encoding',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'proxy-authorization',
  'proxy-connection',
  'authorization',
  'cookie',
]);

/** Answer headers not passed back (hop-by-hop). */
const droppedAnswerHeaders: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'upgrade', 'proxy-connection']);

/**
 * The connections per upstream origin, on a free list without a cap (each serves a request in
 * flight; a cap made proxied streams wait behind others, and undici's pool scanned every busy
 * connection for each new request: see upstreamClient.ts); undici's own timeouts are set per
 * request from RELAY_TIMEOUT.
 */
const dispatcher = new FreeListDispatcher({ pipelining: 1, keepAliveTimeout: 30_000 });

export const proxyMessages = {
  notProxy: (id: number, type: number) => `channel #${id} is of type ${type}, not a Proxy channel (type ${proxyChannelType}): only Proxy channels can be proxied`,
  otherGroup: (id: number, group: string) => `channel #${id} does not serve group ${group}`,
  escapes: 'the proxied path leaves the channel base URL',
  badBase: (id: number) => `channel #${id} has no valid base URL`,
} as const;

/** The upstream URL of `target` (path and query after the channel id) on `base`, or null when it would leave the base. */
export function proxiedUrl(base: string, target: string): URL | null {
  const trimmed = base.replace(/\/+$/, '');
  let baseUrl: URL;
  let url: URL;
  try {
    baseUrl = new URL(trimmed);
    url = new URL(`${trimmed}${target.startsWith('/') || target.startsWith('?') || target === '' ? target : `/${target}`}`);
  } catch {
    return null;
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') return null;
  if (url.origin !== baseUrl.origin || url.username !== baseUrl.username || url.password !== baseUrl.password) return null;
  const prefix = baseUrl.pathname.replace(/\/+$/, '');
  if (prefix !== '' && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return null;
  // `..%2f` and `..%5c` survive URL parsing as one segment, but an upstream (or a proxy before it)
  // that decodes them before resolving dot segments would leave the base: refused too.
  if (decodedSegments(url.pathname.slice(prefix.length)).includes('..')) return null;
  return url;
}

/** The segments of a path once percent-decoded, split on slashes and backslashes. */
function decodedSegments(path: string): string[] {
  let decoded = path;
  // twice: `%252e` decoded once by a proxy and once by the upstream
  for (let i = 0; i < 2; i += 1) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      decoded = decoded.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
    }
  }
  return decoded.split(/[/\\]/);
}

/** The channel of the path, if the caller may proxy to it. */
async function proxyChannel(c: Ctx, caller: RelayCaller): Promise<E.Either<RelayError, RelayChannel>> {
  const id = goAtoi(c.req.param('channelid') ?? '');
  if (E.isLeft(id)) return E.left(relayError(400, relayAuthMessages.invalidChannelId));
  const found = await pinnedChannel(c.var.deps.db, id.right);
  if (E.isLeft(found)) return found;
  const channel = found.right;
  if (channel.type !== proxyChannelType) return E.left(relayError(400, proxyMessages.notProxy(channel.id, channel.type), 'not_a_proxy_channel'));
  if (caller.user.role < roleAdmin) {
    const row = await c.var.deps.db.selectFrom('channels').select('group').where('id', '=', channel.id).executeTakeFirst();
    const groups = (row?.group ?? '').split(',').map((g) => g.trim());
    if (!groups.includes(caller.group)) return E.left(relayError(403, proxyMessages.otherGroup(channel.id, caller.group), 'channel_not_in_group'));
  }
  return E.right(channel);
}

/** The headers sent upstream: the caller's, less the dropped ones, with the channel's key. */
function forwardedHeaders(headers: Headers, channelKey: string): Record<string, string> {
  const out: Record<string, string> = {};
  // Anthropic-style clients send the gateway token as x-api-key (read when there is no Authorization).
  const apiKeyIsCredential = !headers.has('authorization');
  headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (droppedRequestHeaders.has(lower) || (apiKeyIsCredential && lower === 'x-api-key')) return;
    out[lower] = value;
  });
  out.authorization = channelKey;
  return out;
}

/** The answer headers passed back, plus the relay's CORS and request id. */
function answerHeaders(headers: IncomingHttpHeaders, requestId: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || droppedAnswerHeaders.has(name)) continue;
    out[name] = value;
  }
  return { ...out, ...relayCorsHeaders, [requestIdHeader]: requestId };
}

/** The price of one proxy call (see the module comment). */
export const proxyQuota = (pricing: Pricing): number => Math.max(0, Math.ceil(pricing.modelRatio * pricing.groupRatio * 1000));

/** The consume log content of a proxy call. */
const proxyLogContent = (method: string, path: string, pricing: Pricing): string =>
  `proxy ${method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}；倍率：${goFixed2(pricing.modelRatio)} × ${goFixed2(pricing.groupRatio)}`;

/** The Node response of a request served by @hono/node-server, when nothing was sent on it yet. */
function nodeResponseOf(c: Ctx): ServerResponse | null {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (typeof outgoing !== 'object' || outgoing === null || !('writeHead' in outgoing)) return null;
  const response = outgoing as ServerResponse;
  return response.headersSent ? null : response;
}

/** The handler of `/v1/oneapi/proxy/:channelid/*` (after `relayAuth(null)`). */
export async function proxyHandler(c: Ctx): Promise<Response> {
  const started = performance.now();
  const deps = c.var.deps;
  const caller = c.var.caller;
  const requestId = c.var.requestId;
  if (!modelAllowed(caller.token.models, proxyModel)) return sendRelayError(c, relayError(403, relayAuthMessages.modelNotAllowed(proxyModel)));
  const found = await proxyChannel(c, caller);
  if (E.isLeft(found)) return sendRelayError(c, found.left);
  const channel = found.right;

  const requestUrl = new URL(c.req.url);
  const path = requestUrl.pathname.replace(proxyPrefix, '');
  const url = proxiedUrl(channel.base_url ?? '', `${path}${requestUrl.search}`);
  if (url === null) {
    const valid = proxiedUrl(channel.base_url ?? '', '') !== null;
    return sendRelayError(c, valid ? relayError(400, proxyMessages.escapes, 'invalid_proxy_path') : relayError(500, proxyMessages.badBase(channel.id), 'invalid_base_url'));
  }

  const method = c.req.method.toUpperCase();
  let body: Buffer | null = null;
  if (method !== 'GET' && method !== 'HEAD' && c.req.raw.body !== null) {
    const declared = Number(c.req.header('Content-Length') ?? Number.NaN);
    body = declared > maxRelayBodyBytes ? null : await readLimited(c.req.raw.body, maxRelayBodyBytes);
    if (body === null) {
      c.header('Connection', 'close');
      return sendRelayError(c, relayError(413, relayAuthMessages.bodyTooLarge));
    }
  }

  const settings = await relaySettings(deps.db);
  const pricing = pricingOf(settings, proxyModel, channel.type, caller.group);
  const reserved = await reserve(deps, caller, proxyQuota(pricing), settings);
  if (E.isLeft(reserved)) return sendRelayError(c, reserved.left);
  const reservation: Reservation = reserved.right;

  // The client leaving before the answer stops the upstream call.
  const abort = new AbortController();
  const onGone = (): void => abort.abort(new Error('the client closed the connection'));
  c.req.raw.signal.addEventListener('abort', onGone, { once: true });
  const timeoutMs = deps.config.relayTimeoutMs;
  let answer: Dispatcher.ResponseData;
  try {
    answer = await request(url, {
      method,
      headers: forwardedHeaders(c.req.raw.headers, channel.key ?? ''),
      body,
      signal: abort.signal,
      dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  } catch (error) {
    c.req.raw.signal.removeEventListener('abort', onGone);
    await refund(deps, reservation);
    const message = error instanceof Error ? error.message : String(error);
    const timedOut = (error as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT';
    return sendRelayError(c, timedOut ? relayError(504, `upstream did not answer within ${timeoutMs / 1000} s`, 'upstream_timeout') : relayError(502, `proxy request failed: ${message}`, 'do_request_failed'));
  }
  c.req.raw.signal.removeEventListener('abort', onGone);

  if (answer.statusCode >= 500) await refund(deps, reservation);
  else {
    const charge = {
      quota: proxyQuota(pricing),
      usage: { promptTokens: 0, completionTokens: 0 },
      content: proxyLogContent(method, path === '' ? '/' : path, pricing),
      modelName: proxyModel,
      channelId: channel.id,
      tokenName: caller.token.name ?? '',
      isStream: (answer.headers['content-type'] ?? '').includes('text/event-stream'),
      elapsedMs: Math.round(performance.now() - started),
      systemPromptReset: false,
      requestId,
    };
    afterAnswer(
      deps.db,
      settle(deps, reservation, charge).then(
        () => undefined,
        async (error: unknown) => {
          console.error(`[relay] billing of proxy request ${requestId} failed:`, error);
          await refund(deps, reservation).catch(() => undefined);
        },
      ),
    );
  }

  const headers = answerHeaders(answer.headers, requestId);
  const outgoing = nodeResponseOf(c);
  if (outgoing === null) {
    const flat = new Headers();
    for (const [name, value] of Object.entries(headers)) for (const v of Array.isArray(value) ? value : [value]) flat.append(name, v);
    const stream = method === 'HEAD' ? null : (Readable.toWeb(answer.body) as ReadableStream<Uint8Array>);
    return new Response(stream, { status: answer.statusCode, headers: flat });
  }
  outgoing.writeHead(answer.statusCode, headers);
  // pipeline: waits for the client to drain (backpressure); a client gone destroys the upstream body.
  pipeline(answer.body, outgoing, (error) => {
    if (error !== undefined && error !== null && !outgoing.destroyed) outgoing.destroy();
  });
  return RESPONSE_ALREADY_SENT;
}
