import type { UpstreamResponse } from './upstreamClient';
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
   * channel's system prompt), or a message naming what cannot be translated.
   */
  requestBody(mode: RelayMode, json: Readonly<Record<string, unknown>>, model: string): { readonly body: string } | { readonly invalid: string };
  /** The OpenAI JSON text of a whole answer (status 200) or of an error answer (any status). */
  answerText(status: number, text: string, model: string): string;
  /** A translator of the provider's stream into OpenAI `data:` events. */
  streamTranslator(model: string): StreamTranslator;
}

/** Turns the provider's stream, as it arrives, into OpenAI server-sent events (`data: …\n\n`, ending in `data: [DONE]`). */
export interface StreamTranslator {
  /** The OpenAI events for the next piece of the provider's stream (may be ''). */
  feed(text: string): string;
}

/**
 * `upstream` as the pipeline reads it: the answer in OpenAI's format. A 200 stream is
 * translated as it arrives; any other answer is read whole and translated.
 */
export function translatedResponse(upstream: UpstreamResponse, wire: NativeWire, model: string, stream: boolean): UpstreamResponse {
  const streamed = stream && upstream.status === 200 && (upstream.headers.get('Content-Type') ?? '').includes('text/event-stream');
  const contentType = streamed ? 'text/event-stream' : 'application/json';
  const headers = { get: (name: string) => (name.toLowerCase() === 'content-type' ? contentType : upstream.headers.get(name)) };
  if (!streamed) {
    const whole = async (): Promise<string> => wire.answerText(upstream.status, await upstream.text(), model);
    let read: Promise<Uint8Array | null> | null = null;
    return {
      status: upstream.status,
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
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const read = async (): Promise<Uint8Array | null> => {
    for (;;) {
      const chunk = await upstream.read();
      if (chunk === null) {
        const rest = translator.feed(decoder.decode());
        return rest === '' ? null : encoder.encode(rest);
      }
      const events = translator.feed(decoder.decode(chunk, { stream: true }));
      if (events !== '') return encoder.encode(events);
    }
  };
  return {
    status: upstream.status,
    headers,
    text: async () => {
      const out = new TextDecoder();
      let all = '';
      for (let chunk = await read(); chunk !== null; chunk = await read()) all += out.decode(chunk, { stream: true });
      return all + out.decode();
    },
    read,
    cancel: () => upstream.cancel(),
  };
}
