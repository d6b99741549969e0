import { fromCallback, type ActorRefFrom, type AnyActorRef, type EventObject } from 'xstate';
import { isAdmin, isRoot } from '../../domain/constants';
import type { QuotaDisplay } from '../../domain/format';
import type { Status } from '../../domain/status';
import type { User } from '../../domain/user';
import type { sessionMachine } from '../session/session.machine';

/** The app's session actor (src/machines/session), as a page machine takes it in its input. */
export type SessionRef = ActorRefFrom<typeof sessionMachine> | AnyActorRef;

/** What pages read from the session while they live: the user, their role, and what the status configures. */
export interface SessionFacts {
  /** The signed-in user as the session stores it (null when signed out). */
  readonly user: User | null;
  /** The user may see every user's data (role >= 10). */
  readonly admin: boolean;
  /** The user is root (role >= 100): the option tabs of the settings page. */
  readonly root: boolean;
  /** How quotas are shown (status display_in_currency / quota_per_unit). */
  readonly quotaDisplay: QuotaDisplay;
  /** status.top_up_link ('' when root has not set one). */
  readonly topUpLink: string;
  /** status.turnstile_check: Turnstile guards the forms that send mail. */
  readonly turnstileEnabled: boolean;
  /** status.email_verification: registration asks for an e-mail and its code. */
  readonly emailVerification: boolean;
}

export type SessionFact = keyof SessionFacts;

/** The session's facts changed (and which): sent to the watching machine at start and after every change. */
export interface SessionChanged {
  readonly type: 'session.changed';
  readonly facts: SessionFacts;
  /** The facts that differ from the last report (all of them in the first). */
  readonly changed: readonly SessionFact[];
}

/** one-api's quota per unit when the status does not say. */
export const defaultQuotaPerUnit = 500000;

/** The session's user and status, as a page needs them (a stand-in session with the same context works too). */
export function sessionFactsOf(context: { readonly user?: User | null; readonly status?: Status | null }): SessionFacts {
  const user = context.user ?? null;
  const status = context.status ?? null;
  return {
    user,
    admin: user !== null && isAdmin(user.role),
    root: user !== null && isRoot(user.role),
    quotaDisplay: {
      displayInCurrency: status?.display_in_currency ?? false,
      quotaPerUnit: status?.quota_per_unit ?? defaultQuotaPerUnit,
    },
    topUpLink: status?.top_up_link ?? '',
    turnstileEnabled: status?.turnstile_check ?? false,
    emailVerification: status?.email_verification ?? false,
  };
}

/** The facts of the session actor's current snapshot. */
export const readSessionFacts = (session: SessionRef): SessionFacts =>
  sessionFactsOf((session as ActorRefFrom<typeof sessionMachine>).getSnapshot().context);

const sameQuotaDisplay = (a: QuotaDisplay, b: QuotaDisplay): boolean =>
  a.displayInCurrency === b.displayInCurrency && a.quotaPerUnit === b.quotaPerUnit;

/** The facts of `next` that differ from `last` (every fact when there is no last). */
export function changedFacts(last: SessionFacts | null, next: SessionFacts): SessionFact[] {
  if (last === null) return ['user', 'admin', 'root', 'quotaDisplay', 'topUpLink', 'turnstileEnabled', 'emailVerification'];
  const out: SessionFact[] = [];
  if (last.user !== next.user) out.push('user');
  if (last.admin !== next.admin) out.push('admin');
  if (last.root !== next.root) out.push('root');
  if (!sameQuotaDisplay(last.quotaDisplay, next.quotaDisplay)) out.push('quotaDisplay');
  if (last.topUpLink !== next.topUpLink) out.push('topUpLink');
  if (last.turnstileEnabled !== next.turnstileEnabled) out.push('turnstileEnabled');
  if (last.emailVerification !== next.emailVerification) out.push('emailVerification');
  return out;
}

/**
 * Watches the session for a page machine: reports its facts as `session.changed` when started
 * and after every change of one of them (a reloaded status, a new user record, a sign-in as
 * someone else), naming what changed. An unchanged quota display keeps its object. The one
 * session watcher of the page machines: each reads the facts it needs (the log page `admin`,
 * the settings page `root`, registration the status flags).
 */
export const followSession = fromCallback<EventObject, { readonly session: SessionRef }>(({ input, sendBack }) => {
  const session = input.session as ActorRefFrom<typeof sessionMachine>;
  let last: SessionFacts | null = null;
  const report = () => {
    const fresh = sessionFactsOf(session.getSnapshot().context);
    const changed = changedFacts(last, fresh);
    if (changed.length === 0) return;
    const facts = last !== null && !changed.includes('quotaDisplay') ? { ...fresh, quotaDisplay: last.quotaDisplay } : fresh;
    last = facts;
    sendBack({ type: 'session.changed', facts, changed } satisfies SessionChanged);
  };
  report();
  const sub = session.subscribe(report);
  return () => sub.unsubscribe();
});
