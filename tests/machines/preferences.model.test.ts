import { describe, expect, it } from 'vitest';
import { fromCallback, type AnyEventObject, type EventObject } from 'xstate';
import {
  preferencesMachine,
  selectColorMode,
  selectIsSwitchingLang,
  selectLang,
  type LoadCatalogueInput,
  type PreferencesChanged,
  type PreferencesInput,
} from '../../src/machines/preferences';
import { isMessageKey } from '../../src/i18n';
import { describePath, doneActor, errorActor, shortestPaths, simplePaths, unreachedStates, type EventFixtures } from './support/model';
import { controlled } from './support/stubs';
import { journey, replay as replayOn, replayPath } from './support/replay';

const fixtures: EventFixtures<typeof preferencesMachine> = {
  'lang.set': [
    { type: 'lang.set', lang: 'en' },
    { type: 'lang.set', lang: 'zh' },
  ],
  'colorMode.toggle': [{ type: 'colorMode.toggle' }],
};
const loaded = doneActor('loadCatalogue');
const loadFailed = errorActor('loadCatalogue', new TypeError('Failed to fetch dynamically imported module'));
const internal = [loaded, loadFailed];
const input: PreferencesInput = { lang: 'zh', colorMode: 'light' };
const model = { fixtures, internal, input };

const english: AnyEventObject = { type: 'lang.set', lang: 'en' };
const chinese: AnyEventObject = { type: 'lang.set', lang: 'zh' };
const toggle: AnyEventObject = { type: 'colorMode.toggle' };

describe('preferences model', () => {
  it('reaches every state and every combination of language and mode', () => {
    const paths = shortestPaths(preferencesMachine, model);
    expect(unreachedStates(preferencesMachine, paths)).toEqual([]);
    const seen = new Set(paths.filter((p) => p.state.matches('ready')).map((p) => `${selectLang(p.state)}/${selectColorMode(p.state)}`));
    expect([...seen].sort()).toEqual(['en/dark', 'en/light', 'zh/dark', 'zh/light']);
  });

  it('keeps its invariants on every simple path', () => {
    const paths = simplePaths(preferencesMachine, model);
    expect(paths.length).toBeGreaterThan(3);
    for (const p of paths) {
      for (const { state: s } of p.steps) {
        expect(['zh', 'en']).toContain(selectLang(s));
        expect(['light', 'dark']).toContain(selectColorMode(s));
        // a catalogue loads only while switching, and only for another language than the shown one
        const switching = s.matches('switchingLang');
        expect(selectIsSwitchingLang(s)).toBe(switching);
        expect(Object.keys(s.children).sort()).toEqual(switching ? ['applyPreferences', 'loadCatalogue'] : ['applyPreferences']);
        if (switching) expect(s.context.pendingLang).not.toBe(s.context.lang);
        else expect(s.context.pendingLang).toBeNull();
      }
    }
  });

  it('pinned: the language changes only once its catalogue is loaded; a failure keeps it and says so', () => {
    expect(selectColorMode(journey(preferencesMachine, input, [toggle]))).toBe('dark');
    expect(selectColorMode(journey(preferencesMachine, input, [toggle, toggle]))).toBe('light');
    // the current language: nothing to load
    expect(journey(preferencesMachine, input, [chinese]).value).toBe('ready');
    const loading = journey(preferencesMachine, input, [english]);
    expect(loading.value).toBe('switchingLang');
    expect(selectLang(loading)).toBe('zh');
    // the page stays usable meanwhile
    expect(selectColorMode(journey(preferencesMachine, input, [english, toggle]))).toBe('dark');
    expect(selectLang(journey(preferencesMachine, input, [english, loaded]))).toBe('en');
    expect(selectLang(journey(preferencesMachine, input, [english, loadFailed]))).toBe('zh');
    // back to the current language while the other loads: the switch is cancelled
    const cancelled = journey(preferencesMachine, input, [english, chinese]);
    expect(cancelled.value).toBe('ready');
    expect(selectLang(cancelled)).toBe('zh');
  });

  describe('replay on a real actor: the page is told on start and after every change', () => {
    /** The machine with an `applyPreferences` that records what it is told, and a controlled loader. */
    const recording = () => {
      const applied: PreferencesChanged[] = [];
      const loadCatalogue = controlled<void, LoadCatalogueInput>();
      const machine = preferencesMachine.provide({
        actors: {
          applyPreferences: fromCallback<EventObject>(({ receive }) => {
            receive((e) => applied.push(e as PreferencesChanged));
          }),
        },
      });
      return { machine, applied, loadCatalogue };
    };
    it('on start', async () => {
      const { machine, applied } = recording();
      await replayOn({ machine, input }, [{ type: 'xstate.init' }]);
      expect(applied).toEqual([{ type: 'preferences.changed', lang: 'zh', colorMode: 'light' }]);
    });
    it('loads the chosen language, then switches; a failed load emits a notice', async () => {
      const { machine, loadCatalogue } = recording();
      const run = await replayOn({ machine, input, stubs: { loadCatalogue } }, [{ type: 'xstate.init' }, english, loadFailed, english, loaded]);
      expect(loadCatalogue.calls).toEqual([{ lang: 'en' }, { lang: 'en' }]);
      expect(selectLang(run.snapshot)).toBe('en');
      expect(run.emitted).toEqual([{ type: 'notify', level: 'error', message: { key: 'shell.lang.loadFailed' } }]);
      expect(isMessageKey('shell.lang.loadFailed')).toBe(true);
    });
    it.each(simplePaths(preferencesMachine, model).map((p) => [describePath(p), p] as const))('%s', async (_, p) => {
      const { machine, applied, loadCatalogue } = recording();
      await replayPath({ machine, input, stubs: { loadCatalogue } }, p);
      // once on start, then once per change of what the page shows (and on each return to ready)
      const last = applied[applied.length - 1]!;
      if (p.state.matches('ready')) expect({ lang: last.lang, colorMode: last.colorMode }).toEqual({ lang: p.state.context.lang, colorMode: p.state.context.colorMode });
      // the page never shows a language before its catalogue is loaded
      const loads = p.steps.filter((s) => s.event.type === loaded.type).length;
      expect(applied.some((a) => a.lang === 'en')).toBe(loads > 0 && p.steps.some((s) => s.event.type === loaded.type && s.state.context.lang === 'en'));
    });
  });
});
