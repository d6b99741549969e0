import * as E from 'fp-ts/Either';
import type { TaskEither } from 'fp-ts/TaskEither';
import type { ApiError } from '../domain/apiError';
import { buildQuery, type ApiClient, type CallSpec } from './client';
import { primedRequests } from './primed';

const pending: TaskEither<ApiError, never> = () => new Promise<never>(() => undefined);

/**
 * The result of `call` (one GET through the API built on the client it is given) from its early
 * answer, now: only when that answer is in, a 2xx and decoded without error (the call's own
 * reader). Then the answer is taken; otherwise it stays for the call's fetch (`primedFetch`),
 * which reports a failure, a 401 or a malformed answer as always. Nothing is sent.
 */
export function takePrimed<A>(client: ApiClient, call: (client: ApiClient) => TaskEither<ApiError, A>): A | undefined {
  let spec: CallSpec<unknown> | undefined;
  const recorder: ApiClient = {
    baseUrl: client.baseUrl,
    request: (s) => {
      spec ??= s as CallSpec<unknown>;
      return pending;
    },
    transport: client.transport,
    withSignal: () => recorder,
  };
  call(recorder);
  const recorded: CallSpec<unknown> | undefined = spec;
  if (recorded?.method !== 'GET' || recorded.bearer !== undefined) return undefined;
  // the URL the client sends it to (an early answer is for a path under the client's base URL)
  const url = `${client.baseUrl}${recorded.path}${buildQuery(recorded.query)}`;
  const primed = primedRequests();
  const answer = primed?.peek(url);
  if (answer?.status === undefined || answer.text === undefined || answer.status < 200 || answer.status > 299) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return undefined;
  }
  let read: E.Either<ApiError, unknown>;
  try {
    read = recorded.read(body, `GET ${recorded.path}`);
  } catch {
    return undefined;
  }
  if (E.isLeft(read)) return undefined;
  primed?.take(url);
  return read.right as A;
}
