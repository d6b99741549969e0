import type { SnapshotFrom } from 'xstate';
import type { Message } from '../../domain/message';
import { shownPricingModels, type PricingModel, type PricingSort } from '../../domain/pricing';
import type { pricingMachine } from './pricing.machine';

type Snapshot = SnapshotFrom<typeof pricingMachine>;

/** Where the load is. */
export type PricingPhase = 'loading' | 'ready' | 'failed';

export const selectPhase = (s: Snapshot): PricingPhase => (s.matches('ready') ? 'ready' : s.matches('failed') ? 'failed' : 'loading');
export const selectIsBusy = (s: Snapshot): boolean => s.hasTag('busy');
export const selectError = (s: Snapshot): Message | null => s.context.error;
export const selectCanRetry = (s: Snapshot): boolean => s.can({ type: 'pricing.retry' });
export const selectSearch = (s: Snapshot): string => s.context.search;
export const selectSort = (s: Snapshot): PricingSort => s.context.sort;
/** The caller's group ('' until loaded). */
export const selectGroup = (s: Snapshot): string => s.context.pricing?.group ?? '';
/** The caller's group multiplier (1 until loaded). */
export const selectGroupRatio = (s: Snapshot): number => s.context.pricing?.group_ratio ?? 1;
/** How many models the caller's group lists. */
export const selectModelCount = (s: Snapshot): number => s.context.pricing?.models.length ?? 0;

const noModels: readonly PricingModel[] = [];
let lastInput: { models: readonly PricingModel[]; search: string; sort: PricingSort } | null = null;
let lastOutput: readonly PricingModel[] = noModels;

/** The models the search keeps, in the chosen order (a stable array while nothing changed). */
export const selectShownModels = (s: Snapshot): readonly PricingModel[] => {
  const models = s.context.pricing?.models ?? noModels;
  const { search, sort } = s.context;
  if (lastInput !== null && lastInput.models === models && lastInput.search === search && lastInput.sort === sort) return lastOutput;
  lastInput = { models, search, sort };
  lastOutput = shownPricingModels(models, search, sort);
  return lastOutput;
};
