import { describe, expect, it } from 'vitest';
import { paginationSiblingRange } from '../../../src/domain/constants';
import { pagerItems } from '../../../src/views/table/PagerView';

/** The pager as text: 1-based page numbers, "…" for a gap. */
const shown = (page: number, count: number, siblings?: number) =>
  pagerItems(page, count, siblings)
    .map((i) => (i.kind === 'gap' ? '…' : String(i.page + 1)))
    .join(' ');

describe('pagerItems (sibling range 1)', () => {
  it('uses the spec sibling range by default', () => {
    expect(paginationSiblingRange).toBe(1);
    expect(shown(4, 10)).toBe(shown(4, 10, 1));
  });
  it('shows first, last, and the current page with one neighbour each side', () => {
    expect(shown(4, 10)).toBe('1 … 4 5 6 … 10');
    expect(shown(5, 10)).toBe('1 … 5 6 7 … 10');
  });
  it('has no gap next to the first or last page', () => {
    expect(shown(0, 10)).toBe('1 2 … 10');
    expect(shown(1, 10)).toBe('1 2 3 … 10');
    expect(shown(2, 10)).toBe('1 2 3 4 … 10');
    expect(shown(9, 10)).toBe('1 … 9 10');
    expect(shown(8, 10)).toBe('1 … 8 9 10');
  });
  it('lists every page of a short list', () => {
    expect(shown(0, 1)).toBe('1');
    expect(shown(0, 2)).toBe('1 2');
    expect(shown(1, 3)).toBe('1 2 3');
    expect(shown(2, 5)).toBe('1 2 3 4 5');
  });
  it('keeps a page once and in order, with keys that stay unique', () => {
    for (let count = 1; count <= 12; count++) {
      for (let page = 0; page < count; page++) {
        const items = pagerItems(page, count);
        const pages = items.flatMap((i) => (i.kind === 'page' ? [i.page] : []));
        expect(pages).toEqual([...new Set(pages)].sort((a, b) => a - b));
        expect(pages).toContain(page);
        expect(pages[0]).toBe(0);
        expect(pages.at(-1)).toBe(count - 1);
        const keys = items.map((i) => (i.kind === 'gap' ? i.key : `p${i.page}`));
        expect(new Set(keys).size).toBe(keys.length);
        expect(items.length).toBeLessThanOrEqual(7);
      }
    }
  });
  it('follows a wider sibling range when asked', () => {
    expect(shown(5, 12, 2)).toBe('1 … 4 5 6 7 8 … 12');
  });
});
