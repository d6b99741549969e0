import type { Message } from '../domain/message';
import type { zh } from './zh';

import { defaultLang, type Lang } from '../domain/preferences';

export { defaultLang, type Lang };
/** The zh catalogue is the type source: every other catalogue has exactly its keys. */
export type MessageKey = keyof typeof zh;
export type Catalogue = Readonly<Record<MessageKey, string>>;

/**
 * The catalogues loaded so far. The console loads only the active language (src/main.tsx awaits
 * it before the first render; the preferences machine loads another one before switching to it),
 * so each language is its own chunk. Tests and stories register both (./all).
 */
const loaded: Partial<Record<Lang, Catalogue>> = {};

/** Makes a catalogue available to `translate` (the loader below, or ./all in tests and stories). */
export function registerCatalogue(lang: Lang, catalogue: Catalogue): void {
  loaded[lang] = catalogue;
}

export const hasCatalogue = (lang: Lang): boolean => loaded[lang] !== undefined;

/** Loads a language's catalogue chunk once; resolves when `translate(lang, ...)` can use it. */
export async function loadCatalogue(lang: Lang): Promise<void> {
  if (loaded[lang] !== undefined) return;
  const catalogue: Catalogue = lang === 'en' ? (await import('./en')).en : (await import('./zh')).zh;
  registerCatalogue(lang, catalogue);
}

/** Any loaded catalogue (they share their keys), for the key checks. */
const anyCatalogue = (): Catalogue | undefined => loaded.zh ?? loaded.en;

export const isMessageKey = (key: string): key is MessageKey => {
  const catalogue = anyCatalogue();
  return catalogue !== undefined && Object.prototype.hasOwnProperty.call(catalogue, key);
};

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

/** The message in `lang`; while that catalogue is not loaded yet, in a loaded one (or the key itself). */
export function translate(lang: Lang, key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  const catalogue = loaded[lang] ?? anyCatalogue();
  return interpolate(catalogue?.[key] ?? key, params);
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
