import { createHash, createHmac } from 'node:crypto';
import type { EventSourceMessage } from 'eventsource-parser';
import type { RelayMode } from './types';
import { contentText, isObject, parsedJson, nowSeconds, str, tokens, usageEvents, type Json, type NativeWire, EventTranslator } from './wire';

/**
 * Tencent Hunyuan (channel type 23) as a native wire, from Tencent Cloud's public API reference
 * (Hunyuan `ChatCompletions`, API 3.0 common parameters, "Signature v3"):
 * - the channel's key is `AppId|SecretId|SecretKey` (API 3.0 signs with the SecretId and
 *   SecretKey; the AppId is not sent);
 * - `POST <base>/` with `X-TC-Action: ChatCompletions`, `X-TC-Version: 2023-09-01`,
 *   `X-TC-Timestamp` and, when the channel's config names one, `X-TC-Region`; signed with
 *   TC3-HMAC-SHA256 (service `hunyuan`) over `content-type` and `host`; a channel's base URL
 *   replaces the host;
 * - the body is `{Model, Messages: [{Role, Content}], Stream, Temperature, TopP}` (roles system,
 *   user, assistant, tool; text only), with OpenAI's tools as `Tools: [{Type: "function",
 *   Function: {Name, Description, Parameters}}]` (`Parameters` the JSON schema as a string),
 *   `tool_choice` as `ToolChoice` `none` / `auto` / `custom` with `CustomTool`, tool results as
 *   `{Role: "tool", Content, ToolCallId}` and an assistant's calls as `ToolCalls: [{Id, Type,
 *   Function: {Name, Arguments}}]`; answers carry `Message.ToolCalls` (streamed:
 *   `Delta.ToolCalls`, pieces of one call sharing its `Id`) and `FinishReason: "tool_calls"`;
 * - an answer is `{"Response": {Id, Created, Choices: [{Message, FinishReason}], Usage:
 *   {PromptTokens, CompletionTokens, TotalTokens}, RequestId}}`; a stream is server-sent events
 *   whose `data:` objects carry `Choices[].Delta` and the usage so far, the last one a
 *   `FinishReason`, with no end event; a fault mid-stream is an event with `ErrorMsg: {Code, Msg}`;
 * - errors are `{"Response": {"Error": {Code, Message}, RequestId}}` answered with HTTP 200: the
 *   relay answers them with a status of their code (`AuthFailure.*` 401, request limits 429,
 *   `InvalidParameter*` / `MissingParameter` 400, others 500).
 * The signer is written here with node:crypto, step by step as the "Signature v3" page describes
 * (its worked example is a test); Tencent's SDK would bring its own HTTP client along.
 */

export const tencentAction = 'ChatCompletions';
export const tencentVersion = '2023-09-01';
/** The service name of Hunyuan's credential scope. */
export const tencentService = 'hunyuan';

/** A Tencent Cloud API 3.0 credential. */
export interface TencentCredential {
  readonly appId: string;
  readonly secretId: string;
  readonly secretKey: string;
}

/** The credential of a channel key `AppId|SecretId|SecretKey`; null when a part is missing. */
export function tencentCredentialOf(key: string | null): TencentCredential | null {
  const parts = (key ?? '').split('|').map((p) => p.trim());
  const [appId = '', secretId = '', secretKey = ''] = parts;
  if (parts.length !== 3 || secretId === '' || secretKey === '') return null;
  return { appId, secretId, secretKey };
}

/** The message of a request refused for a channel whose key is incomplete. */
export const tencentCredentialMessage = 'Tencent channel key must be AppId|SecretId|SecretKey';

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: string | Buffer, text: string): Buffer => createHmac('sha256', key).update(text, 'utf8').digest();

/** What one TC3-HMAC-SHA256 signature covers. */
export interface Tc3Request {
  readonly service: string;
  readonly host: string;
  readonly contentType: string;
  readonly body: string;
  /** Unix seconds (`X-TC-Timestamp`). */
  readonly timestamp: number;
}

/**
 * The `Authorization` value of a POST to `/` (Signature v3): the canonical request over
 * `content-type` and `host` and the body's SHA-256, the string to sign with the credential scope
 * `<UTC date>/<service>/tc3_request`, and the key derived from `TC3<SecretKey>` by date, service and
 * `tc3_request`.
 */
export function tc3Authorization(secretId: string, secretKey: string, request: Tc3Request): string {
  const signedHeaders = 'content-type;host';
  const canonicalHeaders = `content-type:${request.contentType.trim().toLowerCase()}\nhost:${request.host.trim().toLowerCase()}\n`;
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, sha256Hex(request.body)].join('\n');
  const date = new Date(request.timestamp * 1000).toISOString().slice(0, 10);
  const scope = `${date}/${request.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(request.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signing = hmac(hmac(hmac(`TC3${secretKey}`, date), request.service), 'tc3_request');
  const signature = createHmac('sha256', signing).update(stringToSign, 'utf8').digest('hex');
  return `TC3-HMAC-SHA256 Credential=${secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

/** The headers of a POST of `body` to `url`, with the action, version, timestamp and signature (`headers` kept). */
export function signTencent(credential: TencentCredential, url: string, headers: Readonly<Record<string, string>>, body: string, region: string, now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? 'application/json';
  const authorization = tc3Authorization(credential.secretId, credential.secretKey, { service: tencentService, host: new URL(url).host, contentType, body, timestamp });
  const out: Record<string, string> = { ...headers, 'Content-Type': contentType, 'X-TC-Action': tencentAction, 'X-TC-Version': tencentVersion, 'X-TC-Timestamp': String(timestamp), Authorization: authorization };
  if (region !== '') out['X-TC-Region'] = region;
  return out;
}

/** Hunyuan's `Tools` entry for an OpenAI tool (`Parameters` is the JSON schema as text), or a message naming what is wrong. */
function tencentTool(tool: unknown, at: string): Json | string {
  if (!isObject(tool) || tool.type !== 'function' || !isObject(tool.function) || str(tool.function.name) === '') {
    return `${at}: every tool must be {"type": "function", "function": {"name": …}} for this channel (Tencent Hunyuan)`;
  }
  const fn = tool.function;
  const out: Json = { Name: str(fn.name), Parameters: JSON.stringify(isObject(fn.parameters) ? fn.parameters : { type: 'object', properties: {} }) };
  if (str(fn.description) !== '') out.Description = str(fn.description);
  return { Type: 'function', Function: out };
}

/** Hunyuan's `ToolCalls` for an OpenAI assistant message's `tool_calls`. */
function tencentToolCalls(calls: readonly unknown[]): Json[] {
  return calls.filter(isObject).map((call) => {
    const fn = isObject(call.function) ? call.function : {};
    const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {});
    return { Id: str(call.id), Type: 'function', Function: { Name: str(fn.name), Arguments: args } };
  });
}

/**
 * Hunyuan's `ToolChoice` (and `CustomTool`) for OpenAI's `tool_choice`: `none` and `auto` as they
 * are, a named function as `custom` with that tool; `required` has no counterpart.
 */
function tencentToolChoice(choice: unknown, tools: readonly Json[]): Json | string {
  if (choice === undefined || choice === null) return {};
  if (choice === 'none' || choice === 'auto') return { ToolChoice: choice };
  if (choice === 'required') return 'tool_choice: "required" is not supported by this channel (Tencent Hunyuan); use "auto", "none" or a named function';
  const name = isObject(choice) && isObject(choice.function) ? str(choice.function.name) : '';
  if (name === '') return 'tool_choice: must be "none", "auto" or {"type": "function", "function": {"name": …}}';
  const tool = tools.find((t) => isObject(t.Function) && t.Function.Name === name);
  if (tool === undefined) return `tool_choice: the function ${JSON.stringify(name)} is not among the tools`;
  return { ToolChoice: 'custom', CustomTool: tool };
}

/** Hunyuan's ChatCompletions body for an OpenAI chat request, or a message naming what cannot be sent. */
export function tencentRequest(json: Readonly<Json>, model: string): Json | string {
  const messages = Array.isArray(json.messages) ? (json.messages as unknown[]) : [];
  const out: Json[] = [];
  for (const message of messages) {
    if (!isObject(message)) return 'messages: every message must be an object';
    const role = str(message.role) === 'developer' ? 'system' : str(message.role);
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') {
      return `messages: the role ${JSON.stringify(message.role)} is not supported by this channel (Tencent Hunyuan)`;
    }
    if (Array.isArray(message.content) && message.content.some((part) => !isObject(part) || part.type !== 'text')) {
      return 'messages: this channel (Tencent Hunyuan) takes text content only';
    }
    const turn: Json = { Role: role, Content: contentText(message.content) };
    if (role === 'tool') {
      if (str(message.tool_call_id) === '') return 'messages: a tool message needs its tool_call_id';
      turn.ToolCallId = str(message.tool_call_id);
    }
    if (role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) turn.ToolCalls = tencentToolCalls(message.tool_calls);
    out.push(turn);
  }
  if (out.length === 0) return 'messages: at least one message is required';
  const body: Json = { Model: model, Messages: out, Stream: json.stream === true };
  if (typeof json.temperature === 'number') body.Temperature = json.temperature;
  if (typeof json.top_p === 'number') body.TopP = json.top_p;
  if (Array.isArray(json.tools) && json.tools.length > 0) {
    const tools: Json[] = [];
    for (const [i, tool] of json.tools.entries()) {
      const translated = tencentTool(tool, `tools[${i}]`);
      if (typeof translated === 'string') return translated;
      tools.push(translated);
    }
    body.Tools = tools;
    const choice = tencentToolChoice(json.tool_choice, tools);
    if (typeof choice === 'string') return choice;
    Object.assign(body, choice);
  } else if (json.tool_choice !== undefined && json.tool_choice !== null && json.tool_choice !== 'none' && json.tool_choice !== 'auto') {
    return 'tool_choice: a named or required tool needs tools';
  }
  return body;
}

/** The HTTP status the relay answers for a Tencent error code. */
export function tencentErrorStatus(code: string): number {
  if (code.startsWith('AuthFailure')) return 401;
  if (code.startsWith('LimitExceeded') || code.startsWith('RequestLimitExceeded')) return 429;
  if (code.startsWith('InvalidParameter') || code.startsWith('MissingParameter') || code.startsWith('UnknownParameter')) return 400;
  return 500;
}

/** OpenAI's error type of a Tencent error code. */
function errorTypeOf(code: string): string {
  const status = tencentErrorStatus(code);
  if (status === 401) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 400) return 'invalid_request_error';
  return 'upstream_error';
}

/** Tencent's `Response.Error` of an answer, or null. */
function tencentError(body: unknown): { readonly code: string; readonly message: string } | null {
  if (!isObject(body) || !isObject(body.Response) || !isObject(body.Response.Error)) return null;
  return { code: str(body.Response.Error.Code), message: str(body.Response.Error.Message) };
}


/** OpenAI's finish reason for Hunyuan's (`sensitive`: the answer failed moderation). */
const finishReasonOf = (reason: unknown): string | null => {
  const r = str(reason);
  if (r === '') return null;
  if (r === 'sensitive') return 'content_filter';
  if (r === 'length') return 'length';
  if (r === 'tool_calls') return 'tool_calls';
  return 'stop';
};

const usageOfTencent = (body: Json): { prompt: number; completion: number } => {
  const usage = isObject(body.Usage) ? body.Usage : {};
  return { prompt: tokens(usage.PromptTokens), completion: tokens(usage.CompletionTokens) };
};

/** OpenAI's `tool_calls` for Hunyuan's `ToolCalls` (`[{Id, Type, Function: {Name, Arguments}}]`). */
function openAiToolCalls(calls: unknown): Json[] {
  if (!Array.isArray(calls)) return [];
  return calls.filter(isObject).map((call) => {
    const fn = isObject(call.Function) ? call.Function : {};
    return { id: str(call.Id), type: 'function', function: { name: str(fn.Name), arguments: str(fn.Arguments) } };
  });
}

/** OpenAI's `chat.completion` for Hunyuan's `Response`. */
export function tencentCompletionOf(response: Json, model: string): Json {
  const choices = (Array.isArray(response.Choices) ? response.Choices.filter(isObject) : []).map((choice, i) => {
    const message = isObject(choice.Message) ? choice.Message : {};
    const calls = openAiToolCalls(message.ToolCalls);
    const out: Json = calls.length > 0 ? { role: 'assistant', content: str(message.Content) === '' ? null : str(message.Content), tool_calls: calls } : { role: 'assistant', content: str(message.Content) };
    return { index: typeof choice.Index === 'number' ? choice.Index : i, message: out, finish_reason: finishReasonOf(choice.FinishReason) ?? (calls.length > 0 ? 'tool_calls' : 'stop') };
  });
  const { prompt, completion } = usageOfTencent(response);
  return {
    id: str(response.Id) === '' ? `chatcmpl-hunyuan-${Date.now()}` : str(response.Id),
    object: 'chat.completion',
    created: typeof response.Created === 'number' ? response.Created : nowSeconds(),
    model,
    choices,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/** The OpenAI error text of a Tencent error. */
const errorText = (error: { readonly code: string; readonly message: string }): string =>
  JSON.stringify({ error: { message: error.message === '' ? error.code : error.message, type: errorTypeOf(error.code), param: '', code: error.code } });

/** The OpenAI JSON text of a Hunyuan answer or error. */
function answerText(status: number, text: string, model: string): string {
  const body = parsedJson(text);
  const error = tencentError(body);
  if (error !== null) return errorText(error);
  if (status !== 200 || !isObject(body) || !isObject(body.Response)) return text;
  return JSON.stringify(tencentCompletionOf(body.Response, model));
}

/** The status of an answer: Tencent answers its errors with HTTP 200 and a `Response.Error`. */
function answerStatus(status: number, text: string): number {
  const error = tencentError(parsedJson(text));
  return error === null ? status : tencentErrorStatus(error.code);
}

/** Translates Hunyuan's stream (`data:` objects with `Choices[].Delta`, no end event). */
class TencentStream extends EventTranslator {
  private prompt = 0;
  private completion = 0;
  private finish: string | null = null;
  /** The OpenAI index of each tool call seen, by Hunyuan's `Id` (its pieces share the `Id`). */
  private readonly calls = new Map<string, { readonly index: number; named: boolean }>();

  constructor(model: string) {
    super(model, `chatcmpl-hunyuan-${Date.now()}`);
  }

  /** The stream ended: its finish reason and usage, then `[DONE]`; a stream that never finished is left to the pipeline. */
  end(): string {
    if (this.finish !== null) {
      this.push({}, this.finish);
      this.out.push(usageEvents(this.id, this.created, this.model, this.prompt, this.completion));
    }
    return this.flush();
  }

  /**
   * One piece of a streamed tool call as OpenAI's `delta.tool_calls`: the first piece of an `Id`
   * with its id, type and name, the next ones with the rest of the arguments (Hunyuan: "merge
   * the Type, Name and Arguments of the pieces by Id").
   */
  private toolCall(call: Json): void {
    const id = str(call.Id) === '' ? `call_${this.calls.size}` : str(call.Id);
    const fn = isObject(call.Function) ? call.Function : {};
    const name = str(fn.Name);
    const args = str(fn.Arguments);
    const seen = this.calls.get(id);
    if (seen === undefined) {
      this.calls.set(id, { index: this.calls.size, named: name !== '' });
      this.push({ tool_calls: [{ index: this.calls.size - 1, id, type: 'function', function: { name, arguments: args } }] });
      return;
    }
    const piece: Json = { arguments: args };
    if (!seen.named && name !== '') {
      piece.name = name;
      seen.named = true;
    }
    if (args !== '' || piece.name !== undefined) this.push({ tool_calls: [{ index: seen.index, function: piece }] });
  }

  protected onEvent(event: EventSourceMessage): void {
    if (event.data === '[DONE]') return;
    const body = parsedJson(event.data);
    if (!isObject(body)) {
      // not JSON: passed on as it is, for the pipeline to drop and count
      this.out.push(`data: ${event.data.replace(/\n/g, ' ')}\n\n`);
      return;
    }
    const error = tencentError(body) ?? (isObject(body.ErrorMsg) ? { code: typeof body.ErrorMsg.Code === 'number' ? String(body.ErrorMsg.Code) : str(body.ErrorMsg.Code), message: str(body.ErrorMsg.Msg) } : null);
    if (error !== null) {
      this.out.push(`data: ${errorText(error)}\n\n`);
      return;
    }
    if (str(body.Id) !== '') this.id = str(body.Id);
    if (typeof body.Created === 'number') this.created = body.Created;
    const usage = usageOfTencent(body);
    if (usage.prompt > 0) this.prompt = usage.prompt;
    if (usage.completion > 0) this.completion = usage.completion;
    const choice = Array.isArray(body.Choices) ? body.Choices.find(isObject) : undefined;
    if (choice === undefined) return;
    const delta = isObject(choice.Delta) ? choice.Delta : {};
    if (str(delta.Content) !== '') this.push({ content: str(delta.Content) });
    if (Array.isArray(delta.ToolCalls)) for (const call of delta.ToolCalls.filter(isObject)) this.toolCall(call);
    const finish = finishReasonOf(choice.FinishReason);
    if (finish !== null) this.finish = finish;
  }
}

/** Tencent Hunyuan as the relay's native wire of channel type 23. */
export const tencentWire: NativeWire = {
  modes: new Set<RelayMode>(['chat']),
  requestBody: (_mode, json, model) => {
    const body = tencentRequest(json, model);
    return typeof body === 'string' ? { invalid: body } : { body: JSON.stringify(body) };
  },
  answerText,
  answerStatus,
  streamTranslator: (model) => new TencentStream(model),
};
