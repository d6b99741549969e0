import type * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import type { TaskEither } from 'fp-ts/TaskEither';
import { failure, type ApiError } from '../domain/apiError';
import { fullKey } from '../domain/chatLinks';
import { ChatCompletion, RelayErrorBody, RelayModelList, type ChatRequest } from '../domain/relay';
import { readPlain, type ApiClient, type BodyReader, type ErrorReader } from './client';
import { decodeAt } from './decode';

/**
 * The relay (/v1, contract §4) as the console calls it: with a token's key instead of the
 * session, answers in OpenAI's shapes rather than the /api envelope. Every failure the relay
 * states in OpenAI's error body (`{"error":{"message",…}}`, whatever the HTTP status, 200
 * included) becomes a Failure carrying the relay's own message, so the console's toasts show it
 * verbatim (a disabled token's 401 is the relay's message, not an expired session).
 */
export interface RelayApi {
  /** GET /v1/models with `Bearer sk-<key>`: the models the token may use. */
  readonly listModels: (key: string) => TaskEither<ApiError, RelayModelList>;
  /** POST /v1/chat/completions (non-streaming) with `Bearer sk-<key>`. */
  readonly chat: (key: string, request: ChatRequest) => TaskEither<ApiError, ChatCompletion>;
}

/** `body` as OpenAI's error body: a Failure with its message, or undefined when it is not one. */
export const readRelayError: ErrorReader = (body, call) => {
  const decoded = decodeAt(RelayErrorBody, body, call, '');
  return E.isRight(decoded) ? failure(call, decoded.right.error.message) : undefined;
};

/** A 2xx body decoded with `codec`, unless it is OpenAI's error body (answered with 200 by some routes). */
export const readRelay =
  <A>(codec: t.Decoder<unknown, A>): BodyReader<A> =>
  (body, call) => {
    const refused = typeof body === 'object' && body !== null && 'error' in body ? readRelayError(body, call) : undefined;
    return refused === undefined ? readPlain(codec)(body, call) : E.left(refused);
  };

/** The Bearer credential of a token key as the server lists it (without `sk-`). */
const bearerOf = (key: string): string => fullKey(key);

export const createRelayApi = (client: ApiClient): RelayApi => ({
  listModels: (key) =>
    client.request({ method: 'GET', path: '/v1/models', bearer: bearerOf(key), read: readRelay(RelayModelList), readError: readRelayError }),
  chat: (key, request) =>
    client.request({
      method: 'POST',
      path: '/v1/chat/completions',
      bearer: bearerOf(key),
      body: request,
      read: readRelay(ChatCompletion),
      readError: readRelayError,
    }),
});
