import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { isMessageKey } from '../../src/i18n';
import { redemptionKeyCopyMachine, selectIsCopying, type RedemptionKeyCopyEmitted } from '../../src/machines/redemptionList';
import { doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';

type Snap = SnapshotFrom<typeof redemptionKeyCopyMachine>;

const fixtures: EventFixtures<typeof redemptionKeyCopyMachine> = {
  'copy.request': [
    { type: 'copy.request', text: 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4' },
    { type: 'copy.request', text: 'ffffeeeeddddccccbbbbaaaa99998888' },
  ],
};
const copied = doneActor('copyText');
const refused = errorActor('copyText', new Error('Write permission denied.'));
const model = { fixtures, internal: [copied, refused] };

function journey(events: readonly AnyEventObject[]): { snap: Snap; emitted: RedemptionKeyCopyEmitted[] } {
  let [s] = initialTransition(redemptionKeyCopyMachine);
  const emitted: RedemptionKeyCopyEmitted[] = [];
  for (const e of events) {
    const [next, actions] = transition(redemptionKeyCopyMachine, s, e as never);
    for (const a of actions) if ((a.type as string) === 'xstate.emit') emitted.push(((a as { params?: unknown }).params as { event: RedemptionKeyCopyEmitted }).event);
    s = next;
  }
  return { snap: s, emitted };
}

describe('redemptionKeyCopy model', () => {
  it('reaches every state', () => {
    expect(unreachedStates(redemptionKeyCopyMachine, shortestPaths(redemptionKeyCopyMachine, model))).toEqual([]);
  });

  it('keeps its invariants on every simple path', () => {
    const paths = simplePaths(redemptionKeyCopyMachine, model);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      for (const s of [p.state, ...p.steps.map((step) => step.state)]) {
        // busy exactly while the copy runs, and a copy always has the key it copies
        expect(selectIsCopying(s)).toBe(s.matches('copying'));
        if (s.matches('copying')) expect(s.context.text).not.toBe('');
        expect(Object.keys(s.children).length).toBe(s.matches('copying') ? 1 : 0);
      }
    }
  });

  it('says the key was copied', () => {
    const { snap, emitted } = journey([fixtures['copy.request'][0]!, copied]);
    expect(snap.matches('idle')).toBe(true);
    expect(emitted).toEqual([{ type: 'notify', level: 'success', message: { key: 'redemptions.copied' } }]);
  });

  it('on a refused clipboard, warns and hands the key to the search box', () => {
    const { snap, emitted } = journey([fixtures['copy.request'][0]!, refused]);
    expect(snap.matches('idle')).toBe(true);
    expect(emitted).toEqual([
      { type: 'notify', level: 'warning', message: { key: 'redemptions.copyFailed' } },
      { type: 'search.fill', text: fixtures['copy.request'][0]!.text },
    ]);
    for (const e of emitted) if (e.type === 'notify' && 'key' in e.message) expect(isMessageKey(e.message.key)).toBe(true);
  });

  it('a new request while one runs replaces it', () => {
    const { snap } = journey([fixtures['copy.request'][0]!, fixtures['copy.request'][1]!]);
    expect(snap.matches('copying')).toBe(true);
    expect(snap.context.text).toBe(fixtures['copy.request'][1]!.text);
  });

  it('replays on a real actor with a refusing clipboard', async () => {
    const actor = createActor(
      redemptionKeyCopyMachine.provide({
        actors: { copyText: fromPromise<void, { readonly text: string }>(() => Promise.reject(new Error('denied'))) },
      }),
    );
    const emitted: RedemptionKeyCopyEmitted[] = [];
    actor.on('*', (e) => emitted.push(e));
    actor.start();
    actor.send(fixtures['copy.request'][0]!);
    expect(selectIsCopying(actor.getSnapshot())).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(emitted.map((e) => e.type)).toEqual(['notify', 'search.fill']);
    actor.stop();
  });
});
