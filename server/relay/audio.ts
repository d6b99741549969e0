import * as E from 'fp-ts/Either';
import type { Context } from 'hono';
import { upstreamTarget, type UpstreamTarget } from './adaptor';
import { acrossChannels, fail, upstreamFailure, type Attempt } from './attempts';
import { sendRelayError } from './auth';
import { afterAnswer, refund, reserve, settle } from './billing';
import { encodedForm, multipartMessages } from './multipart';
import type { RelayEnv } from './pipeline';
import { goFixed2, pricingOf, quotaAmount, type Pricing } from './pricing';
import { relaySettings, type RelaySettings } from './relaySettings';
import { imageOptions, imageSizeRatio, mappedModel, validateTextRequest } from './request';
import type { Reservation } from './reservations';
import { SettlementLost } from './settlementThread';
import { countPlan } from './tokenCount';
import { postUpstream, type UpstreamResponse } from './upstreamClient';
import { ReservationGone } from './writtenReservations';
import { relayError, type MediaMode, type RelayChannel, type RelayError, type Usage } from './types';
import { isObject } from './wire';

/**
 * The audio and image-edit relays (contract §4.5): `/v1/audio/speech` (JSON in, audio out),
 * `/v1/audio/transcriptions` and `/v1/audio/translations` (a multipart form with the audio file),
 * `/v1/images/edits` (a multipart form with the image). They go to channels whose upstream speaks
 * OpenAI's API (OpenAI, Azure with `/openai/deployments/<model>/…?api-version=` and `api-key`,
 * custom and the other passthrough types; `upstreamTarget` decides): a channel type without such
 * a route answers 501 `api_not_implemented` before any quota is reserved.
 *
 * Billing (every answered request writes one consume log `倍率：<model> × <group>`; a refused one
 * moves nothing; an upstream error refunds):
 * - speech: floor(bytes of `input` × modelRatio × groupRatio), reserved exactly and final; the
 *   log's prompt tokens are the input's bytes. `input` over 4096 bytes is a 400 `text_too_long`.
 * - transcription / translation: floor(PreConsumedQuota × ratio) reserved; final =
 *   ceil(tokens of the transcribed text × modelRatio × groupRatio) (the log's completion tokens
 *   are those tokens). Deviation (contract §6 #20): one-api billed the bare token count, ignoring
 *   both ratios; here audio is priced like any other text, so a group's or model's ratio applies.
 *   The text is read per `response_format` (json, text, srt, verbose_json, vtt); any other format
 *   is a 400 before anything is sent (one-api: a 500 after the upstream was paid).
 * - image edits: as image generations, trunc(modelRatio × groupRatio × sizeRatio × 1000) × n,
 *   reserved in full and charged on a 200.
 * Retries (RetryTimes), pinned channels and automatic disabling follow the text relay's rules.
 */

type Ctx = Context<RelayEnv>;

/** `input` limit of text-to-speech in bytes (contract §4.5). */
export const maxSpeechInputBytes = 4096;

/** The response formats of transcriptions and translations (json is the default). */
export const transcriptFormats = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const invalid = (message: string, param: string): RelayError => ({ status: 400, error: { message, type: 'invalid_request_error', param, code: 'invalid_request' } });

/** The file field of a form, or null when absent or not a file. */
function fileField(form: FormData | undefined, ...names: string[]): File | null {
  for (const name of names) {
    const value = form?.get(name);
    if (value !== null && value !== undefined && typeof value !== 'string') return value;
  }
  return null;
}

/** The 400 a media request gets before any channel is tried, or null. */
export function mediaRequestError(mode: MediaMode, fields: Readonly<Record<string, unknown>>, form: FormData | undefined, model: string): RelayError | null {
  switch (mode) {
    case 'speech': {
      if (model === '') return invalid(multipartMessages.fieldRequired('model'), 'model');
      const input = fields.input;
      if (typeof input !== 'string' || input === '') return invalid(multipartMessages.fieldRequired('input'), 'input');
      if (Buffer.byteLength(input) > maxSpeechInputBytes) return relayError(400, `input is too long (over ${maxSpeechInputBytes} characters)`, 'text_too_long');
      return null;
    }
    case 'transcriptions':
    case 'translations': {
      if (fileField(form, 'file') === null) return invalid(multipartMessages.fieldRequired('file'), 'file');
      const format = typeof fields.response_format === 'string' ? fields.response_format : 'json';
      if (!(transcriptFormats as readonly string[]).includes(format)) {
        return invalid(`response_format ${format} is not supported (one of ${transcriptFormats.join(', ')})`, 'response_format');
      }
      return null;
    }
    case 'image_edits':
      if (fileField(form, 'image', 'image[]') === null) return invalid(multipartMessages.fieldRequired('image'), 'image');
      return null;
  }
}

/** Subtitle lines that are not text: cue numbers, timings (`00:00:01,000 --> …`), the WebVTT header. */
const subtitleNoise = /^(\d+|WEBVTT.*|NOTE.*|[\d:.,]+\s*-->.*)$/;

/** The transcribed text of an answer in `format` (contract §4.5), or null when a JSON answer has none. */
export function transcriptText(format: string, body: string): string | null {
  if (format === 'json' || format === 'verbose_json') {
    try {
      const parsed: unknown = JSON.parse(body);
      return isObject(parsed) && typeof parsed.text === 'string' ? parsed.text : null;
    } catch {
      return null;
    }
  }
  if (format === 'text') return body;
  return body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !subtitleNoise.test(line))
    .join('\n');
}

/** The consume log content of audio and images: `倍率：<model> × <group>` (§4.7). */
const mediaLogContent = (pricing: Pricing): string => `倍率：${goFixed2(pricing.modelRatio)} × ${goFixed2(pricing.groupRatio)}`;

/** A token count billed at modelRatio × groupRatio: ceil, at least 1 when tokens and ratio are not 0. */
export function transcriptQuota(pricing: Pricing, tokens: number): number {
  if (tokens === 0) return 0;
  const quota = Math.ceil(tokens * pricing.ratio);
  return quotaAmount(pricing.ratio !== 0 && quota <= 0 ? 1 : quota);
}

/** What one attempt needs besides the channel. */
interface MediaRequest {
  readonly c: Ctx;
  readonly mode: MediaMode;
  readonly settings: RelaySettings;
  readonly started: number;
  readonly requestId: string;
}

/** Settles `reservation` at `quota` with its consume log; tried twice, then refunded (as the text relay's biller). Never throws. */
async function billMedia(req: MediaRequest, reservation: Reservation, channel: RelayChannel, model: string, pricing: Pricing, quota: number, usage: Usage): Promise<void> {
  const { deps, caller } = req.c.var;
  const charge = {
    quota,
    usage,
    content: mediaLogContent(pricing),
    modelName: model,
    channelId: channel.id,
    tokenName: caller.token.name ?? '',
    isStream: false,
    elapsedMs: Math.round(performance.now() - req.started),
    systemPromptReset: false,
    requestId: req.requestId,
  };
  for (let i = 1; i <= 2; i += 1) {
    try {
      await settle(deps, reservation, charge);
      return;
    } catch (error) {
      console.error(`[relay] billing of request ${req.requestId} failed (try ${i} of 2):`, error);
      if (error instanceof SettlementLost || error instanceof ReservationGone) return;
    }
  }
  await refund(deps, reservation).catch((error: unknown) => console.error(`[relay] refund of unbilled request ${req.requestId} failed:`, error));
}

/** The body sent upstream: the JSON (re-serialised only when the model is mapped) or the re-encoded form. */
async function sentBody(req: MediaRequest, model: string): Promise<{ readonly body: string | Uint8Array; readonly contentType: string }> {
  const body = req.c.var.relayBody;
  if (body.form !== undefined) return encodedForm(body.form, model);
  const raw = model === body.model ? body.raw : JSON.stringify({ ...body.json, model });
  return { body: raw, contentType: 'application/json' };
}

/** The price reserved before the call and, for speech and image edits, charged as it is. */
function reservedPrice(req: MediaRequest, pricing: Pricing, model: string): E.Either<RelayError, { readonly quota: number; readonly usage: Usage }> {
  const json = req.c.var.relayBody.json ?? {};
  switch (req.mode) {
    case 'speech': {
      const bytes = Buffer.byteLength(typeof json.input === 'string' ? json.input : '');
      return E.right({ quota: quotaAmount(Math.floor(bytes * pricing.ratio)), usage: { promptTokens: bytes, completionTokens: 0 } });
    }
    case 'transcriptions':
    case 'translations':
      return E.right({ quota: quotaAmount(Math.floor(req.settings.preConsumedQuota * pricing.ratio)), usage: { promptTokens: 0, completionTokens: 0 } });
    case 'image_edits': {
      // the form's text fields as image generation's options (n arrives as text)
      const n = typeof json.n === 'string' && json.n !== '' ? Number(json.n) : undefined;
      const options = { ...json, ...(n === undefined ? {} : { n }) };
      const refused = validateTextRequest('images', options, model);
      if (refused !== null) return E.left(refused);
      const { n: count, size, quality } = imageOptions(options);
      return E.right({ quota: Math.trunc(pricing.modelRatio * pricing.groupRatio * imageSizeRatio(model, size, quality) * 1000) * count, usage: { promptTokens: 0, completionTokens: 0 } });
    }
  }
}

/** Why an upstream call was aborted. */
class TimeoutAbort extends Error {}
class ClientGone extends Error {}

/** One attempt on `channel`: reserve, call, answer (billing after) or fail with the reservation refunded. */
async function attempt(req: MediaRequest, channel: RelayChannel): Promise<Attempt> {
  const { c, mode, settings } = req;
  const { deps, caller, relayBody } = c.var;
  const clientSignal = c.req.raw.signal;
  if (clientSignal.aborted) return fail(relayError(499, 'the client closed the connection', 'client_closed_request'), false);
  const model = mappedModel(channel.model_mapping, relayBody.model);
  const target: UpstreamTarget | null = upstreamTarget(channel, mode, model);
  if (target === null) return fail(relayError(501, `API not implemented: channel #${channel.id} (type ${channel.type}) has no ${mode.replace('_', ' ')} route`, 'api_not_implemented'), true);
  const pricing = pricingOf(settings, model, channel.type, caller.group);
  const price = reservedPrice(req, pricing, model);
  if (E.isLeft(price)) return fail(price.left, false);
  const reserved = await reserve(deps, caller, price.right.quota, settings);
  if (E.isLeft(reserved)) return fail(reserved.left, false);
  const reservation = reserved.right;
  const bill = (quota: number, usage: Usage): void => afterAnswer(deps.db, billMedia(req, reservation, channel, model, pricing, quota, usage));

  const abort = new AbortController();
  const onClientGone = (): void => abort.abort(new ClientGone('the client closed the connection'));
  clientSignal.addEventListener('abort', onClientGone, { once: true });
  // left while the reservation was taken (an aborted signal fires no more events): no call, the reservation back
  if (clientSignal.aborted) onClientGone();
  const timeoutMs = deps.config.relayTimeoutMs;
  const timer = timeoutMs > 0 ? setTimeout(() => abort.abort(new TimeoutAbort(`upstream did not answer within ${timeoutMs / 1000} s`)), timeoutMs) : null;
  const release = (): void => {
    if (timer !== null) clearTimeout(timer);
    clientSignal.removeEventListener('abort', onClientGone);
  };
  const refunded = async (result: Attempt): Promise<Attempt> => {
    release();
    await refund(deps, reservation);
    return result;
  };
  const aborted = (error: unknown): Attempt => {
    const reason: unknown = abort.signal.aborted ? abort.signal.reason : error;
    if (reason instanceof TimeoutAbort) return fail(relayError(504, reason.message, 'upstream_timeout'), true);
    if (reason instanceof ClientGone) return fail(relayError(499, reason.message, 'client_closed_request'), false);
    return fail(relayError(500, `do request failed: ${errorText(error)}`, 'do_request_failed'), true);
  };

  let upstream: UpstreamResponse;
  try {
    const sent = await sentBody(req, model);
    const headers: Record<string, string> = { ...target.headers, 'Content-Type': sent.contentType };
    const accept = c.req.header('Accept');
    if (accept !== undefined) headers.Accept = accept;
    upstream = await postUpstream(target.url, headers, sent.body, abort.signal);
  } catch (error) {
    return refunded(aborted(error));
  }
  const contentType = upstream.headers.get('Content-Type') ?? '';
  if (upstream.status !== 200) {
    try {
      return refunded(upstreamFailure(upstream.status, await upstream.text()));
    } catch (error) {
      return refunded(aborted(error));
    }
  }

  if (mode === 'speech' && !contentType.includes('application/json')) {
    release();
    const bounded = (): Promise<Uint8Array | null> => {
      // RELAY_TIMEOUT bounds each silence of the audio stream too (a stalled upstream would hold the client)
      if (timeoutMs <= 0) return upstream.read();
      const idle = setTimeout(() => abort.abort(new TimeoutAbort(`upstream sent nothing for ${timeoutMs / 1000} s`)), timeoutMs);
      return upstream.read().finally(() => clearTimeout(idle));
    };
    return { ok: true, response: c.body(speechStream(req, { ...upstream, read: bounded }, () => bill(price.right.quota, price.right.usage)), 200, { 'Content-Type': contentType === '' ? 'application/octet-stream' : contentType }) };
  }

  let text: string;
  try {
    text = await upstream.text();
  } catch (error) {
    return refunded(aborted(error));
  }
  release();
  const json = parsedObject(text);
  if (json !== null && isObject(json.error) && json.text === undefined && json.data === undefined) return refunded(upstreamFailure(500, text));
  if (mode === 'speech' || mode === 'image_edits') {
    bill(price.right.quota, price.right.usage);
  } else {
    const format = typeof relayBody.json?.response_format === 'string' ? relayBody.json.response_format : 'json';
    const transcript = transcriptText(format, text);
    if (transcript === null) return refunded(fail(relayError(500, `unmarshal response body failed: no text in the ${format} answer`, 'unmarshal_response_body_failed'), true));
    afterAnswer(
      deps.db,
      countPlan({ fixed: 0, texts: [transcript] }, model, { approximate: settings.approximateTokenEnabled })
        .catch((error: unknown) => {
          console.error(`[relay] request ${req.requestId}: counting the transcript failed, billed by its bytes:`, error);
          return Buffer.byteLength(transcript);
        })
        .then((tokens) => billMedia(req, reservation, channel, model, pricing, transcriptQuota(pricing, tokens), { promptTokens: 0, completionTokens: tokens })),
    );
  }
  return { ok: true, response: c.body(text, 200, { 'Content-Type': contentType === '' ? 'application/json' : contentType }) };
}

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
 * The speech audio passed through as it arrives, billed exactly once at its fixed price (§4.5:
 * pre-charged exactly and final, as the upstream charges for the input it read): when the upstream
 * finished, when the client leaves, and when the upstream breaks off (the client's body then ends
 * with an error, never as a clean end of a truncated file).
 */
function speechStream(req: MediaRequest, upstream: UpstreamResponse, bill: () => void): ReadableStream<Uint8Array> {
  let settled = false;
  const once = (work: () => void): void => {
    if (settled) return;
    settled = true;
    work();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Uint8Array | null;
      try {
        chunk = await upstream.read();
      } catch (error) {
        console.warn(`[relay] request ${req.requestId}: speech stream interrupted: ${errorText(error)}`);
        once(bill);
        controller.error(error);
        return;
      }
      if (chunk === null) {
        once(bill);
        controller.close();
        return;
      }
      controller.enqueue(chunk);
    },
    cancel() {
      upstream.cancel();
      once(bill);
    },
  });
}

/** The handler of one audio or image-edit route (after `relayAuth(mode)`). */
export function mediaHandler(mode: MediaMode): (c: Ctx) => Promise<Response> {
  return async (c) => {
    const started = performance.now();
    const { deps, caller, relayBody: body } = c.var;
    if (body.decodeError !== undefined) return sendRelayError(c, relayError(400, body.decodeError, 'invalid_request'));
    const refused = mediaRequestError(mode, body.json ?? {}, body.form, body.model);
    if (refused !== null) return sendRelayError(c, refused);
    const settings = await relaySettings(deps.db);
    const req: MediaRequest = { c, mode, settings, started, requestId: c.var.requestId };

    return acrossChannels(c, { deps, caller, settings, model: body.model, requestId: req.requestId, attempt: (channel) => attempt(req, channel) });
  };
}
