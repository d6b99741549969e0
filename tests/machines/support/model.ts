/**
 * Shared support for the model-based machine tests (conventions §3).
 *
 * `xstate/graph` traverses the machine's pure `transition`, so invoked actors and delays never
 * run during a traversal: the tests feed the events XState itself would generate
 * (`xstate.done.actor.<id>`, `xstate.error.actor.<id>`, `xstate.after.<delay>.<machineId>.<path>`)
 * with realistic payloads, next to the machine's own events from an exhaustive fixture map.
 */
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, EventFromLogic, SnapshotFrom, StateNode } from 'xstate';
import { getShortestPaths, getSimplePaths, type StatePath } from 'xstate/graph';

/** Every event type of the machine must have at least one fixture: a new event fails to compile. */
export type EventFixtures<M extends AnyStateMachine> = {
  readonly [T in EventFromLogic<M>['type']]: readonly Extract<EventFromLogic<M>, { type: T }>[];
};

export const doneActor = (id: string, output?: unknown): AnyEventObject => ({
  type: `xstate.done.actor.${id}`,
  output,
  actorId: id,
});
export const errorActor = (id: string, error: unknown): AnyEventObject => ({
  type: `xstate.error.actor.${id}`,
  error,
  actorId: id,
});
/** The event a named delay fires: `statePath` is the state's dotted path, e.g. `coolingDown`. */
export const afterDelay = (delay: string, machineId: string, statePath: string): AnyEventObject => ({
  type: `xstate.after.${delay}.${machineId}.${statePath}`,
});

export interface ModelOptions<M extends AnyStateMachine> {
  readonly fixtures: EventFixtures<M>;
  /** Done/error/after events, as XState would generate them. */
  readonly internal?: readonly AnyEventObject[];
  readonly input?: unknown;
  /** Serialisation of a state for the graph; default: value + context JSON. */
  readonly serializeState?: (s: SnapshotFrom<M>) => string;
  readonly limit?: number;
  /** A further condition on when an event can occur (e.g. a child's snapshots only in their order). */
  readonly occurs?: (s: SnapshotFrom<M>, event: AnyEventObject) => boolean;
}

export function allEvents<M extends AnyStateMachine>(opts: ModelOptions<M>): EventFromLogic<M>[] {
  const own = Object.values(opts.fixtures as Record<string, readonly AnyEventObject[]>).flat();
  return [...own, ...(opts.internal ?? [])] as EventFromLogic<M>[];
}

type ValueLike = string | { [k: string]: ValueLike };
const toValue = (dotted: string): ValueLike => {
  const parts = dotted.split('.');
  return parts.slice(0, -1).reduceRight<ValueLike>((acc, k) => ({ [k]: acc }), parts[parts.length - 1]!);
};

/**
 * Could XState itself send `event` to a machine in `prev`? Done/error events only while the
 * invoked actor runs, delay events only while their state is active, nothing after the end.
 */
export function canOccur(prev: AnyMachineSnapshot, event: AnyEventObject): boolean {
  if (prev.status !== 'active') return false;
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
  if (actor) return (prev.children as Record<string, unknown>)[actor[2]!] !== undefined;
  const after = /^xstate\.after\.[^.]+\.[^.]+\.(.+)$/.exec(event.type);
  if (after) return prev.matches(toValue(after[1]!));
  return true;
}

function traversal<M extends AnyStateMachine>(opts: ModelOptions<M>) {
  const events = allEvents(opts);
  return {
    // Only the events that could really happen in each state are explored.
    events: (s: SnapshotFrom<M>) => events.filter((e) => canOccur(s as AnyMachineSnapshot, e) && (opts.occurs?.(s, e) ?? true)),
    input: opts.input,
    limit: opts.limit ?? 5000,
    serializeState: (s: SnapshotFrom<M>) => {
      if (opts.serializeState) return opts.serializeState(s);
      const snap = s as AnyMachineSnapshot;
      return JSON.stringify([snap.value, snap.context, snap.status]);
    },
  };
}

export function shortestPaths<M extends AnyStateMachine>(machine: M, opts: ModelOptions<M>) {
  // The traversal option types are generic over the logic; the cast keeps this helper generic too.
  return getShortestPaths(machine, traversal(opts) as never) as StatePath<SnapshotFrom<M>, EventFromLogic<M>>[];
}

export function simplePaths<M extends AnyStateMachine>(machine: M, opts: ModelOptions<M>) {
  return getSimplePaths(machine, traversal(opts) as never) as StatePath<SnapshotFrom<M>, EventFromLogic<M>>[];
}

type StateValueLike = string | { [k: string]: StateValueLike };

/** Every state node of the machine, as the value `snapshot.matches` takes (leaves and parents). */
export function allStateValues(machine: AnyStateMachine): { id: string; value: StateValueLike }[] {
  const out: { id: string; value: StateValueLike }[] = [];
  const walk = (node: StateNode, path: string[]) => {
    for (const [key, child] of Object.entries(node.states)) {
      const p = [...path, key];
      const value = p.slice(0, -1).reduceRight<StateValueLike>((acc, k) => ({ [k]: acc }), p[p.length - 1]!);
      out.push({ id: p.join('.'), value });
      walk(child, p);
    }
  };
  walk(machine.root, []);
  return out;
}

/** The ids of the states no path reaches (the suite expects none). */
export function unreachedStates<M extends AnyStateMachine>(
  machine: M,
  paths: readonly StatePath<SnapshotFrom<M>, EventFromLogic<M>>[],
): string[] {
  const snapshots = paths.flatMap((p) => [p.state, ...p.steps.map((s) => s.state)]) as AnyMachineSnapshot[];
  return allStateValues(machine)
    .filter(({ value }) => !snapshots.some((s) => s.matches(value)))
    .map(({ id }) => id);
}

/** Short human description of a path for test names. */
export const describePath = (p: { steps: readonly { event: AnyEventObject }[] }): string =>
  p.steps.map((s) => s.event.type).join(' → ') || '(initial)';
