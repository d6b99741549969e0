import { describe, expect, it } from 'vitest';
import { createActor, createMachine, type AnyEventObject } from 'xstate';
import type { Status } from '../../src/domain/status';
import type { User } from '../../src/domain/user';
import { changedFacts, followSession, sessionFactsOf, type SessionChanged } from '../../src/machines/sessionWatch';
import { fakeSession } from './support/fakeSession';

/*
 * The shared session watcher: the facts pages read from the session, and `followSession`, which
 * reports them at start and after every change, naming what changed.
 */

const alice: User = { id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1 };
const boss: User = { ...alice, role: 10 };
const root: User = { ...alice, id: 1, username: 'root', role: 100 };
const status = { display_in_currency: true, quota_per_unit: 500000, top_up_link: '', turnstile_check: false, email_verification: false } as Status;

/** A page stand-in that invokes the watcher and keeps every report. */
function watch(session: ReturnType<typeof fakeSession>) {
  const reports: SessionChanged[] = [];
  const page = createMachine({
    invoke: { src: followSession, input: { session } },
    on: { 'session.changed': { actions: ({ event }: { event: AnyEventObject }) => void reports.push(event as SessionChanged) } },
  });
  const actor = createActor(page).start();
  return { actor, reports };
}

describe('sessionWatch', () => {
  it('derives the facts (defaults without a status)', () => {
    expect(sessionFactsOf({ user: null, status: null })).toEqual({
      user: null,
      admin: false,
      root: false,
      quotaDisplay: { displayInCurrency: false, quotaPerUnit: 500000 },
      topUpLink: '',
      turnstileEnabled: false,
      emailVerification: false,
    });
    expect(sessionFactsOf({ user: boss, status: { ...status, top_up_link: 'https://pay' } })).toMatchObject({ admin: true, root: false, topUpLink: 'https://pay' });
    expect(sessionFactsOf({ user: root, status: { ...status, email_verification: true } })).toMatchObject({ admin: true, root: true, emailVerification: true });
  });

  it('names what changed', () => {
    const before = sessionFactsOf({ user: alice, status });
    expect(changedFacts(null, before)).toEqual(['user', 'admin', 'root', 'quotaDisplay', 'topUpLink', 'turnstileEnabled', 'emailVerification']);
    expect(changedFacts(before, sessionFactsOf({ user: alice, status: { ...status } }))).toEqual([]);
    expect(changedFacts(before, sessionFactsOf({ user: boss, status }))).toEqual(['user', 'admin']);
    expect(changedFacts(before, sessionFactsOf({ user: alice, status: { ...status, turnstile_check: true } }))).toEqual(['turnstileEnabled']);
    expect(changedFacts(before, sessionFactsOf({ user: root, status }))).toEqual(['user', 'admin', 'root']);
    expect(changedFacts(before, sessionFactsOf({ user: alice, status: { ...status, email_verification: true } }))).toEqual(['emailVerification']);
  });

  it('reports at start, then only changes; an equal status reload reports nothing', () => {
    const session = fakeSession({ user: alice, status });
    const { actor, reports } = watch(session);
    expect(reports).toHaveLength(1);
    session.send({ type: 'status.loaded', status: { ...status } });
    expect(reports).toHaveLength(1);
    session.send({ type: 'status.loaded', status: { ...status, display_in_currency: false } });
    expect(reports.at(-1)!.changed).toEqual(['quotaDisplay']);
    const display = reports.at(-1)!.facts.quotaDisplay;
    session.send({ type: 'session.userUpdated', user: boss });
    expect(reports.at(-1)!.changed).toEqual(['user', 'admin']);
    // an unchanged quota display keeps its object
    expect(reports.at(-1)!.facts.quotaDisplay).toBe(display);
    actor.stop();
    session.send({ type: 'session.userUpdated', user: alice });
    expect(reports).toHaveLength(3);
  });

  it('reports the role and the registration flags: what the settings page and registration read', () => {
    const session = fakeSession({ user: null, status });
    const { actor, reports } = watch(session);
    expect(reports.at(-1)!.facts).toMatchObject({ root: false, emailVerification: false, turnstileEnabled: false });
    session.send({ type: 'session.signedIn', user: root, to: '/' });
    expect(reports.at(-1)!.changed).toEqual(['user', 'admin', 'root']);
    expect(reports.at(-1)!.facts.root).toBe(true);
    session.send({ type: 'status.loaded', status: { ...status, email_verification: true, turnstile_check: true } });
    expect(reports.at(-1)!.changed).toEqual(['turnstileEnabled', 'emailVerification']);
    expect(reports.at(-1)!.facts).toMatchObject({ emailVerification: true, turnstileEnabled: true });
    // a new record of the same root: only the user changed
    session.send({ type: 'session.userUpdated', user: { ...root, display_name: 'Root' } });
    expect(reports.at(-1)!.changed).toEqual(['user']);
    session.send({ type: 'logout.request' });
    expect(reports.at(-1)!.changed).toEqual(['user', 'admin', 'root']);
    expect(reports).toHaveLength(5);
    actor.stop();
  });
});
