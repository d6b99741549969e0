import type { RelayMode } from './types';
import { chunkEvent, contentText, isObject, nowSeconds, str, type Json, type NativeWire, type StreamDecoder, type StreamTranslator } from './wire';

/**
 * DeepL (channel type 38) as a native wire, from DeepL's public API reference:
 * - a chat request to a model `deepl-<language>` (`deepl-zh`, `deepl-en-us`, `deepl-ja`…) is a
 *   translation of its last user message into that language: `POST <base>/v2/translate` with
 *   `Authorization: DeepL-Auth-Key <key>` and `{"text": [<message>], "target_lang": "<LANGUAGE>"}`
 *   (DeepL detects the source language);
 * - the answer `{"translations": [{"detected_source_language", "text"}]}` becomes the assistant's
 *   message; DeepL reports characters, not tokens, so the answer's usage is 0 and the relay bills
 *   the tokens it counts (prompt and translation) as for any chat;
 * - a stream request gets the same JSON answer from DeepL, relayed as one content delta, the
 *   finish chunk and `[DONE]`;
 * - errors are HTTP statuses with `{"message"}` (403 a wrong key, 456 the character quota used
 *   up, 429 too many requests, 400 a bad request): answered as OpenAI errors, 456 as a 429
 *   `insufficient_quota`.
 */

/** The target language of a DeepL model name (`deepl-zh` → `ZH`, `deepl-en-us` → `EN-US`), or null. */
export function deeplTargetLang(model: string): string | null {
  const match = /^deepl-([a-z]{2}(?:-[a-z]{2,4})?)$/i.exec(model);
  return match === null ? null : (match[1] ?? '').toUpperCase();
}

/** DeepL's translate body for an OpenAI chat request, or a message naming what cannot be sent. */
export function deeplRequest(json: Readonly<Json>, model: string): Json | string {
  const target = deeplTargetLang(model);
  if (target === null) return `model ${model} is not a DeepL model: name it deepl-<target language>, such as deepl-zh or deepl-en-us`;
  const messages = Array.isArray(json.messages) ? json.messages.filter(isObject) : [];
  const last = messages.filter((m) => m.role === 'user').at(-1);
  const text = last === undefined ? '' : contentText(last.content);
  if (text === '') return 'messages: a DeepL channel translates the last user message, and there is none with text';
  return { text: [text], target_lang: target };
}

/** The translated text of a DeepL answer, or null when it is not one. */
function translationOf(text: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(body) || !Array.isArray(body.translations)) return null;
  return body.translations.filter(isObject).map((t) => str(t.text)).join('\n');
}

/** OpenAI's error type of a DeepL status. */
function errorTypeOf(status: number): string {
  if (status === 403 || status === 401) return 'authentication_error';
  if (status === 456) return 'insufficient_quota';
  if (status === 429) return 'rate_limit_error';
  if (status === 400 || status === 413 || status === 414) return 'invalid_request_error';
  return 'upstream_error';
}

/** The OpenAI JSON text of a DeepL answer or error. */
function answerText(status: number, text: string, model: string): string {
  if (status === 200) {
    const translation = translationOf(text);
    if (translation === null) return text;
    return JSON.stringify({
      id: `chatcmpl-deepl-${Date.now()}`,
      object: 'chat.completion',
      created: nowSeconds(),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: translation }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  }
  let message = '';
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body)) message = [body.message, body.detail].map(str).filter((m) => m !== '').join(': ');
  } catch {
    message = text.trim().slice(0, 500);
  }
  const type = errorTypeOf(status);
  const fallback = status === 456 ? 'Quota exceeded' : status === 403 ? 'Authorization failed: check the DeepL key' : `DeepL answered status ${status}`;
  return JSON.stringify({ error: { message: message === '' ? fallback : message, type, param: '', code: type } });
}

/** 456 (DeepL's character quota used up) is answered as OpenAI's 429. */
const answerStatus = (status: number): number => (status === 456 ? 429 : status);

/** DeepL's whole JSON answer, handed on as one `data:` event once it has arrived. */
class WholeAnswer implements StreamDecoder {
  private readonly decoder = new TextDecoder();
  private text = '';

  feed(chunk: Uint8Array): string {
    this.text += this.decoder.decode(chunk, { stream: true });
    return '';
  }

  end(): string {
    const text = this.text + this.decoder.decode();
    return text.trim() === '' ? '' : `data: ${text.replace(/\n/g, ' ')}\n\n`;
  }
}

/** The translation as one content delta, the finish chunk and `[DONE]` (usage is counted by the relay). */
class DeeplStream implements StreamTranslator {
  private readonly out: string[] = [];
  private readonly id = `chatcmpl-deepl-${Date.now()}`;
  private readonly created = nowSeconds();
  private pending = '';

  constructor(private readonly model: string) {}

  feed(text: string): string {
    this.pending += text;
    return '';
  }

  end(): string {
    const data = /^data: (.*)\n\n$/s.exec(this.pending)?.[1] ?? '';
    const translation = translationOf(data);
    if (translation === null) return data === '' ? '' : `data: ${data}\n\n`;
    this.out.push(chunkEvent(this.id, this.created, this.model, { role: 'assistant', content: '' }, null));
    this.out.push(chunkEvent(this.id, this.created, this.model, { content: translation }, null));
    this.out.push(chunkEvent(this.id, this.created, this.model, {}, 'stop'));
    this.out.push('data: [DONE]\n\n');
    return this.out.splice(0).join('');
  }
}

/** DeepL as the relay's native wire of channel type 38. */
export const deeplWire: NativeWire = {
  modes: new Set<RelayMode>(['chat']),
  requestBody: (_mode, json, model) => {
    const body = deeplRequest(json, model);
    return typeof body === 'string' ? { invalid: body } : { body: JSON.stringify(body) };
  },
  answerText,
  answerStatus,
  streamTranslator: (model) => new DeeplStream(model),
  streamFraming: { contentType: 'application/json', decoder: () => new WholeAnswer() },
};
