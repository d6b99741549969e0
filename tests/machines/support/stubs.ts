/**
 * Stub promise actors for the model-test replays (see ./replay): each call is recorded and stays
 * pending until the test settles it, so a replay can play a path's `xstate.done/error.actor.*`
 * events in order.
 */
import { fromPromise, type PromiseActorLogic } from 'xstate';

export interface ControlledActor<O, I> {
  readonly logic: PromiseActorLogic<O, I>;
  /** Every input the actor was started with, in order. */
  readonly calls: I[];
  /** Settles the latest pending call. */
  resolve(output: O): void;
  reject(error: unknown): void;
  /** A call is waiting to be settled. */
  readonly pending: boolean;
}

export function controlled<O, I>(): ControlledActor<O, I> {
  const calls: I[] = [];
  let settle: { resolve: (o: O) => void; reject: (e: unknown) => void } | null = null;
  const take = () => {
    const s = settle;
    if (s === null) throw new Error('no pending call to settle');
    settle = null;
    return s;
  };
  return {
    logic: fromPromise<O, I>(({ input }) => {
      calls.push(input);
      return new Promise<O>((resolve, reject) => {
        settle = { resolve, reject };
      });
    }),
    calls,
    resolve: (output) => take().resolve(output),
    reject: (error) => take().reject(error),
    get pending() {
      return settle !== null;
    },
  };
}
