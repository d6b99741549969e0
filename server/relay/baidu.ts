import type { EventSourceMessage } from 'eventsource-parser';
import type { RelayMode } from './types';
import { contentText, isObject, parsedJson, nowSeconds, str, tokens, toolArguments, usageEvents, type Json, type NativeWire, EventTranslator } from './wire';

/**
 * Baidu's Wenxin Qianfan API (channel type 15) as a native wire, from Baidu's public Qianfan
 * (WENXINWORKSHOP) API reference:
 * - the channel's key is `APIKey|SecretKey`; an access token comes from
 *   `POST <base>/oauth/2.0/token?grant_type=client_credentials&client_id=<APIKey>&client_secret=<SecretKey>`
 *   (`access_token`, `expires_in` in seconds, 30 days) and goes into every call's query
 *   (`?access_token=`). Tokens are cached per base URL and key until shortly before they expire;
 *   concurrent requests share one fetch, a failed fetch is not kept;
 * - chat: `POST <base>/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/<endpoint>`, the endpoint named
 *   by the model (ERNIE-4.0-8K `completions_pro`, ERNIE-3.5-8K `completions`, ERNIE-Speed-8K
 *   `ernie_speed`…; other names are sent as the endpoint). The body: `messages` (user and
 *   assistant turns, `function` results), `system`, `temperature` ((0, 1]), `top_p`,
 *   `penalty_score`, `stop`, `max_output_tokens`, `stream`, `functions` and `tool_choice`,
 *   `response_format`, `user_id`;
 * - answers: `result`, `is_truncated`, `finish_reason` (normal, stop, length, content_filter,
 *   function_call), `function_call`, `usage`; a stream is server-sent `data:` events whose
 *   `result` pieces follow each other, the last with `is_end: true` and the final usage;
 * - embeddings: `…/wenxinworkshop/embeddings/<endpoint>` (Embedding-V1 `embedding-v1`,
 *   bge-large-zh `bge_large_zh`, bge-large-en `bge_large_en`, tao-8k `tao_8k`) with `input`, an
 *   array of strings; the answer's `data[].embedding` and `usage`;
 * - errors: `{"error_code", "error_msg"}`, with HTTP status 200: the relay gives them the status
 *   of their kind (Baidu's error code table): authentication 401, request and token limits 429,
 *   the caller's input 400, a missing API 404, Baidu's own failures 500. A refused access token
 *   (110, 111) is forgotten, so the next request fetches a new one.
 */

/** Chat endpoints by model name (Baidu's model list); other names are the endpoint themselves. */
const chatEndpoints: ReadonlyMap<string, string> = new Map([
  ['ERNIE-4.0-Turbo-8K', 'ernie-4.0-turbo-8k'],
  ['ERNIE-4.0-8K-Preview', 'ernie-4.0-8k-preview'],
  ['ERNIE-4.0-8K-Preview-0518', 'completions_adv_pro'],
  ['ERNIE-4.0-8K-0329', 'ernie-4.0-8k-0329'],
  ['ERNIE-4.0-8K-0104', 'ernie-4.0-8k-0104'],
  ['ERNIE-4.0-8K', 'completions_pro'],
  ['ERNIE-Bot-4', 'completions_pro'],
  ['ERNIE-3.5-8K-Preview', 'ernie-3.5-8k-preview'],
  ['ERNIE-3.5-8K-0329', 'ernie-3.5-8k-0329'],
  ['ERNIE-3.5-8K-0205', 'ernie-3.5-8k-0205'],
  ['ERNIE-3.5-8K-1222', 'ernie-3.5-8k-1222'],
  ['ERNIE-3.5-4K-0205', 'ernie-3.5-4k-0205'],
  ['ERNIE-3.5-128K', 'ernie-3.5-128k'],
  ['ERNIE-3.5-8K', 'completions'],
  ['ERNIE-Bot', 'completions'],
  ['ERNIE-Bot-turbo', 'eb-instant'],
  ['ERNIE-Speed-8K', 'ernie_speed'],
  ['ERNIE-Speed', 'ernie_speed'],
  ['ERNIE-Speed-128K', 'ernie-speed-128k'],
  ['ERNIE-Lite-8K', 'ernie-lite-8k'],
  ['ERNIE-Lite-8K-0308', 'ernie-lite-8k'],
  ['ERNIE-Lite-8K-0922', 'eb-instant'],
  ['ERNIE-Tiny-8K', 'ernie-tiny-8k'],
  ['ERNIE-Character-8K', 'ernie-char-8k'],
  ['ERNIE-Functions-8K', 'ernie-func-8k'],
]);

/** Embedding endpoints by model name. */
const embeddingEndpoints: ReadonlyMap<string, string> = new Map([
  ['embedding-v1', 'embedding-v1'],
  ['bge-large-zh', 'bge_large_zh'],
  ['bge-large-en', 'bge_large_en'],
  ['tao-8k', 'tao_8k'],
]);

/** The endpoint (last path segment) of `model` in a mode, looked up as named, then case-insensitively. */
function endpointOf(table: ReadonlyMap<string, string>, model: string): string {
  const exact = table.get(model);
  if (exact !== undefined) return exact;
  const lower = model.toLowerCase();
  for (const [name, endpoint] of table) if (name.toLowerCase() === lower) return endpoint;
  return model;
}

/** The URL (without the access token) of a request of `mode` for `model`, or null for a mode Baidu does not serve. */
export function baiduUrl(base: string, mode: RelayMode, model: string): string | null {
  const prefix = `${base}/rpc/2.0/ai_custom/v1/wenxinworkshop`;
  if (mode === 'chat') return `${prefix}/chat/${encodeURIComponent(endpointOf(chatEndpoints, model))}`;
  if (mode === 'embeddings') return `${prefix}/embeddings/${encodeURIComponent(endpointOf(embeddingEndpoints, model))}`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// The access token

/** A channel's API key and secret key. */
export interface BaiduCredential {
  readonly apiKey: string;
  readonly secretKey: string;
}

/** The credential in a channel key `APIKey|SecretKey`, or null. */
export function baiduCredentialOf(key: string | null): BaiduCredential | null {
  const parts = (key ?? '').split('|').map((p) => p.trim());
  if (parts.length !== 2) return null;
  const [apiKey = '', secretKey = ''] = parts;
  return apiKey === '' || secretKey === '' ? null : { apiKey, secretKey };
}

/** The message of a request refused for a channel whose key is not `APIKey|SecretKey`. */
export const baiduCredentialMessage = 'Baidu channel key must be APIKey|SecretKey (the API Key and Secret Key of a Qianfan application)';

/** How long a token fetch may take. */
const tokenTimeoutMs = 15_000;
/** A token is fetched again this long before it expires (a tenth of its life at most). */
const tokenMarginSeconds = 3600;

interface CachedToken {
  readonly token: string;
  /** Until when (ms since the epoch) the token is used. */
  readonly until: number;
}

/** Tokens by base URL and key; fetches in flight, by the same. */
const cachedTokens: Map<string, CachedToken> = new Map();
const fetching: Map<string, Promise<string>> = new Map();

/** Forgets every cached access token (Baidu refused one: each channel fetches a new one once). */
export function forgetBaiduTokens(): void {
  cachedTokens.clear();
}

/** Fetches an access token; rejects with a message naming what Baidu said. */
async function fetchToken(base: string, credential: BaiduCredential): Promise<CachedToken> {
  const query = new URLSearchParams({ grant_type: 'client_credentials', client_id: credential.apiKey, client_secret: credential.secretKey });
  let status: number;
  let text: string;
  try {
    const response = await fetch(`${base}/oauth/2.0/token?${query.toString()}`, { method: 'POST', signal: AbortSignal.timeout(tokenTimeoutMs) });
    status = response.status;
    text = await response.text();
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new Error(`Baidu access token request failed: ${error instanceof Error ? error.message : String(error)}${cause}`, { cause: error });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  if (isObject(body) && str(body.access_token) !== '' && status === 200) {
    const life = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 0;
    return { token: str(body.access_token), until: Date.now() + (life - Math.min(tokenMarginSeconds, life / 10)) * 1000 };
  }
  const reason = isObject(body) ? [str(body.error), str(body.error_description)].filter((s) => s !== '').join(': ') : '';
  throw new Error(`Baidu access token refused (HTTP ${status}${reason === '' ? '' : `, ${reason}`}): check the channel's API Key and Secret Key`);
}

/** The access token of `credential` on `base`: cached, else fetched (one fetch for concurrent callers). */
export function baiduAccessToken(base: string, credential: BaiduCredential): Promise<string> {
  const id = `${base}\n${credential.apiKey}\n${credential.secretKey}`;
  const cached = cachedTokens.get(id);
  if (cached !== undefined && cached.until > Date.now()) return Promise.resolve(cached.token);
  const pending = fetching.get(id);
  if (pending !== undefined) return pending;
  const fetched = fetchToken(base, credential)
    .then((token) => {
      cachedTokens.set(id, token);
      return token.token;
    })
    .finally(() => fetching.delete(id));
  fetching.set(id, fetched);
  return fetched;
}

/** The URL with the channel's access token in its query; rejects naming a malformed key or a refused token. */
export async function baiduAuthorizedUrl(base: string, key: string | null, url: string): Promise<string> {
  const credential = baiduCredentialOf(key);
  if (credential === null) throw new Error(baiduCredentialMessage);
  const token = await baiduAccessToken(base, credential);
  return `${url}${url.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`;
}

// ---------------------------------------------------------------------------------------------
// Requests

/** Baidu's chat body for an OpenAI chat request, or a message naming what cannot be sent. */
export function baiduChatRequest(json: Readonly<Json>): Json | string {
  const messages = Array.isArray(json.messages) ? (json.messages as unknown[]) : [];
  const system: string[] = [];
  const out: Json[] = [];
  const callNames = new Map<string, string>();
  for (const message of messages) {
    if (!isObject(message)) return 'messages: every message must be an object';
    const role = str(message.role);
    if (Array.isArray(message.content) && message.content.some((p) => isObject(p) && p.type !== 'text')) {
      return 'messages: Baidu ERNIE channels take text content only';
    }
    const text = contentText(message.content);
    if (role === 'system' || role === 'developer') {
      if (text !== '') system.push(text);
    } else if (role === 'user' || role === 'assistant') {
      const calls = role === 'assistant' && Array.isArray(message.tool_calls) ? message.tool_calls.filter(isObject) : [];
      const legacy = role === 'assistant' && isObject(message.function_call) ? message.function_call : null;
      const fn = calls.length > 0 && isObject(calls[0]?.function) ? calls[0].function : legacy;
      if (fn !== null && fn !== undefined) {
        callNames.set(str(calls[0]?.id), str(fn.name));
        out.push({ role, content: text, function_call: { name: str(fn.name), arguments: JSON.stringify(toolArguments(fn.arguments)) } });
        continue;
      }
      const last = out.at(-1);
      // Baidu wants user and assistant turns to alternate: consecutive texts of one role are joined
      if (last !== undefined && last.role === role && last.function_call === undefined) last.content = `${str(last.content)}\n${text}`;
      else out.push({ role, content: text });
    } else if (role === 'tool' || role === 'function') {
      const name = callNames.get(str(message.tool_call_id)) ?? str(message.name);
      if (name === '') return 'messages: a tool message must answer a tool call of an earlier assistant message';
      out.push({ role: 'function', name, content: text });
    } else {
      return `messages: the role ${JSON.stringify(role)} is not supported`;
    }
  }
  if (out.length === 0) return 'messages: at least one user message is required';
  const body: Json = { messages: out };
  if (system.length > 0) body.system = system.join('\n');
  // Baidu's temperature is in (0, 1]
  if (typeof json.temperature === 'number') body.temperature = Math.min(1, Math.max(0.01, json.temperature));
  if (typeof json.top_p === 'number') body.top_p = json.top_p;
  if (typeof json.penalty_score === 'number') body.penalty_score = json.penalty_score;
  if (typeof json.disable_search === 'boolean') body.disable_search = json.disable_search;
  if (typeof json.enable_citation === 'boolean') body.enable_citation = json.enable_citation;
  const max = json.max_completion_tokens ?? json.max_tokens;
  if (typeof max === 'number' && Number.isInteger(max) && max > 0) body.max_output_tokens = Math.max(2, max);
  const stop = typeof json.stop === 'string' ? [json.stop] : Array.isArray(json.stop) ? json.stop.filter((s) => typeof s === 'string' && s !== '') : [];
  if (stop.length > 0) body.stop = stop;
  if (json.stream === true) body.stream = true;
  if (str(json.user) !== '') body.user_id = str(json.user);
  if (isObject(json.response_format) && json.response_format.type === 'json_object') body.response_format = 'json_object';
  const tools = Array.isArray(json.tools) ? json.tools.filter(isObject).map((t) => (isObject(t.function) ? t.function : {})) : [];
  const functions = tools.length > 0 ? tools : Array.isArray(json.functions) ? json.functions.filter(isObject) : [];
  if (functions.length > 0) {
    body.functions = functions.map((fn) => {
      const declaration: Json = { name: str(fn.name), description: str(fn.description) };
      declaration.parameters = isObject(fn.parameters) ? fn.parameters : { type: 'object', properties: {} };
      return declaration;
    });
    const choice = json.tool_choice;
    if (isObject(choice) && isObject(choice.function) && str(choice.function.name) !== '') body.tool_choice = { type: 'function', function: { name: str(choice.function.name) } };
  }
  return body;
}

/** Baidu's embeddings body for an OpenAI embeddings request, or a message naming what cannot be sent. */
export function baiduEmbeddingRequest(json: Readonly<Json>): Json | string {
  const input = json.input;
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((i) => typeof i === 'string') ? input : null;
  if (texts === null || texts.length === 0) return 'input: Baidu channels embed a string or an array of strings';
  const body: Json = { input: texts };
  if (str(json.user) !== '') body.user_id = str(json.user);
  return body;
}

// ---------------------------------------------------------------------------------------------
// Answers

/** The HTTP status and OpenAI error type of a Baidu error code (Baidu's error code table). */
function errorKind(code: number): { readonly status: number; readonly type: string } {
  if ([6, 13, 14].includes(code)) return { status: 401, type: 'authentication_error' };
  // a refused access token: the channel's key may well be fine, it is fetched again next time
  if ([100, 110, 111].includes(code)) return { status: 500, type: 'access_token_error' };
  if ([4, 17, 18, 19].includes(code) || (code >= 336500 && code < 336600)) return { status: 429, type: 'rate_limit_error' };
  if (code === 3) return { status: 404, type: 'not_found_error' };
  if (code === 336000 || code === 336100) return { status: 500, type: 'upstream_error' };
  if (code >= 336000 && code < 337000) return { status: 400, type: 'invalid_request_error' };
  return { status: 500, type: 'upstream_error' };
}

/** The Baidu error of an answer body (`error_code`, `error_msg`), or null; a refused access token is forgotten. */
function baiduErrorOf(body: unknown): { readonly status: number; readonly error: Json } | null {
  if (!isObject(body) || typeof body.error_code !== 'number' || body.error_code === 0) return null;
  const code = body.error_code;
  if ([100, 110, 111].includes(code)) forgetBaiduTokens();
  const { status, type } = errorKind(code);
  const message = str(body.error_msg) === '' ? `Baidu error ${code}` : str(body.error_msg);
  return { status, error: { error: { message, type, param: '', code } } };
}


/** OpenAI's finish reason for Baidu's. */
function finishReasonOf(body: Json, hasCall: boolean): string {
  if (hasCall || body.finish_reason === 'function_call') return 'tool_calls';
  if (body.finish_reason === 'length' || body.is_truncated === true) return 'length';
  if (body.finish_reason === 'content_filter' || body.need_clear_history === true) return 'content_filter';
  return 'stop';
}

const usageOfBaidu = (body: Json): { prompt: number; completion: number } => {
  const usage = isObject(body.usage) ? body.usage : {};
  return { prompt: tokens(usage.prompt_tokens), completion: tokens(usage.completion_tokens) };
};

/** The OpenAI tool call of Baidu's `function_call`, or null. */
function toolCallOf(body: Json, id: string): Json | null {
  if (!isObject(body.function_call) || str(body.function_call.name) === '') return null;
  const args = body.function_call.arguments;
  return { id: `call_${id}`, type: 'function', function: { name: str(body.function_call.name), arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) } };
}

/** OpenAI's `chat.completion` for a Baidu chat answer. */
export function baiduCompletionOf(body: Json, model: string): Json {
  const id = str(body.id) === '' ? `chatcmpl-baidu-${Date.now()}` : str(body.id);
  const call = toolCallOf(body, id);
  const message: Json = { role: 'assistant', content: call !== null && str(body.result) === '' ? null : str(body.result) };
  if (call !== null) message.tool_calls = [call];
  const { prompt, completion } = usageOfBaidu(body);
  return {
    id,
    object: 'chat.completion',
    created: typeof body.created === 'number' ? body.created : nowSeconds(),
    model,
    choices: [{ index: 0, message, finish_reason: finishReasonOf(body, call !== null) }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/** The OpenAI JSON text of a Baidu answer (chat or embeddings) or error. */
function answerText(status: number, text: string, model: string): string {
  const body = parsedJson(text);
  const error = baiduErrorOf(body);
  if (error !== null) return JSON.stringify(error.error);
  if (status !== 200 || !isObject(body)) return text;
  if (Array.isArray(body.data)) {
    const data = body.data.filter(isObject).map((e, i) => ({ object: 'embedding', index: typeof e.index === 'number' ? e.index : i, embedding: Array.isArray(e.embedding) ? e.embedding : [] }));
    const { prompt } = usageOfBaidu(body);
    return JSON.stringify({ object: 'list', data, model, usage: { prompt_tokens: prompt, total_tokens: prompt } });
  }
  return JSON.stringify(baiduCompletionOf(body, model));
}

/** The status an answer stands for: a 200 holding an error gets its error's. */
const answerStatus = (status: number, text: string): number => (status === 200 ? (baiduErrorOf(parsedJson(text))?.status ?? 200) : status);

/** Translates Baidu's chat stream (`data:` events with `result` pieces, the last `is_end`). */
class BaiduStream extends EventTranslator {
  private ended = false;
  private calls = 0;

  constructor(model: string) {
    super(model, `chatcmpl-baidu-${Date.now()}`);
  }

  /** A stream without its `is_end` event is left to the pipeline (an interrupted stream). */
  end(): string {
    return this.flush();
  }

  protected onEvent(event: EventSourceMessage): void {
    if (this.ended) return;
    const body = parsedJson(event.data);
    const error = baiduErrorOf(body);
    if (error !== null) {
      this.out.push(`data: ${JSON.stringify(error.error)}\n\n`);
      return;
    }
    if (!isObject(body)) {
      this.out.push(`data: ${event.data.replace(/\n/g, ' ')}\n\n`);
      return;
    }
    if (!this.started && str(body.id) !== '') this.id = str(body.id);
    if (str(body.result) !== '') this.push({ content: str(body.result) });
    const call = toolCallOf(body, this.id);
    if (call !== null) {
      this.push({ tool_calls: [{ index: this.calls, ...call }] });
      this.calls += 1;
    }
    if (body.is_end === true) {
      this.ended = true;
      this.push({}, finishReasonOf(body, this.calls > 0));
      const { prompt, completion } = usageOfBaidu(body);
      this.out.push(usageEvents(this.id, this.created, this.model, prompt, completion));
    }
  }
}

/** Baidu Qianfan as the relay's native wire of channel type 15. */
export const baiduWire: NativeWire = {
  modes: new Set<RelayMode>(['chat', 'embeddings']),
  requestBody: (mode, json) => {
    const body = mode === 'embeddings' ? baiduEmbeddingRequest(json) : baiduChatRequest(json);
    return typeof body === 'string' ? { invalid: body } : { body: JSON.stringify(body) };
  },
  answerText,
  answerStatus,
  streamTranslator: (model) => new BaiduStream(model),
};
