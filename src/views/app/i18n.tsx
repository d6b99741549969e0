import { createContext, useCallback, useContext } from 'react';
import type { Message } from '../../domain/message';
import { defaultLang, renderMessage, translate, type Lang, type MessageKey } from '../../i18n';

/** The current language; the shell provides it from the preferences machine. */
const LangContext = createContext<Lang>(defaultLang);
export const LangProvider = LangContext.Provider;
export const useLang = (): Lang => useContext(LangContext);

/** `t('auth.login.title', { page })`: every visible string goes through the catalogue. */
export function useT(): (key: MessageKey, params?: Readonly<Record<string, string | number>>) => string {
  const lang = useLang();
  return useCallback((key, params) => translate(lang, key, params), [lang]);
}

/** Renders a machine's Message (a catalogue key, or a server's own text). */
export function useRenderMessage(): (message: Message) => string {
  const lang = useLang();
  return useCallback((message) => renderMessage(lang, message), [lang]);
}
