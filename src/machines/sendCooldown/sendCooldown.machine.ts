import { assertEvent, assign, emit, fromPromise, setup, type PromiseActorLogic, type SnapshotFrom } from 'xstate';
import { resendCooldownSeconds } from '../../domain/constants';

export { resendCooldownSeconds };

/** What a "send" carries: the address and the bot check's token (a code, a reset mail). */
export interface SendRequest {
  readonly email: string;
  readonly turnstile: string;
}

export interface SendCooldownInput {
  /** Length of the countdown after a send attempt, in whole seconds; 30 when omitted. */
  readonly seconds?: number;
}

export type SendCooldownEvent =
  /** Send `request` now (ignored unless ready: nothing is sent while sending or cooling down). */
  { readonly type: 'send.request'; readonly request: SendRequest };

/** The facts the child emits; its parent relays them and says what they mean in its own words. */
export type SendCooldownEmitted = { readonly type: 'send.succeeded' } | { readonly type: 'send.failed'; readonly error: unknown };

export interface SendCooldownContext {
  /** The countdown's length in seconds. */
  readonly total: number;
  /** Whole seconds until sending is allowed again (total .. 0; 0 unless cooling down). */
  readonly secondsLeft: number;
}

/** The send actor a parent injects: resolves when the server took the request. */
export type SendLogic = PromiseActorLogic<void, SendRequest>;

/**
 * Send, then cool down: `send.request` (only when `ready`) runs the injected `send` actor with the
 * request; its answer is emitted as a fact (`send.succeeded`, or `send.failed` with the error);
 * either way (spec: the button waits after a send attempt) `secondsLeft` starts at the total and
 * drops by one every `tick` (1 s), and at 0 the child is `ready` again.
 *
 * It says nothing itself. A workflow that sends something (the registration's e-mail code, the
 * password-reset mail, the e-mail binding's code) invokes it for its whole life with its own send
 * actor (`sendCooldownWith`), sends it `send.request` when its own checks pass, relays its facts
 * (`relayChildren`) to say its own messages, and mirrors its phase and count (`senderStatusOf`)
 * so the button shows the countdown and a seeded snapshot carries it.
 */
export const sendCooldownMachine = setup({
  types: {
    context: {} as SendCooldownContext,
    input: undefined as SendCooldownInput | undefined,
    events: {} as SendCooldownEvent,
    emitted: {} as SendCooldownEmitted,
    tags: {} as 'busy',
  },
  actors: {
    send: fromPromise<void, SendRequest>(() => {
      throw new Error('send not provided');
    }),
  },
  guards: {
    isOver: ({ context }) => context.secondsLeft <= 0,
  },
  actions: {
    reportSent: emit({ type: 'send.succeeded' } as const),
    reportFailed: emit((_, params: { error: unknown }) => ({ type: 'send.failed' as const, error: params.error })),
    startCountdown: assign({ secondsLeft: ({ context }) => context.total }),
    countDown: assign({ secondsLeft: ({ context }) => Math.max(0, context.secondsLeft - 1) }),
  },
  delays: {
    tick: 1000,
  },
}).createMachine({
  id: 'sendCooldown',
  context: ({ input }) => ({ total: Math.max(0, Math.floor(input?.seconds ?? resendCooldownSeconds)), secondsLeft: 0 }),
  initial: 'ready',
  states: {
    ready: {
      on: { 'send.request': 'sending' },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'send',
        src: 'send',
        input: ({ event }) => {
          assertEvent(event, 'send.request');
          return { email: event.request.email, turnstile: event.request.turnstile };
        },
        onDone: { target: 'coolingDown', actions: ['reportSent', 'startCountdown'] },
        onError: {
          target: 'coolingDown',
          actions: [{ type: 'reportFailed', params: ({ event }) => ({ error: event.error }) }, 'startCountdown'],
        },
      },
    },
    coolingDown: {
      always: { guard: 'isOver', target: 'ready' },
      after: { tick: { target: 'coolingDown', reenter: true, actions: 'countDown' } },
    },
  },
});

/** The child with its send actor: what a workflow's `send...` actor slot is given. */
export const sendCooldownWith = (send: SendLogic): typeof sendCooldownMachine => sendCooldownMachine.provide({ actors: { send } });

export type SendCooldownSnapshot = SnapshotFrom<typeof sendCooldownMachine>;

/** Where the child is: ready to send, sending, or counting down. */
export type SenderPhase = 'ready' | 'sending' | 'coolingDown';

/** The child as its parent keeps it in context (plain data: the view's button and seeded snapshots). */
export interface SenderStatus {
  readonly phase: SenderPhase;
  /** Seconds until sending works again (0 unless cooling down). */
  readonly secondsLeft: number;
}

/** A parent's mirror before anything was sent. */
export const senderReady: SenderStatus = { phase: 'ready', secondsLeft: 0 };

/** The mirror of a child's snapshot (the parent's `onSnapshot`). */
export const senderStatusOf = (s: SendCooldownSnapshot): SenderStatus => ({
  phase: s.matches('sending') ? 'sending' : s.matches('coolingDown') ? 'coolingDown' : 'ready',
  secondsLeft: s.context.secondsLeft,
});
