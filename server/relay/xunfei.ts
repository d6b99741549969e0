import { createHmac } from 'node:crypto';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import WebSocket from 'ws';
import type { UpstreamTarget } from './adaptor';
import type { RelayMode } from './types';
import { madeResponse, textOfChunks, type UpstreamResponse } from './upstreamClient';
import { contentText, EventTranslator, isObject, nowSeconds, parsedJson, str, tokens, toolArguments, usageEvents, type Json, type NativeWire } from './wire';

/**
 * iFlytek Spark (讯飞星火认知, channel type 18) as a native wire, from iFlytek's public
 * "星火认知大模型 Web API" documentation, its "WebSocket 协议通用鉴权 URL 生成说明" and its error
 * code table:
 * - the call is a WebSocket conversation, not a POST: `wss://spark-api.xf-yun.com/<version>/chat`
 *   (a channel's base URL replaces `wss://spark-api.xf-yun.com`; `http(s)://` is read as
 *   `ws(s)://`), one request frame sent, answer frames received until one has `header.status` 2;
 * - the key is `APPID|APISecret|APIKey`; the URL carries `host`, `date` (RFC 1123, Spark allows a
 *   300 s skew) and `authorization`: base64 of `api_key="<APIKey>", algorithm="hmac-sha256",
 *   headers="host date request-line", signature="<sig>"`, where sig is the base64 HMAC-SHA256
 *   (keyed with the APISecret) of `host: <host>\ndate: <date>\nGET <path> HTTP/1.1`;
 * - the request frame: `{header: {app_id, uid}, parameter: {chat: {domain, temperature,
 *   max_tokens, top_k}}, payload: {message: {text: [{role, content}]}, functions: {text: [...]}}}`;
 * - an answer frame: `{header: {code, message, sid, status}, payload: {choices: {status, seq,
 *   text: [{role, content, index, function_call?}]}, usage: {text: {question_tokens,
 *   prompt_tokens, completion_tokens, total_tokens}}}}`, the usage on the last frame; a refusal
 *   is a frame whose `header.code` is not 0 (the handshake itself is refused with HTTP 401 / 403
 *   and a JSON body when the signature or the date is wrong);
 * - version and domain (the channel's "model version", its `other` column, else the model name):
 *   v1.1 → `lite` (Spark Lite; the 2023 docs name it `general`), v2.1 → `generalv2`,
 *   v3.1 → `generalv3` (Spark Pro), v3.5 → `generalv3.5` (Spark Max), v4.0 → `4.0Ultra`,
 *   pro-128k → `/chat/pro-128k` `pro-128k`, max-32k → `/chat/max-32k` `max-32k`.
 * Functions: the docs of 2023–2024 give Spark v3.0+ (Max, 4.0 Ultra) `payload.functions.text` and
 * answer a call as a text item with `function_call: {name, arguments}`; the current WebSocket page
 * sends Function Call users to the HTTP protocol, so a channel may answer in plain text instead.
 * Tool results are sent as `tool` turns (the WebSocket docs name only system, user, assistant).
 * The exchange hands the answer frames on as server-sent-event text (`data: <frame>\n\n`), which
 * this wire's translator reads as it arrives and `answerText` assembles into a whole answer.
 */

/** Spark's default host (a channel's base URL replaces it). */
export const sparkDefaultBase = 'wss://spark-api.xf-yun.com';

/** A Spark credential (the channel key `APPID|APISecret|APIKey`). */
export interface SparkCredential {
  readonly appId: string;
  readonly apiSecret: string;
  readonly apiKey: string;
}

/** The credential of a channel key `APPID|APISecret|APIKey`; null when a part is missing. */
export function sparkCredentialOf(key: string | null): SparkCredential | null {
  const parts = (key ?? '').split('|').map((p) => p.trim());
  const [appId = '', apiSecret = '', apiKey = ''] = parts;
  if (parts.length !== 3 || appId === '' || apiSecret === '' || apiKey === '') return null;
  return { appId, apiSecret, apiKey };
}

/** The message of a request refused for a channel whose key is incomplete. */
export const sparkCredentialMessage = 'Xunfei Spark channel key must be APPID|APISecret|APIKey (讯飞星火渠道的密钥格式为 APPID|APISecret|APIKey)';

/** A Spark API version: its path and the `domain` its frames name. */
export interface SparkVersion {
  readonly path: string;
  readonly domain: string;
}

/** The versions, by the console's "model version" value. */
export const sparkVersions: Readonly<Record<string, SparkVersion>> = {
  'v1.1': { path: '/v1.1/chat', domain: 'lite' },
  'v2.1': { path: '/v2.1/chat', domain: 'generalv2' },
  'v3.1': { path: '/v3.1/chat', domain: 'generalv3' },
  'v3.5': { path: '/v3.5/chat', domain: 'generalv3.5' },
  'v4.0': { path: '/v4.0/chat', domain: '4.0Ultra' },
  'pro-128k': { path: '/chat/pro-128k', domain: 'pro-128k' },
  'max-32k': { path: '/chat/max-32k', domain: 'max-32k' },
};

/** The version a model name stands for (one-api's Spark names, the older SparkDesk-vX.Y names, Spark's domains); Spark Lite for others. */
export function sparkVersionOfModel(model: string): string {
  const name = model.trim().toLowerCase();
  const desk = /^sparkdesk(?:-(v\d\.\d))?$/.exec(name);
  if (desk !== null) return desk[1] !== undefined && desk[1] in sparkVersions ? desk[1] : 'v1.1';
  const byName: Readonly<Record<string, string>> = {
    'spark-lite': 'v1.1',
    lite: 'v1.1',
    general: 'v1.1',
    generalv2: 'v2.1',
    'spark-pro': 'v3.1',
    generalv3: 'v3.1',
    'spark-pro-128k': 'pro-128k',
    'pro-128k': 'pro-128k',
    'spark-max': 'v3.5',
    'generalv3.5': 'v3.5',
    'spark-max-32k': 'max-32k',
    'max-32k': 'max-32k',
    'spark-4.0-ultra': 'v4.0',
    '4.0ultra': 'v4.0',
  };
  return byName[name] ?? 'v1.1';
}

/** The version of a channel (`other`, else the model name), or a message naming the bad `other`. */
export function sparkVersionOf(other: string | null, model: string): SparkVersion | string {
  const named = (other ?? '').trim();
  const key = named === '' ? sparkVersionOfModel(model) : named.toLowerCase();
  return (
    sparkVersions[key] ??
    `the channel's model version (other) ${JSON.stringify(named)} is not one of ${Object.keys(sparkVersions).join(', ')} (模型版本须为 ${Object.keys(sparkVersions).join('、')} 之一)`
  );
}

/** The unsigned WebSocket URL of a version on a base URL (`http(s)` read as `ws(s)`). */
export function sparkUrl(base: string, version: SparkVersion): string {
  const root = (base === '' ? sparkDefaultBase : base).replace(/\/+$/, '').replace(/^http(s?):\/\//i, 'ws$1://');
  return `${root}${version.path}`;
}

/** The date format Spark signs (RFC 1123, GMT). */
export const sparkDate = (date: Date): string => date.toUTCString();

/** The signature of `host`, `date` and the request line of `path`, keyed with the APISecret (base64). */
export function sparkSignature(apiSecret: string, host: string, date: string, path: string): string {
  return createHmac('sha256', apiSecret).update(`host: ${host}\ndate: ${date}\nGET ${path} HTTP/1.1`, 'utf8').digest('base64');
}

/** `url` with Spark's `authorization`, `date` and `host` query parameters, signed at `now`. */
export function sparkSignedUrl(url: string, credential: SparkCredential, now: Date = new Date()): string {
  const target = new URL(url);
  const date = sparkDate(now);
  const signature = sparkSignature(credential.apiSecret, target.host, date, target.pathname);
  const origin = `api_key="${credential.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`;
  target.search = new URLSearchParams({ authorization: Buffer.from(origin, 'utf8').toString('base64'), date, host: target.host }).toString();
  return target.toString();
}

// ---------------------------------------------------------------------------------------------
// The request frame

/** Spark's request frame for an OpenAI chat request (`app_id` left for the exchange to fill), or a message naming what cannot be sent. */
export function sparkRequest(json: Readonly<Json>, model: string): Json | string {
  const messages = Array.isArray(json.messages) ? (json.messages as unknown[]) : [];
  const text: Json[] = [];
  for (const message of messages) {
    if (!isObject(message)) return 'messages: every message must be an object';
    const role = str(message.role);
    if (Array.isArray(message.content) && message.content.some((p) => isObject(p) && p.type !== 'text')) {
      return 'messages: Xunfei Spark channels take text only; images are not supported (讯飞星火渠道只接受文本，不支持图片)';
    }
    const content = contentText(message.content);
    if (role === 'system' || role === 'developer') text.push({ role: 'system', content });
    else if (role === 'user') text.push({ role, content });
    else if (role === 'assistant') {
      const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isObject) : [];
      const call = calls.length > 0 && isObject(calls[0]?.function) ? calls[0].function : isObject(message.function_call) ? message.function_call : null;
      // an assistant turn that only called a function is sent with the call as its text
      const said = content === '' && call !== null ? JSON.stringify({ name: str(call.name), arguments: toolArguments(call.arguments) }) : content;
      text.push({ role, content: said });
    } else if (role === 'tool' || role === 'function') text.push({ role: 'tool', content });
    else return `messages: the role ${JSON.stringify(role)} is not supported by Xunfei Spark channels (system, user, assistant or tool)`;
  }
  if (!text.some((m) => m.role === 'user')) return 'messages: at least one user message is required';

  const chat: Json = { domain: (sparkVersions[sparkVersionOfModel(model)] ?? sparkVersions['v1.1']!).domain };
  if (typeof json.temperature === 'number') chat.temperature = json.temperature;
  const maxTokens = typeof json.max_completion_tokens === 'number' ? json.max_completion_tokens : json.max_tokens;
  if (typeof maxTokens === 'number') chat.max_tokens = maxTokens;
  if (typeof json.top_k === 'number') chat.top_k = json.top_k;

  const payload: Json = { message: { text } };
  if (json.tool_choice !== 'none') {
    const tools = Array.isArray(json.tools) ? json.tools.filter(isObject) : [];
    if (tools.some((t) => t.type !== undefined && t.type !== 'function')) return 'tools: Xunfei Spark channels take function tools only';
    const fns = tools.length > 0 ? tools.map((t) => (isObject(t.function) ? t.function : {})) : Array.isArray(json.functions) ? json.functions.filter(isObject) : [];
    const described = fns.map((f) => ({ name: str(f.name), description: str(f.description), parameters: isObject(f.parameters) ? f.parameters : { type: 'object', properties: {} } }));
    if (described.some((f) => f.name === '')) return 'tools: every function needs a name';
    if (described.length > 0) payload.functions = { text: described };
  }
  const uid = str(json.user).slice(0, 32);
  return { header: { app_id: '', ...(uid === '' ? {} : { uid }) }, parameter: { chat }, payload };
}

// ---------------------------------------------------------------------------------------------
// Answers

/** The HTTP status of a Spark error code (the docs' code table). */
export function sparkStatusOf(code: number): number {
  if (code === 11200 || code === 10015 || code === 10016) return code === 11200 ? 401 : 403;
  if (code >= 11201 && code <= 11203) return 429;
  if (code === 10006 || code === 10007 || code === 10110) return 429;
  if ([10003, 10004, 10005, 10013, 10014, 10019, 10021, 10163, 10907].includes(code)) return 400;
  return 500;
}

const errorType = (status: number): string =>
  status === 401 ? 'authentication_error' : status === 403 ? 'permission_error' : status === 429 ? 'rate_limit_error' : status === 400 ? 'invalid_request_error' : 'xunfei_error';

/** The OpenAI error of a Spark error frame (`header.code` not 0), or null. */
function frameError(frame: unknown): { readonly status: number; readonly error: Json } | null {
  if (!isObject(frame) || !isObject(frame.header)) return null;
  const code = frame.header.code;
  if (typeof code !== 'number' || code === 0) return null;
  const status = sparkStatusOf(code);
  const sid = str(frame.header.sid);
  const message = `${str(frame.header.message) === '' ? `Xunfei Spark error ${code}` : str(frame.header.message)}${sid === '' ? '' : ` (sid ${sid})`}`;
  return { status, error: { error: { message, type: errorType(status), param: '', code } } };
}

/** What a Spark answer said so far. */
interface SparkOutcome {
  text: string;
  calls: Json[];
  prompt: number;
  completion: number;
  finished: boolean;
  error: { readonly status: number; readonly error: Json } | null;
}

const newOutcome = (): SparkOutcome => ({ text: '', calls: [], prompt: 0, completion: 0, finished: false, error: null });

/** One OpenAI tool call of a Spark `function_call`. */
const toolCallOf = (call: Json, index: number): Json => ({
  index,
  id: `call_spark_${index}_${Date.now().toString(36)}`,
  type: 'function',
  function: { name: str(call.name), arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}) },
});

/** Reads one answer frame into `outcome`; returns the text and the tool calls it added. */
function readFrame(frame: Json, outcome: SparkOutcome): { readonly text: string; readonly calls: Json[] } {
  const error = frameError(frame);
  if (error !== null) {
    outcome.error = error;
    return { text: '', calls: [] };
  }
  const header = isObject(frame.header) ? frame.header : {};
  const payload = isObject(frame.payload) ? frame.payload : {};
  const choices = isObject(payload.choices) ? payload.choices : {};
  let text = '';
  const calls: Json[] = [];
  for (const item of Array.isArray(choices.text) ? choices.text.filter(isObject) : []) {
    if (isObject(item.function_call)) {
      const call = toolCallOf(item.function_call, outcome.calls.length);
      outcome.calls.push(call);
      calls.push(call);
    } else text += str(item.content);
  }
  outcome.text += text;
  const usage = isObject(payload.usage) && isObject(payload.usage.text) ? payload.usage.text : null;
  if (usage !== null) {
    outcome.prompt = tokens(usage.prompt_tokens);
    outcome.completion = tokens(usage.completion_tokens);
  }
  if (header.status === 2 || choices.status === 2) outcome.finished = true;
  return { text, calls };
}

/** The outcome of a whole answer (server-sent-event text of frames). */
function outcomeOf(text: string): SparkOutcome {
  const outcome = newOutcome();
  const parser = createParser({
    onEvent: (event) => {
      const frame = parsedJson(event.data);
      if (outcome.error === null && !outcome.finished && isObject(frame)) readFrame(frame, outcome);
    },
  });
  parser.feed(text);
  return outcome;
}

/** The OpenAI JSON text of a Spark answer: a whole answer assembled into a completion, or an error. */
function answerText(status: number, text: string, model: string): string {
  if (status !== 200) {
    const body = parsedJson(text);
    const refusal = frameError(body);
    if (refusal !== null) return JSON.stringify(refusal.error);
    // a refused handshake: `{"message": …}`
    if (isObject(body) && str(body.message) !== '') return JSON.stringify({ error: { message: str(body.message), type: errorType(status), param: '', code: status } });
    return text;
  }
  const outcome = outcomeOf(text);
  if (outcome.error !== null) return JSON.stringify(outcome.error.error);
  if (!outcome.finished) return JSON.stringify({ error: { message: 'the Xunfei Spark answer ended before its last frame', type: 'xunfei_error', param: '', code: 'stream_interrupted' } });
  const calls = outcome.calls.map(({ index: _index, ...call }) => call);
  const message: Json = { role: 'assistant', content: outcome.text === '' && calls.length > 0 ? null : outcome.text, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  return JSON.stringify({
    id: `chatcmpl-spark-${Date.now()}`,
    object: 'chat.completion',
    created: nowSeconds(),
    model,
    choices: [{ index: 0, message, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: outcome.prompt, completion_tokens: outcome.completion, total_tokens: outcome.prompt + outcome.completion },
  });
}

/** The status of a whole Spark answer: an error frame in it gives its own, an unfinished answer 502. */
function answerStatus(status: number, text: string): number {
  if (status !== 200) return status;
  const outcome = outcomeOf(text);
  return outcome.error !== null ? outcome.error.status : outcome.finished ? 200 : 502;
}

/** Translates Spark's answer frames into OpenAI chunks as they arrive. */
class SparkStream extends EventTranslator {
  private readonly outcome = newOutcome();
  private closed = false;

  constructor(model: string) {
    super(model, `chatcmpl-spark-${Date.now()}`);
  }

  /** An answer that never reached its last frame is left to the pipeline (an interrupted stream). */
  end(): string {
    return this.flush();
  }

  protected onEvent(event: EventSourceMessage): void {
    if (this.closed) return;
    const frame = parsedJson(event.data);
    if (!isObject(frame)) {
      // not one of Spark's frames: handed on for the pipeline to drop
      this.out.push(`data: ${event.data.replace(/\n/g, ' ')}\n\n`);
      return;
    }
    const added = readFrame(frame, this.outcome);
    if (added.text !== '') this.push({ content: added.text });
    if (added.calls.length > 0) this.push({ tool_calls: added.calls });
    if (this.outcome.error !== null) {
      this.closed = true;
      this.out.push(`data: ${JSON.stringify(this.outcome.error.error)}\n\n`);
    } else if (this.outcome.finished) {
      this.closed = true;
      this.push({}, this.outcome.calls.length > 0 ? 'tool_calls' : 'stop');
      this.out.push(usageEvents(this.id, this.created, this.model, this.outcome.prompt, this.outcome.completion));
    }
  }
}

/** Spark as the relay's native wire of channel type 18. */
export const xunfeiWire: NativeWire = {
  modes: new Set<RelayMode>(['chat']),
  requestBody: (_mode, json, model) => {
    const body = sparkRequest(json, model);
    return typeof body === 'string' ? { invalid: body } : { body: JSON.stringify(body) };
  },
  answerText,
  answerStatus,
  streamTranslator: (model) => new SparkStream(model),
};

// ---------------------------------------------------------------------------------------------
// The exchange: one WebSocket conversation

/** The largest answer frame accepted (Spark's frames are a few KiB). */
export const sparkMaxFrameBytes = 1024 * 1024;
/** The most answer text held for a reader that is not reading. */
const maxQueuedBytes = 16 * 1024 * 1024;
/** The most of a refused handshake's body read. */
const maxRefusalBytes = 64 * 1024;

const jsonHeaders = { 'Content-Type': 'application/json' };
const headersOf = (contentType: string): UpstreamResponse['headers'] => ({ get: (name) => (name.toLowerCase() === 'content-type' ? contentType : null) });

/**
 * Sends the request frame `body` on a WebSocket to the signed `url` and answers as a POST would:
 * a refused handshake with its status and body, an error frame first with the status of its code
 * and the frame, else status 200 with the frames as server-sent-event text as they arrive. A
 * socket closing before the last frame makes reading fail; `signal` aborting closes the socket.
 */
export function sparkExchange(url: string, credential: SparkCredential, domain: string, body: string, signal: AbortSignal): Promise<UpstreamResponse> {
  const abortReason = (): Error => (signal.reason instanceof Error ? signal.reason : new Error('upstream request aborted'));
  if (signal.aborted) return Promise.reject(abortReason());
  const frame = parsedJson(body);
  if (!isObject(frame)) return Promise.reject(new Error('the Spark request frame is not a JSON object'));
  const header = isObject(frame.header) ? frame.header : {};
  const parameter = isObject(frame.parameter) ? frame.parameter : {};
  const chat = isObject(parameter.chat) ? parameter.chat : {};
  const sent = JSON.stringify({ ...frame, header: { ...header, app_id: credential.appId }, parameter: { ...parameter, chat: { ...chat, domain } } });

  return new Promise<UpstreamResponse>((resolve, reject) => {
    let settled = false;
    let finished = false;
    let failure: Error | null = null;
    let closed = false;
    const queue: Uint8Array[] = [];
    let queued = 0;
    let wake: (() => void) | null = null;
    const encoder = new TextEncoder();
    const socket = new WebSocket(sparkSignedUrl(url, credential), { maxPayload: sparkMaxFrameBytes, perMessageDeflate: false });

    const notify = (): void => {
      const w = wake;
      wake = null;
      w?.();
    };
    const stop = (error: Error | null): void => {
      if (error !== null && failure === null && !finished) failure = error;
      closed = true;
      signal.removeEventListener('abort', onAbort);
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.terminate();
      notify();
    };
    const onAbort = (): void => {
      if (!settled) {
        settled = true;
        reject(abortReason());
      }
      stop(abortReason());
    };
    signal.addEventListener('abort', onAbort, { once: true });

    const read = async (): Promise<Uint8Array | null> => {
      for (;;) {
        const next = queue.shift();
        if (next !== undefined) {
          queued -= next.length;
          return next;
        }
        if (failure !== null) throw failure;
        if (closed) return null;
        await new Promise<void>((r) => {
          wake = r;
        });
      }
    };
    const streaming: UpstreamResponse = {
      status: 200,
      headers: headersOf('text/event-stream'),
      read,
      text: () => textOfChunks(read),
      cancel: () => stop(null),
    };

    socket.on('unexpected-response', (request, response) => {
      // Spark refuses a bad signature or date on the handshake with HTTP 401 / 403 and a JSON body
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxRefusalBytes) chunks.push(chunk);
      });
      response.on('error', () => undefined);
      response.on('end', () => {
        request.destroy();
        closed = true;
        signal.removeEventListener('abort', onAbort);
        if (settled) return;
        settled = true;
        const text = Buffer.concat(chunks).toString('utf8');
        resolve(madeResponse(response.statusCode ?? 502, text === '' ? JSON.stringify({ message: `Spark refused the connection (HTTP ${response.statusCode ?? 0})` }) : text, jsonHeaders));
      });
    });
    socket.on('open', () => socket.send(sent));
    socket.on('message', (data: WebSocket.RawData) => {
      if (closed) return;
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
      const parsed = parsedJson(text);
      if (!settled) {
        settled = true;
        const refusal = frameError(parsed);
        if (refusal !== null) {
          resolve(madeResponse(refusal.status, text, jsonHeaders));
          stop(null);
          return;
        }
        resolve(streaming);
      }
      const event = encoder.encode(`data: ${text.replace(/[\r\n]+/g, ' ')}\n\n`);
      queued += event.length;
      queue.push(event);
      if (isObject(parsed) && (frameError(parsed) !== null || (isObject(parsed.header) && parsed.header.status === 2))) {
        finished = true;
        stop(null);
        return;
      }
      if (queued > maxQueuedBytes) stop(new Error('the Spark answer is larger than the relay holds'));
      notify();
    });
    socket.on('error', (error) => {
      if (!settled) {
        settled = true;
        reject(error);
      }
      stop(error);
    });
    socket.on('close', (code, reason) => {
      if (!settled) {
        settled = true;
        reject(new Error(`Spark closed the connection before answering (close code ${code})`));
      }
      const why = reason.toString('utf8');
      stop(finished ? null : new Error(`the Spark connection closed before the answer's last frame (close code ${code}${why === '' ? '' : `: ${why}`})`));
    });
  });
}

/** The upstream target of a Spark channel: its unsigned URL (for messages) and the exchange. */
export function sparkTarget(base: string, key: string | null, other: string | null, model: string): UpstreamTarget {
  const credential = sparkCredentialOf(key);
  const version = sparkVersionOf(other, model);
  const url = typeof version === 'string' ? sparkUrl(base, sparkVersions['v1.1']!) : sparkUrl(base, version);
  return {
    url,
    headers: {},
    exchange: (_headers, body, signal) => {
      if (credential === null) return Promise.reject(new Error(sparkCredentialMessage));
      if (typeof version === 'string') return Promise.reject(new Error(version));
      return sparkExchange(url, credential, version.domain, body, signal);
    },
  };
}
