import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, initialTransition, transition, type AnyEventObject, type EventObject } from 'xstate';
import {
  preferencesMachine,
  selectColorMode,
  selectLang,
  type PreferencesChanged,
  type PreferencesInput,
} from '../../src/machines/preferences';
import { describePath, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';

const fixtures: EventFixtures<typeof preferencesMachine> = {
  'lang.set': [
    { type: 'lang.set', lang: 'en' },
    { type: 'lang.set', lang: 'zh' },
  ],
  'colorMode.toggle': [{ type: 'colorMode.toggle' }],
};
const input: PreferencesInput = { lang: 'zh', colorMode: 'light' };
const model = { fixtures, input };

describe('preferences model', () => {
  it('reaches every state and every combination of language and mode', () => {
    const paths = shortestPaths(preferencesMachine, model);
    expect(unreachedStates(preferencesMachine, paths)).toEqual([]);
    const seen = new Set(paths.map((p) => `${selectLang(p.state)}/${selectColorMode(p.state)}`));
    expect([...seen].sort()).toEqual(['en/dark', 'en/light', 'zh/dark', 'zh/light']);
  });

  it('keeps its invariants on every simple path', () => {
    const paths = simplePaths(preferencesMachine, model);
    expect(paths.length).toBeGreaterThan(3);
    for (const p of paths) {
      for (const { state: s } of p.steps) {
        expect(['zh', 'en']).toContain(selectLang(s));
        expect(['light', 'dark']).toContain(selectColorMode(s));
        expect(Object.keys(s.children)).toEqual(['applyPreferences']);
      }
    }
  });

  it('pinned: toggling twice returns to the start; a language set is idempotent', () => {
    let [s] = initialTransition(preferencesMachine, input);
    [s] = transition(preferencesMachine, s, { type: 'colorMode.toggle' });
    expect(selectColorMode(s)).toBe('dark');
    [s] = transition(preferencesMachine, s, { type: 'colorMode.toggle' });
    expect(selectColorMode(s)).toBe('light');
    [s] = transition(preferencesMachine, s, { type: 'lang.set', lang: 'en' });
    [s] = transition(preferencesMachine, s, { type: 'lang.set', lang: 'en' });
    expect(selectLang(s)).toBe('en');
  });

  describe('replay on a real actor: the page is told on start and after every change', () => {
    const replay = (events: readonly AnyEventObject[]) => {
      const applied: PreferencesChanged[] = [];
      const actor = createActor(
        preferencesMachine.provide({
          actors: {
            applyPreferences: fromCallback<EventObject>(({ receive }) => {
              receive((e) => applied.push(e as PreferencesChanged));
            }),
          },
        }),
        { input },
      ).start();
      for (const e of events) actor.send(e as never);
      actor.stop();
      return applied;
    };
    it('on start', () => {
      expect(replay([])).toEqual([{ type: 'preferences.changed', lang: 'zh', colorMode: 'light' }]);
    });
    it.each(simplePaths(preferencesMachine, model).map((p) => [describePath(p), p] as const))('%s', (_, p) => {
      const applied = replay(p.steps.map((s) => s.event as AnyEventObject).filter((e) => e.type !== 'xstate.init'));
      const last = applied[applied.length - 1]!;
      expect({ lang: last.lang, colorMode: last.colorMode }).toEqual(p.state.context);
    });
  });
});
