import { describe, expect, it } from 'vitest';
import type { AnyEventObject, SnapshotFrom } from 'xstate';
import { failure, httpError } from '../../src/domain/apiError';
import type { Pricing } from '../../src/domain/pricing';
import {
  pricingMachine,
  selectCanRetry,
  selectError,
  selectGroup,
  selectGroupRatio,
  selectIsBusy,
  selectPhase,
  selectSearch,
  selectShownModels,
  selectSort,
} from '../../src/machines/pricing';
import { isRealistic, snapshotsOf } from './signIn.paths';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { journey as walk, pathOf, replayPath } from './support/replay';
import { controlled } from './support/stubs';

type Snap = SnapshotFrom<typeof pricingMachine>;

const vipPrices: Pricing = {
  group: 'vip',
  group_ratio: 0.5,
  models: [
    { model: 'gpt-4o', input_per_million: 1_250_000, output_per_million: 5_000_000, available: true },
    { model: 'claude-3-haiku', input_per_million: 62_500, output_per_million: 312_500, available: true },
    { model: 'off-model', input_per_million: 250_000, output_per_million: 250_000, available: false },
  ],
};
const serverDown = httpError('getPricing', 500, 'Internal Server Error');
const refused = failure('getPricing', '无权进行此操作，未登录且未提供 access token');

/** The machine's own events, every one with a fixture. */
const fixtures: EventFixtures<typeof pricingMachine> = {
  'search.change': [{ type: 'search.change', text: 'GPT' }],
  'sort.toggle': [{ type: 'sort.toggle', key: 'input' }],
  'pricing.retry': [{ type: 'pricing.retry' }],
};
const loaded = doneActor('loadPricing', vipPrices);
const loadFailed = errorActor('loadPricing', serverDown);
const loadRefused = errorActor('loadPricing', refused);
const model = { fixtures, internal: [loaded, loadFailed, loadRefused] };

const journey = (events: readonly AnyEventObject[]): Snap => walk(pricingMachine, undefined, events);

describe('pricing model', () => {
  const paths = shortestPaths(pricingMachine, model).filter(isRealistic);

  it('reaches every state', () => {
    expect(unreachedStates(pricingMachine, paths)).toEqual([]);
    expect(paths.map(describePath)).toContain('xstate.init → xstate.error.actor.loadPricing');
  });

  it('keeps its invariants on every simple path', () => {
    const simple = simplePaths(pricingMachine, model).filter(isRealistic);
    expect(simple.length).toBeGreaterThan(10);
    for (const p of simple) {
      for (const s of snapshotsOf(p)) {
        expect(s.status).toBe('active');
        // busy exactly while loading, an error exactly while failed, retry only then
        expect(selectIsBusy(s)).toBe(selectPhase(s) === 'loading');
        expect(selectError(s) !== null).toBe(selectPhase(s) === 'failed');
        expect(s.hasTag('error')).toBe(selectPhase(s) === 'failed');
        expect(selectCanRetry(s)).toBe(selectPhase(s) === 'failed');
        // the load runs exactly while loading
        expect(Object.keys(s.children).includes('loadPricing')).toBe(selectPhase(s) === 'loading');
        // rows only once loaded; every shown row matches the search
        if (s.context.pricing === null) expect(selectShownModels(s)).toEqual([]);
        for (const m of selectShownModels(s)) expect(m.model.toLowerCase()).toContain(selectSearch(s).trim().toLowerCase());
      }
    }
  });
});

describe('pinned journeys', () => {
  it('loads the caller’s prices, sorted by model name', () => {
    const s = journey([loaded]);
    expect(selectPhase(s)).toBe('ready');
    expect(selectGroup(s)).toBe('vip');
    expect(selectGroupRatio(s)).toBe(0.5);
    expect(selectShownModels(s).map((m) => m.model)).toEqual(['claude-3-haiku', 'gpt-4o', 'off-model']);
  });

  it('a search typed while loading filters the table once it arrives (case-insensitive)', () => {
    const s = journey([{ type: 'search.change', text: ' GPT ' }, loaded]);
    expect(selectShownModels(s).map((m) => m.model)).toEqual(['gpt-4o']);
    expect(selectShownModels(journey([loaded, { type: 'search.change', text: 'nothing' }]))).toEqual([]);
  });

  it('sort.toggle sorts by a price, then flips it', () => {
    const asc = journey([loaded, { type: 'sort.toggle', key: 'input' }]);
    expect(selectSort(asc)).toEqual({ key: 'input', direction: 'asc' });
    expect(selectShownModels(asc).map((m) => m.model)).toEqual(['claude-3-haiku', 'off-model', 'gpt-4o']);
    const desc = journey([loaded, { type: 'sort.toggle', key: 'input' }, { type: 'sort.toggle', key: 'input' }]);
    expect(selectShownModels(desc).map((m) => m.model)).toEqual(['gpt-4o', 'off-model', 'claude-3-haiku']);
    const output = journey([loaded, { type: 'sort.toggle', key: 'input' }, { type: 'sort.toggle', key: 'output' }]);
    expect(selectSort(output)).toEqual({ key: 'output', direction: 'asc' });
  });

  it('a failed load shows the server’s message; retry loads again and clears it', () => {
    const failed = journey([loadRefused]);
    expect(selectPhase(failed)).toBe('failed');
    expect(selectError(failed)).toEqual({ text: '无权进行此操作，未登录且未提供 access token' });
    const retried = journey([loadRefused, { type: 'pricing.retry' }]);
    expect(selectPhase(retried)).toBe('loading');
    expect(selectError(retried)).toBeNull();
    expect(selectPhase(journey([loadFailed, { type: 'pricing.retry' }, loaded]))).toBe('ready');
  });

  it('retry does nothing outside failed', () => {
    expect(selectPhase(journey([{ type: 'pricing.retry' }]))).toBe('loading');
    expect(selectPhase(journey([loaded, { type: 'pricing.retry' }]))).toBe('ready');
  });
});

describe('replayed on a real actor', () => {
  it.each([
    ['load', [loaded]],
    ['fail, retry, load', [loadFailed, { type: 'pricing.retry' }, { type: 'search.change', text: 'o' }, loaded]],
  ] as const)('%s', async (_, events) => {
    const loadPricing = controlled<Pricing, undefined>();
    const path = pathOf(pricingMachine, undefined, events);
    await replayPath({ machine: pricingMachine, stubs: { loadPricing } }, path);
    expect(loadPricing.calls.length).toBe(events.filter((e) => e.type.startsWith('xstate.')).length);
  });
  for (const p of shortestPaths(pricingMachine, model).filter(isRealistic)) {
    it(`follows ${describePath(p)}`, async () => {
      await replayPath({ machine: pricingMachine, stubs: { loadPricing: controlled<Pricing, undefined>() } }, p);
    });
  }
});
