import { assign, emit, fromPromise, setup } from 'xstate';
import { logScopeParam, type LogScope } from '../../domain/logQuery';
import type { NotifyEvent } from '../../domain/message';
import type { TableQuery } from '../../domain/tableQuery';
import { logExportMachine, logStatMachine, logTableMachine } from '../logList';
import { relayChildren } from '../pageRelay';
import { followSession, readSessionFacts, type SessionChanged, type SessionRef } from '../sessionWatch';
import type { QueryChanged } from '../table';

export interface LogListPageInput {
  /** The app's session actor: whose logs the page lists follows the user's role. */
  readonly session: SessionRef;
  /** The address bar's view at mount (later changes reach the table as `query.set`). */
  readonly query: TableQuery;
}

export interface LogListPageContext {
  readonly session: SessionRef;
  /** The table's latest view (a restart for another scope keeps it). */
  readonly query: TableQuery;
  /** Whose logs: every user's for an admin, else the caller's own. */
  readonly scope: LogScope;
  /** When the page opened (Unix seconds, from `readClock`); null until the clock answers. */
  readonly openedAt: number | null;
}

/** What reaches the page: the children's facts (relayed) and the session's changes. */
export type LogListPageEvent = NotifyEvent | QueryChanged | SessionChanged;

/** What the page emits for the shell: toasts, and the table's query for the address bar. */
export type LogListPageEmitted = NotifyEvent | QueryChanged;

/** The children of the page, by invoke id (each also the child's machine id). */
export const logListPageChildren = ['logTable', 'logStat', 'logExport'] as const;

/** Whose logs a user with this role sees. */
export const scopeOf = (admin: boolean): LogScope => (admin ? 'admin' : 'self');

/**
 * The /log page: invokes the log table (filters as its server parameters, kept in the address),
 * the title's consumed-quota stat and the CSV export, all for the caller's scope. The scope
 * follows the session (`followSession`): a user who becomes (or stops being) an admin while the
 * page lives gets the children restarted for the other scope, at the table's current view. The
 * form's default end (one hour after the page opened, spec §9) is measured from `readClock`.
 * The children's toasts and the table's `query.changed` leave the page as its own emitted events.
 */
export const logListPageMachine = setup({
  types: {
    context: {} as LogListPageContext,
    input: {} as LogListPageInput,
    events: {} as LogListPageEvent,
    emitted: {} as LogListPageEmitted,
    children: {} as {
      logTable: 'logTable';
      logStat: 'logStat';
      logExport: 'logExport';
      relayChildren: 'relayChildren';
      followSession: 'followSession';
      readClock: 'readClock';
    },
  },
  actors: {
    logTable: logTableMachine,
    logStat: logStatMachine,
    logExport: logExportMachine,
    relayChildren,
    followSession,
    /** The clock, in Unix seconds (provided at the composition root; tests give a fixed one). */
    readClock: fromPromise<number>(() => {
      throw new Error('readClock not provided');
    }),
  },
  guards: {
    isScopeChange: ({ context }, params: SessionChanged) => params.facts.user !== null && scopeOf(params.facts.admin) !== context.scope,
  },
  actions: {
    setScope: assign({ scope: (_, params: SessionChanged) => scopeOf(params.facts.admin) }),
    setOpenedAt: assign({ openedAt: (_, params: { now: number }) => params.now }),
    keepQuery: assign({ query: (_, params: QueryChanged) => params.query }),
    notify: emit((_, params: NotifyEvent) => params),
    writeQuery: emit((_, params: QueryChanged) => params),
  },
}).createMachine({
  id: 'logListPage',
  context: ({ input }) => ({
    session: input.session,
    query: input.query,
    scope: scopeOf(readSessionFacts(input.session).admin),
    openedAt: null,
  }),
  invoke: [
    { id: 'followSession', src: 'followSession', input: ({ context }) => ({ session: context.session }) },
    {
      id: 'readClock',
      src: 'readClock',
      input: undefined,
      onDone: { actions: { type: 'setOpenedAt', params: ({ event }) => ({ now: event.output }) } },
    },
  ],
  initial: 'active',
  states: {
    active: {
      invoke: [
        {
          id: 'logTable',
          src: 'logTable',
          input: ({ context }) => ({ query: context.query, baseParams: { [logScopeParam]: context.scope } }),
        },
        { id: 'logStat', src: 'logStat', input: ({ context }) => ({ scope: context.scope }) },
        { id: 'logExport', src: 'logExport', input: ({ context }) => ({ scope: context.scope }) },
        // after the children, so it finds them
        { id: 'relayChildren', src: 'relayChildren', input: ({ self }) => ({ page: self, ids: logListPageChildren }) },
      ],
      on: {
        'session.changed': {
          guard: { type: 'isScopeChange', params: ({ event }) => event },
          target: 'active',
          reenter: true,
          actions: { type: 'setScope', params: ({ event }) => event },
        },
        'query.changed': {
          actions: [
            { type: 'keepQuery', params: ({ event }) => event },
            { type: 'writeQuery', params: ({ event }) => event },
          ],
        },
        notify: { actions: { type: 'notify', params: ({ event }) => event } },
      },
    },
  },
});
