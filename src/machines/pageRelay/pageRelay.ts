import { fromCallback, type AnyActorRef, type AnyEventObject } from 'xstate';

/**
 * Relays every event the actors registered under `systemIds` emit to the invoking machine, so a
 * parent routes its children's facts in its chart (an emitted event reaches listeners only).
 */
export const relayEmitted = fromCallback<AnyEventObject, { readonly systemIds: readonly string[] }>(({ input, system, sendBack }) => {
  const subs = input.systemIds
    .map((systemId) => system.get(systemId) as AnyActorRef | undefined)
    .filter((child): child is AnyActorRef => child !== undefined)
    .map((child) => child.on('*', (event: AnyEventObject) => sendBack(event)));
  return () => subs.forEach((s) => s.unsubscribe());
});
