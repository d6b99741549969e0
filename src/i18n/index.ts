import type { Message } from '../domain/message';
import type { zh } from './zh';

import { defaultLang, type Lang } from '../domain/preferences';

export { defaultLang, type Lang };
/** The zh catalogue is the type source: every other catalogue has exactly its keys. */
export type MessageKey = keyof typeof zh;
export type Catalogue = Readonly<Record<MessageKey, string>>;

/**
 * The areas of the catalogue: the shell's messages, then one area per group of pages (and the
 * command palette). In the console each area of each language is its own chunk: src/main.tsx
 * awaits the shell area of the active language before the first render, and a page's lazy loader
 * loads the page's area alongside its module (`withMessages`), so the page renders only once both
 * are there. vite.config.ts preloads the shell's and the current route's area for the first paint.
 */
export const areas = [
  'shell',
  'login',
  'account',
  'home',
  'channel',
  'redemption',
  'user',
  'token',
  'log',
  'setting',
  'dashboard',
  'pricing',
  'topup',
  'palette',
] as const;
export type Area = (typeof areas)[number];

type AreaModule = Promise<{ readonly messages: Partial<Catalogue> }>;
/** One dynamic import per language and area: each becomes its own chunk. */
const areaLoaders: Readonly<Record<Lang, Readonly<Record<Area, () => AreaModule>>>> = {
  zh: {
    shell: () => import('./zh/areas/shell'),
    login: () => import('./zh/areas/login'),
    account: () => import('./zh/areas/account'),
    home: () => import('./zh/areas/home'),
    channel: () => import('./zh/areas/channel'),
    redemption: () => import('./zh/areas/redemption'),
    user: () => import('./zh/areas/user'),
    token: () => import('./zh/areas/token'),
    log: () => import('./zh/areas/log'),
    setting: () => import('./zh/areas/setting'),
    dashboard: () => import('./zh/areas/dashboard'),
    pricing: () => import('./zh/areas/pricing'),
    topup: () => import('./zh/areas/topup'),
    palette: () => import('./zh/areas/palette'),
  },
  en: {
    shell: () => import('./en/areas/shell'),
    login: () => import('./en/areas/login'),
    account: () => import('./en/areas/account'),
    home: () => import('./en/areas/home'),
    channel: () => import('./en/areas/channel'),
    redemption: () => import('./en/areas/redemption'),
    user: () => import('./en/areas/user'),
    token: () => import('./en/areas/token'),
    log: () => import('./en/areas/log'),
    setting: () => import('./en/areas/setting'),
    dashboard: () => import('./en/areas/dashboard'),
    pricing: () => import('./en/areas/pricing'),
    topup: () => import('./en/areas/topup'),
    palette: () => import('./en/areas/palette'),
  },
};

/** The messages loaded so far, per language (the areas loaded, merged). */
const loaded: Record<Lang, Partial<Record<MessageKey, string>>> = { zh: {}, en: {} };
/** Languages whose whole catalogue is registered (./all in tests, stories and the server). */
const complete = new Set<Lang>();
/** The languages the console has asked for (the active one, then each one switched to). */
const langsInUse = new Set<Lang>();
/** The areas the console has asked for so far; a language switched to loads all of them. */
const areasInUse = new Set<Area>(['shell']);
/** One load per language and area (a failed one is forgotten, so a retry loads it again). */
const loading = new Map<`${Lang}.${Area}`, Promise<void>>();

function loadArea(lang: Lang, area: Area): Promise<void> {
  if (complete.has(lang)) return Promise.resolve();
  const id = `${lang}.${area}` as const;
  const known = loading.get(id);
  if (known !== undefined) return known;
  const load = areaLoaders[lang][area]().then(
    ({ messages }) => void Object.assign(loaded[lang], messages),
    (error: unknown) => {
      loading.delete(id);
      throw error;
    },
  );
  loading.set(id, load);
  return load;
}

/** Makes a whole catalogue available to `translate` (./all in tests, stories and the server). */
export function registerCatalogue(lang: Lang, catalogue: Catalogue): void {
  Object.assign(loaded[lang], catalogue);
  complete.add(lang);
}

export const hasCatalogue = (lang: Lang): boolean => complete.has(lang) || loaded[lang]['shell.defaultSystemName'] !== undefined;

/**
 * Loads a language: the shell area and every area loaded so far (for another language), so the
 * pages already shown render in it at once. Resolves when `translate(lang, ...)` can use them:
 * src/main.tsx awaits the active language before the first render, and the preferences machine
 * awaits another one before switching to it.
 */
export async function loadCatalogue(lang: Lang): Promise<void> {
  langsInUse.add(lang);
  await Promise.all([...areasInUse].map((area) => loadArea(lang, area)));
}

/** Loads areas in every language asked for so far (one area loaded later is loaded in each). */
export async function loadAreas(...wanted: readonly Area[]): Promise<void> {
  for (const area of wanted) areasInUse.add(area);
  await Promise.all([...langsInUse].flatMap((lang) => wanted.map((area) => loadArea(lang, area))));
}

/**
 * Wraps a lazy module's loader so it resolves only when the module and its areas' messages are
 * both there, fetched in parallel: a page's views stay synchronous.
 */
export const withMessages =
  <M>(area: Area, load: () => Promise<M>): (() => Promise<M>) =>
  () =>
    Promise.all([load(), loadAreas(area)]).then(([module]) => module);

const has = (messages: object, key: string): boolean => Object.prototype.hasOwnProperty.call(messages, key);

/** Whether `key` is a loaded message in either language (the catalogues share their keys). */
export const isMessageKey = (key: string): key is MessageKey => has(loaded.zh, key) || has(loaded.en, key);

/** Fills `{name}` placeholders; unknown placeholders stay as they are. */
export function interpolate(template: string, params?: Readonly<Record<string, string | number>>): string {
  if (params === undefined) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}

/**
 * Whether `text` opens with a Latin letter or a digit: Chinese text puts a space before such a
 * word ("保存 SMTP 邮件", not "保存SMTP 邮件"), so a message that joins one picks its spaced form.
 */
export const opensWithLatin = (text: string): boolean => /^[A-Za-z0-9]/.test(text);

/** The message in `lang`; while its area is not loaded in `lang` yet, in the other language (or the key itself). */
export function translate(lang: Lang, key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  return interpolate(loaded[lang][key] ?? loaded[lang === 'zh' ? 'en' : 'zh'][key] ?? key, params);
}

/** Renders a machine's Message; an unknown key is shown as the key itself (and caught by tests). */
export function renderMessage(lang: Lang, message: Message): string {
  if ('text' in message) return message.text;
  if (!isMessageKey(message.key)) return message.key;
  // A `field` parameter may name a label by its key (the number rules name the field so).
  const field = message.params?.field;
  const params = typeof field === 'string' && isMessageKey(field) ? { ...message.params, field: translate(lang, field) } : message.params;
  return translate(lang, message.key, params);
}
