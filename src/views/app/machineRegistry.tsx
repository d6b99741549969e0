import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useActorRef } from '@xstate/react';
import type { ActorRefFrom, AnyActorRef, AnyMachineSnapshot, AnyStateMachine, InputFrom, StateMachine } from 'xstate';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';
import type { PaletteCommandEvent } from '../../domain/commandPalette';
import type { MachineWiring } from './machineWiring';
import { isPageMachineId, type AreaMachineId, type PageMachineId, type WiringArea } from './pageMachines';

/**
 * Machines with their actors provided, keyed by machine id. The composition root
 * (src/main.tsx) fills it with real actors built on src/api, area by area as the pages needing
 * them load (`wiring`); stories fill it with stub actors and may seed a frozen snapshot per
 * machine id (conventions §4).
 * Views never see src/api: a container asks for "its" machine and gets the provided one.
 */
interface Registry {
  readonly machines: ReadonlyMap<string, AnyStateMachine>;
  readonly implementations: ReadonlyMap<string, MachineImplementation>;
  readonly snapshots: ReadonlyMap<string, AnyMachineSnapshot>;
  /** The composition root's implementations, registered as their areas load. */
  readonly wiring?: MachineWiring;
}

/** What `machine.provide()` takes: actors, actions, guards, delays. */
export type ImplementationOf<M extends AnyStateMachine> = Parameters<M['provide']>[0];

/* eslint-disable @typescript-eslint/no-explicit-any -- positions of StateMachine's type parameters, only matched */
/** The id a machine declares (`createMachine({ id: 'register' })`) as a literal type; never without one. */
export type MachineIdOf<M extends AnyStateMachine> =
  M extends StateMachine<any, any, any, any, any, any, any, any, any, any, any, any, any, infer Schema, any>
    ? Schema extends { readonly id: infer Id extends string }
      ? Id
      : never
    : never;

type ProvidedActorOf<M extends AnyStateMachine> =
  M extends StateMachine<any, any, any, infer Actor, any, any, any, any, any, any, any, any, any, any, any> ? Actor : never;
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * Child machines that carry an effect of their own and so are given by the composition root with
 * that effect provided (`sendCooldownWith(send)`), like any actor.
 */
type ChildMachinesProvidedAtRoot = 'sendCooldown';

/**
 * The `src` names of a machine's own actors: invoked machines come with the machine itself,
 * except the children listed in `ChildMachinesProvidedAtRoot`.
 */
type OwnActorSrc<Actor> = Actor extends { readonly src: infer Src extends string; readonly logic: infer Logic }
  ? Logic extends AnyStateMachine
    ? [MachineIdOf<Logic>] extends [ChildMachinesProvidedAtRoot]
      ? Src
      : never
    : Src
  : never;

/** `ImplementationOf<M>` that names every own actor of the machine: a missing one fails to compile. */
export type CompleteImplementationOf<M extends AnyStateMachine> = ImplementationOf<M> &
  ([OwnActorSrc<ProvidedActorOf<M>>] extends [never]
    ? unknown
    : { readonly actors: { readonly [Src in OwnActorSrc<ProvidedActorOf<M>>]: unknown } });

/**
 * A machine's implementations by machine id, without the machine itself: the composition root
 * names them with a type-only import, so a page's machine code loads with the page's chunk.
 */
export interface MachineImplementation<Id extends string = string> {
  readonly id: Id;
  readonly implementation: object;
  /**
   * What the composition root adds to the machine's input when a parent starts it (a list
   * table's first page answered early, src/api/primedPage.ts): called once per invoked actor,
   * with the input the parent gave.
   */
  readonly startInput?: (input: unknown) => unknown;
}

/**
 * `implement<typeof registerMachine>('register', { actors: {...} })`, checked against the machine's
 * types: the id is the one the machine declares and one of `pageMachineIds`, every own actor is given.
 * A machine made by a factory (`createTableMachine({ id })`) declares no literal id: name it as the
 * second type argument (`implement<typeof tokenTableMachine, 'tokenTable'>('tokenTable', ...)`), or
 * its area's list (`implementArea`) does not compile.
 */
export const implement = <M extends AnyStateMachine, Id extends MachineIdOf<M> & PageMachineId = MachineIdOf<M> & PageMachineId>(
  id: Id,
  implementation: CompleteImplementationOf<M>,
  startInput?: (input: InputFrom<M>) => InputFrom<M>,
): MachineImplementation<Id> => ({ id, implementation, startInput: startInput as MachineImplementation['startInput'] });

/** An area's implementations (src/wiring/<area>.ts, the entry's `shell`): made by `implementArea` only. */
export interface AreaImplementations<A extends WiringArea> {
  readonly area: A;
  readonly implementations: readonly MachineImplementation<AreaMachineId<A>>[];
}

/** The ids of an area a list of implementations leaves out. */
type MissingIds<A extends WiringArea, L extends readonly MachineImplementation[]> = Exclude<AreaMachineId<A>, L[number]['id']>;

/**
 * An area's implementations: one for every machine id of the area (`pageMachineAreas`), or a
 * compile error naming the missing ones; an id of another area does not compile either. With the
 * composition root's loaders typed by area (`AreaLoaders`), every page machine id gets one.
 */
export const implementArea = <A extends WiringArea, const L extends readonly MachineImplementation<AreaMachineId<A>>[]>(
  area: A,
  list: L & ([MissingIds<A, L>] extends [never] ? unknown : { readonly missingIds: MissingIds<A, L> }),
): AreaImplementations<A> => ({ area, implementations: list });

const MachineRegistryContext = createContext<Registry>({ machines: new Map(), implementations: new Map(), snapshots: new Map() });

export function MachineRegistryProvider({
  machines = [],
  implementations = [],
  wiring,
  snapshots,
  children,
}: {
  /** Machines already provided (stories, tests). */
  readonly machines?: readonly AnyStateMachine[];
  /** Implementations for machines that load on demand (tests). */
  readonly implementations?: readonly MachineImplementation[];
  /** The composition root's implementations, registered area by area as their pages load. */
  readonly wiring?: MachineWiring;
  /** machine id -> snapshot from `machine.resolveState(...)` (stories only). */
  readonly snapshots?: Readonly<Record<string, AnyMachineSnapshot>>;
  readonly children: ReactNode;
}) {
  const parent = useContext(MachineRegistryContext);
  const value = useMemo<Registry>(
    () => ({
      machines: new Map([...parent.machines, ...machines.map((m) => [m.id, m] as const)]),
      implementations: new Map([...parent.implementations, ...implementations.map((i) => [i.id, i] as const)]),
      snapshots: new Map([...parent.snapshots, ...Object.entries(snapshots ?? {})]),
      wiring: wiring ?? parent.wiring,
    }),
    [parent, machines, implementations, wiring, snapshots],
  );
  return <MachineRegistryContext.Provider value={value}>{children}</MachineRegistryContext.Provider>;
}

const isMachine = (logic: unknown): logic is AnyStateMachine =>
  typeof logic === 'object' && logic !== null && 'root' in logic && 'provide' in logic && typeof (logic as { id?: unknown }).id === 'string';

/**
 * `logic` as a parent invokes it: starting from `snapshot` (frozen: no entry action, no invoke)
 * when there is one, else from `start(input)` (the implementation's `startInput`) if given.
 */
const seeded = <M extends AnyStateMachine>(logic: M, snapshot: AnyMachineSnapshot | undefined, start: MachineImplementation['startInput']): M =>
  snapshot === undefined && start === undefined
    ? logic
    : (Object.create(logic, {
        getInitialSnapshot: {
          value: (scope: Parameters<M['restoreSnapshot']>[1], input: unknown) =>
            snapshot === undefined ? logic.getInitialSnapshot(scope, start!(input)) : logic.restoreSnapshot(snapshot, scope),
        },
      }) as M);

const implementationOf = (registry: Registry, id: string): MachineImplementation | undefined =>
  registry.implementations.get(id) ?? registry.wiring?.implementationOf(id);

/**
 * In the console (the composition root's wiring), a page machine without its implementation
 * means a page rendered before its area's wiring loaded (a loader not wrapped in `withWiring`,
 * or the wrong area): in development that fails at once instead of at the first invoke.
 */
function assertWired(registry: Registry, id: string): void {
  if (import.meta.env.DEV && registry.wiring?.connected === true && isPageMachineId(id)) {
    throw new Error(`machine '${id}' rendered without its implementation: load its wiring area with withWiring(...) beside the page`);
  }
}

/**
 * `machine` as the registry provides it, and so are the machines it invokes (a page machine's
 * children, e.g. `tokenTable`): by their own ids, each seeded with the story's snapshot if any.
 */
function resolveMachine<M extends AnyStateMachine>(machine: M, registry: Registry): M {
  const provided = registry.machines.get(machine.id) as M | undefined;
  const implementation = implementationOf(registry, machine.id);
  if (provided === undefined && implementation === undefined) assertWired(registry, machine.id);
  const own = provided ?? (implementation === undefined ? machine : (machine.provide(implementation.implementation as ImplementationOf<M>) as M));
  const children: Record<string, AnyStateMachine> = {};
  for (const [src, logic] of Object.entries(own.implementations.actors)) {
    if (!isMachine(logic)) continue;
    const known = registry.machines.has(logic.id) || implementationOf(registry, logic.id) !== undefined || registry.snapshots.has(logic.id);
    if (!known) assertWired(registry, logic.id);
    if (known) children[src] = seeded(resolveMachine(logic, registry), registry.snapshots.get(logic.id), implementationOf(registry, logic.id)?.startInput);
  }
  return Object.keys(children).length === 0 ? own : (own.provide({ actors: children } as ImplementationOf<M>) as M);
}

/** The provided implementation of `machine` (the bare machine when none was provided), its invoked machines provided too. */
export function useProvidedMachine<M extends AnyStateMachine>(machine: M): M {
  const registry = useContext(MachineRegistryContext);
  return useMemo(() => resolveMachine(machine, registry), [machine, registry]);
}

/** Where emitted `notify` and `navigate` events go; the shell supplies toaster and router. */
export interface EffectHandlers {
  readonly notify: (event: NotifyEvent) => void;
  readonly navigate: (event: NavigateEvent) => void;
  /** An emitted `status.reload` (a saved option the status reflects): the session reloads the status. */
  readonly reloadStatus?: () => void;
  /** An emitted `command` (the command palette's theme, language, sign-out): the shell runs it on the app actors. */
  readonly command?: (event: PaletteCommandEvent) => void;
}

const noEffects: EffectHandlers = { notify: () => undefined, navigate: () => undefined };
const EffectsContext = createContext<EffectHandlers>(noEffects);
export const EffectsProvider = EffectsContext.Provider;

/** Routes an actor's emitted notify/navigate events to the shell's toaster and router. */
export function useMachineEffects(actorRef: AnyActorRef): void {
  const handlers = useContext(EffectsContext);
  useEffect(() => {
    const subs = [
      actorRef.on('notify', (e: NotifyEvent) => handlers.notify(e)),
      actorRef.on('navigate', (e: NavigateEvent) => handlers.navigate(e)),
      actorRef.on('status.reload', () => handlers.reloadStatus?.()),
      actorRef.on('command', (e: PaletteCommandEvent) => handlers.command?.(e)),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [actorRef, handlers]);
}

/**
 * A page-scoped actor for `machine`: the provided implementation, started from the story's
 * seeded snapshot when there is one, with its notify/navigate effects wired to the shell.
 */
export function useMachineActor<M extends AnyStateMachine>(
  machine: M,
  ...[input]: undefined extends InputFrom<M> ? [input?: InputFrom<M>] : [input: InputFrom<M>]
): ActorRefFrom<M> {
  const logic = useProvidedMachine(machine);
  const { snapshots } = useContext(MachineRegistryContext);
  const snapshot = snapshots.get(machine.id);
  const actorRef = useActorRef(logic, snapshot ? { snapshot } : { input }) as ActorRefFrom<M>;
  useMachineEffects(actorRef);
  return actorRef;
}

/**
 * Sends `toEvent(e)` to `actorRef` for every keydown anywhere on the page that `matches` (the
 * key's default is prevented): a keyboard shortcut that belongs to a machine.
 */
export function useShortcut(actorRef: AnyActorRef, matches: (e: KeyboardEvent) => boolean, toEvent: () => { readonly type: string }): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!matches(e) || e.repeat) return;
      e.preventDefault();
      actorRef.send(toEvent());
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actorRef, matches, toEvent]);
}
