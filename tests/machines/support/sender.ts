/**
 * The sendCooldown child as its parents' model tests see it (register, passwordResetRequest,
 * emailBind): the events that reach a parent from its sender (the relayed facts and the
 * `xstate.snapshot.<id>` its mirror follows), a filter that keeps the orders the child can
 * really produce, and a replay `play` that produces them on a real actor with a stub send.
 */
import { vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { failure } from '../../../src/domain/apiError';
import { sendCooldownMachine, type SendCooldownEmitted, type SenderStatus } from '../../../src/machines/sendCooldown';
import type { Settleable } from './replay';

type SenderPhase = SenderStatus['phase'];
type WithSender = AnyMachineSnapshot & { readonly context: { readonly sender: SenderStatus } };

interface PathLike {
  readonly steps: readonly { readonly event: AnyEventObject; readonly state: unknown }[];
}

export interface SenderEvents {
  /** The send went through (relayed fact). */
  readonly succeeded: Extract<SendCooldownEmitted, { type: 'send.succeeded' }>;
  /** The server refused it (relayed fact). */
  readonly failed: Extract<SendCooldownEmitted, { type: 'send.failed' }>;
  /** The child's snapshot after its answer: 30 s to go. */
  readonly cooling: AnyEventObject;
  /** The child's snapshot one second before the end (the ticks in between are alike). */
  readonly lastSecond: AnyEventObject;
  /** The child's snapshot at the end of the countdown. */
  readonly ready: AnyEventObject;
  /** The snapshot events, for a model's `internal` list. */
  readonly snapshots: readonly AnyEventObject[];
  /** For a model's `occurs`: the sender's events only in an order the child can produce. */
  readonly occurs: (s: unknown, e: AnyEventObject) => boolean;
  /** Keeps a path whose sender events come in an order the child can produce. */
  readonly isRealistic: (path: PathLike) => boolean;
  /**
   * A replay `play` for the sender's events: a fact waits for the child's next snapshot, which
   * settles the stub send (the child reports both at once; without a fact the send succeeds);
   * the countdown runs on the fake clock.
   */
  readonly play: (send: Settleable) => (event: AnyEventObject, actor: { getSnapshot(): unknown }) => Promise<boolean>;
}

const snapshotEvent = (id: string, value: SenderPhase, secondsLeft: number): AnyEventObject => ({
  type: `xstate.snapshot.${id}`,
  snapshot: sendCooldownMachine.resolveState({ value, context: { total: 30, secondsLeft } }),
});
const statusIn = (e: AnyEventObject): SenderStatus => {
  const s = (e as unknown as { snapshot: AnyMachineSnapshot }).snapshot;
  return { phase: s.value as SenderPhase, secondsLeft: (s.context as { secondsLeft: number }).secondsLeft };
};

/** The sender events of the parent's child invoked as `id`; a failure carries `error`. */
export function senderEvents(id: string, error: unknown = failure('sendVerificationCode', '邮箱地址已被占用')): SenderEvents {
  const succeeded = { type: 'send.succeeded' } as const;
  const failed = { type: 'send.failed', error } as const;
  const cooling = snapshotEvent(id, 'coolingDown', 30);
  const lastSecond = snapshotEvent(id, 'coolingDown', 1);
  const ready = snapshotEvent(id, 'ready', 0);
  const isFact = (e: AnyEventObject) => e.type === succeeded.type || e.type === failed.type;

  /** Could the child produce `e` now, as the parent's mirror `sender` says where it is? */
  function occurs(s: unknown, e: AnyEventObject): boolean {
    const now = (s as WithSender).context.sender;
    // one answer per send, while it is on its way (facts only change what is said)
    if (isFact(e)) return now.phase === 'sending';
    if (e.type !== cooling.type) return true;
    const next = statusIn(e);
    // the countdown starts after the answer, goes down, and ends
    if (next.phase === 'coolingDown' && next.secondsLeft === 30) return now.phase === 'sending';
    if (next.phase === 'coolingDown') return now.phase === 'coolingDown' && now.secondsLeft > next.secondsLeft;
    return now.phase === 'coolingDown';
  }

  const isRealistic = (path: PathLike): boolean =>
    path.steps.every((step, i) => i === 0 || occurs(path.steps[i - 1]!.state, step.event));

  const play = (send: Settleable) => {
    let pending: SendCooldownEmitted | null = null;
    return async (e: AnyEventObject, actor: { getSnapshot(): unknown }): Promise<boolean> => {
      if (isFact(e)) {
        pending = e as SendCooldownEmitted;
        return true;
      }
      if (e.type !== cooling.type) return false;
      const next = statusIn(e);
      const left = (actor.getSnapshot() as WithSender).context.sender.secondsLeft;
      if (next.secondsLeft === 30) {
        const answer = pending ?? succeeded;
        pending = null;
        if (answer.type === 'send.succeeded') send.resolve(undefined as never);
        else send.reject(answer.error);
      } else {
        await vi.advanceTimersByTimeAsync((left - next.secondsLeft) * 1000);
      }
      return true;
    };
  };

  return { succeeded, failed, cooling, lastSecond, ready, snapshots: [cooling, lastSecond, ready], occurs, isRealistic, play };
}
