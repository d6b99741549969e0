/**
 * A stand-in for the app's session actor (src/machines/session) in page machine tests: it holds a
 * user and a status like the real one, records what page machines hand it, and lets a test
 * change its status or user as a reload or another tab would.
 */
import { assign, createActor, createMachine } from 'xstate';
import type { Status } from '../../../src/domain/status';
import type { User } from '../../../src/domain/user';

export type FakeSessionEvent =
  | { readonly type: 'session.signedIn'; readonly user: User; readonly to: string; readonly enrolmentRequired?: boolean }
  /** A third-party sign-in needs the second factor (the session asks for it). */
  | { readonly type: 'session.secondFactorNeeded'; readonly to: string }
  /** Two-factor sign-in was turned on. */
  | { readonly type: 'session.enrolled' }
  | { readonly type: 'session.userUpdated'; readonly user: User }
  | { readonly type: 'logout.request' }
  /** Test-only: the status was reloaded. */
  | { readonly type: 'status.loaded'; readonly status: Status | null };

export interface FakeSessionContext {
  readonly user: User | null;
  readonly status: Status | null;
  /** Every event of the session's own kind it was sent, in order. */
  readonly received: readonly FakeSessionEvent[];
}

export const fakeSessionLogic = createMachine({
  types: {} as {
    context: FakeSessionContext;
    input: { readonly user?: User | null; readonly status?: Status | null };
    events: FakeSessionEvent;
  },
  context: ({ input }) => ({ user: input.user ?? null, status: input.status ?? null, received: [] }),
  on: {
    'session.signedIn': { actions: assign({ user: ({ event }) => event.user, received: ({ context, event }) => [...context.received, event] }) },
    'session.userUpdated': { actions: assign({ user: ({ event }) => event.user, received: ({ context, event }) => [...context.received, event] }) },
    'session.secondFactorNeeded': { actions: assign({ received: ({ context, event }) => [...context.received, event] }) },
    'session.enrolled': { actions: assign({ received: ({ context, event }) => [...context.received, event] }) },
    'logout.request': { actions: assign({ user: null, received: ({ context, event }) => [...context.received, event] }) },
    'status.loaded': { actions: assign({ status: ({ event }) => event.status }) },
  },
});

/** A started fake session with this user and status (none by default). */
export const fakeSession = (input: { readonly user?: User | null; readonly status?: Status | null } = {}) =>
  createActor(fakeSessionLogic, { input }).start();
