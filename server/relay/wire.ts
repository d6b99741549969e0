import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { textOfChunks, type UpstreamResponse } from './upstreamClient';
import type { RelayMode } from './types';

/**
 * A provider wire format other than OpenAI's (a "native adaptor"): the relay keeps speaking
 * OpenAI's format to its clients and to the rest of the pipeline (reservation, counting, billing,
 * streaming), and a wire translates at the edge: the OpenAI request body into the provider's, and
 * the provider's answer (a JSON body, a server-sent event stream, an error) back into OpenAI's.
 * The channel test runs through the same translation.
 */
export interface NativeWire {
  /** The relay modes the provider serves. */
  readonly modes: ReadonlySet<RelayMode>;
  /**
   * The provider's request body for an OpenAI request (`json`, after model mapping and the
   * channel's system prompt), or a message naming what cannot be translated; `config` is the
   * channel's config object (Coze's user id).
   */
  requestBody(
    mode: RelayMode,
    json: Readonly<Record<string, unknown>>,
    model: string,
    config?: Readonly<Record<string, unknown>> | null,
  ): { readonly body: string } | { readonly invalid: string };
  /** The OpenAI JSON text of a whole answer (status 200) or of an error answer (any status); `header` reads the answer's headers. */
  answerText(status: number, text: string, model: string, header?: (name: string) => string | null): string;
  /**
   * For providers whose status does not say what the answer is (Baidu and Tencent answer errors
   * with HTTP 200 and the error in the body; DeepL's 456 is a quota error): the status the relay
   * answers for a whole (not streamed) answer `text` of `status`. The answer is then read whole
   * before the pipeline sees it.
   */
  answerStatus?(status: number, text: string): number;
  /** A translator of the provider's stream into OpenAI `data:` events. */
  streamTranslator(model: string): StreamTranslator;
  /**
   * A stream that is not text/event-stream (AWS's binary event stream): its content type, and a
   * decoder of its bytes into the server-sent-event text the translator reads.
   */
  readonly streamFraming?: { readonly contentType: string; decoder(): StreamDecoder };
}

/** Turns a provider's binary stream framing into server-sent-event text, as the bytes arrive. */
export interface StreamDecoder {
  /** The event text of the next bytes (may be ''). */
  feed(chunk: Uint8Array): string;
  /** What is left once the stream ended. */
  end(): string;
}

/** Turns the provider's stream, as it arrives, into OpenAI server-sent events (`data: …\n\n`, ending in `data: [DONE]`). */
export interface StreamTranslator {
  /** The OpenAI events for the next piece of the provider's stream (may be ''). */
  feed(text: string): string;
  /** The last events once the provider's stream ended (a provider without an end event ends this way). */
  end(): string;
}

export type Json = Record<string, unknown>;
/** The value JSON `text` holds, or null when it is not JSON. */
export const parsedJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};
export const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u);
export const str = (u: unknown): string => (typeof u === 'string' ? u : '');
/** A whole non-negative number of tokens, or 0. */
export const tokens = (u: unknown): number => (typeof u === 'number' && Number.isFinite(u) && u > 0 ? Math.floor(u) : 0);
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Text of an OpenAI message content (a string, or the text parts of an array). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isObject)
    .map((part) => (part.type === 'text' ? str(part.text) : ''))
    .join('');
}

/** An OpenAI `image_url` part's URL split: inline (data URL, base64) or remote (http/https), else null. */
export function imageOf(part: Json): { readonly mediaType: string; readonly data: string } | { readonly url: string } | null {
  const image = part.image_url;
  const url = isObject(image) ? str(image.url) : str(image);
  const inline = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (inline !== null) return { mediaType: inline[1] ?? '', data: inline[2] ?? '' };
  return /^https?:\/\//.test(url) ? { url } : null;
}

/** The object an OpenAI tool call's `arguments` text holds (anything else is kept under `arguments`). */
export function toolArguments(args: unknown): Json {
  if (isObject(args)) return args;
  try {
    const parsed: unknown = JSON.parse(str(args) === '' ? '{}' : str(args));
    return isObject(parsed) ? parsed : { arguments: parsed };
  } catch {
    return { arguments: str(args) };
  }
}

/** A provider turn being built: its role and its items (content blocks, parts). */
export interface Turn {
  readonly role: string;
  readonly items: Json[];
}

/** Appends a turn, merged into the previous one of the same role (Anthropic and Gemini alternate roles). */
export function pushTurn(turns: Turn[], role: string, items: readonly Json[]): void {
  if (items.length === 0) return;
  const last = turns.at(-1);
  if (last !== undefined && last.role === role) last.items.push(...items);
  else turns.push({ role, items: [...items] });
}

/** One OpenAI `chat.completion.chunk` event. */
export function chunkEvent(id: string, created: number, model: string, delta: Json, finishReason: string | null): string {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
}

/** The usage chunk (no choices) and `[DONE]` that end a translated stream. */
export function usageEvents(id: string, created: number, model: string, prompt: number, completion: number): string {
  const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\ndata: [DONE]\n\n`;
}

/**
 * An OpenAI embeddings list with each vector as OpenAI's `encoding_format: "base64"` gives it (the
 * little-endian float32 bytes, base64): what a client that asked for base64 decodes (the official
 * SDKs ask for it by default). Native wires get float lists from their providers.
 */
export function base64Embeddings(answer: Readonly<Json>): Json {
  if (!Array.isArray(answer.data)) return { ...answer };
  const data = answer.data.map((item: unknown) => {
    if (!isObject(item) || !Array.isArray(item.embedding)) return item;
    const floats = Float32Array.from(item.embedding.map((v) => (typeof v === 'number' ? v : 0)));
    return { ...item, embedding: Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64') };
  });
  return { ...answer, data };
}

/**
 * The common part of a translator of a provider's server-sent events into OpenAI chunks: the
 * events parsed as they arrive and handed to `onEvent`, and the chunks it `push`es (the first one
 * preceded by the assistant role chunk) handed out by `feed` and `flush`.
 */
export abstract class EventTranslator implements StreamTranslator {
  protected readonly out: string[] = [];
  private readonly parser = createParser({ onEvent: (event) => this.onEvent(event) });
  protected started = false;

  protected constructor(
    protected model: string,
    protected id: string,
    protected created = nowSeconds(),
  ) {}

  feed(text: string): string {
    if (text !== '') this.parser.feed(text);
    return this.flush();
  }

  abstract end(): string;

  /** The events pushed since the last call. */
  protected flush(): string {
    return this.out.splice(0).join('');
  }

  /** One chunk of `delta` (and `finish`), after the role chunk when it is the first. */
  protected push(delta: Json, finish: string | null = null): void {
    if (!this.started) {
      this.started = true;
      this.out.push(chunkEvent(this.id, this.created, this.model, { role: 'assistant', content: '' }, null));
    }
    this.out.push(chunkEvent(this.id, this.created, this.model, delta, finish));
  }

  protected abstract onEvent(event: EventSourceMessage): void;
}

/** A UTF-8 text stream as it is (server-sent events). */
function textDecoder(): StreamDecoder {
  const decoder = new TextDecoder();
  return { feed: (chunk) => decoder.decode(chunk, { stream: true }), end: () => decoder.decode() };
}

/** Whether an answer is the provider's stream (translated as it arrives) rather than a whole answer. */
const isWireStream = (upstream: UpstreamResponse, wire: NativeWire, stream: boolean): boolean =>
  stream && upstream.status === 200 && (upstream.headers.get('Content-Type') ?? '').includes(wire.streamFraming?.contentType ?? 'text/event-stream');

/**
 * `upstream` as the pipeline reads it: the answer in OpenAI's format. A 200 stream is
 * translated as it arrives; any other answer is read whole and translated (at once when the
 * wire reads its status from the body).
 */
export async function translatedResponse(upstream: UpstreamResponse, wire: NativeWire, model: string, stream: boolean): Promise<UpstreamResponse> {
  const framing = wire.streamFraming;
  const streamed = isWireStream(upstream, wire, stream);
  const contentType = streamed ? 'text/event-stream' : 'application/json';
  const headers = { get: (name: string) => (name.toLowerCase() === 'content-type' ? contentType : upstream.headers.get(name)) };
  if (!streamed) {
    const body = wire.answerStatus === undefined ? null : await upstream.text();
    const status = body === null ? upstream.status : (wire.answerStatus?.(upstream.status, body) ?? upstream.status);
    const whole = async (): Promise<string> => wire.answerText(upstream.status, body ?? (await upstream.text()), model, (name) => upstream.headers.get(name));
    let read: Promise<Uint8Array | null> | null = null;
    return {
      status,
      headers,
      text: whole,
      read: () => {
        if (read === null) {
          read = whole().then((text) => new TextEncoder().encode(text));
          return read;
        }
        return Promise.resolve(null);
      },
      cancel: () => upstream.cancel(),
    };
  }
  const translator = wire.streamTranslator(model);
  const decoder: StreamDecoder = framing?.decoder() ?? textDecoder();
  const encoder = new TextEncoder();
  let ended = false;
  const read = async (): Promise<Uint8Array | null> => {
    for (;;) {
      const chunk = await upstream.read();
      if (chunk === null) {
        if (ended) return null;
        ended = true;
        const rest = translator.feed(decoder.end()) + translator.end();
        return rest === '' ? null : encoder.encode(rest);
      }
      const events = translator.feed(decoder.feed(chunk));
      if (events !== '') return encoder.encode(events);
    }
  };
  return {
    status: upstream.status,
    headers,
    text: () => textOfChunks(read),
    read,
    cancel: () => upstream.cancel(),
  };
}
