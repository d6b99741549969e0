import type * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import type * as TE from 'fp-ts/TaskEither';
import { decodeError, failure, httpError, networkError, type ApiError } from '../domain/apiError';
import { EnvelopeHead } from '../domain/envelope';
import { decodeAt } from './decode';

/**
 * The one HTTP client of the console (conventions §5): a thin layer over `fetch` that sends
 * cookies, speaks JSON, and turns every answer into `TaskEither<ApiError, A>` through one
 * decoding helper (`decodeAt`). It never throws and never rejects.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type QueryValue = string | number | boolean | null | undefined;
/** Query parameters; `undefined` and `null` are left out, everything else is sent as text. */
export type Query = Readonly<Record<string, QueryValue>>;

/**
 * Reads a parsed 2xx body into the call's result. `call` names the call for the error
 * ('GET /api/status'). Readers are built with `readData`, `readNoData`, `readResult`, `readPlain`.
 */
export type BodyReader<A> = (body: unknown, call: string) => E.Either<ApiError, A>;

export interface CallSpec<A> {
  readonly method: Method;
  /** A path under the base URL ('/api/status'), or an absolute http(s) URL (sent without the base URL). */
  readonly path: string;
  readonly query?: Query;
  /** Sent as JSON when present. */
  readonly body?: unknown;
  readonly read: BodyReader<A>;
  /** A 2xx answer with an empty body counts as `{ success: true, message: '' }` (DELETE /api/user/:id). */
  readonly emptyBodyIsSuccess?: boolean;
  /** Defaults to 'include' (the session cookie); the public release check uses 'omit'. */
  readonly credentials?: RequestCredentials;
  /**
   * A call authenticated by an API key instead of the session (the relay, /v1): sent as
   * `Authorization: Bearer <bearer>` without cookies, and its 401 is about the key, so it does
   * not signal an expired session.
   */
  readonly bearer?: string;
  /**
   * Reads the JSON body of a non-2xx answer into the call's error (the relay's OpenAI error
   * body); `undefined` (or a body that is not JSON) keeps the default HttpStatus error.
   */
  readonly readError?: ErrorReader;
}

/** Reads a parsed non-2xx body into an ApiError, or `undefined` to keep the default one. */
export type ErrorReader = (body: unknown, call: string) => ApiError | undefined;

export interface ApiClient {
  /** The normalised base URL ('' = same origin), without a trailing slash. */
  readonly baseUrl: string;
  readonly request: <A>(spec: CallSpec<A>) => TE.TaskEither<ApiError, A>;
  /**
   * What the client sends with, for the calls built beside it (a file download, src/api/download.ts):
   * its fetch, the abort signal of `withSignal` and the 401 listener.
   */
  readonly transport: Transport;
  /**
   * The same client whose every fetch carries `signal` (a stopped actor's, conventions §2): once
   * it aborts, pending calls end as a Network error (`aborted`) and new ones are not sent.
   */
  readonly withSignal: (signal: AbortSignal) => ApiClient;
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** See `ApiClient.transport`. */
export interface Transport {
  readonly fetch: FetchLike;
  readonly signal: AbortSignal | undefined;
  readonly onUnauthorized: (() => void) | undefined;
}

export interface ApiClientOptions {
  /** Build-time `import.meta.env.VITE_SERVER_ADDRESS`, else '' (same origin). Trailing slashes are stripped. */
  readonly baseUrl?: string;
  /** Defaults to `globalThis.fetch`. */
  readonly fetch?: FetchLike;
  /** Called once for every HTTP 401 answer from the gateway (the session turns it into session.expired). */
  readonly onUnauthorized?: () => void;
  /**
   * The console's language as a language tag (`zh-CN`, `en`), sent as `Accept-Language` on gateway
   * calls so the server's messages come in the language the person reads; absent: the browser's.
   */
  readonly language?: () => string;
}

const ABSOLUTE_URL = /^https?:\/\//i;
const MAX_TEXT_CHARS = 120;
/** The Network error's text for a call its signal aborted (the caller is gone; nobody shows it). */
export const ABORTED = 'aborted';

export const normaliseBaseUrl = (baseUrl: string | undefined): string => (baseUrl ?? '').trim().replace(/\/+$/, '');

/** `?a=1&b=x` from a query object, through URLSearchParams (so values are encoded), or ''. */
export function buildQuery(query: Query | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** A path segment from an id or name, percent-encoded. */
export const segment = (value: string | number): string => encodeURIComponent(String(value));

const defaultFetch: FetchLike = (input, init) => globalThis.fetch(input, init);

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  return clientWith(options, undefined);
}

function clientWith(options: ApiClientOptions, abortSignal: AbortSignal | undefined): ApiClient {
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const fetchFn = options.fetch ?? defaultFetch;
  const onUnauthorized = options.onUnauthorized;
  const language = options.language;
  const aborted = (): boolean => abortSignal?.aborted === true;

  const request =
    <A>(spec: CallSpec<A>): TE.TaskEither<ApiError, A> =>
    async () => {
      const external = ABSOLUTE_URL.test(spec.path);
      const call = `${spec.method} ${spec.path}`;
      const url = `${external ? spec.path : baseUrl + spec.path}${buildQuery(spec.query)}`;
      const headers: Record<string, string> = { Accept: 'application/json' };
      const keyed = spec.bearer !== undefined;
      if (keyed) headers.Authorization = `Bearer ${spec.bearer}`;
      const lang = external || language === undefined ? '' : language();
      if (lang !== '') headers['Accept-Language'] = lang;
      const init: RequestInit = { method: spec.method, headers, credentials: keyed ? 'omit' : (spec.credentials ?? 'include') };
      if (abortSignal !== undefined) init.signal = abortSignal;
      if (spec.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(spec.body);
      }

      if (aborted()) return E.left(networkError(call, ABORTED));
      let response: Response;
      let text: string;
      try {
        response = await fetchFn(url, init);
        text = await response.text();
      } catch (error) {
        return E.left(networkError(call, aborted() ? ABORTED : errorText(error)));
      }

      if (!response.ok) {
        if (response.status === 401 && !external && !keyed) signal(onUnauthorized);
        const own = spec.readError === undefined ? undefined : readErrorBody(spec.readError, text, call);
        return E.left(own ?? httpError(call, response.status, httpMessage(response, text)));
      }

      let body: unknown;
      if (text.trim() === '') {
        if (spec.emptyBodyIsSuccess !== true) return E.left(decodeError(call, 'body is empty, expected JSON'));
        body = { success: true, message: '' };
      } else {
        try {
          body = JSON.parse(text);
        } catch {
          return E.left(decodeError(call, `body is not JSON: ${snippet(text)}`));
        }
      }
      try {
        return spec.read(body, call);
      } catch (error) {
        return E.left(decodeError(call, errorText(error)));
      }
    };

  return { baseUrl, request, transport: { fetch: fetchFn, signal: abortSignal, onUnauthorized }, withSignal: (signal) => clientWith(options, signal) };
}

export function signal(listener: (() => void) | undefined): void {
  try {
    listener?.();
  } catch {
    // A failing listener must not turn a 401 into an exception.
  }
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message === '' ? error.name : error.message;
  if (typeof error === 'string') return error;
  return 'request failed';
}

export const snippet = (text: string): string => {
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > MAX_TEXT_CHARS ? `${flat.slice(0, MAX_TEXT_CHARS - 1)}…` : flat;
};

/** A non-2xx answer's message: the server's own (envelope or OpenAI-style error), else statusText, else the text. */
export function httpMessage(response: Response, text: string): string {
  const fromBody = messageInJson(text);
  if (fromBody !== undefined) return fromBody;
  if (response.statusText !== '') return response.statusText;
  const plain = snippet(text);
  return plain !== '' ? plain : `HTTP ${response.status}`;
}

/** A non-2xx body through the call's own error reader; undefined when it is not JSON or the reader declines. */
function readErrorBody(reader: ErrorReader, text: string, call: string): ApiError | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  try {
    return reader(parsed, call);
  } catch {
    return undefined;
  }
}

function messageInJson(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const record = parsed as { message?: unknown; error?: unknown };
  if (typeof record.message === 'string' && record.message !== '') return record.message;
  if (typeof record.error === 'object' && record.error !== null) {
    const inner = (record.error as { message?: unknown }).message;
    if (typeof inner === 'string' && inner !== '') return inner;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Body readers: every one decodes through `decodeAt`.

/** The envelope head `{ success, message }` plus the raw `data`; `success: false` is a Failure. */
export const readHead = (body: unknown, call: string): E.Either<ApiError, EnvelopeHead & { readonly data?: unknown }> => {
  const head = decodeAt(EnvelopeHead, body, call, '');
  if (E.isLeft(head)) return head;
  if (!head.right.success) return E.left(failure(call, head.right.message));
  return E.right({ ...head.right, data: (body as { data?: unknown }).data });
};

/** Enveloped call with a payload: `data` decoded with `codec` (absent data is a Decode error). */
export const readData =
  <A>(codec: t.Decoder<unknown, A>): BodyReader<A> =>
  (body, call) => {
    const head = readHead(body, call);
    return E.isLeft(head) ? head : decodeAt(codec, head.right.data, call, 'data');
  };

/** Enveloped call without a payload: only `success` matters; any `data` is ignored. */
export const readNoData: BodyReader<void> = (body, call) => {
  const head = readHead(body, call);
  return E.isLeft(head) ? head : E.right(undefined);
};

/**
 * Non-enveloped call whose whole body carries `success` and `message` (channel test, balance):
 * the body decoded with `codec`, and `success: false` is still a Failure with the message.
 */
export const readResult =
  <A extends EnvelopeHead>(codec: t.Decoder<unknown, A>): BodyReader<A> =>
  (body, call) => {
    const result = decodeAt(codec, body, call, '');
    if (E.isLeft(result)) return result;
    return result.right.success ? result : E.left(failure(call, result.right.message));
  };

/** Non-enveloped call: the whole body decoded with `codec` (model catalogue, public release). */
export const readPlain =
  <A>(codec: t.Decoder<unknown, A>): BodyReader<A> =>
  (body, call) =>
    decodeAt(codec, body, call, '');
