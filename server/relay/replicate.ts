import type { EventSourceMessage } from 'eventsource-parser';
import type { UpstreamTarget } from './adaptor';
import type { RelayMode } from './types';
import { getUpstream, madeResponse, postUpstream, textOfChunks, type UpstreamResponse } from './upstreamClient';
import { contentText, EventTranslator, isObject, nowSeconds, parsedJson, str, tokens, usageEvents, type Json, type NativeWire } from './wire';

/**
 * Replicate (channel type 46) as a native wire, from Replicate's public HTTP API reference
 * (predictions) and its streaming guide:
 * - the model name is the Replicate model, `owner/name` (an official model, created through
 *   `POST /v1/models/{owner}/{name}/predictions`) or `owner/name:version` (a pinned version,
 *   created through `POST /v1/predictions` with `version`); the key is an API token
 *   (`Authorization: Bearer`); the channel's base is the host, with or without `/v1/models`;
 * - a prediction is created with `{input, stream?}`; a whole answer is asked for with
 *   `Prefer: wait` and, while the prediction is still `starting` or `processing`, its `urls.get`
 *   is polled (backing off from 0.5 s to 2 s) until it `succeeded`, `failed` or was `canceled`;
 *   a stream is read from the prediction's `urls.stream` (server-sent events `output` with plain
 *   text, `error`, `done`); a stop (client gone, RELAY_TIMEOUT) cancels the prediction through
 *   `urls.cancel`, best effort;
 * - chat: language models take one `prompt` and a `system_prompt`, so the messages are flattened
 *   (`replicatePrompt`); max_tokens, temperature, top_p, stop, seed and the penalties become
 *   inputs of the same names (`max_tokens` also as `max_new_tokens`, `stop` as the
 *   comma-separated `stop_sequences`); the output (a list of text pieces) is joined; the usage is
 *   the prediction's `metrics.input_token_count` / `output_token_count` (else counted);
 * - images: `{prompt, aspect_ratio (from size) or width/height, num_outputs (n > 1),
 *   output_format (png)}`; the output URL(s) become `data[].url`, or `data[].b64_json` (the
 *   files fetched) when the client asked for `b64_json`;
 * - errors are problem details (`{title, detail, status}`): 401 stays 401, 402 (no credit) and
 *   429 become 429, 422 (invalid input) becomes 400; a failed or canceled prediction is a 500.
 *
 * The exchange answers the wire in its own grammar: a whole answer is the final prediction JSON
 * (with files inlined as data URLs when b64_json was asked for) and a stream is Replicate's event
 * stream followed, once it ended, by a `metrics` event with the prediction's metrics.
 */

/** The header the exchange puts on a whole answer: the task (`chat` or `images`) it answers. */
const taskHeader = 'x-replicate-task';
/** A field of the wire's body the exchange reads and does not send: the images' response format. */
const formatField = 'relay_response_format';

/** Replicate's host for a channel base (`https://api.replicate.com`, with or without `/v1/models`). */
export const replicateHost = (base: string): string => base.replace(/\/+$/, '').replace(/\/v1(\/models)?$/, '');

/** `owner/name` or `owner/name:version`, else null. */
function modelRef(model: string): { readonly owner: string; readonly name: string; readonly version: string | null } | null {
  const match = /^([A-Za-z0-9][\w.-]*)\/([A-Za-z0-9][\w.-]*)(?::([A-Za-z0-9]+))?$/.exec(model);
  return match === null ? null : { owner: match[1]!, name: match[2]!, version: match[3] ?? null };
}

const modelMessage = (model: string): string => `model: ${JSON.stringify(model)} is not a Replicate model name (owner/name or owner/name:version)`;

/** The URL a prediction of `model` is created at, and the fields its body adds. */
function createTarget(host: string, model: string): { readonly url: string; readonly extra: Json } | null {
  const ref = modelRef(model);
  if (ref === null) return null;
  return ref.version === null
    ? { url: `${host}/v1/models/${ref.owner}/${ref.name}/predictions`, extra: {} }
    : { url: `${host}/v1/predictions`, extra: { version: ref.version } };
}

/**
 * The prompt and system prompt of OpenAI messages: system and developer messages, joined by a
 * blank line, are the system prompt; a conversation of one user message is its text; a longer one
 * is a transcript of `User: …` and `Assistant: …` turns separated by blank lines, ending in
 * `Assistant:` when the last turn is the user's, for the model to go on.
 */
export function replicatePrompt(messages: readonly unknown[]): { readonly prompt: string; readonly system: string } | string {
  const system: string[] = [];
  const turns: { readonly role: 'user' | 'assistant'; readonly text: string }[] = [];
  for (const message of messages) {
    if (!isObject(message)) return 'messages: every message must be an object';
    const role = str(message.role);
    if (Array.isArray(message.content) && message.content.some((p) => isObject(p) && p.type !== 'text')) {
      return 'messages: Replicate channels take text only (image and other non-text content parts are not supported)';
    }
    if (role === 'tool' || role === 'function' || (role === 'assistant' && (message.tool_calls !== undefined || message.function_call !== undefined))) {
      return 'messages: Replicate channels do not support tools (tool calls and tool results)';
    }
    const text = contentText(message.content);
    if (role === 'system' || role === 'developer') system.push(text);
    else if (role === 'user' || role === 'assistant') turns.push({ role, text });
    else return `messages: the role ${JSON.stringify(role)} is not supported by Replicate channels (system, user or assistant)`;
  }
  if (!turns.some((t) => t.role === 'user')) return 'messages: at least one user message is required';
  const only = turns.length === 1 ? turns[0] : undefined;
  const prompt =
    only !== undefined
      ? only.text
      : turns.map((t) => `${t.role === 'user' ? 'User' : 'Assistant'}: ${t.text}`).join('\n\n') + (turns.at(-1)?.role === 'user' ? '\n\nAssistant:' : '');
  return { prompt, system: system.join('\n\n') };
}

/** Replicate's chat input for an OpenAI chat request, or a message naming what cannot be sent. */
function chatInput(json: Readonly<Json>): Json | string {
  for (const field of ['tools', 'functions', 'tool_choice', 'function_call'] as const) {
    if (json[field] !== undefined && json[field] !== null) return `${field}: Replicate channels do not support tools (function calling)`;
  }
  if (typeof json.n === 'number' && json.n > 1) return 'n: Replicate channels answer one choice per request';
  const flat = replicatePrompt(Array.isArray(json.messages) ? (json.messages as unknown[]) : []);
  if (typeof flat === 'string') return flat;
  const input: Json = { prompt: flat.prompt };
  if (flat.system !== '') input.system_prompt = flat.system;
  const max = typeof json.max_completion_tokens === 'number' ? json.max_completion_tokens : json.max_tokens;
  if (typeof max === 'number' && max > 0) {
    input.max_tokens = max;
    input.max_new_tokens = max;
  }
  for (const field of ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty', 'seed'] as const) {
    if (typeof json[field] === 'number') input[field] = json[field];
  }
  const stop = typeof json.stop === 'string' ? [json.stop] : Array.isArray(json.stop) ? json.stop.filter((s): s is string => typeof s === 'string') : [];
  if (stop.length > 0) input.stop_sequences = stop.join(',');
  return input;
}

/** Aspect ratios Replicate's image models list (FLUX). */
const aspectRatios = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'];
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Replicate's image input for an OpenAI image request. */
function imageInput(json: Readonly<Json>): Json | string {
  const input: Json = { prompt: str(json.prompt), output_format: 'png' };
  const size = typeof json.size === 'string' && json.size !== '' ? json.size : '1024x1024';
  const dims = /^(\d+)x(\d+)$/.exec(size);
  if (dims === null) return `size: ${JSON.stringify(size)} is not WIDTHxHEIGHT`;
  const width = Number(dims[1]);
  const height = Number(dims[2]);
  const divisor = gcd(width, height);
  const ratio = divisor === 0 ? '' : `${width / divisor}:${height / divisor}`;
  if (aspectRatios.includes(ratio)) input.aspect_ratio = ratio;
  else {
    input.width = width;
    input.height = height;
  }
  if (typeof json.n === 'number' && json.n > 1) input.num_outputs = json.n;
  return input;
}

/** Replicate's create body (plus the images' response format for the exchange), or a refusal. */
function requestBody(mode: RelayMode, json: Readonly<Json>, model: string): { readonly body: string } | { readonly invalid: string } {
  if (modelRef(model) === null) return { invalid: modelMessage(model) };
  if (mode === 'images') {
    const input = imageInput(json);
    if (typeof input === 'string') return { invalid: input };
    return { body: JSON.stringify({ input, [formatField]: json.response_format === 'b64_json' ? 'b64_json' : 'url' }) };
  }
  const input = chatInput(json);
  if (typeof input === 'string') return { invalid: input };
  return { body: JSON.stringify(json.stream === true ? { input, stream: true } : { input }) };
}

/** The message of a Replicate problem (`detail`, `title`) or error value. */
function problemMessage(body: unknown, fallback: string): string {
  if (typeof body === 'string' && body !== '') return body;
  if (!isObject(body)) return fallback;
  const nested = isObject(body.error) ? body.error.message : undefined;
  const message = [body.detail, body.title, body.error, nested, body.message].map(str).find((m) => m !== '');
  return message ?? fallback;
}

/** The status the relay answers for a Replicate answer. */
function answerStatus(status: number, text: string): number {
  if (status === 200 || status === 201) {
    const body = parsedJson(text);
    return isObject(body) && (body.status === 'failed' || body.status === 'canceled') ? 500 : 200;
  }
  if (status === 402) return 429;
  if (status === 422) return 400;
  return status;
}

const errorText = (message: string, type: string, code: string | number): string => JSON.stringify({ error: { message, type, param: '', code } });

/** The OpenAI error of a Replicate refusal (`status` other than 2xx). */
function refusalText(status: number, text: string): string {
  const message = problemMessage(parsedJson(text) ?? text.trim(), `Replicate answered HTTP ${status}`);
  if (status === 401) return errorText(message, 'authentication_error', 'invalid_api_key');
  if (status === 403) return errorText(message, 'permission_error', 'forbidden');
  if (status === 402) return errorText(message, 'insufficient_quota', 'insufficient_quota');
  if (status === 429) return errorText(message, 'rate_limit_error', 'rate_limit_exceeded');
  if (status === 422 || status === 400) return errorText(message, 'invalid_request_error', 'invalid_input');
  if (status === 404) return errorText(message, 'invalid_request_error', 'model_not_found');
  return errorText(message, 'replicate_error', status);
}

/** A prediction's text output (a list of pieces, or one text). */
const outputText = (output: unknown): string => (typeof output === 'string' ? output : Array.isArray(output) ? output.map((p) => (typeof p === 'string' ? p : '')).join('') : '');

/** A prediction's file outputs (one URL or a list). */
const outputFiles = (output: unknown): string[] => (typeof output === 'string' ? [output] : Array.isArray(output) ? output.filter((p): p is string => typeof p === 'string') : []);

/** The usage of a prediction's metrics, or null when it reports no token counts. */
function metricsUsage(metrics: unknown): { readonly prompt: number; readonly completion: number } | null {
  if (!isObject(metrics) || (metrics.input_token_count === undefined && metrics.output_token_count === undefined)) return null;
  return { prompt: tokens(metrics.input_token_count), completion: tokens(metrics.output_token_count) };
}

/** The OpenAI JSON text of a Replicate answer: a finished prediction, or an error. */
function answerText(status: number, text: string, model: string, header?: (name: string) => string | null): string {
  if (status !== 200 && status !== 201) return refusalText(status, text);
  const prediction = parsedJson(text);
  if (!isObject(prediction)) return errorText('Replicate answered something that is not a prediction', 'replicate_error', 'bad_response');
  if (prediction.status === 'failed') return errorText(`the Replicate prediction failed: ${problemMessage(prediction.error, 'no reason given')}`, 'replicate_error', 'prediction_failed');
  if (prediction.status === 'canceled') return errorText('the Replicate prediction was canceled', 'replicate_error', 'prediction_canceled');
  if (prediction.status !== 'succeeded') return errorText(`the Replicate prediction did not finish (status ${str(prediction.status)})`, 'replicate_error', 'prediction_unfinished');
  if (header?.(taskHeader) === 'images') {
    const data = outputFiles(prediction.output).map((file) => {
      const inline = /^data:[^;,]*;base64,(.*)$/s.exec(file);
      return inline === null ? { url: file } : { b64_json: inline[1] ?? '' };
    });
    return JSON.stringify({ created: nowSeconds(), data });
  }
  const usage = metricsUsage(prediction.metrics);
  return JSON.stringify({
    id: `chatcmpl-replicate-${str(prediction.id) === '' ? Date.now() : str(prediction.id)}`,
    object: 'chat.completion',
    created: nowSeconds(),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: outputText(prediction.output) }, finish_reason: 'stop' }],
    ...(usage === null ? {} : { usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion } }),
  });
}

/** Translates Replicate's stream (`output`, `error`, `done`, then the exchange's `metrics`) into OpenAI chunks. */
class ReplicateStream extends EventTranslator {
  private done = false;
  private failed = false;
  private usage: { prompt: number; completion: number } | null = null;

  constructor(model: string) {
    super(model, `chatcmpl-replicate-${Date.now()}`);
  }

  end(): string {
    if (this.failed) return this.flush();
    if (!this.done) {
      this.fail('the Replicate stream ended before the prediction finished', 'stream_interrupted');
      return this.flush();
    }
    this.push({}, 'stop');
    // without token counts the pipeline counts what was streamed
    this.out.push(this.usage === null ? 'data: [DONE]\n\n' : usageEvents(this.id, this.created, this.model, this.usage.prompt, this.usage.completion));
    return this.flush();
  }

  private fail(message: string, code: string): void {
    this.failed = true;
    this.out.push(`data: ${errorText(message, 'replicate_error', code)}\n\n`);
  }

  protected onEvent(event: EventSourceMessage): void {
    if (this.failed) return;
    switch (event.event) {
      case 'output':
        if (!this.done && event.data !== '') this.push({ content: event.data });
        return;
      case 'error':
        this.fail(`the Replicate prediction failed: ${problemMessage(parsedJson(event.data) ?? event.data, 'no reason given')}`, 'prediction_failed');
        return;
      case 'done': {
        const data = parsedJson(event.data);
        const reason = isObject(data) ? str(data.reason) : '';
        if (reason === 'canceled') this.fail('the Replicate prediction was canceled', 'prediction_canceled');
        else if (reason === 'error') this.fail('the Replicate prediction failed', 'prediction_failed');
        else this.done = true;
        return;
      }
      case 'metrics':
        this.usage = metricsUsage(parsedJson(event.data));
        return;
      default:
        // not one of Replicate's events (a line without an event name, an unknown event): dropped
        return;
    }
  }
}

/** Replicate as the relay's native wire of channel type 46. */
export const replicateWire: NativeWire = {
  modes: new Set<RelayMode>(['chat', 'images']),
  requestBody: (mode, json, model) => requestBody(mode, json, model),
  answerText,
  answerStatus,
  streamTranslator: (model) => new ReplicateStream(model),
};

// ---------------------------------------------------------------------------------------------
// The exchange: create, then wait, poll or stream

const jsonHeaders = { 'Content-Type': 'application/json' } as const;

/** Waits `ms`, or rejects when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** The poll delays: 0.5 s doubling up to 2 s. */
export const pollDelays = { firstMs: 500, maxMs: 2_000 } as const;
/** How long a prediction is polled before it is canceled (RELAY_TIMEOUT usually stops it first). */
const pollLimitMs = 10 * 60_000;

const isRunning = (prediction: Json): boolean => prediction.status === 'starting' || prediction.status === 'processing';
const urlsOf = (prediction: Json): Json => (isObject(prediction.urls) ? prediction.urls : {});

/** Cancels a prediction, best effort (its own short deadline; failures ignored). */
function cancelPrediction(prediction: Json, auth: Readonly<Record<string, string>>): void {
  const url = str(urlsOf(prediction).cancel);
  if (url === '') return;
  postUpstream(url, auth, '', AbortSignal.timeout(5_000))
    .then((answer) => answer.cancel())
    .catch(() => undefined);
}

/** A file output as a data URL (for b64_json). */
async function inlined(url: string, signal: AbortSignal): Promise<string> {
  if (url.startsWith('data:')) return url;
  const answer = await getUpstream(url, {}, signal);
  if (answer.status !== 200) {
    answer.cancel();
    throw new Error(`fetching the image ${url} answered HTTP ${answer.status}`);
  }
  const chunks: Uint8Array[] = [];
  for (let chunk = await answer.read(); chunk !== null; chunk = await answer.read()) chunks.push(chunk);
  const type = (answer.headers.get('Content-Type') ?? 'image/png').split(';')[0] ?? 'image/png';
  return `data:${type};base64,${Buffer.concat(chunks).toString('base64')}`;
}

/** The prediction JSON of a 2xx answer, or null. */
async function predictionOf(answer: UpstreamResponse): Promise<{ readonly text: string; readonly prediction: Json | null }> {
  const text = await answer.text();
  const parsed = parsedJson(text);
  return { text, prediction: isObject(parsed) ? parsed : null };
}

/** Polls `prediction` until it is no longer running; the last prediction, or an error answer. */
async function followed(first: Json, auth: Readonly<Record<string, string>>, signal: AbortSignal): Promise<{ readonly prediction: Json } | { readonly answer: UpstreamResponse }> {
  let prediction = first;
  let delay: number = pollDelays.firstMs;
  const deadline = Date.now() + pollLimitMs;
  while (isRunning(prediction)) {
    const url = str(urlsOf(prediction).get);
    if (url === '') return { answer: madeResponse(502, errorText('the Replicate prediction is still running and names no URL to poll', 'replicate_error', 'bad_response'), jsonHeaders) };
    if (Date.now() > deadline) {
      cancelPrediction(prediction, auth);
      return { answer: madeResponse(504, errorText('the Replicate prediction did not finish in time (canceled)', 'replicate_error', 'prediction_timeout'), jsonHeaders) };
    }
    try {
      await pause(delay, signal);
      delay = Math.min(delay * 2, pollDelays.maxMs);
      const answer = await getUpstream(url, auth, signal);
      if (answer.status !== 200) return { answer };
      const next = await predictionOf(answer);
      if (next.prediction === null) return { answer: madeResponse(502, errorText('Replicate answered a poll with something that is not a prediction', 'replicate_error', 'bad_response'), jsonHeaders) };
      prediction = next.prediction;
    } catch (error) {
      if (signal.aborted) cancelPrediction(prediction, auth);
      throw error;
    }
  }
  return { prediction };
}

/** Whole answers: create with `Prefer: wait`, poll while running, inline files when asked. */
async function wholeExchange(url: string, auth: Record<string, string>, body: Json, task: 'chat' | 'images', b64: boolean, signal: AbortSignal): Promise<UpstreamResponse> {
  const created = await postUpstream(url, { ...auth, 'Content-Type': 'application/json', Prefer: 'wait' }, JSON.stringify(body), signal);
  if (created.status !== 200 && created.status !== 201 && created.status !== 202) return created;
  const first = await predictionOf(created);
  if (first.prediction === null) return madeResponse(502, errorText('Replicate answered something that is not a prediction', 'replicate_error', 'bad_response'), jsonHeaders);
  const last = await followed(first.prediction, auth, signal);
  if ('answer' in last) return last.answer;
  let prediction = last.prediction;
  if (b64 && prediction.status === 'succeeded') {
    const files = await Promise.all(outputFiles(prediction.output).map((file) => inlined(file, signal)));
    prediction = { ...prediction, output: files };
  }
  return madeResponse(200, JSON.stringify(prediction), { 'Content-Type': 'application/json', [taskHeader]: task });
}

/** A stream: create, then read `urls.stream`; once it ended, the prediction's metrics as a `metrics` event. */
async function streamExchange(url: string, auth: Record<string, string>, body: Json, signal: AbortSignal): Promise<UpstreamResponse> {
  const created = await postUpstream(url, { ...auth, 'Content-Type': 'application/json' }, JSON.stringify(body), signal);
  if (created.status !== 200 && created.status !== 201 && created.status !== 202) return created;
  const first = await predictionOf(created);
  const prediction = first.prediction;
  if (prediction === null) return madeResponse(502, errorText('Replicate answered something that is not a prediction', 'replicate_error', 'bad_response'), jsonHeaders);
  const streamUrl = str(urlsOf(prediction).stream);
  if (streamUrl === '') {
    // a model that does not stream: its whole output as one `output` event
    const followedUp = await followed(prediction, auth, signal);
    if ('answer' in followedUp) return followedUp.answer;
    const last = followedUp.prediction;
    if (last.status !== 'succeeded') return madeResponse(200, JSON.stringify(last), { 'Content-Type': 'application/json', [taskHeader]: 'chat' });
    const text = outputText(last.output);
    const events = `${text === '' ? '' : `event: output\n${text.split('\n').map((line) => `data: ${line}`).join('\n')}\n\n`}event: done\ndata: {}\n\nevent: metrics\ndata: ${JSON.stringify(last.metrics ?? {})}\n\n`;
    return madeResponse(200, events, { 'Content-Type': 'text/event-stream' });
  }
  let finished = false;
  const onAbort = (): void => {
    if (finished) return;
    finished = true;
    cancelPrediction(prediction, auth);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  let stream: UpstreamResponse;
  try {
    stream = await getUpstream(streamUrl, { ...auth, Accept: 'text/event-stream', 'Cache-Control': 'no-store' }, signal);
  } catch (error) {
    signal.removeEventListener('abort', onAbort);
    throw error;
  }
  if (stream.status !== 200) {
    signal.removeEventListener('abort', onAbort);
    cancelPrediction(prediction, auth);
    return stream;
  }
  let metricsSent = false;
  const read = async (): Promise<Uint8Array | null> => {
    const chunk = await stream.read();
    if (chunk !== null) return chunk;
    finished = true;
    signal.removeEventListener('abort', onAbort);
    if (metricsSent) return null;
    metricsSent = true;
    const url = str(urlsOf(prediction).get);
    if (url === '') return null;
    try {
      const answer = await getUpstream(url, auth, signal);
      if (answer.status !== 200) {
        answer.cancel();
        return null;
      }
      const last = await predictionOf(answer);
      return last.prediction === null ? null : new TextEncoder().encode(`event: metrics\ndata: ${JSON.stringify(last.prediction.metrics ?? {})}\n\n`);
    } catch {
      // the usage is then counted
      return null;
    }
  };
  return {
    status: 200,
    headers: { get: (name) => (name.toLowerCase() === 'content-type' ? 'text/event-stream' : stream.headers.get(name)) },
    text: () => textOfChunks(read),
    read,
    cancel: () => {
      if (!finished) {
        finished = true;
        signal.removeEventListener('abort', onAbort);
        cancelPrediction(prediction, auth);
      }
      stream.cancel();
    },
  };
}

/** The upstream target of a Replicate channel: chat and images through predictions; null for other modes. */
export function replicateTarget(base: string, key: string, mode: RelayMode, model: string, stream: boolean): UpstreamTarget | null {
  if (mode !== 'chat' && mode !== 'images') return null;
  const host = replicateHost(base);
  // an unusable model name is refused by the wire before anything is sent
  const target = createTarget(host, model) ?? { url: `${host}/v1/models/${model}/predictions`, extra: {} };
  return {
    url: target.url,
    headers: { Authorization: `Bearer ${key}` },
    exchange: async (headers, body, signal) => {
      const auth: Record<string, string> = { Authorization: headers.Authorization ?? headers.authorization ?? `Bearer ${key}` };
      const parsed = parsedJson(body);
      const sent: Json = { ...target.extra, ...(isObject(parsed) ? parsed : {}) };
      const b64 = sent[formatField] === 'b64_json';
      delete sent[formatField];
      if (mode === 'chat' && stream && sent.stream === true) return streamExchange(target.url, auth, sent, signal);
      return wholeExchange(target.url, auth, sent, mode, b64, signal);
    },
  };
}
