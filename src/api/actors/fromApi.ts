import * as E from 'fp-ts/Either';
import type { TaskEither } from 'fp-ts/TaskEither';
import { fromPromise, type PromiseActorLogic } from 'xstate';
import type { ApiError } from '../../domain/apiError';

/**
 * Promise actor logic from an API function: resolves with its result, or rejects with the
 * ApiError itself (plain data), which the machine reads from `xstate.error.actor.<id>`'s `error`.
 *
 *   sessionMachine.provide({ actors: { logIn: fromApi(api.auth.login) } })
 *   fromApi((input: { id: number }) => api.token.get(input.id))
 */
export const fromApi = <A, I = void>(fn: (input: I) => TaskEither<ApiError, A>): PromiseActorLogic<A, I> =>
  fromPromise<A, I>(async ({ input }) => {
    const result = await fn(input)();
    if (E.isLeft(result)) throw result.left;
    return result.right;
  });
