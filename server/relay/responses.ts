import { createParser } from 'eventsource-parser';
import * as E from 'fp-ts/Either';
import type { Context } from 'hono';
import { requestIdHeader } from '../http/env';
import { channelBaseUrl } from './adaptor';
import { acrossChannels, fail, upstreamFailure, type Attempt } from './attempts';
import { sendRelayError } from './auth';
import { afterAnswer, refund, reserve, reserveUpTo, settle } from './billing';
import { openEventSink } from './eventSink';
import type { RelayEnv } from './pipeline';
import { consumeLogContent, finalQuota, pricingOf, reservationRange } from './pricing';
import { relaySettings, type RelaySettings } from './relaySettings';
import { mappedModel } from './request';
import type { Reservation } from './reservations';
import { countPlan, type CountPlan } from './tokenCount';
import { postUpstream, type UpstreamResponse } from './upstreamClient';
import { boundedUsage } from './usageBound';
import { relayCorsHeaders, relayError, type RelayChannel, type Usage } from './types';
import { isObject } from './wire';

/**
 * `POST /v1/responses` (OpenAI's Responses API) passed through to channels whose upstream speaks
 * OpenAI's API: the body goes as it is (only `model` mapped), the answer comes back as it is, whole
 * or as the Responses API's server-sent events (`response.created`, `response.output_text.delta`,
 * …, `response.completed`). Billing is the chat pipeline's: the prompt (`instructions` and the
 * texts of `input`) is counted and reserved with `max_output_tokens` as the completion bound
 * (`reservationRange`), the answer's `usage` {input_tokens, output_tokens} is billed as prompt and
 * completion tokens (`finalQuota`, bounded by `boundedUsage`), a failed attempt is refunded and
 * retried on another channel as the pipeline does (RetryTimes; pinned channels never).
 *
 * Served types: 1 OpenAI (`<base>/v1/responses`), 3 Azure (`<base>/openai/responses?api-version=`),
 * 8 Custom (`<base>/v1/responses`), 50 OpenAI-compatible (`<base>/responses`). Other types (native
 * wires, or compatible APIs without a documented Responses endpoint) are skipped: 501
 * `channel_type_not_supported`, retryable on another channel.
 *
 * Streams: malformed events are dropped; usage comes from the terminal event's `response.usage`
 * (`response.completed`, `.incomplete` or `.failed`), else from counting the delivered
 * `response.output_text.delta` texts. An upstream that ends or drops before a terminal event gets
 * an `error` event (the API's own error event shape) and is billed what was delivered; a client
 * that leaves stops the upstream and is billed what was delivered.
 */

type Ctx = Context<RelayEnv>;

const count = (u: unknown): number => (typeof u === 'number' && Number.isFinite(u) && u > 0 ? Math.min(Math.trunc(u), 1e12) : 0);
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The Responses endpoint of a channel, or null when its type does not serve it. */
export function responsesTarget(channel: Pick<RelayChannel, 'type' | 'key' | 'base_url' | 'other' | 'config'>): { url: string; headers: Record<string, string> } | null {
  const base = channelBaseUrl(channel);
  const key = channel.key ?? '';
  const bearer = { Authorization: `Bearer ${key}` };
  switch (channel.type) {
    case 1:
      return { url: base.startsWith('https://gateway.ai.cloudflare.com') ? `${base}/responses` : `${base}/v1/responses`, headers: bearer };
    case 3: {
      let version = channel.other ?? '';
      try {
        const config: unknown = JSON.parse(channel.config ?? '');
        if (isObject(config) && typeof config.api_version === 'string' && config.api_version !== '') version = config.api_version;
      } catch {
        // an unparsable config is treated as empty
      }
      return { url: `${base}/openai/responses?api-version=${encodeURIComponent(version)}`, headers: { 'api-key': key } };
    }
    case 8:
      return { url: `${base}/v1/responses`, headers: bearer };
    case 50:
      return { url: `${base}/responses`, headers: bearer };
    default:
      return null;
  }
}

/** The texts of a Responses request's prompt: `instructions` and every text in `input`. */
export function responsesPromptPlan(json: Readonly<Record<string, unknown>>): CountPlan {
  const texts: string[] = [];
  if (typeof json.instructions === 'string') texts.push(json.instructions);
  const walk = (value: unknown, depth: number): void => {
    if (depth > 16) return;
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) for (const item of value) walk(item, depth + 1);
    else if (isObject(value)) {
      for (const key of ['content', 'text', 'output', 'arguments']) if (key in value) walk(value[key], depth + 1);
    }
  };
  walk(json.input, 0);
  return { fixed: 0, texts };
}

/** An answer's Responses `usage`, or null when absent or all zero. */
function usageOf(response: unknown): Usage | null {
  if (!isObject(response) || !isObject(response.usage)) return null;
  const usage = { promptTokens: count(response.usage.input_tokens), completionTokens: count(response.usage.output_tokens) };
  return usage.promptTokens + usage.completionTokens > 0 ? usage : null;
}

/** Terminal events of a Responses stream. */
const terminalEvents: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** The handler of `POST /v1/responses` (after `relayAuth('chat')`). */
export async function responsesHandler(c: Ctx): Promise<Response> {
  const deps = c.var.deps;
  const caller = c.var.caller;
  const body = c.var.relayBody;
  if (body.model === '') return sendRelayError(c, relayError(400, 'model is required', 'invalid_request', 'invalid_request_error'));
  const settings = await relaySettings(deps.db);
  return acrossChannels(c, { deps, caller, settings, model: body.model, requestId: c.var.requestId, attempt: (channel) => attempt(c, settings, channel) });
}

/** One attempt on `channel`: reserve, call, answer or fail with the reservation refunded. */
async function attempt(c: Ctx, settings: RelaySettings, channel: RelayChannel): Promise<Attempt> {
  const started = performance.now();
  const deps = c.var.deps;
  const caller = c.var.caller;
  const body = c.var.relayBody;
  const requestId = c.var.requestId;
  const json = body.json ?? {};
  const clientSignal = c.req.raw.signal;
  if (clientSignal.aborted) return fail(relayError(499, 'the client closed the connection', 'client_closed_request'), false);
  const target = responsesTarget(channel);
  if (target === null) return fail(relayError(501, `channel #${channel.id} (type ${channel.type}) does not serve the Responses API`, 'channel_type_not_supported'), true);
  const model = mappedModel(channel.model_mapping, body.model);
  const stream = json.stream === true;
  const pricing = pricingOf(settings, model, channel.type, caller.group);
  const options = { approximate: settings.approximateTokenEnabled };

  const promptTokens = await countPlan(responsesPromptPlan(json), model, options);
  if (promptTokens > deps.config.relayMaxPromptTokens) return fail(relayError(413, `the prompt is at least ${promptTokens} tokens, above the limit of ${deps.config.relayMaxPromptTokens} tokens (RELAY_MAX_PROMPT_TOKENS)`, 'prompt_too_long', 'invalid_request_error'), false);
  const maxTokens = typeof json.max_output_tokens === 'number' && json.max_output_tokens > 0 ? json.max_output_tokens : null;
  const maxCompletion = deps.config.relayMaxCompletionTokens;
  const range = reservationRange(pricing, promptTokens, maxTokens, settings.preConsumedQuota, maxCompletion);
  const reserved = range.most === range.least ? await reserve(deps, caller, range.least, settings) : await reserveUpTo(deps, caller, range, settings);
  if (E.isLeft(reserved)) return fail(reserved.left, false);
  const reservation: Reservation = reserved.right;

  let billed = false;
  const bill = async (reported: Usage): Promise<void> => {
    if (billed) return;
    billed = true;
    const { usage, note } = boundedUsage(reported, { promptTokens, maxTokens, maxCompletion, choices: 1 });
    const content = consumeLogContent(pricing);
    const charge = {
      quota: finalQuota(pricing, usage),
      usage,
      content: note === null ? content : `${content}；${note}`,
      modelName: model,
      channelId: channel.id,
      tokenName: caller.token.name ?? '',
      isStream: stream,
      elapsedMs: Math.round(performance.now() - started),
      systemPromptReset: false,
      requestId,
    };
    try {
      await settle(deps, reservation, charge);
    } catch (error) {
      console.error(`[relay] billing of request ${requestId} failed:`, error);
      await refund(deps, reservation).catch(() => undefined);
    }
  };

  const sent = model === body.model ? body.raw : JSON.stringify({ ...json, model });
  const abort = new AbortController();
  const onGone = (): void => abort.abort(new Error('the client closed the connection'));
  clientSignal.addEventListener('abort', onGone, { once: true });
  // left while the reservation was taken (an aborted signal fires no more events): no call, the reservation back
  if (clientSignal.aborted) onGone();
  const timeoutMs = deps.config.relayTimeoutMs;
  let timer = timeoutMs > 0 ? setTimeout(() => abort.abort(new Error(`upstream did not answer within ${timeoutMs / 1000} s`)), timeoutMs) : null;
  const release = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    clientSignal.removeEventListener('abort', onGone);
  };
  const refunded = async (result: Attempt): Promise<Attempt> => {
    release();
    await refund(deps, reservation);
    return result;
  };
  const aborted = (error: unknown): Attempt => {
    if (clientSignal.aborted) return fail(relayError(499, 'the client closed the connection', 'client_closed_request'), false);
    if (abort.signal.aborted) return fail(relayError(504, errorText(abort.signal.reason), 'upstream_timeout'), true);
    return fail(relayError(500, `do request failed: ${errorText(error)}`, 'do_request_failed'), true);
  };

  const headers = { ...target.headers, 'Content-Type': 'application/json', Accept: stream ? 'text/event-stream' : 'application/json' };
  let upstream: UpstreamResponse;
  try {
    upstream = await postUpstream(target.url, headers, sent, abort.signal);
  } catch (error) {
    return refunded(aborted(error));
  }
  const contentType = upstream.headers.get('Content-Type') ?? '';
  if (upstream.status !== 200 || (stream && !contentType.includes('text/event-stream'))) {
    let text: string;
    try {
      text = await upstream.text();
    } catch (error) {
      return refunded(aborted(error));
    }
    return refunded(upstreamFailure(upstream.status === 200 ? 500 : upstream.status, text));
  }

  if (!stream) {
    let text: string;
    try {
      text = await upstream.text();
    } catch (error) {
      return refunded(aborted(error));
    }
    release();
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch (error) {
      await refund(deps, reservation);
      return fail(relayError(500, `unmarshal response body failed: ${errorText(error)}`, 'unmarshal_response_body_failed'), true);
    }
    if (!isObject(answer) || isObject(answer.error)) {
      await refund(deps, reservation);
      return upstreamFailure(500, text);
    }
    const usage = usageOf(answer);
    afterAnswer(
      deps.db,
      usage !== null
        ? bill(usage)
        : countPlan({ fixed: 0, texts: [outputText(answer)] }, model, options).then(async (completionTokens) => bill({ promptTokens, completionTokens })),
    );
    return { ok: true, response: c.body(text, 200, { 'Content-Type': contentType === '' ? 'application/json' : contentType }) };
  }
  return streamResponses(c, upstream, { abort, release, refunded, aborted, bill, promptTokens, model, options, timeoutMs });
}

/** The text of a whole Responses answer's `output_text` parts. */
function outputText(answer: Record<string, unknown>): string {
  let text = '';
  for (const item of Array.isArray(answer.output) ? answer.output : []) {
    if (!isObject(item) || !Array.isArray(item.content)) continue;
    for (const part of item.content) if (isObject(part) && typeof part.text === 'string') text += part.text;
  }
  return text;
}

/** What the stream reader needs from its attempt. */
interface StreamParts {
  readonly abort: AbortController;
  readonly release: () => void;
  readonly refunded: (result: Attempt) => Promise<Attempt>;
  readonly aborted: (error: unknown) => Attempt;
  readonly bill: (usage: Usage) => Promise<void>;
  readonly promptTokens: number;
  readonly model: string;
  readonly options: { readonly approximate: boolean };
  readonly timeoutMs: number;
}

/** Passes the Responses events through once the first valid one is in (failures before it are ordinary, retryable errors). */
async function streamResponses(c: Ctx, upstream: UpstreamResponse, parts: StreamParts): Promise<Attempt> {
  const { abort, release, refunded, aborted, bill, promptTokens, model, options, timeoutMs } = parts;
  const decoder = new TextDecoder();
  const queue: string[] = [];
  let valid = 0;
  let malformed = 0;
  let terminal = false;
  let usage: Usage | null = null;
  let delivered = '';
  let firstError: string | null = null;
  const parser = createParser({
    onEvent: (event) => {
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        malformed += 1;
        return;
      }
      if (!isObject(data)) {
        malformed += 1;
        return;
      }
      const type = typeof data.type === 'string' ? data.type : (event.event ?? '');
      if (valid === 0 && (type === 'error' || isObject(data.error))) {
        firstError ??= event.data;
        return;
      }
      valid += 1;
      if (type === 'response.output_text.delta' && typeof data.delta === 'string') delivered += data.delta;
      if (terminalEvents.has(type)) {
        terminal = true;
        usage = usageOf(data.response) ?? usage;
      }
      const lines = event.data.split('\n').map((line) => `data: ${line}`).join('\n');
      queue.push(event.event === undefined ? `${lines}\n\n` : `event: ${event.event}\n${lines}\n\n`);
    },
  });
  const readMore = async (): Promise<boolean> => {
    const value = await upstream.read();
    if (value === null) return false;
    parser.feed(decoder.decode(value, { stream: true }));
    return true;
  };
  try {
    while (valid === 0 && firstError === null) if (!(await readMore())) break;
  } catch (error) {
    upstream.cancel();
    return refunded(aborted(error));
  }
  if (firstError !== null) {
    upstream.cancel();
    const parsed: unknown = JSON.parse(firstError);
    const inner = isObject(parsed) && isObject(parsed.error) ? parsed.error : parsed;
    return refunded(upstreamFailure(500, JSON.stringify({ error: inner })));
  }
  if (valid === 0) {
    upstream.cancel();
    return refunded(fail(relayError(502, malformed > 0 ? `upstream sent ${malformed} malformed event(s) and no valid one` : 'upstream closed the stream before sending any event', 'upstream_stream_failed'), true));
  }
  release();
  const sink = openEventSink(c, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no', [requestIdHeader]: c.var.requestId, ...relayCorsHeaders }, c.var.deps.config.relayClientStallMs);
  const gone = new Error('the client closed the connection');
  sink.onGone(() => abort.abort(gone));
  void (async () => {
    let tail = '';
    try {
      for (;;) {
        const events = queue.splice(0).join('');
        if (events !== '' && !(await sink.write(events))) break;
        if (terminal) break;
        const idle = timeoutMs > 0 ? setTimeout(() => abort.abort(new Error(`upstream silent for ${timeoutMs / 1000} s`)), timeoutMs) : null;
        let more: boolean;
        try {
          more = await readMore();
        } finally {
          if (idle !== null) clearTimeout(idle);
        }
        if (!more) throw new Error('upstream ended the stream before its final event');
      }
    } catch (error) {
      if (!sink.gone) {
        const reason = abort.signal.aborted ? errorText(abort.signal.reason) : errorText(error);
        console.warn(`[relay] request ${c.var.requestId}: responses stream interrupted: ${reason}`);
        const event = { type: 'error', code: 'stream_interrupted', message: `upstream stream interrupted: ${reason} (request id: ${c.var.requestId})`, param: null };
        tail = `event: error\ndata: ${JSON.stringify(event)}\n\n`;
      }
    }
    if (malformed > 0) console.warn(`[relay] request ${c.var.requestId}: dropped ${malformed} malformed event(s)`);
    upstream.cancel();
    const reported = usage;
    afterAnswer(
      c.var.deps.db,
      reported !== null ? bill(reported) : countPlan({ fixed: 0, texts: [delivered] }, model, options).then(async (completionTokens) => bill({ promptTokens, completionTokens })),
    );
    sink.end(queue.splice(0).join('') + tail);
  })();
  return { ok: true, response: sink.response };
}
