import type { Message } from '../domain/message';
import { zh } from './zh';
import { en } from './en';

import { defaultLang, type Lang } from '../domain/preferences';

export { defaultLang, type Lang };
export type MessageKey = keyof typeof zh;
export const catalogues: Readonly<Record<Lang, Readonly<Record<MessageKey, string>>>> = { zh, en };

export const isMessageKey = (key: string): key is MessageKey => Object.prototype.hasOwnProperty.call(zh, key);

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

export function translate(lang: Lang, key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  return interpolate(catalogues[lang][key], params);
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
