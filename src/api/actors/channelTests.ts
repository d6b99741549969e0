import * as E from 'fp-ts/Either';
import type { TaskEither } from 'fp-ts/TaskEither';
import { fromPromise, type PromiseActorLogic } from 'xstate';
import { errorText, type ApiError } from '../../domain/apiError';
import type { Channel, ChannelTestResult } from '../../domain/channel';
import { pageSize } from '../../domain/constants';
import { whenAborted } from './fromApi';

/**
 * Composition helpers for the channel test machine's fallback, used when the server has no
 * test-run resource (one-api): the page lists every channel and tests them one by one.
 */

/** Pages read at most (a safety stop: 100 000 channels). */
const maxPages = 10_000;

/** Every channel: GET /api/channel/?p=0, 1, ... until a short page (one-api pages by `pageSize`). */
export const listAllChannels =
  (list: (page: number) => TaskEither<ApiError, Channel[]>): TaskEither<ApiError, Channel[]> =>
  async () => {
    const all: Channel[] = [];
    for (let page = 0; page < maxPages; page++) {
      const result = await list(page)();
      if (E.isLeft(result)) return result;
      all.push(...result.right);
      if (result.right.length < pageSize) break;
    }
    return E.right(all);
  };

/** The machine's `testChannel` answer (structurally its `ChannelTestOutcome`). */
export interface SingleTestOutcome {
  readonly success: boolean;
  readonly message: string;
  readonly time: number;
  readonly model: string;
  readonly test_time: number;
}

const textOf = (e: ApiError): string => errorText(e);

/**
 * `testChannel` actor logic: GET /api/channel/test/:id?model=. A refused test (`success: false`)
 * or a failed call resolves as a failed outcome with the error's text, so a run goes on.
 * `test` gets the actor's abort signal; a stopped actor's test delivers nothing.
 */
export const testChannelActor = (
  test: (id: number, model: string, signal: AbortSignal) => TaskEither<ApiError, ChannelTestResult>,
  now: () => number = () => Date.now(),
): PromiseActorLogic<SingleTestOutcome, { readonly id: number; readonly model: string }> =>
  fromPromise(({ input, signal }) =>
    whenAborted(signal, async (): Promise<SingleTestOutcome> => {
      const result = await test(input.id, input.model, signal)();
      const test_time = Math.floor(now() / 1000);
      if (E.isLeft(result)) return { success: false, message: textOf(result.left), time: 0, model: input.model, test_time };
      const r = result.right;
      return { success: true, message: r.message, time: r.time ?? 0, model: r.model ?? r.modelName ?? input.model, test_time };
    }),
  );
