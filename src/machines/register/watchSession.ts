import { fromCallback, type ActorRefFrom, type EventObject } from 'xstate';
import type { sessionMachine } from '../session/session.machine';
import { selectStatus } from '../session/session.selectors';
import type { RegisterFlags, RegisterStatusChanged, SessionRef } from './register.machine';

const flagsOf = (session: SessionRef): RegisterFlags => {
  const status = selectStatus((session as ActorRefFrom<typeof sessionMachine>).getSnapshot());
  return { emailVerification: status?.email_verification ?? false, turnstileEnabled: status?.turnstile_check ?? false };
};

/** Reports the session's flags as `status.changed`: now, and after every change of them. */
export const watchSession = fromCallback<EventObject, { readonly session: SessionRef }>(({ input, sendBack }) => {
  let last: RegisterFlags | null = null;
  const report = () => {
    const flags = flagsOf(input.session);
    if (last !== null && last.emailVerification === flags.emailVerification && last.turnstileEnabled === flags.turnstileEnabled) return;
    last = flags;
    sendBack({ type: 'status.changed', ...flags } satisfies RegisterStatusChanged);
  };
  report();
  const sub = input.session.subscribe(report);
  return () => sub.unsubscribe();
});

