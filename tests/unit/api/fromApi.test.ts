import { describe, expect, it } from 'vitest';
import * as TE from 'fp-ts/TaskEither';
import { assign, createActor, setup, toPromise, waitFor } from 'xstate';
import { fromApi } from '../../../src/api/actors';
import { createApi, createApiClient } from '../../../src/api';
import { failure, type ApiError } from '../../../src/domain/apiError';
import type { Token } from '../../../src/domain/token';
import { recordedFetch } from './support/recordedFetch';

describe('fromApi', () => {
  it('resolves with the Right value and passes the input', async () => {
    const actor = createActor(fromApi((input: { readonly id: number }) => TE.right(input.id * 2)), { input: { id: 21 } });
    actor.start();
    await expect(toPromise(actor)).resolves.toBe(42);
  });

  it('rejects with the ApiError object itself', async () => {
    const error = failure('GET /api/token/4', 'record not found');
    const actor = createActor(fromApi(() => TE.left(error)), { input: undefined });
    actor.start();
    await expect(toPromise(actor)).rejects.toBe(error);
  });

  it('feeds a machine onDone / onError from real API calls', async () => {
    const machine = setup({
      types: { context: {} as { name: string; error: ApiError | null } },
      actors: { fetchToken: fromApi((_: { readonly id: number }) => TE.left<ApiError, Token>(failure('x', 'x'))) },
    }).createMachine({
      context: { name: '', error: null },
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'fetchToken',
            src: 'fetchToken',
            input: { id: 4 },
            onDone: { target: 'ready', actions: assign({ name: ({ event }) => event.output.name }) },
            onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error as ApiError }) },
          },
        },
        ready: {},
        failed: {},
      },
    });
    const good = recordedFetch({ 'GET /api/token/4': { fixture: 'token.json' } });
    const goodApi = createApi(createApiClient({ fetch: good.fetch }));
    const done = createActor(
      machine.provide({ actors: { fetchToken: fromApi(({ id }: { readonly id: number }) => goodApi.token.get(id)) } }),
    ).start();
    expect((await waitFor(done, (s) => s.matches('ready'))).context.name).toBe('new key');

    const bad = recordedFetch({ 'GET /api/token/4': { fixture: 'failure-permission.json' } });
    const badApi = createApi(createApiClient({ fetch: bad.fetch }));
    const failed = createActor(
      machine.provide({ actors: { fetchToken: fromApi(({ id }: { readonly id: number }) => badApi.token.get(id)) } }),
    ).start();
    expect((await waitFor(failed, (s) => s.matches('failed'))).context.error).toEqual({
      _tag: 'Failure',
      call: 'GET /api/token/4',
      message: '无权进行此操作，权限不足',
    });
  });
});
