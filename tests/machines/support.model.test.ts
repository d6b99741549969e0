import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, setup, assign } from 'xstate';
import { afterDelay, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, describePath, type EventFixtures } from './support/model';

// A small machine with an invoke and a named delay proves the support module itself.
const probe = setup({
  types: { events: {} as { type: 'go' } | { type: 'reset' }, context: {} as { n: number } },
  actors: { work: fromPromise<number>(() => { throw new Error('work not provided'); }) },
  delays: { cool: 1000 },
}).createMachine({
  id: 'probe',
  context: { n: 0 },
  initial: 'idle',
  states: {
    idle: { on: { go: 'working' } },
    working: {
      invoke: { id: 'work', src: 'work', input: () => undefined, onDone: { target: 'cooling', actions: assign({ n: ({ event }) => event.output }) }, onError: 'idle' },
    },
    cooling: { after: { cool: 'idle' }, on: { reset: 'idle' } },
  },
});

const fixtures: EventFixtures<typeof probe> = { go: [{ type: 'go' }], reset: [{ type: 'reset' }] };
const internal = [doneActor('work', 7), errorActor('work', new Error('x')), afterDelay('cool', 'probe', 'cooling')];

describe('model support', () => {
  it('reaches every state through generated events', () => {
    const paths = shortestPaths(probe, { fixtures, internal });
    expect(unreachedStates(probe, paths)).toEqual([]);
    expect(paths.map(describePath)).toContain('xstate.init → go → xstate.done.actor.work');
  });
  it('simple paths keep invariants', () => {
    for (const p of simplePaths(probe, { fixtures, internal })) {
      for (const s of p.steps) expect(s.state.context.n === 0 || s.state.context.n === 7).toBe(true);
    }
  });
  it('the named delay fires after its time on a real actor', async () => {
    vi.useFakeTimers();
    const actor = createActor(probe.provide({ actors: { work: fromPromise(() => Promise.resolve(7)) } })).start();
    actor.send({ type: 'go' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('cooling');
    await vi.advanceTimersByTimeAsync(999);
    expect(actor.getSnapshot().value).toBe('cooling');
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('idle');
    vi.useRealTimers();
  });
});
