import * as E from 'fp-ts/Either';
import type { TaskEither } from 'fp-ts/TaskEither';
import { fromPromise, type PromiseActorLogic } from 'xstate';
import type { ApiError } from '../../domain/apiError';
import type { ApiClient } from '../client';
import type { Api } from '../index';

/**
 * The answer of a run whose actor was stopped: a promise that never settles, so nothing is
 * delivered. XState aborts the signal when it stops a promise actor, and a stopped actor ignores
 * late answers, but React's StrictMode (and any rehydrated restart) starts the same actor again:
 * the first run's late rejection would then reach the restarted actor as its own failure (a
 * "cannot reach the server" toast for a request nobody waits for).
 */
export async function whenAborted<A>(signal: AbortSignal, run: () => Promise<A>): Promise<A> {
  let value: A;
  try {
    value = await run();
  } catch (error) {
    if (signal.aborted) return never<A>();
    throw error;
  }
  return signal.aborted ? never<A>() : value;
}

const never = <A>(): Promise<A> => new Promise<A>(() => undefined);

/**
 * Promise actor logic from an API function: resolves with its result, or rejects with the
 * ApiError itself (plain data), which the machine reads from `xstate.error.actor.<id>`'s `error`.
 * `fn` gets the actor's abort signal (conventions §2: a stopped actor cancels its work); once it
 * aborts, the run delivers nothing, neither a result nor an error.
 *
 *   fromApi((input: { id: number }, signal) => createApi(client.withSignal(signal)).token.get(input.id))
 *
 * The composition root uses `apiActors(client)`, which hands `fn` the API bound to the signal.
 */
export const fromApi = <A, I = void>(fn: (input: I, signal: AbortSignal) => TaskEither<ApiError, A>): PromiseActorLogic<A, I> =>
  fromPromise<A, I>(({ input, signal }) =>
    whenAborted(signal, async () => {
      const result = await fn(input, signal)();
      if (E.isLeft(result)) throw result.left;
      return result.right;
    }),
  );

/** `fromApi` over the API (or the part `P` of it) bound to the actor's abort signal: `bind` picks the call from it. */
export type ApiActors<P = Api> = <A, I = void>(bind: (api: P) => (input: I) => TaskEither<ApiError, A>) => PromiseActorLogic<A, I>;

/**
 * The composition root's `fromApi`: every run builds the API with `build` over `client` with the
 * actor's signal on each fetch, so stopping the actor (leaving the page) aborts its requests.
 * `build` names the resources used (`createApi` for all): an area's wiring loads only their modules.
 *
 *   const fromApi = apiActors(client, (c) => ({ auth: createAuthApi(c), token: createTokenApi(c) }));
 *   fromApi((api) => api.auth.login)
 *   fromApi((api) => ({ id }: { readonly id: number }) => api.token.get(id))
 */
export const apiActors =
  <P>(client: ApiClient, build: (client: ApiClient) => P): ApiActors<P> =>
  <A, I = void>(bind: (api: P) => (input: I) => TaskEither<ApiError, A>): PromiseActorLogic<A, I> =>
    fromApi<A, I>((input, signal) => bind(build(client.withSignal(signal)))(input));
