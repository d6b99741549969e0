/**
 * Replaying a path of the model on a real actor (conventions §3 (d)), and walking the pure
 * transition function for hand-written journeys: one implementation for every model test.
 *
 * A path's events are played in order: the machine's own events are sent; an
 * `xstate.done.actor.<id>` / `xstate.error.actor.<id>` settles the stub of that invoke id (the
 * latest pending call); the suite's `play` sees every event first (`xstate.after.*` under fake timers).
 */
import { expect } from 'vitest';
import {
  createActor,
  initialTransition,
  transition,
  type Actor,
  type AnyEventObject,
  type AnyStateMachine,
  type EmittedFrom,
  type EventFromLogic,
  type InputFrom,
  type SnapshotFrom,
} from 'xstate';

/** What a replay needs to settle a running invoke (a `ControlledActor` of ./stubs is one). */
export interface Settleable {
  resolve(output: never): void;
  reject(error: unknown): void;
  readonly logic?: unknown;
}

export interface ReplayOptions<M extends AnyStateMachine> {
  /** The machine, already provided with its stub actors, actions and delays. */
  readonly machine: M;
  readonly input?: InputFrom<M>;
  /** The stubs by invoke id (which equals the actor's name): their `logic` is provided to the machine. */
  readonly stubs?: Readonly<Record<string, Settleable>>;
  /**
   * Plays an event the suite handles itself (an `xstate.after.*` or a child's answer advanced with
   * fake timers), before anything else; answer false to settle a stub or send the event as usual.
   */
  readonly play?: (event: AnyEventObject, actor: Actor<M>) => boolean | Promise<boolean>;
  /** Lets the actor settle after each event: default one macrotask; with fake timers `() => vi.advanceTimersByTimeAsync(0)`. */
  readonly settle?: () => Promise<unknown>;
}

export interface Replayed<M extends AnyStateMachine> {
  readonly snapshot: SnapshotFrom<M>;
  /** Every event the machine emitted, in order. */
  readonly emitted: EmittedFrom<M>[];
}

const actorAnswer = /^xstate\.(done|error)\.actor\.(.+)$/;
const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Plays `events` on a real actor; `check(i, snapshot)` runs after each one. The actor is stopped at the end. */
export async function replay<M extends AnyStateMachine>(
  options: ReplayOptions<M>,
  events: readonly AnyEventObject[],
  check?: (step: number, snapshot: SnapshotFrom<M>) => void,
): Promise<Replayed<M>> {
  const stubs = options.stubs ?? {};
  const logic = Object.fromEntries(
    Object.entries(stubs)
      .filter(([, stub]) => stub.logic !== undefined)
      .map(([id, stub]) => [id, stub.logic]),
  );
  // provide() is typed per machine; the stubs are keyed by name, which the machine checks when invoking.
  const machine = Object.keys(logic).length === 0 ? options.machine : (options.machine.provide({ actors: logic } as never) as M);
  const actor = (createActor as (logic: M, options: { input?: unknown }) => Actor<M>)(machine, { input: options.input });
  const emitted: EmittedFrom<M>[] = [];
  actor.on('*', (e) => void emitted.push(e));
  actor.start();
  const settle = options.settle ?? macrotask;
  for (const [i, event] of events.entries()) {
    const answer = actorAnswer.exec(event.type);
    if (event.type === 'xstate.init') {
      // started above
    } else if (await options.play?.(event, actor)) {
      // played by the suite
    } else if (answer) {
      const stub = stubs[answer[2]!];
      if (stub === undefined) throw new Error(`no stub for the invoke ${answer[2]}`);
      const settled = event as AnyEventObject & { output?: never; error?: unknown };
      if (answer[1] === 'done') stub.resolve(settled.output as never);
      else stub.reject(settled.error);
    } else actor.send(event as EventFromLogic<M>);
    await settle();
    check?.(i, actor.getSnapshot());
  }
  const snapshot = actor.getSnapshot();
  actor.stop();
  return { snapshot, emitted };
}

interface PathLike<S> {
  readonly state: S;
  readonly steps: readonly { readonly event: AnyEventObject; readonly state: S }[];
}

/** A replay `check` that expects the actor's value and context to equal the path's at every step. */
export const follows =
  <S>(path: PathLike<S>) =>
  (i: number, s: S): void => {
    const expected = path.steps[i]!.state as { value: unknown; context: unknown };
    const actual = s as { value: unknown; context: unknown };
    expect(actual.value).toEqual(expected.value);
    expect(actual.context).toEqual(expected.context);
  };

/** Replays a path and expects the actor's value and context to equal the path's after every step, and at the end. */
export async function replayPath<M extends AnyStateMachine>(options: ReplayOptions<M>, path: PathLike<SnapshotFrom<M>>): Promise<Replayed<M>> {
  const run = await replay(
    options,
    path.steps.map((s) => s.event),
    follows(path),
  );
  expect((run.snapshot as { value: unknown }).value).toEqual((path.state as { value: unknown }).value);
  return run;
}

/** The snapshot after `events`, through the machine's pure transition function (no actor, nothing runs). */
export function journey<M extends AnyStateMachine>(machine: M, input: InputFrom<M>, events: readonly AnyEventObject[]): SnapshotFrom<M> {
  let [s] = initialTransition(machine, input);
  for (const e of events) [s] = transition(machine, s, e as never);
  return s;
}

/** A hand-written path (the initial snapshot, then one step per event), for `replayPath`. */
export function pathOf<M extends AnyStateMachine>(
  machine: M,
  input: InputFrom<M>,
  events: readonly AnyEventObject[],
): { state: SnapshotFrom<M>; steps: { event: AnyEventObject; state: SnapshotFrom<M> }[] } {
  let [s] = initialTransition(machine, input);
  const steps: { event: AnyEventObject; state: SnapshotFrom<M> }[] = [{ event: { type: 'xstate.init' }, state: s }];
  for (const event of events) {
    [s] = transition(machine, s, event as never);
    steps.push({ event, state: s });
  }
  return { state: s, steps };
}
