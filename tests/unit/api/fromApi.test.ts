import { describe, expect, it } from 'vitest';
import * as TE from 'fp-ts/TaskEither';
import { assign, createActor, emit, setup, toPromise, waitFor } from 'xstate';
import { apiActors, fromApi, whenAborted } from '../../../src/api/actors';
import { createApi, createApiClient } from '../../../src/api';
import type { FetchLike } from '../../../src/api/client';
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

/**
 * A fetch that never answers by itself: it records each call's signal and rejects with the
 * platform's AbortError when that signal aborts (as the browser's fetch does), or answers when
 * the test calls `answer`.
 */
function pendingFetch() {
  const calls: { readonly url: string; readonly signal: AbortSignal | undefined; readonly answer: (body: string) => void }[] = [];
  const fetch: FetchLike = (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? undefined;
      calls.push({ url, signal, answer: (body) => resolve(new Response(body, { status: 200 })) });
      signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
    });
  return { fetch, calls };
}

const settles = async (promise: Promise<unknown>): Promise<boolean> => {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
  return settled;
};

describe('cancellation (conventions §2: a stopped actor cancels its work)', () => {
  it('passes the actor signal to fetch; stopping the actor aborts it and delivers no result', async () => {
    const server = pendingFetch();
    const fromClient = apiActors(createApiClient({ fetch: server.fetch }), createApi);
    const actor = createActor(
      fromClient((api) => ({ id }: { readonly id: number }) => api.token.get(id)),
      { input: { id: 4 } },
    );
    const seen: string[] = [];
    actor.subscribe({ next: (s) => seen.push(s.status), error: () => seen.push('error') });
    actor.start();
    await Promise.resolve();
    expect(server.calls).toHaveLength(1);
    const signal = server.calls[0]!.signal!;
    expect(signal.aborted).toBe(false);

    actor.stop();
    expect(signal.aborted).toBe(true);
    await settles(Promise.resolve());
    expect(actor.getSnapshot().status).toBe('stopped');
    expect(actor.getSnapshot().output).toBeUndefined();
    expect(actor.getSnapshot().error).toBeUndefined();
    expect(seen).not.toContain('error');
    expect(seen).not.toContain('done');
  });

  it('an aborted run never settles, even if its answer arrives (a restarted actor gets only its own)', async () => {
    const controller = new AbortController();
    const failing = whenAborted(controller.signal, () => {
      controller.abort();
      return Promise.reject(new Error('network'));
    });
    expect(await settles(failing)).toBe(false);

    const late = new AbortController();
    let answer: (value: number) => void = () => undefined;
    const answered = whenAborted(late.signal, () => new Promise<number>((resolve) => (answer = resolve)));
    late.abort();
    answer(1);
    expect(await settles(answered)).toBe(false);

    expect(await whenAborted(new AbortController().signal, () => Promise.resolve(7))).toBe(7);
    await expect(whenAborted(new AbortController().signal, () => Promise.reject(new Error('x')))).rejects.toThrow('x');
  });

  it('a call under an already aborted signal is not sent', async () => {
    const server = pendingFetch();
    const controller = new AbortController();
    controller.abort();
    const api = createApi(createApiClient({ fetch: server.fetch }).withSignal(controller.signal));
    const result = await api.status.getStatus()();
    expect(server.calls).toHaveLength(0);
    expect(result).toMatchObject({ _tag: 'Left', left: { _tag: 'Network', message: 'aborted' } });
  });

  it('leaving a page mid-request: the request is aborted, no notify is emitted, no error state', async () => {
    const server = pendingFetch();
    const fromClient = apiActors(createApiClient({ fetch: server.fetch }), createApi);
    const page = setup({
      types: { events: {} as { type: 'leave' }, emitted: {} as { type: 'notify'; message: string } },
      actors: { loadStatus: fromClient((api) => () => api.status.getStatus()) },
    }).createMachine({
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadStatus',
            src: 'loadStatus',
            input: undefined,
            onDone: 'ready',
            onError: { target: 'failed', actions: emit({ type: 'notify', message: 'shell.statusUnreachable' }) },
          },
          on: { leave: 'left' },
        },
        ready: {},
        failed: {},
        left: {},
      },
    });
    const actor = createActor(page);
    const notices: string[] = [];
    actor.on('notify', (event) => notices.push(event.message));
    actor.start();
    await Promise.resolve();
    expect(server.calls.map((c) => c.url)).toEqual(['/api/status']);

    actor.send({ type: 'leave' });
    expect(server.calls[0]!.signal!.aborted).toBe(true);
    await settles(Promise.resolve());
    expect(actor.getSnapshot().value).toBe('left');
    expect(notices).toEqual([]);

    // a page stopped as a whole (the route unmounts) stays as quiet
    const second = createActor(page);
    second.on('notify', (event) => notices.push(event.message));
    second.start();
    await Promise.resolve();
    second.stop();
    expect(server.calls[1]!.signal!.aborted).toBe(true);
    await settles(Promise.resolve());
    expect(notices).toEqual([]);
  });
});
