import { defaultLang, parseColorMode, parseLang, type ColorMode, type Lang } from './preferences';

/**
 * How the viewer's preferences (language, light/dark mode) start and how they show on the page:
 * the rules behind the preferences machine's effect. Pure: the composition root reads storage
 * and the system setting, and writes the page.
 */

export interface Preferences {
  readonly lang: Lang;
  readonly colorMode: ColorMode;
}

/** What the page's root element carries for a set of preferences. */
export interface DocumentAppearance {
  /** The `lang` attribute (the server's messages follow it too). */
  readonly lang: string;
  /** Chakra's colour-mode class: `dark` or `light`, never both. */
  readonly className: ColorMode;
  /** The CSS `color-scheme` (native controls and scroll bars). */
  readonly colorScheme: ColorMode;
}

/** The `lang` attribute of a console language. */
export const documentLangOf = (lang: Lang): string => (lang === 'zh' ? 'zh-CN' : 'en');

export const documentAppearanceOf = (preferences: Preferences): DocumentAppearance => ({
  lang: documentLangOf(preferences.lang),
  className: preferences.colorMode,
  colorScheme: preferences.colorMode,
});

/**
 * The preferences the console starts with: the stored ones when they name one of ours, else
 * the default language (zh) and the system's colour scheme.
 */
export const initialPreferences = (stored: { readonly lang: string | null; readonly colorMode: string | null }, systemPrefersDark: boolean): Preferences => ({
  lang: parseLang(stored.lang) ?? defaultLang,
  colorMode: parseColorMode(stored.colorMode) ?? (systemPrefersDark ? 'dark' : 'light'),
});
