import type { EventSourceMessage } from 'eventsource-parser';
import type { RelayMode } from './types';
import { contentText, imageOf, isObject, nowSeconds, str, tokens, toolArguments, usageEvents, pushTurn, type Json, type NativeWire, type Turn, EventTranslator } from './wire';

/**
 * Google's Gemini API (channel type 24) as a native wire, from its public API reference:
 * - chat: `POST <base>/<version>/models/<model>:generateContent` (streamed:
 *   `:streamGenerateContent?alt=sse`), key in `x-goog-api-key`. `contents` of user / model turns
 *   whose parts are `text`, `inlineData` (images from data URLs; Gemini does not fetch http URLs),
 *   `functionCall` (assistant tool calls) and `functionResponse` (`tool` messages, named after the
 *   call they answer); `systemInstruction`; `generationConfig` (temperature, topP, topK,
 *   maxOutputTokens, stopSequences, candidateCount from `n`, JSON output from `response_format`);
 *   `tools[].functionDeclarations` and `toolConfig.functionCallingConfig` (AUTO / ANY / NONE,
 *   allowed names).
 * - answers: candidates' text parts joined, `functionCall` parts as tool calls, `finishReason`
 *   (STOP, MAX_TOKENS, SAFETY…) as OpenAI's, `usageMetadata` (prompt, candidates + thoughts) as
 *   usage. A stream is a series of `data:` answers with no end event: it ends with the connection.
 * - embeddings: `:batchEmbedContents` with one request per input; the answer has no token counts,
 *   so the relay counts the input.
 * - errors: `{"error":{"code","message","status"}}` with its HTTP status.
 */

/** The API version when the channel's config names none. */
export const defaultGeminiVersion = 'v1beta';

/** The path of `model` on Gemini (`models/<model>`, the prefix added when missing). */
const modelPath = (model: string): string => (model.startsWith('models/') ? model : `models/${model}`);

/** The request path (after the version) of a mode. */
export function geminiPath(mode: RelayMode, model: string, stream: boolean): string | null {
  if (mode === 'chat') return `/${modelPath(model)}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
  if (mode === 'embeddings') return `/${modelPath(model)}:batchEmbedContents`;
  return null;
}

/** OpenAI's finish reason for a Gemini one. */
export function geminiFinishReason(reason: unknown, hasToolCall: boolean): string | null {
  if (typeof reason !== 'string' || reason === '' || reason === 'FINISH_REASON_UNSPECIFIED') return null;
  if (hasToolCall) return 'tool_calls';
  if (reason === 'STOP') return 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  if (['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY'].includes(reason)) return 'content_filter';
  return 'stop';
}

/** Gemini parts for an OpenAI user content, or a message saying what is wrong. */
function partsOf(content: unknown): Json[] | string {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  if (!Array.isArray(content)) return 'messages: content must be a string or an array of parts';
  const parts: Json[] = [];
  for (const part of content) {
    if (!isObject(part)) return 'messages: every content part must be an object';
    if (part.type === 'text') {
      if (str(part.text) !== '') parts.push({ text: str(part.text) });
    } else if (part.type === 'image_url') {
      const image = imageOf(part);
      if (image === null || 'url' in image) return 'messages: Gemini channels take images as data URLs (data:<type>;base64,…), not as links';
      parts.push({ inlineData: { mimeType: image.mediaType, data: image.data } });
    } else {
      return `messages: content parts of type ${JSON.stringify(part.type)} are not supported by this channel`;
    }
  }
  return parts;
}

function toolConfigOf(choice: unknown): Json | undefined {
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (isObject(choice) && isObject(choice.function) && str(choice.function.name) !== '') {
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [str(choice.function.name)] } };
  }
  return undefined;
}

/** Gemini's generateContent body for an OpenAI chat request, or a message naming what cannot be sent. */
export function geminiChatRequest(json: Readonly<Json>): Json | string {
  const messages = Array.isArray(json.messages) ? (json.messages as unknown[]) : [];
  const system: string[] = [];
  const turns: Turn[] = [];
  /** Tool call id -> function name (a functionResponse is named after its call). */
  const callNames = new Map<string, string>();
  for (const message of messages) {
    if (!isObject(message)) return 'messages: every message must be an object';
    const role = str(message.role);
    if (role === 'system' || role === 'developer') {
      const text = contentText(message.content);
      if (text !== '') system.push(text);
    } else if (role === 'user') {
      const parts = partsOf(message.content);
      if (typeof parts === 'string') return parts;
      pushTurn(turns, 'user', parts);
    } else if (role === 'assistant') {
      const text = contentText(message.content);
      const parts: Json[] = text === '' ? [] : [{ text }];
      for (const call of Array.isArray(message.tool_calls) ? message.tool_calls.filter(isObject) : []) {
        const fn = isObject(call.function) ? call.function : {};
        callNames.set(str(call.id), str(fn.name));
        parts.push({ functionCall: { name: str(fn.name), args: toolArguments(fn.arguments) } });
      }
      pushTurn(turns, 'model', parts);
    } else if (role === 'tool' || role === 'function') {
      const name = callNames.get(str(message.tool_call_id)) ?? str(message.name);
      if (name === '') return 'messages: a tool message must answer a tool call of an earlier assistant message';
      const text = contentText(message.content);
      let response: Json;
      try {
        const parsed: unknown = JSON.parse(text);
        response = isObject(parsed) ? parsed : { result: parsed };
      } catch {
        response = { result: text };
      }
      pushTurn(turns, 'user', [{ functionResponse: { name, response } }]);
    } else {
      return `messages: the role ${JSON.stringify(role)} is not supported`;
    }
  }
  if (turns.length === 0) return 'messages: at least one user or assistant message is required';
  const body: Json = { contents: turns.map((t) => ({ role: t.role, parts: t.items })) };
  if (system.length > 0) body.systemInstruction = { parts: [{ text: system.join('\n') }] };
  const config: Json = {};
  if (typeof json.temperature === 'number') config.temperature = json.temperature;
  if (typeof json.top_p === 'number') config.topP = json.top_p;
  if (typeof json.top_k === 'number') config.topK = json.top_k;
  const max = json.max_completion_tokens ?? json.max_tokens;
  if (typeof max === 'number' && Number.isInteger(max) && max > 0) config.maxOutputTokens = max;
  const stop = typeof json.stop === 'string' ? [json.stop] : Array.isArray(json.stop) ? json.stop.filter((s) => typeof s === 'string' && s !== '') : [];
  if (stop.length > 0) config.stopSequences = stop;
  if (typeof json.n === 'number' && json.n > 1) config.candidateCount = json.n;
  if (isObject(json.response_format) && (json.response_format.type === 'json_object' || json.response_format.type === 'json_schema')) {
    config.responseMimeType = 'application/json';
    const schema = isObject(json.response_format.json_schema) ? json.response_format.json_schema.schema : undefined;
    if (isObject(schema)) config.responseSchema = schema;
  }
  if (Object.keys(config).length > 0) body.generationConfig = config;
  const tools = Array.isArray(json.tools) ? json.tools.filter(isObject) : [];
  if (tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: tools.map((tool) => {
          const fn = isObject(tool.function) ? tool.function : {};
          const declaration: Json = { name: str(fn.name) };
          if (str(fn.description) !== '') declaration.description = str(fn.description);
          if (isObject(fn.parameters)) declaration.parameters = fn.parameters;
          return declaration;
        }),
      },
    ];
    const toolConfig = toolConfigOf(json.tool_choice);
    if (toolConfig !== undefined) body.toolConfig = toolConfig;
  }
  return body;
}

/** Gemini's batchEmbedContents body for an OpenAI embeddings request, or a message naming what cannot be sent. */
export function geminiEmbeddingRequest(json: Readonly<Json>, model: string): Json | string {
  const input = json.input;
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((i) => typeof i === 'string') ? (input) : null;
  if (texts === null || texts.length === 0) return 'input: Gemini channels embed a string or an array of strings';
  const dimensions = typeof json.dimensions === 'number' && json.dimensions > 0 ? { outputDimensionality: json.dimensions } : {};
  return { requests: texts.map((text) => ({ model: modelPath(model), content: { parts: [{ text }] }, ...dimensions })) };
}

/** The text and tool calls of a candidate. */
function candidateParts(candidate: Json): { readonly text: string; readonly calls: { name: string; args: Json }[] } {
  const content = isObject(candidate.content) ? candidate.content : {};
  const parts = Array.isArray(content.parts) ? content.parts.filter(isObject) : [];
  // thought summaries (`thought: true`) are the model's reasoning, not its answer
  const text = parts.map((p) => (p.thought === true ? '' : str(p.text))).join('');
  const calls = parts.filter((p) => isObject(p.functionCall)).map((p) => {
    const call = p.functionCall as Json;
    return { name: str(call.name), args: isObject(call.args) ? call.args : {} };
  });
  return { text, calls };
}

const usageOfGemini = (body: Json): { prompt: number; completion: number } => {
  const usage = isObject(body.usageMetadata) ? body.usageMetadata : {};
  return { prompt: tokens(usage.promptTokenCount), completion: tokens(usage.candidatesTokenCount) + tokens(usage.thoughtsTokenCount) };
};

/** OpenAI's `chat.completion` for a Gemini answer. */
export function geminiCompletionOf(body: Json, model: string): Json {
  const candidates = Array.isArray(body.candidates) ? body.candidates.filter(isObject) : [];
  const choices = candidates.map((candidate, i) => {
    const { text, calls } = candidateParts(candidate);
    const message: Json = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
    if (calls.length > 0) message.tool_calls = calls.map((call, j) => ({ id: `call_${i}_${j}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }));
    return { index: typeof candidate.index === 'number' ? candidate.index : i, message, finish_reason: geminiFinishReason(candidate.finishReason, calls.length > 0) ?? 'stop' };
  });
  const { prompt, completion } = usageOfGemini(body);
  return {
    id: str(body.responseId) === '' ? `chatcmpl-gemini-${Date.now()}` : str(body.responseId),
    object: 'chat.completion',
    created: nowSeconds(),
    model: str(body.modelVersion) === '' ? model : str(body.modelVersion),
    choices,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/** OpenAI's error object for a Gemini error body, or null. */
export function geminiErrorOf(body: unknown): Json | null {
  const first = Array.isArray(body) ? (body as unknown[])[0] : body;
  if (!isObject(first) || !isObject(first.error)) return null;
  const status = str(first.error.status) === '' ? 'upstream_error' : str(first.error.status);
  return { error: { message: str(first.error.message), type: status, param: '', code: status } };
}

/** The OpenAI JSON text of a Gemini answer (chat or embeddings) or error. */
function answerText(status: number, text: string, model: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  const error = geminiErrorOf(body);
  if (error !== null) return JSON.stringify(error);
  if (status !== 200 || !isObject(body)) return text;
  if (Array.isArray(body.embeddings)) {
    const data = body.embeddings.filter(isObject).map((e, index) => ({ object: 'embedding', index, embedding: Array.isArray(e.values) ? e.values : [] }));
    return JSON.stringify({ object: 'list', data, model });
  }
  if (!Array.isArray(body.candidates) && isObject(body.promptFeedback)) {
    const reason = str(body.promptFeedback.blockReason);
    return JSON.stringify({ error: { message: `the prompt was blocked by Gemini${reason === '' ? '' : ` (${reason})`}`, type: 'content_filter', param: '', code: 'prompt_blocked' } });
  }
  return JSON.stringify(geminiCompletionOf(body, model));
}

/** Translates Gemini's `alt=sse` stream (whole answers as `data:` events, no end event). */
class GeminiStream extends EventTranslator {
  private prompt = 0;
  private completion = 0;
  private finish: string | null = null;
  private calls = 0;

  constructor(model: string) {
    super(model, `chatcmpl-gemini-${Date.now()}`);
  }

  /** The stream ended: its finish reason and usage, then `[DONE]`; a stream that never finished is left to the pipeline. */
  end(): string {
    if (this.finish !== null) {
      this.push({}, this.finish);
      this.out.push(usageEvents(this.id, this.created, this.model, this.prompt, this.completion));
    }
    return this.flush();
  }

  protected onEvent(event: EventSourceMessage): void {
    let body: unknown;
    try {
      body = JSON.parse(event.data);
    } catch {
      this.out.push(`data: ${event.data.replace(/\n/g, ' ')}\n\n`);
      return;
    }
    const error = geminiErrorOf(body);
    if (error !== null) {
      this.out.push(`data: ${JSON.stringify(error)}\n\n`);
      return;
    }
    if (!isObject(body)) {
      this.out.push(`data: ${event.data.replace(/\n/g, ' ')}\n\n`);
      return;
    }
    if (str(body.modelVersion) !== '') this.model = str(body.modelVersion);
    const usage = usageOfGemini(body);
    if (usage.prompt > 0) this.prompt = usage.prompt;
    if (usage.completion > 0) this.completion = usage.completion;
    const candidate = Array.isArray(body.candidates) ? body.candidates.find(isObject) : undefined;
    if (candidate === undefined) return;
    const { text, calls } = candidateParts(candidate);
    if (text !== '') this.push({ content: text });
    for (const call of calls) {
      this.push({ tool_calls: [{ index: this.calls, id: `call_0_${this.calls}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] });
      this.calls += 1;
    }
    const finish = geminiFinishReason(candidate.finishReason, this.calls > 0);
    if (finish !== null) this.finish = finish;
  }
}

/** Gemini as the relay's native wire of channel type 24. */
export const geminiWire: NativeWire = {
  modes: new Set<RelayMode>(['chat', 'embeddings']),
  requestBody: (mode, json, model) => {
    const body = mode === 'embeddings' ? geminiEmbeddingRequest(json, model) : geminiChatRequest(json);
    return typeof body === 'string' ? { invalid: body } : { body: JSON.stringify(body) };
  },
  answerText,
  streamTranslator: (model) => new GeminiStream(model),
};
