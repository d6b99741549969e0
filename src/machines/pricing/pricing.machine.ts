import { assign, fromPromise, setup } from 'xstate';
import { describeError } from '../../domain/apiError';
import type { Message } from '../../domain/message';
import { defaultPricingSort, toggledPricingSort, type Pricing, type PricingSort, type PricingSortKey } from '../../domain/pricing';

export interface PricingContext {
  /** The caller's group, multiplier and priced models, once loaded. */
  readonly pricing: Pricing | null;
  /** The model-name filter as typed. */
  readonly search: string;
  readonly sort: PricingSort;
  /** Why the last load failed, while failed. */
  readonly error: Message | null;
}

export type PricingEvent =
  /** The person typed in the model search box. */
  | { readonly type: 'search.change'; readonly text: string }
  /** The person clicked a sortable column header. */
  | { readonly type: 'sort.toggle'; readonly key: PricingSortKey }
  /** The load failed: try again. */
  | { readonly type: 'pricing.retry' };

/**
 * The models-and-prices page (/pricing): `loading` (tag `busy`) fetches the caller's prices;
 * `ready` shows them; `failed` (tag `error`) keeps the failure's message and waits for
 * `pricing.retry`. The search text and the sort are plain context, changed in any state, so a
 * filter typed while loading applies to the table once it arrives.
 *
 * Actors to provide (src/main.tsx; the placeholder throws "loadPricing not provided"):
 * - `loadPricing`: promise, input `undefined`, output `Pricing`, rejecting with the ApiError —
 *   `fromApi(() => api.user.getPricing())`.
 */
export const pricingMachine = setup({
  types: {
    context: {} as PricingContext,
    events: {} as PricingEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadPricing: fromPromise<Pricing>(() => {
      throw new Error('loadPricing not provided');
    }),
  },
  actions: {
    takePricing: assign({ pricing: (_, params: { pricing: Pricing }) => params.pricing, error: null }),
    recordFailure: assign({ error: (_, params: { error: unknown }) => describeError(params.error).message }),
    clearFailure: assign({ error: null }),
    setSearch: assign({ search: (_, params: { text: string }) => params.text }),
    toggleSort: assign({ sort: ({ context }, params: { key: PricingSortKey }) => toggledPricingSort(context.sort, params.key) }),
  },
}).createMachine({
  id: 'pricing',
  context: { pricing: null, search: '', sort: defaultPricingSort, error: null },
  initial: 'loading',
  on: {
    'search.change': { actions: { type: 'setSearch', params: ({ event }) => ({ text: event.text }) } },
    'sort.toggle': { actions: { type: 'toggleSort', params: ({ event }) => ({ key: event.key }) } },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadPricing',
        src: 'loadPricing',
        input: () => undefined,
        onDone: { target: 'ready', actions: { type: 'takePricing', params: ({ event }) => ({ pricing: event.output }) } },
        onError: { target: 'failed', actions: { type: 'recordFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {},
    failed: {
      tags: ['error'],
      on: { 'pricing.retry': { target: 'loading', actions: 'clearFailure' } },
    },
  },
});
