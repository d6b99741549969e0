import { expect } from 'vitest';
import { initialTransition, transition, type AnyStateMachine, type EventFromLogic, type InputFrom, type SnapshotFrom } from 'xstate';
import { describePath } from './model';

/**
 * What a parent page machine did with one event, read from the actions of a pure transition: the
 * events it emitted to the page and those it sent to a child. Parent page model tests compare this
 * with the routing the page must do.
 */

/** The actions of a transition, as `transition()` returns them. */
export type ActionLike = readonly { readonly type: string; readonly params?: unknown }[];

/** One routed event: emitted to the page, or sent to a child (`to` is the child's actor ref). */
export type Routed = { readonly kind: 'emit'; readonly event: unknown } | { readonly kind: 'send'; readonly to: unknown; readonly event: unknown };

/** The emits and sends among `actions`, in order. */
export const routedOf = (actions: ActionLike): Routed[] =>
  actions.flatMap((a): Routed[] => {
    const p = a.params as { event?: unknown; to?: unknown } | undefined;
    if (a.type === 'xstate.emit') return [{ kind: 'emit', event: p?.event }];
    if (a.type === 'xstate.sendTo') return [{ kind: 'send', to: p?.to, event: p?.event }];
    return [];
  });

/** A path as `simplePaths` gives it: the events taken from the initial state. */
interface PathLike<E> {
  readonly steps: readonly { readonly event: E }[];
}

/**
 * Walks every path from the machine's initial state with pure transitions and, on every step,
 * checks the page's rules on the next snapshot (`check`), that the routing the step did is exactly
 * `expected(before, event)`, and any step-specific rule (`alsoCheck`).
 */
export function expectRoutingOnPaths<M extends AnyStateMachine>(
  machine: M,
  input: InputFrom<M>,
  paths: readonly PathLike<EventFromLogic<M>>[],
  rules: {
    readonly check: (s: SnapshotFrom<M>, where: string) => void;
    readonly expected: (before: SnapshotFrom<M>, event: EventFromLogic<M>) => Routed[];
    readonly alsoCheck?: (next: SnapshotFrom<M>, event: EventFromLogic<M>, where: string) => void;
  },
): void {
  for (const path of paths) {
    let [s] = initialTransition(machine, input);
    const where = describePath(path);
    for (const step of path.steps) {
      const [next, actions] = transition(machine, s, step.event);
      rules.check(next, where);
      expect(routedOf(actions), `${where}: ${step.event.type}`).toEqual(rules.expected(s, step.event));
      rules.alsoCheck?.(next, step.event, where);
      s = next;
    }
  }
}
