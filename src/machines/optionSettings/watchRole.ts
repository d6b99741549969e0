import { fromCallback, type ActorRefFrom, type AnyActorRef, type EventObject } from 'xstate';
import type { sessionMachine } from '../session/session.machine';
import { selectIsRoot } from '../session/session.selectors';

/** The session actor (src/machines/session) the settings page watches for the user's role. */
export type SessionRef = ActorRefFrom<typeof sessionMachine> | AnyActorRef;

/** The signed-in user's role changed (or is first known): root sees the option tabs. */
export interface RoleChanged {
  readonly type: 'role.changed';
  readonly isRoot: boolean;
}

/** Reports the session's role as `role.changed`, now and after every change of it. */
export const watchRole = fromCallback<EventObject, { readonly session: SessionRef }>(({ input, sendBack }) => {
  const session = input.session as ActorRefFrom<typeof sessionMachine>;
  let last: boolean | undefined;
  const report = () => {
    const isRoot = selectIsRoot(session.getSnapshot());
    if (isRoot === last) return;
    last = isRoot;
    sendBack({ type: 'role.changed', isRoot } satisfies RoleChanged);
  };
  report();
  const sub = session.subscribe(report);
  return () => sub.unsubscribe();
});
