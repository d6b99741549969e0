import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLoopbackServer } from './loopbackServer';

/**
 * A loopback fake of Baidu's Wenxin Qianfan API, speaking its documented wire format:
 * `POST /oauth/2.0/token?grant_type=client_credentials&client_id=&client_secret=` (an
 * `access_token` and `expires_in`; an unknown client is answered 401
 * `{"error":"invalid_client","error_description":…}`), then
 * `POST /rpc/2.0/ai_custom/v1/wenxinworkshop/chat/<endpoint>?access_token=` (a whole answer with
 * `result`, `is_truncated`, `finish_reason`, `usage`; with `stream: true` server-sent `data:`
 * events of `result` pieces, the last `is_end: true` with the usage) and
 * `…/embeddings/<endpoint>` (`data[].embedding`, `usage`). Errors are
 * `{"error_code","error_msg"}` with status 200, as Baidu sends them; a token the fake does not
 * know is answered error 110.
 *
 * Deterministic: the reply is `baiduReply(endpoint)`, streamed as `baiduPieces(endpoint)`, with
 * `baiduUsage`; with `functions` and a last message that is not a function result, the answer is a
 * `function_call` of the first function with `baiduToolArgs`. Every API key is a known client
 * whose secret is `secret`; faults are chosen per API key.
 */

export type BaiduBehaviour =
  | { readonly kind: 'ok' }
  /** Every call answered `{"error_code","error_msg"}` (status 200). */
  | { readonly kind: 'error'; readonly code: number; readonly message: string }
  /** The first call with the key's first token is answered error 111 (Access token expired) and that token dropped. */
  | { readonly kind: 'tokenExpires' }
  /** Streams `chunks` events, then destroys the connection. */
  | { readonly kind: 'dropMidStream'; readonly chunks: number }
  /** A non-JSON `data:` event between the pieces. */
  | { readonly kind: 'malformedEvent' };

export interface BaiduRequest {
  /** The path without the query. */
  readonly path: string;
  readonly accessToken: string;
  readonly json: Record<string, unknown>;
}

export interface BaiduUpstream {
  readonly url: string;
  /** The API calls (chat and embeddings), token fetches not included. */
  readonly requests: readonly BaiduRequest[];
  /** The API keys of the token fetches, in order. */
  readonly tokenFetches: readonly string[];
  behave(apiKey: string, behaviour: BaiduBehaviour): void;
  reset(): void;
  close(): Promise<void>;
}

export const baiduSecret = 'secret';
export const baiduUsage = { prompt_tokens: 17, completion_tokens: 9, total_tokens: 26 } as const;
export const baiduReply = (endpoint: string): string => `ERNIE ${endpoint} answers deterministically.`;
export const baiduPieces = (endpoint: string): string[] => baiduReply(endpoint).split(/(?= )/);
export const baiduToolArgs = { city: 'Beijing' } as const;
export const baiduVector = [0.125, -0.5, 0.75];
export const baiduEmbeddingTokens = 6;
/** How long the fake takes to issue a token (so that concurrent requests overlap its fetch). */
const tokenDelayMs = 50;

const apiRoute = /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/(chat|embeddings)\/([^/?]+)$/;

export async function startBaiduUpstream(): Promise<BaiduUpstream> {
  const behaviours = new Map<string, BaiduBehaviour>();
  const requests: BaiduRequest[] = [];
  const tokenFetches: string[] = [];
  /** Valid tokens -> the API key they were issued to. */
  const issued = new Map<string, string>();
  /** API keys whose first token has expired. */
  const expired = new Set<string>();
  let serial = 0;

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const url = new URL(req.url ?? '/', 'http://fake');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const fail = (code: number, message: string) => json(200, { error_code: code, error_msg: message });

    if (url.pathname === '/oauth/2.0/token') {
      const apiKey = url.searchParams.get('client_id') ?? '';
      tokenFetches.push(apiKey);
      await new Promise((resolve) => setTimeout(resolve, tokenDelayMs));
      if (req.method !== 'POST' || url.searchParams.get('grant_type') !== 'client_credentials') return json(400, { error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported' });
      if (apiKey === '' || apiKey.startsWith('unknown')) return json(401, { error: 'invalid_client', error_description: 'unknown client id' });
      if (url.searchParams.get('client_secret') !== baiduSecret) return json(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      serial += 1;
      const token = `24.${serial}.${apiKey}`;
      issued.set(token, apiKey);
      return json(200, { refresh_token: `25.${serial}`, expires_in: 2592000, session_key: 'sk', access_token: token, scope: 'public', session_secret: 'ss' });
    }

    const matched = apiRoute.exec(url.pathname);
    if (req.method !== 'POST' || matched === null) return fail(3, 'Unsupported openapi method');
    const accessToken = url.searchParams.get('access_token') ?? '';
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return fail(336002, 'Invalid JSON');
    }
    requests.push({ path: url.pathname, accessToken, json: body });
    const apiKey = issued.get(accessToken);
    if (apiKey === undefined) return fail(110, 'Access token invalid or no longer valid');
    const behaviour = behaviours.get(apiKey) ?? { kind: 'ok' };
    if (behaviour.kind === 'error') return fail(behaviour.code, behaviour.message);
    if (behaviour.kind === 'tokenExpires' && !expired.has(apiKey)) {
      expired.add(apiKey);
      issued.delete(accessToken);
      return fail(111, 'Access token expired');
    }
    const [, kind = '', endpoint = ''] = matched;
    const id = `as-${requests.length}`;
    const created = 1_700_000_000;

    if (kind === 'embeddings') {
      const input = Array.isArray(body.input) ? body.input : [];
      return json(200, {
        id,
        object: 'embedding_list',
        created,
        data: input.map((_, index) => ({ object: 'embedding', embedding: baiduVector, index })),
        usage: { prompt_tokens: baiduEmbeddingTokens, total_tokens: baiduEmbeddingTokens },
      });
    }

    const functions = Array.isArray(body.functions) ? (body.functions as { name?: string }[]) : [];
    const messages = Array.isArray(body.messages) ? (body.messages as { role?: string }[]) : [];
    const fn = functions[0]?.name;
    const callsFunction = fn !== undefined && messages.at(-1)?.role !== 'function';
    const functionCall = callsFunction ? { function_call: { name: fn, arguments: JSON.stringify(baiduToolArgs), thoughts: 'look it up' } } : {};
    const base = { id, object: 'chat.completion', created, need_clear_history: false };

    if (body.stream !== true) {
      return json(200, { ...base, result: callsFunction ? '' : baiduReply(endpoint), is_truncated: false, finish_reason: callsFunction ? 'function_call' : 'normal', ...functionCall, usage: baiduUsage });
    }

    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const pieces = callsFunction ? [] : baiduPieces(endpoint);
    for (const [i, result] of pieces.entries()) {
      if (behaviour.kind === 'dropMidStream') {
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (i === behaviour.chunks) {
          res.destroy();
          return;
        }
      }
      if (behaviour.kind === 'malformedEvent' && i === 1) res.write('data: {"result": \n\n');
      const usage = { prompt_tokens: baiduUsage.prompt_tokens, completion_tokens: i + 1, total_tokens: baiduUsage.prompt_tokens + i + 1 };
      res.write(`data: ${JSON.stringify({ ...base, sentence_id: i, is_end: false, is_truncated: false, result, usage })}\n\n`);
    }
    res.end(
      `data: ${JSON.stringify({ ...base, sentence_id: pieces.length, is_end: true, is_truncated: false, result: '', finish_reason: callsFunction ? 'function_call' : 'normal', ...functionCall, usage: baiduUsage })}\n\n`,
    );
  };

  const server = await startLoopbackServer(answer);
  return {
    url: server.url,
    requests,
    tokenFetches,
    behave: (apiKey, behaviour) => behaviours.set(apiKey, behaviour),
    reset: () => {
      behaviours.clear();
      requests.length = 0;
      tokenFetches.length = 0;
    },
    close: () => server.close(),
  };
}
