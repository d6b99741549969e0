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

/**
 * Relays every event the page's children named `ids` emit to the page. The children are read
 * from the page's snapshot when the relay starts (after the state that invokes them is entered),
 * not from the system: a restart for another scope starts new children under the same ids.
 */
export const relayChildren = fromCallback<AnyEventObject, { readonly page: AnyActorRef; readonly ids: readonly string[] }>(({ input, sendBack }) => {
  const children = (input.page.getSnapshot() as { children: Record<string, AnyActorRef | undefined> }).children;
  const subs = input.ids
    .map((id) => children[id])
    .filter((child): child is AnyActorRef => child !== undefined)
    .map((child) => child.on('*', (event: AnyEventObject) => sendBack(event)));
  return () => subs.forEach((s) => s.unsubscribe());
});
