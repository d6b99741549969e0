import { assign, setup } from 'xstate';

/** Spec §4 / §9: a send button stays disabled this many seconds after a send attempt. */
export const resendCooldownSeconds = 30;

export interface ResendCooldownInput {
  /** Length of the countdown in whole seconds; 30 when omitted. */
  readonly seconds?: number;
}

export interface ResendCooldownContext {
  /** The countdown's length in seconds. */
  readonly total: number;
  /** Whole seconds until sending is allowed again (total .. 0). */
  readonly secondsLeft: number;
}

/**
 * The countdown after a send attempt: `secondsLeft` starts at the total and drops by one on
 * every `tick` (1 s); at 0 the machine is done.
 *
 * It sends nothing itself. A workflow that sends something (the registration's e-mail code,
 * the password-reset request) owns its send actor and its messages, and invokes this machine
 * for the length of its own `coolingDown` state: `onSnapshot` copies `secondsLeft` into the
 * workflow's context (so the button shows the count and seeded snapshots carry it), `onDone`
 * ends the cooldown. Because the workflow handles its send event only outside `coolingDown`,
 * nothing is sent while the countdown runs.
 */
export const resendCooldownMachine = setup({
  types: {
    context: {} as ResendCooldownContext,
    input: undefined as ResendCooldownInput | undefined,
  },
  guards: {
    isOver: ({ context }) => context.secondsLeft <= 0,
  },
  actions: {
    countDown: assign({ secondsLeft: ({ context }) => Math.max(0, context.secondsLeft - 1) }),
  },
  delays: {
    tick: 1000,
  },
}).createMachine({
  id: 'resendCooldown',
  context: ({ input }) => {
    const total = Math.max(0, Math.floor(input?.seconds ?? resendCooldownSeconds));
    return { total, secondsLeft: total };
  },
  initial: 'coolingDown',
  states: {
    coolingDown: {
      always: { guard: 'isOver', target: 'over' },
      after: { tick: { target: 'coolingDown', reenter: true, actions: 'countDown' } },
    },
    over: { type: 'final' },
  },
});
