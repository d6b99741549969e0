import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useActorRef } from '@xstate/react';
import type { ActorRefFrom, AnyActorRef, AnyMachineSnapshot, AnyStateMachine, InputFrom } from 'xstate';
import type { NavigateEvent, NotifyEvent } from '../../domain/message';

/**
 * Machines with their actors provided, keyed by machine id. The composition root
 * (src/main.tsx) fills it with real actors built on src/api; stories fill it with stub actors
 * and may seed a frozen snapshot per machine id (conventions §4).
 * Views never see src/api: a container asks for "its" machine and gets the provided one.
 */
interface Registry {
  readonly machines: ReadonlyMap<string, AnyStateMachine>;
  readonly snapshots: ReadonlyMap<string, AnyMachineSnapshot>;
}

const MachineRegistryContext = createContext<Registry>({ machines: new Map(), snapshots: new Map() });

export function MachineRegistryProvider({
  machines,
  snapshots,
  children,
}: {
  readonly machines: readonly AnyStateMachine[];
  /** machine id -> snapshot from `machine.resolveState(...)` (stories only). */
  readonly snapshots?: Readonly<Record<string, AnyMachineSnapshot>>;
  readonly children: ReactNode;
}) {
  const parent = useContext(MachineRegistryContext);
  const value = useMemo<Registry>(
    () => ({
      machines: new Map([...parent.machines, ...machines.map((m) => [m.id, m] as const)]),
      snapshots: new Map([...parent.snapshots, ...Object.entries(snapshots ?? {})]),
    }),
    [parent, machines, snapshots],
  );
  return <MachineRegistryContext.Provider value={value}>{children}</MachineRegistryContext.Provider>;
}

/** The provided implementation of `machine` (the bare machine when none was provided). */
export function useProvidedMachine<M extends AnyStateMachine>(machine: M): M {
  const { machines } = useContext(MachineRegistryContext);
  return (machines.get(machine.id) as M | undefined) ?? machine;
}

/** Where emitted `notify` and `navigate` events go; the shell supplies toaster and router. */
export interface EffectHandlers {
  readonly notify: (event: NotifyEvent) => void;
  readonly navigate: (event: NavigateEvent) => void;
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
