import { describe, expect, it } from 'vitest';
import * as p from '../../../src/domain/paging';
import { renderMessage } from '../../../src/i18n';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('page count (contract §5.6)', () => {
  it('is ceil(rows/10), plus one when the last page is full', () => {
    expect([0, 1, 9, 10, 11, 19, 20, 25, 30].map((n) => p.pageCount(n))).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 4]);
  });
  it('takes another page size', () => {
    expect(p.pageCount(6, 3)).toBe(3);
    expect(p.pageCount(7, 3)).toBe(3);
  });
});

describe('page slice', () => {
  const rows = range(0, 25);
  it('shows rows [page×10, (page+1)×10) of 0-based pages', () => {
    expect(p.pageSlice(rows, 0)).toEqual(range(0, 10));
    expect(p.pageSlice(rows, 1)).toEqual(range(10, 20));
    expect(p.pageSlice(rows, 2)).toEqual(range(20, 25));
    expect(p.pageSlice(rows, 3)).toEqual([]);
    expect(p.pageSlice(rows, 1, 5)).toEqual(range(5, 10));
  });
});

describe('load more', () => {
  it('fetches the page right after full loaded pages (and page 0 when nothing is loaded)', () => {
    expect(p.shouldLoadMore(0, 0)).toBe(true);
    expect(p.shouldLoadMore(1, 10)).toBe(true);
    expect(p.shouldLoadMore(2, 20)).toBe(true);
  });
  it('does not fetch loaded pages or after a short page', () => {
    expect(p.shouldLoadMore(0, 10)).toBe(false);
    expect(p.shouldLoadMore(1, 20)).toBe(false);
    expect(p.shouldLoadMore(1, 15)).toBe(false);
    expect(p.shouldLoadMore(2, 15)).toBe(false);
    expect(p.shouldLoadMore(2, 10)).toBe(false);
  });
  it('knows which pages the pager offers', () => {
    expect(p.isPageInRange(0, 0)).toBe(true);
    expect(p.isPageInRange(1, 10)).toBe(true);
    expect(p.isPageInRange(2, 10)).toBe(false);
    expect(p.isPageInRange(1, 9)).toBe(false);
    expect(p.isPageInRange(-1, 30)).toBe(false);
    expect(p.isPageInRange(0.5, 30)).toBe(false);
  });
  it('appends and merges pages', () => {
    expect(p.appendPage([1, 2], [3])).toEqual([1, 2, 3]);
    expect(p.mergePage<number | string>(range(0, 10), 0, ['a'])).toEqual(['a']);
    expect(p.mergePage(range(0, 10), 1, range(10, 13))).toEqual(range(0, 13));
    const reloaded = p.mergePage<number | string>(range(0, 25), 1, ['x', 'y']);
    expect(reloaded).toEqual([...range(0, 10), 'x', 'y', ...range(12, 25)]);
  });
  it('walks a 23-row server list page by page, fetching only what is new', () => {
    const server = range(100, 123);
    const fetchPage = (page: number) => server.slice(page * 10, (page + 1) * 10);
    let rows: readonly number[] = [];
    const fetched: number[] = [];
    const goTo = (page: number) => {
      if (p.shouldLoadMore(page, rows.length)) {
        fetched.push(page);
        rows = p.mergePage(rows, page, fetchPage(page));
      }
      return p.pageSlice(rows, page);
    };
    expect(goTo(0)).toEqual(range(100, 110));
    expect(p.pageCount(rows.length)).toBe(2);
    expect(goTo(1)).toEqual(range(110, 120));
    expect(p.pageCount(rows.length)).toBe(3);
    expect(goTo(0)).toEqual(range(100, 110));
    expect(goTo(2)).toEqual(range(120, 123));
    expect(p.pageCount(rows.length)).toBe(3);
    expect(fetched).toEqual([0, 1, 2]);
    expect(p.isPageInRange(3, rows.length)).toBe(false);
  });
});

describe('client-side sort', () => {
  interface Row {
    id: number;
    name: string;
    quota: number | null;
    on?: boolean;
  }
  const rows: readonly Row[] = [
    { id: 1, name: 'beta', quota: 5, on: true },
    { id: 2, name: 'alpha', quota: null, on: false },
    { id: 3, name: 'gamma', quota: 5 },
    { id: 4, name: 'Alpha2', quota: 1, on: true },
  ];
  const ids = (r: readonly Row[]) => r.map((x) => x.id);

  it('sorts numbers numerically, ties stable, missing values last', () => {
    expect(ids(p.sortRows(rows, 'quota', 'asc'))).toEqual([4, 1, 3, 2]);
    expect(ids(p.sortRows(rows, 'quota', 'desc'))).toEqual([1, 3, 4, 2]);
  });
  it('sorts text', () => {
    expect(ids(p.sortRows(rows, 'name', 'asc'))).toEqual([2, 4, 1, 3]);
    expect(ids(p.sortRows(rows, 'name', 'desc'))).toEqual([3, 1, 4, 2]);
  });
  it('sorts booleans (false first) with missing last', () => {
    expect(ids(p.sortRows(rows, 'on', 'asc'))).toEqual([2, 1, 4, 3]);
  });
  it('sorts as localeCompare does, stable, whatever the values (the general comparison)', () => {
    let seed = 3;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <V,>(list: readonly V[]): V => list[Math.floor(next() * list.length)]!;
    const many = Array.from({ length: 400 }, (_, id) => ({
      id,
      text: pick(['b', 'a', 'B', 'ä', 'a-1', 'a10', 'a2', '渠道', '', null, undefined]),
      num: pick([3, 1, 2, -1, 0.5, null]),
      mixed: pick<unknown>([2, '10', 'x', true, false, null, { a: 1 }]),
    }));
    type Many = (typeof many)[number];
    const reference = (key: keyof Many, direction: p.SortDirection) => {
      const sign = direction === 'asc' ? 1 : -1;
      const missing = (v: unknown) => v === null || v === undefined;
      const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : (JSON.stringify(v) ?? ''));
      const cmp = (a: unknown, b: unknown) =>
        typeof a === 'number' && typeof b === 'number' ? a - b : typeof a === 'boolean' && typeof b === 'boolean' ? Number(a) - Number(b) : text(a).localeCompare(text(b));
      return [...many]
        .sort((x, y) => {
          const a = x[key], b = y[key];
          if (missing(a) || missing(b)) return missing(a) === missing(b) ? x.id - y.id : missing(a) ? 1 : -1;
          return sign * cmp(a, b) || x.id - y.id;
        })
        .map((r) => r.id);
    };
    for (const key of ['text', 'num', 'mixed'] as const)
      for (const direction of ['asc', 'desc'] as const) {
        const sorted = p.sortRows(many, key, direction);
        expect(sorted.map((r) => r.id)).toEqual(reference(key, direction));
        // reversing a sorted list gives the other direction's sort of the original rows
        expect(p.reverseSorted(sorted, key).map((r) => r.id)).toEqual(reference(key, direction === 'asc' ? 'desc' : 'asc'));
      }
    expect(p.reverseSorted([], 'id')).toEqual([]);
  });
  it('keeps the last sort of a rows array: the same sort again is the kept one, the other way is its reverse', () => {
    const list = [...rows];
    const asc = p.sortedKept(list, { key: 'name', direction: 'asc' });
    expect(ids(asc)).toEqual(ids(p.sortRows(rows, 'name', 'asc')));
    expect(p.sortedKept(list, { key: 'name', direction: 'asc' })).toBe(asc);
    expect(ids(p.sortedKept(list, { key: 'name', direction: 'desc' }))).toEqual(ids(p.sortRows(rows, 'name', 'desc')));
    expect(ids(p.sortedKept(list, { key: 'quota', direction: 'desc' }))).toEqual(ids(p.sortRows(rows, 'quota', 'desc')));
    expect(p.sortedKept(list, null)).toBe(list);
  });
  it('keeps every column sorted before: back to an earlier column is the kept sort, either way', () => {
    const list = [...rows];
    const byName = p.sortedKept(list, { key: 'name', direction: 'asc' });
    const byQuota = p.sortedKept(list, { key: 'quota', direction: 'asc' });
    expect(p.sortedKept(list, { key: 'name', direction: 'asc' })).toBe(byName);
    expect(p.sortedKept(list, { key: 'quota', direction: 'asc' })).toBe(byQuota);
    const nameDesc = p.sortedKept(list, { key: 'name', direction: 'desc' });
    expect(ids(nameDesc)).toEqual(ids(p.sortRows(rows, 'name', 'desc')));
    expect(p.sortedKept(list, { key: 'name', direction: 'desc' })).toBe(nameDesc);
    expect(p.sortedKept([...rows], { key: 'name', direction: 'asc' })).not.toBe(byName);
  });
  it('does not touch the input', () => {
    const copy = [...rows];
    p.sortRows(rows, 'id', 'desc');
    expect(rows).toEqual(copy);
  });
  it('a header click sorts ascending, the same header again reverses', () => {
    let s: p.SortState<'id' | 'name'> = null;
    s = p.toggleSort(s, 'id');
    expect(s).toEqual({ key: 'id', direction: 'asc' });
    s = p.toggleSort(s, 'id');
    expect(s).toEqual({ key: 'id', direction: 'desc' });
    s = p.toggleSort(s, 'id');
    expect(s).toEqual({ key: 'id', direction: 'asc' });
    s = p.toggleSort(s, 'name');
    expect(s).toEqual({ key: 'name', direction: 'asc' });
  });
  it('applySort follows the state', () => {
    expect(p.applySort(rows, null)).toBe(rows);
    expect(ids(p.applySort(rows, { key: 'id', direction: 'desc' }))).toEqual([4, 3, 2, 1]);
  });
  it('sorts mixed and object values by their text', () => {
    const objects = [{ v: { a: 2 } }, { v: { a: 1 } }];
    expect(p.sortRows(objects, 'v', 'asc').map((x) => x.v.a)).toEqual([1, 2]);
    const mixed: { v: string | number }[] = [{ v: 'b' }, { v: 10 }, { v: 'a' }];
    expect(p.sortRows(mixed, 'v', 'asc').map((x) => x.v)).toEqual([10, 'a', 'b']);
  });
});

describe('server order options (contract §1.8)', () => {
  it('tokens: default, remain_quota, used_quota', () => {
    expect(p.tokenOrderOptions.map((o) => o.value)).toEqual(['', 'remain_quota', 'used_quota']);
    expect(p.tokenOrderOptions.map((o) => renderMessage('zh', { key: o.labelKey }))).toEqual(['默认排序', '按剩余额度排序', '按已用额度排序']);
  });
  it('users: default, quota, used_quota, request_count', () => {
    expect(p.userOrderOptions.map((o) => o.value)).toEqual(['', 'quota', 'used_quota', 'request_count']);
    expect(renderMessage('en', { key: p.userOrderOptions[3]!.labelKey })).toBe('By request count');
  });
});
