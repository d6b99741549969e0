import * as E from 'fp-ts/Either';
import type { Context } from 'hono';
import { requestIdHeader, type AppEnv, type ResolvedDeps } from '../http/env';
import { isRelayableType, jsonObject, nativeWireOf, sendUpstream, unsupportedTypeMessage, upstreamTarget } from './adaptor';
import { sendRelayError } from './auth';
import { acrossChannels, fail, upstreamFailure, type Attempt } from './attempts';
import { afterAnswer, refund, reserve, reserveUpTo, settle } from './billing';
import { boundedUsage, type UsageLimits } from './usageBound';
import { imageOptions, imageSizeRatio, mappedModel, upstreamBody, validateTextRequest, withSystemPrompt } from './request';
import { consumeLogContent, finalQuota, goFixed2, pricingOf, reservationRange, type Pricing } from './pricing';
import { relaySettings, type RelaySettings } from './relaySettings';
import type { Reservation } from './reservations';
import { clientWatchOf, openEventSink, type ClientWatch, type EventSink } from './eventSink';
import { EventSplitter } from './eventSplitter';
import { SettlementLost } from './settlementThread';
import { ReservationGone } from './writtenReservations';
import type { UpstreamResponse } from './upstreamClient';
import { base64Embeddings, translatedResponse } from './wire';
import { anthropicMessageText, MessagesStream } from './messagesApi';
import { CompletionCounter, countPlan, inputPlan, planBounds, planChars, promptPlan, type CountPlan } from './tokenCount';
import { CountingBusy, syncCountChars } from './tokenCountPool';
import {
  relayCorsHeaders,
  relayError,
  type RelayBody,
  type RelayCaller,
  type RelayChannel,
  type RelayError,
  type RelayFormat,
  type RelayMode,
  type RelayVariables,
  type Usage,
} from './types';

/**
 * The relay pipeline (contract §4.4–§4.9): for one authenticated request it picks a channel,
 * reserves quota, sends the request upstream through the channel's adaptor, passes the answer
 * back (server-sent events as they arrive), bills the final usage and writes the consume log.
 * A failed attempt refunds its reservation and, when the failure is retryable, the next attempt
 * goes to a channel not yet tried (RetryTimes); a fatal upstream error auto-disables the channel.
 *
 * Changes from one-api (each fixes something that hurts users; the wire shapes are kept):
 * - Every request reserves quota (no "trust shortcut", §6 #18) and a failed request always gets
 *   its reservation back; an answer without usage is billed from local token counts (§6 #19).
 * - Retries never draw the failed channel again: they go through the rest of the top priority
 *   tier, then the lower tiers (one-api could redraw the same channel and waste a retry).
 * - A stream answers its HTTP status only once the upstream's first event arrived: an upstream
 *   that fails before that is an ordinary error (502, retryable) instead of an empty 200 stream.
 * - RELAY_TIMEOUT bounds the wait for the answer (for streams: for the first event, then each
 *   silence between events), and a timeout before the answer is a 504 `upstream_timeout`;
 *   one-api's whole-body timeout cut long streams off.
 * - As in one-api, billing runs after the answer (`afterAnswer`); unlike one-api, shutdown waits
 *   for it, so an answered request is never left unbilled by a restart.
 * - An `error` object answered with status 200 (a JSON body, or a stream's first event) is a
 *   failed attempt: refunded, retryable as a 500, checked by the auto-disable rules.
 * - Upstream token counts are billed and logged as whole numbers (fractions dropped).
 * - Embeddings answered without usage are billed their counted input (one-api billed 0).
 * - A stream the upstream drops, or the client leaves, is billed for what was delivered.
 */

/** The Hono environment of a relay handler: the /api variables plus what the auth step set. */
export interface RelayEnv {
  Variables: AppEnv['Variables'] & RelayVariables;
}

type Ctx = Context<RelayEnv>;

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
const num = (u: unknown): number => (typeof u === 'number' && Number.isFinite(u) ? u : 0);
/**
 * A token count reported by the upstream as a whole non-negative safe integer: fractions are
 * dropped and absurd values capped, since the log columns are integers (PostgreSQL refuses 10.7
 * in a bigint, which made the whole settlement fail and the reservation stay unaccounted).
 */
const tokenCount = (u: unknown): number => Math.min(Math.floor(Math.max(num(u), 0)), Number.MAX_SAFE_INTEGER);
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The JSON object `text` holds, or null. */
function parsedObject(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The request as its prompt is counted: with the channel's forced system prompt applied, as
 * one-api counts it (it sets the system prompt before counting), so the estimate and a local
 * count cover what the upstream really reads.
 */
function promptedJson(json: Readonly<Record<string, unknown>>, systemPrompt: string | null): Readonly<Record<string, unknown>> {
  const { messages } = json;
  if (systemPrompt === null || systemPrompt === '' || !Array.isArray(messages) || messages.length === 0) return json;
  return { ...json, messages: withSystemPrompt(messages as unknown[], systemPrompt) };
}

/** What one attempt needs besides the channel. */
interface Request {
  readonly deps: ResolvedDeps;
  readonly mode: RelayMode;
  readonly caller: RelayCaller;
  readonly body: RelayBody;
  readonly settings: RelaySettings;
  readonly started: number;
  readonly requestId: string;
  /** The client leaving (see `clientWatchOf`). */
  readonly client: ClientWatch;
  readonly stream: boolean;
  /** The client's format (Anthropic's for /v1/messages: answers are translated on the way out). */
  readonly format: RelayFormat;
}

/** The requested `max_tokens` (or `max_completion_tokens`), or null. */
function maxTokensOf(json: Readonly<Record<string, unknown>>): number | null {
  const value = json.max_tokens ?? json.max_completion_tokens;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

/** The choices a text request asks for (`n`, validated 0..128 by validateTextRequest; 0 or absent = 1). */
const choicesOf = (json: Readonly<Record<string, unknown>>): number => (typeof json.n === 'number' && json.n >= 1 ? json.n : 1);

/** Tokens of `text` for `model` (off the event loop when long), or the byte estimate when ApproximateTokenEnabled. */
const textTokens = (settings: RelaySettings, text: string, model: string): Promise<number> =>
  countPlan({ fixed: 0, texts: [text] }, model, { approximate: settings.approximateTokenEnabled });

/** A prompt above RELAY_MAX_PROMPT_TOKENS: no model takes it, so nothing is counted further or reserved. */
export const promptTooLong = (tokens: number, limit: number): RelayError =>
  relayError(413, `the prompt is at least ${tokens} tokens, above the limit of ${limit} tokens (RELAY_MAX_PROMPT_TOKENS)`, 'prompt_too_long', 'invalid_request_error');

/** The counting threads have too much text waiting. */
const countingBusy = (): RelayError => relayError(503, 'too much text is waiting to be counted; try again later', 'token_counting_busy');

/**
 * Counts the prompt and reserves its estimate (§4.6). A prompt of at most `syncCountChars`
 * characters is counted at once. A larger one is first bounded without encoding (`planBounds`):
 * above RELAY_MAX_PROMPT_TOKENS even at its lower bound, it is refused; when the quota covers the
 * estimate at its upper bound, that is reserved and the exact count runs on a counting thread
 * meanwhile (billing waits for it); when not even the lower bound's estimate is covered, the
 * request is refused as any short one; only in between is the exact count awaited first.
 */
async function reservePrompt(
  req: Request,
  plan: CountPlan,
  pricing: Pricing,
  model: string,
  maxTokens: number | null,
  choices: number,
): Promise<E.Either<RelayError, { readonly reservation: Reservation; readonly promptTokens: Promise<number> }>> {
  const { deps, caller, settings } = req;
  const options = { approximate: settings.approximateTokenEnabled };
  const limit = deps.config.relayMaxPromptTokens;
  // At least the known price (prompt, and max_tokens when given) whatever PreConsumedQuota is; see reservationRange.
  const reserveFor = async (tokens: number) => {
    const range = reservationRange(pricing, tokens, maxTokens, settings.preConsumedQuota, deps.config.relayMaxCompletionTokens, choices);
    return range.most === range.least ? reserve(deps, caller, range.least, settings) : reserveUpTo(deps, caller, range, settings);
  };
  const reserveCounted = async (tokens: number) => {
    if (tokens > limit) return E.left(promptTooLong(tokens, limit));
    const held = await reserveFor(tokens);
    return E.isLeft(held) ? held : E.right({ reservation: held.right, promptTokens: Promise.resolve(tokens) });
  };
  if (options.approximate || planChars(plan) <= syncCountChars) return reserveCounted(await countPlan(plan, model, options));
  const { lower, upper } = planBounds(plan, model, options);
  if (lower > limit) return E.left(promptTooLong(lower, limit));
  if (upper <= limit) {
    const held = await reserveFor(upper);
    if (E.isRight(held)) {
      const promptTokens = countPlan(plan, model, options).catch((error: unknown) => {
        console.error(`[relay] request ${req.requestId}: counting the prompt failed, billed at its lower bound (${lower}):`, error);
        return lower;
      });
      return E.right({ reservation: held.right, promptTokens });
    }
  }
  const probe = await reserveFor(lower);
  if (E.isLeft(probe)) return probe;
  await refund(deps, probe.right);
  let tokens: number;
  try {
    tokens = await countPlan(plan, model, options);
  } catch (error) {
    if (!(error instanceof CountingBusy)) console.error(`[relay] request ${req.requestId}: counting the prompt failed:`, error);
    return E.left(countingBusy());
  }
  return reserveCounted(tokens);
}

/**
 * The completion text of an answer's choices: completions `text`, and the chat content under
 * `part` (`message` in a whole answer, `delta` in a streamed chunk).
 */
function choicesText(json: Record<string, unknown>, part: 'message' | 'delta'): string {
  const choices = Array.isArray(json.choices) ? (json.choices as unknown[]) : [];
  let text = '';
  for (const choice of choices) {
    if (!isObject(choice)) continue;
    if (typeof choice.text === 'string') text += choice.text;
    const chat = choice[part];
    if (isObject(chat) && typeof chat.content === 'string') text += chat.content;
  }
  return text;
}

/** An upstream `usage` object, or null when absent or all zero (one-api then counts locally). */
function usageOf(json: Record<string, unknown>): Usage | null {
  if (!isObject(json.usage)) return null;
  const promptTokens = tokenCount(json.usage.prompt_tokens);
  const completionTokens = tokenCount(json.usage.completion_tokens);
  return promptTokens + completionTokens > 0 ? { promptTokens, completionTokens } : null;
}

/** Whether a 200 answer (JSON body or stream event) is an upstream error object instead of a result. */
const isErrorAnswer = (json: Record<string, unknown>): boolean =>
  isObject(json.error) && (!Array.isArray(json.choices) || json.choices.length === 0) && json.data === undefined && json.results === undefined;

/** `倍率：<model> × <group> × <completion>` (text) or `倍率：<model> × <group>` (images), §4.7. */
const logContent = (pricing: Pricing, mode: RelayMode): string =>
  mode === 'images' ? `倍率：${goFixed2(pricing.modelRatio)} × ${goFixed2(pricing.groupRatio)}` : consumeLogContent(pricing);

/** Why an upstream call was aborted. */
class TimeoutAbort extends Error {
  constructor(readonly ms: number) {
    super(`upstream did not answer within ${ms / 1000} s`);
  }
}
class ClientGone extends Error {
  constructor() {
    super('the client closed the connection');
  }
}

/**
 * Bills an answered request once (usage → quota, consume log); errors are logged, never thrown.
 * A settlement that fails (its transaction rolled back, the reservation still open) is tried
 * again once, then once more without the consume log: a log that cannot be written must not
 * leave the reservation taken but unaccounted (quota gone from the user, in no used_quota).
 */
function biller(
  req: Request,
  reservation: Reservation,
  pricing: Pricing,
  channel: RelayChannel,
  model: string,
  systemPromptReset: boolean,
  limitsOf: () => Promise<UsageLimits>,
) {
  let done = false;
  return async (reported: Usage, fixedQuota: number | null = null): Promise<void> => {
    if (done) return;
    done = true;
    // Usage beyond what the request can have used is not billed (an upstream reporting 1e12 tokens).
    const { usage, note } = fixedQuota === null ? boundedUsage(reported, await limitsOf()) : { usage: reported, note: null };
    if (note !== null) console.warn(`[relay] request ${req.requestId} (channel #${channel.id}, ${model}): ${note}`);
    const content = logContent(pricing, req.mode);
    const charge = {
      quota: fixedQuota ?? finalQuota(pricing, usage),
      usage,
      content: note === null ? content : `${content}；${note}`,
      modelName: model,
      channelId: channel.id,
      tokenName: req.caller.token.name ?? '',
      isStream: req.stream,
      elapsedMs: Math.round(performance.now() - req.started),
      systemPromptReset,
      requestId: req.requestId,
    };
    const withoutLog: Reservation = { ...reservation, settings: { ...reservation.settings, logConsumeEnabled: false } };
    for (const [i, open] of [reservation, reservation, withoutLog].entries()) {
      try {
        await settle(req.deps, open, charge);
        if (i > 0) console.warn(`[relay] billing of request ${req.requestId} succeeded on try ${i + 1}${open === withoutLog ? ' without its consume log' : ''}`);
        return;
      } catch (error) {
        console.error(`[relay] billing of request ${req.requestId} failed (try ${i + 1} of 3):`, error);
        // Maybe committed, maybe not: another try could charge it twice. Or already given back.
        if (error instanceof SettlementLost || error instanceof ReservationGone) return;
      }
    }
    // Unbilled: the reservation goes back rather than staying taken (or held) with no log.
    await refund(req.deps, reservation).catch((error: unknown) => console.error(`[relay] refund of unbilled request ${req.requestId} failed:`, error));
  };
}

/** One attempt on `channel`: reserve, call upstream, answer or fail (with the reservation refunded). */
async function attempt(c: Ctx, req: Request, channel: RelayChannel): Promise<Attempt> {
  const { deps, mode, body, settings } = req;
  const json = body.json ?? {};
  // A client gone before this attempt (while the body was read, or between retries) would not
  // abort it (a watch begun after the client left is never called): the upstream would be paid for nothing.
  if (req.client.gone) return fail(relayError(499, new ClientGone().message, 'client_closed_request'), false);
  if (!isRelayableType(channel.type)) return fail(relayError(501, unsupportedTypeMessage(channel.type), 'channel_type_not_supported'), true);
  const model = mappedModel(channel.model_mapping, body.model);
  const target = upstreamTarget(channel, mode, model, req.stream);
  if (target === null) return fail(relayError(501, `channel #${channel.id} cannot serve ${mode} requests`, 'mode_not_supported'), true);
  const pricing = pricingOf(settings, model, channel.type, req.caller.group);

  // Pre-consume (§4.6): images are charged their full price up front, text by the estimate.
  let promptTokens: Promise<number> = Promise.resolve(0);
  let imageQuota: number | null = null;
  let reservation: Reservation;
  const maxCompletion = deps.config.relayMaxCompletionTokens;
  if (mode === 'images') {
    const invalid = validateTextRequest(mode, json, model);
    if (invalid !== null) return fail(invalid, false);
    const { n, size, quality } = imageOptions(json);
    imageQuota = Math.trunc(pricing.modelRatio * pricing.groupRatio * imageSizeRatio(model, size, quality) * 1000) * n;
    const reserved = await reserve(deps, req.caller, imageQuota, settings);
    if (reserved._tag === 'Left') return fail(reserved.left, false);
    reservation = reserved.right;
  } else {
    const reserved = await reservePrompt(req, promptPlan(mode, promptedJson(json, channel.system_prompt), model), pricing, model, maxTokensOf(json), choicesOf(json));
    if (reserved._tag === 'Left') return fail(reserved.left, false);
    ({ reservation, promptTokens } = reserved.right);
  }

  const { body: upstreamText, systemPromptReset, usageChunkHidden } = upstreamBody({
    raw: body.raw,
    json,
    mode,
    channelType: channel.type,
    mappedModel: model,
    requestedModel: body.model,
    systemPrompt: channel.system_prompt,
    enforceIncludeUsage: deps.config.enforceIncludeUsage,
  });
  // A native wire (Anthropic…) sends the provider's body; its answer comes back in OpenAI's format.
  const wire = nativeWireOf(channel.type);
  let sentText = upstreamText;
  let usageHidden = usageChunkHidden;
  if (wire !== undefined) {
    const translated = wire.requestBody(mode, parsedObject(upstreamText) ?? json, model, jsonObject(channel.config));
    if ('invalid' in translated) {
      await refund(deps, reservation);
      return fail(relayError(400, translated.invalid, 'invalid_request', 'invalid_request_error'), false);
    }
    sentText = translated.body;
    // the translated stream always ends in a usage chunk: the client sees it only when it asked
    usageHidden = !(isObject(json.stream_options) && json.stream_options.include_usage === true);
  }
  // The prompt bound of embeddings (whose prompt is not counted before the call) is their input's byte bound.
  const limitsOf = async (): Promise<UsageLimits> => ({
    promptTokens: mode === 'embeddings' ? planBounds(inputPlan(json.input), model).upper : await promptTokens,
    maxTokens: maxTokensOf(json),
    maxCompletion,
    choices: choicesOf(json),
  });
  const bill = biller(req, reservation, pricing, channel, model, systemPromptReset, limitsOf);

  // The upstream call, aborted by the client leaving or by RELAY_TIMEOUT.
  const abort = new AbortController();
  const onClientGone = (): void => abort.abort(new ClientGone());
  const unwatch = req.client.watch(onClientGone);
  // A client that left while the reservation was taken (a watch begun after it left is never called):
  // the call is not made and the reservation comes back. Missed, the upstream answered a client
  // gone and the request stayed open until the shutdown gave its reservation back.
  if (req.client.gone) onClientGone();
  const timeoutMs = deps.config.relayTimeoutMs;
  const timer = timeoutMs > 0 ? setTimeout(() => abort.abort(new TimeoutAbort(timeoutMs)), timeoutMs) : null;
  const stopTimer = (): void => {
    if (timer !== null) clearTimeout(timer);
  };
  const release = (): void => {
    stopTimer();
    unwatch();
  };
  const abortedFailure = (error: unknown): Attempt => {
    const reason: unknown = abort.signal.aborted ? abort.signal.reason : error;
    if (reason instanceof TimeoutAbort) return fail(relayError(504, reason.message, 'upstream_timeout'), true);
    if (reason instanceof ClientGone) return fail(relayError(499, reason.message, 'client_closed_request'), false);
    return fail(relayError(500, `do request failed: ${errorText(error)}`, 'do_request_failed'), true);
  };
  const refunded = async (result: Attempt): Promise<Attempt> => {
    release();
    await refund(deps, reservation);
    return result;
  };

  const headers: Record<string, string> = {
    ...target.headers,
    'Content-Type': wire === undefined ? (c.req.header('Content-Type') ?? 'application/json') : 'application/json',
  };
  // the client's Accept, unless the provider's wire names its own (AWS's event stream)
  const accept = c.req.header('Accept');
  if (target.headers.Accept !== undefined) headers.Accept = target.headers.Accept;
  else if (accept !== undefined) headers.Accept = accept;
  else if (req.stream) headers.Accept = 'text/event-stream';

  let upstream: UpstreamResponse;
  try {
    upstream = await sendUpstream(target, headers, sentText, abort.signal);
    if (wire !== undefined) upstream = await translatedResponse(upstream, wire, model, req.stream);
  } catch (error) {
    return refunded(abortedFailure(error));
  }

  const contentType = upstream.headers.get('Content-Type') ?? '';
  if (upstream.status !== 200 || (req.stream && contentType.includes('application/json'))) {
    let text: string;
    try {
      text = await upstream.text();
    } catch (error) {
      return refunded(abortedFailure(error));
    }
    return refunded(upstreamFailure(upstream.status === 200 ? 500 : upstream.status, text));
  }

  if (!req.stream) {
    let text: string;
    try {
      text = await upstream.text();
    } catch (error) {
      return refunded(abortedFailure(error));
    }
    release();
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch (error) {
      await refund(deps, reservation);
      return fail(relayError(500, `unmarshal response body failed: ${errorText(error)}`, 'unmarshal_response_body_failed'), true);
    }
    if (!isObject(answer)) {
      await refund(deps, reservation);
      return fail(relayError(500, 'unmarshal response body failed: not a JSON object', 'unmarshal_response_body_failed'), true);
    }
    if (isErrorAnswer(answer)) {
      // one-api's OpenAI adaptor treats an `error` object in a 200 body as a failure (refund, no log)
      await refund(deps, reservation);
      return upstreamFailure(500, text);
    }
    const usage = mode === 'images' ? { promptTokens: 0, completionTokens: 0 } : usageOf(answer);
    afterAnswer(deps.db, usage !== null ? bill(usage, imageQuota) : countedUsage(req, promptTokens, answer, model).then(async (counted) => bill(counted, imageQuota)));
    if (req.format === 'anthropic') return { ok: true, response: c.body(anthropicMessageText(text, model), 200, { 'Content-Type': 'application/json' }) };
    // a native wire's vectors are float lists; a client asking for base64 (the SDKs' default) gets base64
    if (wire !== undefined && mode === 'embeddings' && json.encoding_format === 'base64') {
      return { ok: true, response: c.json(base64Embeddings(answer), 200) };
    }
    return { ok: true, response: c.body(text, 200, { 'Content-Type': contentType === '' ? 'application/json' : contentType }) };
  }

  return streamAnswer(c, req, upstream, { abort, stopTimer, release, abortedFailure, refunded, bill, promptTokens, model, settings, usageChunkHidden: usageHidden });
}

/**
 * The usage of a non-streaming answer without one, counted locally (§4.4 step 11). Embeddings,
 * whose prompt one-api does not count (so they were free when the upstream omitted usage), are
 * billed the tokens of their `input`.
 */
async function countedUsage(req: Request, promptTokens: Promise<number>, answer: Record<string, unknown>, model: string): Promise<Usage> {
  const options = { approximate: req.settings.approximateTokenEnabled };
  try {
    if (req.mode === 'embeddings') return { promptTokens: await countPlan(inputPlan((req.body.json ?? {}).input), model, options), completionTokens: 0 };
    return { promptTokens: await promptTokens, completionTokens: await textTokens(req.settings, choicesText(answer, 'message'), model) };
  } catch (error) {
    // The counting threads failed or were full: bill what the bounds say is certain.
    console.error(`[relay] request ${req.requestId}: counting the answer failed, billed at its lower bound:`, error);
    const texts = req.mode === 'embeddings' ? inputPlan((req.body.json ?? {}).input) : { fixed: 0, texts: [choicesText(answer, 'message')] };
    const lower = planBounds(texts, model, options).lower;
    return req.mode === 'embeddings' ? { promptTokens: lower, completionTokens: 0 } : { promptTokens: await promptTokens, completionTokens: lower };
  }
}

/** The largest server-sent event accepted from an upstream (a chunk is a few hundred bytes). */
const maxEventBytes = 16 * 1024 * 1024;

/** The decoder's options for a piece of the stream (one object, not one per read). */
const streaming = { stream: true } as const;

/** How much chunk text (UTF-16 code units) a stream keeps unparsed before counting it anyway. */
const deferredChars = 16 * 1024;

/**
 * A chunk passed on without being parsed: it looks like a JSON object, has choices, and names
 * neither usage nor an error (those, and anything else, are parsed). Its text is a JSON text's,
 * where `"usage"` can only be a key or a whole string value (a quote inside a string is escaped).
 * Should it not be JSON after all, the client gets it as the upstream sent it, as one-api passes
 * on what it cannot parse; only its text goes uncounted.
 */
const isPlainChunk = (data: string): boolean =>
  data.charCodeAt(0) === 0x7b &&
  data.charCodeAt(data.length - 1) === 0x7d &&
  data.includes('"choices":[{') &&
  !data.includes('"usage"') &&
  !data.includes('"error"');

/** What the stream reader needs from its attempt. */
interface StreamParts {
  readonly abort: AbortController;
  readonly stopTimer: () => void;
  readonly release: () => void;
  readonly abortedFailure: (error: unknown) => Attempt;
  readonly refunded: (result: Attempt) => Promise<Attempt>;
  readonly bill: (usage: Usage) => Promise<void>;
  readonly promptTokens: Promise<number>;
  readonly model: string;
  readonly settings: RelaySettings;
  /** Keep usage chunks without choices from the client (it did not ask for them; see `upstreamBody`). */
  readonly usageChunkHidden: boolean;
}

/**
 * Passes the upstream's server-sent events through as they arrive. The status is answered once the
 * first valid event is in (an upstream failing before it is an ordinary, retryable error).
 * Non-JSON `data:` lines are dropped (and logged), except those that look like ordinary chunks,
 * which are passed on unparsed (see `isPlainChunk`); usage comes from the final chunk, else from
 * counting the streamed text. `data: [DONE]` always ends a complete stream; an upstream dropping
 * mid-stream ends it with an error event. Billing starts as the stream is closed and runs after
 * (`afterAnswer`). A client that leaves stops the upstream and is billed for what was delivered.
 */
async function streamAnswer(c: Ctx, req: Request, upstream: UpstreamResponse, parts: StreamParts): Promise<Attempt> {
  const { abort, stopTimer, release, abortedFailure, refunded, bill, promptTokens, model, settings, usageChunkHidden } = parts;
  const decoder = new TextDecoder();
  const queue: string[] = [];
  let valid = 0;
  let malformed = 0;
  let sawDone = false;
  let usage: Usage | null = null;
  // the completion is counted as it arrives (bounded work per chunk, no growing string)
  const completion = new CompletionCounter(model, { approximate: settings.approximateTokenEnabled });
  /** An error object the upstream sent as its first event (answered as an ordinary failure). */
  let firstError: string | null = null;
  /** Bytes fed to the splitter since its last event: what it may be holding of an unfinished one. */
  let unfinished = 0;
  // Ordinary chunks are passed on as they came, unparsed; their text is counted only when no usage
  // comes (parsed then, or once they hold `deferredChars`, so that what is kept stays bounded).
  const deferred: string[] = [];
  let deferredLength = 0;
  const countDeferred = (): void => {
    for (const data of deferred) {
      const chunk = parsedObject(data);
      if (chunk !== null) completion.add(choicesText(chunk, 'delta'));
    }
    deferred.length = 0;
    deferredLength = 0;
  };
  const splitter = new EventSplitter({
    onOther: () => {
      unfinished = 0;
    },
    onData: (data, raw) => {
      unfinished = 0;
      if (data === '[DONE]') {
        sawDone = true;
        return;
      }
      if (valid > 0 && firstError === null && isPlainChunk(data)) {
        valid += 1;
        if (usage === null) {
          deferred.push(data);
          deferredLength += data.length;
          if (deferredLength > deferredChars) countDeferred();
        }
        queue.push(raw ?? `data: ${data}\n\n`);
        return;
      }
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        malformed += 1;
        return;
      }
      if (!isObject(chunk)) {
        malformed += 1;
        return;
      }
      if (firstError !== null) return;
      if (valid === 0 && isErrorAnswer(chunk)) {
        firstError = data;
        return;
      }
      const chunkUsage = usageOf(chunk);
      if (chunkUsage !== null) usage = chunkUsage;
      const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
      // one-api drops chat chunks that carry neither choices nor usage
      if (choices.length === 0 && chunkUsage === null && !isObject(chunk.error)) return;
      valid += 1;
      // the usage chunk the gateway asked for: billed, not sent
      if (usageChunkHidden && choices.length === 0 && !isObject(chunk.error)) return;
      // Counted in the order it came, and only while no usage came (a usage once reported is billed).
      if (usage === null) {
        const text = choicesText(chunk, 'delta');
        if (text !== '' && deferred.length > 0) countDeferred();
        completion.add(text);
      } else {
        deferred.length = 0;
        deferredLength = 0;
      }
      queue.push(raw ?? `data: ${data}\n\n`);
    },
  });
  /** Splits one chunk of the upstream into events. */
  const absorb = (value: Uint8Array): void => {
    unfinished += value.byteLength;
    splitter.feed(decoder.decode(value, streaming));
    // an upstream that never ends its event would make the parser buffer without limit
    if (unfinished > maxEventBytes) throw new Error(`upstream event larger than ${maxEventBytes / 1024 / 1024} MB`);
  };
  const readMore = async (): Promise<boolean> => {
    const value = await upstream.read();
    if (value === null) return false;
    absorb(value);
    return true;
  };

  // Up to the first valid event: failures here are ordinary (refunded, retryable) errors.
  try {
    while (valid === 0 && !sawDone && firstError === null) {
      if (!(await readMore())) break;
    }
  } catch (error) {
    upstream.cancel();
    return refunded(streamStartFailure(abort, error, abortedFailure));
  }
  if (firstError !== null) {
    upstream.cancel();
    return refunded(upstreamFailure(500, firstError));
  }
  if (valid === 0) {
    upstream.cancel();
    if (malformed > 0) return refunded(fail(relayError(502, `upstream sent ${malformed} malformed event(s) and no valid one`, 'bad_response'), true));
    return refunded(fail(relayError(502, 'upstream closed the stream before sending any event', 'upstream_stream_failed'), true));
  }
  stopTimer();
  if (malformed > 0) console.warn(`[relay] request ${req.requestId}: dropped ${malformed} malformed event(s)`);

  const sink = openEventSink(c, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
    [requestIdHeader]: req.requestId,
    ...relayCorsHeaders,
  }, req.deps.config.relayClientStallMs);
  // the client left: stop the upstream (a pending read then fails) and bill what was delivered
  sink.onGone(() => abort.abort(new ClientGone()));
  const messages = req.format === 'anthropic' ? new MessagesStream(model) : null;
  const format = (events: string): string => (messages === null ? events : messages.translate(events));
  // After the first event RELAY_TIMEOUT bounds each silence of the upstream (a stalled upstream
  // would otherwise hold the client and the connection forever). A slow client does not count:
  // the upstream is only read once the client took the events before, and the timer only acts
  // while a read is waiting. One timer per stream, restarted by each read (`refresh`): a new
  // timer per read was one allocation per event, thousands a second with thousands of streams.
  const idleMs = req.deps.config.relayTimeoutMs;
  let reading = false;
  let idle: NodeJS.Timeout | null = null;
  void pumpEvents(req, sink, {
    read: () => {
      if (idleMs > 0) {
        if (idle === null) idle = setTimeout(() => (reading ? abort.abort(new TimeoutAbort(idleMs)) : undefined), idleMs);
        else idle.refresh();
        reading = true;
      }
      return upstream.read();
    },
    absorb: (value) => {
      reading = false;
      absorb(value);
    },
    take: () => {
      if (queue.length === 0) return '';
      const events = queue.length === 1 ? (queue[0] ?? '') : queue.join('');
      queue.length = 0;
      return format(events);
    },
    format,
    done: () => sawDone,
    malformed: () => malformed,
    interruption: (error) => errorText(abort.signal.aborted ? abort.signal.reason : error),
    finish: () => {
      if (idle !== null) clearTimeout(idle);
      release();
      upstream.cancel();
      const reported = usage;
      if (reported === null) countDeferred();
      deferred.length = 0;
      afterAnswer(
        req.deps.db,
        reported !== null ? bill(reported) : Promise.all([promptTokens, completion.total()]).then(async ([prompt, completionTokens]) => bill({ promptTokens: prompt, completionTokens })),
      );
    },
  });
  return { ok: true, response: sink.response };
}

/** What `pumpEvents` reads from its stream. */
interface EventSource {
  /**
   * The next chunk of the upstream (null at its end), with RELAY_TIMEOUT watching the wait; it
   * is handed to `absorb` next. One promise per chunk: the async steps wrapped around the read
   * before (an idle-timer step and a parse step, each awaited) were two more promises and
   * microtask turns per token, thousands a second with thousands of streams.
   */
  read(): Promise<Uint8Array | null>;
  /** Splits a chunk `read` gave into events (throws on an event too large). */
  absorb(chunk: Uint8Array): void;
  /** The events parsed and not yet sent, as one text (in the client's format). */
  take(): string;
  /** The gateway's own closing event (`[DONE]` or an error) in the client's format. */
  format(events: string): string;
  /** Whether `data: [DONE]` arrived. */
  done(): boolean;
  /** How many malformed events were dropped so far. */
  malformed(): number;
  /** Why reading failed, for the error event. */
  interruption(error: unknown): string;
  /** Releases the attempt and starts its billing (runs once, just before the last write). */
  finish(): void;
}

/** Sends the events as they are parsed until the upstream ends, fails, or the client leaves; never throws. */
async function pumpEvents(req: Request, sink: EventSink, source: EventSource): Promise<void> {
  let tail = 'data: [DONE]\n\n';
  try {
    // Events that arrive with `[DONE]` leave with it in one write: a write to the client's socket
    // was the dearest step of a short stream (about 0.1 ms in bench/relay).
    while (!source.done()) {
      const events = source.take();
      const written = events === '' || sink.write(events);
      if (written !== true && !(await written)) break;
      const chunk = await source.read();
      if (chunk === null) break;
      source.absorb(chunk);
    }
    if (!source.done() && source.malformed() > 0) console.warn(`[relay] request ${req.requestId}: dropped ${source.malformed()} malformed event(s)`);
  } catch (error) {
    if (!sink.gone) {
      const message = `upstream stream interrupted: ${source.interruption(error)}`;
      console.warn(`[relay] request ${req.requestId}: ${message}`);
      const event = { error: { message: `${message} (request id: ${req.requestId})`, type: 'one_api_error', param: '', code: 'stream_interrupted' } };
      tail = `data: ${JSON.stringify(event)}\n\n`;
    }
  }
  try {
    source.finish();
  } catch (error) {
    console.error(`[relay] request ${req.requestId}: finishing the stream failed:`, error);
  }
  sink.end(source.take() + source.format(tail));
}

/** The failure of a stream that broke before its first event (timeout, client gone, or dropped). */
function streamStartFailure(abort: AbortController, error: unknown, abortedFailure: (error: unknown) => Attempt): Attempt {
  if (abort.signal.aborted) return abortedFailure(error);
  return fail(relayError(502, `upstream stream failed: ${errorText(error)}`, 'upstream_stream_failed'), true);
}

/** The handler of one relay route (after `relayAuth`). */
export function relayHandler(mode: RelayMode): (c: Ctx) => Promise<Response> {
  return async (c) => {
    const started = performance.now();
    const deps = c.get('deps');
    const caller = c.get('caller');
    const body = c.get('relayBody');
    const json = body.json ?? {};
    if (body.decodeError !== undefined) return sendRelayError(c, relayError(400, body.decodeError, 'invalid_text_request'));
    // Images are validated per attempt, against the channel's mapped model (as one-api does).
    const invalid = mode === 'images' ? null : validateTextRequest(mode, json, body.model);
    if (invalid !== null) return sendRelayError(c, invalid);
    const settings = await relaySettings(deps.db);
    const req: Request = {
      deps,
      mode,
      caller,
      body,
      settings,
      started,
      requestId: c.get('requestId'),
      client: clientWatchOf(c),
      stream: (mode === 'chat' || mode === 'completions') && json.stream === true,
      format: c.var.relayFormat ?? 'openai',
    };

    return acrossChannels(c, { deps, caller, settings, model: body.model, requestId: req.requestId, attempt: (channel) => attempt(c, req, channel) });
  };
}
