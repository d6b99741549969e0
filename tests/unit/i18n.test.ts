import { describe, expect, it } from 'vitest';
import { interpolate, renderMessage } from '../../src/i18n';
import { catalogues } from '../../src/i18n/all';

describe('i18n catalogues', () => {
  it('zh and en have exactly the same keys', () => {
    const zhKeys = Object.keys(catalogues.zh).sort();
    const enKeys = Object.keys(catalogues.en).sort();
    expect(enKeys.filter((k) => !zhKeys.includes(k))).toEqual([]);
    expect(zhKeys.filter((k) => !enKeys.includes(k))).toEqual([]);
  });
  it('every placeholder of a zh message exists in its en message', () => {
    for (const [key, zhText] of Object.entries(catalogues.zh)) {
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names((catalogues.en as Record<string, string>)[key]!), key).toEqual(names(zhText));
    }
  });
  it('interpolates and renders messages', () => {
    expect(interpolate('加载{page}中...', { page: '页面' })).toBe('加载页面中...');
    expect(renderMessage('zh', { key: 'error.prefixed', params: { message: 'x' } })).toBe('错误：x');
    expect(renderMessage('en', { text: 'raw' })).toBe('raw');
  });
});
