/** The console's languages: zh is the default and holds the spec's strings verbatim. */
export type Lang = 'zh' | 'en';
export const langs: readonly Lang[] = ['zh', 'en'];
export const defaultLang: Lang = 'zh';

export type ColorMode = 'light' | 'dark';

/** A stored language preference, when it names one of ours. */
export const parseLang = (value: string | null): Lang | null => (value === 'zh' || value === 'en' ? value : null);

/** A stored colour-mode preference, when it names one. */
export const parseColorMode = (value: string | null): ColorMode | null =>
  value === 'light' || value === 'dark' ? value : null;
