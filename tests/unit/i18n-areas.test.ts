import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { areas, type Area, type Lang, type MessageKey } from '../../src/i18n';
import { catalogues } from '../../src/i18n/all';

type AreaModule = { readonly messages: Readonly<Record<string, string>> };
const areaModule = (lang: Lang, area: Area): Promise<AreaModule> => import(`../../src/i18n/${lang}/areas/${area}.ts`) as Promise<AreaModule>;
const keysOf = (o: object) => Object.keys(o).sort();
const firstKey = ({ messages }: AreaModule): MessageKey => Object.keys(messages)[0] as MessageKey;

describe('catalogue areas', () => {
  it('each area has exactly the same keys in zh and en', async () => {
    for (const area of areas) {
      const [zh, en] = await Promise.all([areaModule('zh', area), areaModule('en', area)]);
      expect(keysOf(en.messages), area).toEqual(keysOf(zh.messages));
    }
  });

  it('the areas together are the whole catalogue, with the same messages', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const merged: Record<string, string> = {};
      for (const area of areas) {
        const { messages } = await areaModule(lang, area);
        for (const [key, text] of Object.entries(messages)) {
          // a topic shared by several areas carries the same message in each
          if (key in merged) expect(text, `${lang} ${area} ${key}`).toBe(merged[key]);
          merged[key] = text;
        }
      }
      expect(merged).toEqual(catalogues[lang]);
    }
  });
});

describe('the areas pages load', () => {
  it('src/i18n/pageAreas.json (the first-paint preload, the bundle figures) names the area each page loads', () => {
    const root = new URL('../../', import.meta.url);
    const declared = JSON.parse(readFileSync(new URL('src/i18n/pageAreas.json', root), 'utf8')) as Record<string, string>;
    const used: Record<string, string> = {};
    // routed pages: page(loader importing '../<module>', title key, area)
    const routes = readFileSync(new URL('src/views/app/AppRoutes.tsx', root), 'utf8');
    for (const [, module = '', area = ''] of routes.matchAll(/import\('\.\.\/([^']+)'\)[^;]*?,\s*'[\w.]+',\s*'(\w+)',?\s*\)/g)) {
      used[`src/views/${module}.tsx`] = area;
    }
    // the shell's own lazy parts use the shell's messages; the palette loads its area itself
    const shell = readFileSync(new URL('src/views/app/AppShell.tsx', root), 'utf8');
    for (const [, area = '', module = ''] of shell.matchAll(/withMessages\('(\w+)',[^;]*?import\('\.\.\/([^']+)'\)/g)) used[`src/views/${module}.tsx`] = area;
    for (const [module, area] of Object.entries(declared)) if (module.startsWith('src/views/app/')) used[module] = area === 'shell' ? 'shell' : `not the shell: ${area}`;
    // a part a page loads lazily itself (import('./Part') beside it) is in its page's area
    for (const module of Object.keys(declared).filter((m) => !(m in used))) {
      const dir = module.slice(0, module.lastIndexOf('/') + 1);
      const name = module.slice(dir.length).replace(/\.tsx$/, '');
      const importer = Object.keys(used).find((m) => m.startsWith(dir) && readFileSync(new URL(m, root), 'utf8').includes(`import('./${name}')`));
      if (importer !== undefined) used[module] = used[importer] ?? '';
    }
    expect(Object.keys(used).length).toBeGreaterThan(20);
    expect(used).toEqual(declared);
  });
});

describe('loading areas', () => {
  /** A fresh i18n module: nothing registered (the console's start). */
  const fresh = async () => {
    vi.resetModules();
    return import('../../src/i18n');
  };

  it('a language loads the shell only; a page area loads in every language in use', async () => {
    const i18n = await fresh();
    expect(i18n.hasCatalogue('zh')).toBe(false);
    await i18n.loadCatalogue('zh');
    expect(i18n.hasCatalogue('zh')).toBe(true);
    expect(i18n.translate('zh', 'shell.defaultSystemName')).toBe('One API');
    expect(i18n.translate('zh', 'channels.title')).toBe('渠道');
    // not loaded yet: the key itself
    expect(i18n.translate('zh', 'signIn.login.title')).toBe('signIn.login.title');
    expect(i18n.isMessageKey('signIn.login.title')).toBe(false);

    await i18n.loadAreas('login');
    expect(i18n.translate('zh', 'signIn.login.title')).toBe(catalogues.zh['signIn.login.title']);
    // en is not in use: still its fallback, the zh message
    expect(i18n.hasCatalogue('en')).toBe(false);
    expect(i18n.translate('en', 'signIn.login.title')).toBe(catalogues.zh['signIn.login.title']);

    // switching to en loads every area loaded so far
    await i18n.loadCatalogue('en');
    expect(i18n.translate('en', 'signIn.login.title')).toBe(catalogues.en['signIn.login.title']);
    expect(i18n.translate('en', 'shell.defaultSystemName')).toBe(catalogues.en['shell.defaultSystemName']);

    // from now on a page's area loads in both
    await i18n.loadAreas('channel');
    const key = firstKey(await areaModule('en', 'channel'));
    expect(i18n.translate('zh', key)).toBe(catalogues.zh[key]);
    expect(i18n.translate('en', key)).toBe(catalogues.en[key]);
  });

  it('withMessages resolves with the module once its area is there too', async () => {
    const i18n = await fresh();
    await i18n.loadCatalogue('en');
    let resolveModule: (value: string) => void = () => undefined;
    const page = i18n.withMessages('dashboard', () => new Promise<string>((resolve) => (resolveModule = resolve)));
    const loaded = page();
    resolveModule('module');
    await expect(loaded).resolves.toBe('module');
    const key = firstKey(await areaModule('en', 'dashboard'));
    expect(i18n.translate('en', key)).toBe(catalogues.en[key]);
  });

  it('a language switched to while a page area loads gets that area too', async () => {
    const i18n = await fresh();
    await i18n.loadCatalogue('zh');
    const page = i18n.loadAreas('topup');
    const switched = i18n.loadCatalogue('en');
    await Promise.all([page, switched]);
    const key = firstKey(await areaModule('en', 'topup'));
    expect(i18n.translate('en', key)).toBe(catalogues.en[key]);
  });
});
