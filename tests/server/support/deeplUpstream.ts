import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLoopbackServer } from './loopbackServer';

/**
 * A loopback fake of DeepL's text translation API (`POST /v2/translate`), speaking its documented
 * wire format: the key in `Authorization: DeepL-Auth-Key <key>`, a JSON body `{"text": [...],
 * "target_lang": ...}`, the answer `{"translations": [{"detected_source_language", "text"}]}`, and
 * errors as HTTP statuses with `{"message"}` (403 for an unknown key, 456 quota exceeded, 429 too
 * many requests, 400 a bad request). A fault per key: an error status, a connection dropped
 * before the answer is complete, an answer that is not JSON.
 *
 * Deterministic: the translation of `text` into `lang` is `deeplTranslation(text, lang)`.
 */

export type DeeplBehaviour =
  | { readonly kind: 'ok' }
  | { readonly kind: 'status'; readonly status: number; readonly message: string }
  /** Half the answer, then the connection is destroyed. */
  | { readonly kind: 'drop' }
  /** An answer with status 200 that is not JSON. */
  | { readonly kind: 'malformed' };

export interface DeeplRequest {
  readonly headers: IncomingMessage['headers'];
  readonly json: Record<string, unknown>;
}

export interface DeeplUpstream {
  readonly url: string;
  readonly requests: readonly DeeplRequest[];
  /** Accepts `key`, behaving as told. */
  account(key: string, behaviour?: DeeplBehaviour): void;
  reset(): void;
  close(): Promise<void>;
}

export const deeplTranslation = (text: string, lang: string): string => `[${lang}] ${text.split('').reverse().join('')}`;

export async function startDeeplUpstream(): Promise<DeeplUpstream> {
  const accounts = new Map<string, DeeplBehaviour>();
  const requests: DeeplRequest[] = [];

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const fail = (status: number, message: string) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message }));
    };
    if (req.method !== 'POST' || req.url !== '/v2/translate') return fail(404, 'Not found');
    const key = /^DeepL-Auth-Key (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    const behaviour = accounts.get(key);
    if (behaviour === undefined) return fail(403, 'Authorization failed. Please supply a valid auth_key parameter.');
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return fail(400, 'Bad request. Reason: body is not valid JSON');
    }
    requests.push({ headers: req.headers, json });
    if (behaviour.kind === 'status') return fail(behaviour.status, behaviour.message);
    const texts = Array.isArray(json.text) ? json.text.filter((t): t is string => typeof t === 'string') : [];
    const lang = typeof json.target_lang === 'string' ? json.target_lang : '';
    if (texts.length === 0 || lang === '') return fail(400, 'Bad request. Reason: Parameter "text" and "target_lang" are required');
    const body = JSON.stringify({ translations: texts.map((text) => ({ detected_source_language: 'EN', text: deeplTranslation(text, lang) })) });
    res.writeHead(200, { 'Content-Type': 'application/json' });
    if (behaviour.kind === 'drop') {
      res.write(body.slice(0, body.length / 2));
      await new Promise((resolve) => setTimeout(resolve, 10));
      res.destroy();
      return;
    }
    res.end(behaviour.kind === 'malformed' ? '<html>upstream proxy error</html>' : body);
  };

  const server = await startLoopbackServer(answer);
  return {
    url: server.url,
    requests,
    account: (key, behaviour = { kind: 'ok' }) => accounts.set(key, behaviour),
    reset: () => {
      requests.length = 0;
    },
    close: () => server.close(),
  };
}
