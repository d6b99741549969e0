import { describe, expect, it } from 'vitest';
import { documentAppearanceOf, documentLangOf, initialPreferences } from '../../../src/domain/documentPreferences';

describe('how the preferences show on the page', () => {
  it('the lang attribute: zh-CN for Chinese, en for English', () => {
    expect([documentLangOf('zh'), documentLangOf('en')]).toEqual(['zh-CN', 'en']);
  });
  it('one colour-mode class and the matching color-scheme', () => {
    expect(documentAppearanceOf({ lang: 'en', colorMode: 'dark' })).toEqual({ lang: 'en', className: 'dark', colorScheme: 'dark' });
    expect(documentAppearanceOf({ lang: 'zh', colorMode: 'light' })).toEqual({ lang: 'zh-CN', className: 'light', colorScheme: 'light' });
  });
});

describe('the preferences the console starts with', () => {
  it('the stored ones when they name one of ours', () => {
    expect(initialPreferences({ lang: 'en', colorMode: 'dark' }, false)).toEqual({ lang: 'en', colorMode: 'dark' });
    expect(initialPreferences({ lang: 'zh', colorMode: 'light' }, true)).toEqual({ lang: 'zh', colorMode: 'light' });
  });
  it('else Chinese and the system colour scheme', () => {
    expect(initialPreferences({ lang: null, colorMode: null }, true)).toEqual({ lang: 'zh', colorMode: 'dark' });
    expect(initialPreferences({ lang: 'fr', colorMode: 'sepia' }, false)).toEqual({ lang: 'zh', colorMode: 'light' });
  });
});
