import { assign, fromPromise, setup } from 'xstate';

/** Spec §2: the footer re-reads the stored status every 200 ms ... */
export const footerPollMs = 200;
/** ... up to 5 times (after the first read on mount). */
export const maxFooterRereads = 5;

export interface FooterContext {
  /** The configured footer HTML (raw, from localStorage `footer_html`); '' when none is set. */
  readonly footerHtml: string;
  /** Re-reads done after the first read (0..maxFooterRereads). */
  readonly rereads: number;
}

/**
 * The page footer's configured HTML (status `footer_html`, contract §5.2 / §5.4). The session
 * stores the status when `/api/status` answers, which may be just after the footer mounts, so
 * the footer reads the stored copy once on entry and then re-reads it every `footerPoll`
 * (200 ms) up to `maxFooterRereads` (5) times, stopping as soon as a non-empty footer is read.
 * The system name and version the default footer names come from the session through the
 * Footer container's props, not from here.
 *
 * Actor to provide (src/main.tsx; the placeholder throws "readStoredFooter not provided"):
 * - `readStoredFooter`: promise, input `undefined`, output `string` (the stored footer HTML or
 *   '') — `fromPromise(async () => readStoredFooter())` with `readStoredFooter` from
 *   src/api/actors/browser/storage.ts.
 */
export const footerMachine = setup({
  types: {
    context: {} as FooterContext,
    tags: {} as 'busy',
  },
  actors: {
    readStoredFooter: fromPromise<string>(() => {
      throw new Error('readStoredFooter not provided');
    }),
  },
  guards: {
    hasFooter: (_, params: { footer: string }) => params.footer.trim() !== '',
    canReread: ({ context }) => context.rereads < maxFooterRereads,
  },
  actions: {
    takeFooter: assign({ footerHtml: (_, params: { footer: string }) => params.footer }),
    countReread: assign({ rereads: ({ context }) => context.rereads + 1 }),
  },
  delays: {
    footerPoll: footerPollMs,
  },
}).createMachine({
  id: 'footer',
  context: { footerHtml: '', rereads: 0 },
  initial: 'reading',
  states: {
    reading: {
      tags: ['busy'],
      invoke: {
        id: 'readStoredFooter',
        src: 'readStoredFooter',
        input: () => undefined,
        onDone: [
          {
            guard: { type: 'hasFooter', params: ({ event }) => ({ footer: event.output }) },
            target: 'settled',
            actions: { type: 'takeFooter', params: ({ event }) => ({ footer: event.output }) },
          },
          { guard: 'canReread', target: 'waiting' },
          { target: 'settled' },
        ],
        onError: [{ guard: 'canReread', target: 'waiting' }, { target: 'settled' }],
      },
    },
    waiting: {
      tags: ['busy'],
      after: { footerPoll: { target: 'reading', actions: 'countReread' } },
    },
    settled: { type: 'final' },
  },
});
