import { describe, expect, it } from 'vitest';
import { fromCallback, type AnyEventObject, type EventObject } from 'xstate';
import {
  preferencesMachine,
  selectColorMode,
  selectLang,
  type PreferencesChanged,
  type PreferencesInput,
} from '../../src/machines/preferences';
import { describePath, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { journey, replay as replayOn, replayPath } from './support/replay';

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
    const toggle: AnyEventObject = { type: 'colorMode.toggle' };
    const english: AnyEventObject = { type: 'lang.set', lang: 'en' };
    expect(selectColorMode(journey(preferencesMachine, input, [toggle]))).toBe('dark');
    expect(selectColorMode(journey(preferencesMachine, input, [toggle, toggle]))).toBe('light');
    expect(selectLang(journey(preferencesMachine, input, [english, english]))).toBe('en');
  });

  describe('replay on a real actor: the page is told on start and after every change', () => {
    /** The machine with an `applyPreferences` that records what it is told. */
    const recording = () => {
      const applied: PreferencesChanged[] = [];
      const machine = preferencesMachine.provide({
        actors: {
          applyPreferences: fromCallback<EventObject>(({ receive }) => {
            receive((e) => applied.push(e as PreferencesChanged));
          }),
        },
      });
      return { machine, applied };
    };
    it('on start', async () => {
      const { machine, applied } = recording();
      await replayOn({ machine, input }, [{ type: 'xstate.init' }]);
      expect(applied).toEqual([{ type: 'preferences.changed', lang: 'zh', colorMode: 'light' }]);
    });
    it.each(simplePaths(preferencesMachine, model).map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      const { machine, applied } = recording();
      await replayPath({ machine, input }, p);
      // once on start, then once per event; the last one is the path's end
      expect(applied).toHaveLength(p.steps.length);
      const last = applied[applied.length - 1]!;
      expect({ lang: last.lang, colorMode: last.colorMode }).toEqual(p.state.context);
    });
  });
});
