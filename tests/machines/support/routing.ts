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
