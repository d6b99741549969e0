import { describe, expect, it } from 'vitest';
import { pageSize } from '../../../src/domain/constants';
import {
  cleanParams,
  defaultTableQuery,
  formatTableQuery,
  matchesFilters,
  pageSizeOptions,
  parseTableQuery,
  sameParams,
  type TableQuery,
  type TableQuerySchema,
} from '../../../src/domain/tableQuery';

const schema: TableQuerySchema = {
  sortKeys: ['id', 'name', 'quota'],
  orders: ['', 'quota', 'used_quota'],
  filterKeys: ['group', 'status'],
  sizes: pageSizeOptions,
};
const parse = (search: string) => parseTableQuery(search, schema);
const query = (over: Partial<TableQuery>): TableQuery => ({ ...defaultTableQuery, ...over });

describe('table query: defaults', () => {
  it('the plain list is page 0, the shared page size, no sort, order, keyword or filters', () => {
    expect(defaultTableQuery).toEqual({ page: 0, size: pageSize, sort: null, order: '', keyword: '', filters: {} });
    expect(pageSizeOptions[0]).toBe(pageSize);
  });
  it('an empty address reads as the defaults and the defaults write as an empty address', () => {
    expect(parse('')).toEqual(defaultTableQuery);
    expect(parse('?')).toEqual(defaultTableQuery);
    expect(formatTableQuery(defaultTableQuery)).toBe('');
  });
  it('leaves every default out of the address', () => {
    expect(formatTableQuery(query({ page: 0, size: pageSize, sort: null, order: '', keyword: '', filters: { group: '' } }))).toBe('');
    expect(formatTableQuery(query({ sort: { key: 'name', direction: 'asc' } }))).toBe('?sort=name');
    expect(formatTableQuery(query({ size: 20 }))).toBe('?size=20');
  });
});

describe('table query: pages are 1-based in the address', () => {
  it('reads page=N as index N-1', () => {
    expect(parse('?page=1').page).toBe(0);
    expect(parse('?page=3').page).toBe(2);
    expect(parse('?page=120').page).toBe(119);
  });
  it('writes index N as page=N+1', () => {
    expect(formatTableQuery(query({ page: 2 }))).toBe('?page=3');
    expect(formatTableQuery(query({ page: 1 }))).toBe('?page=2');
  });
  it('page 0 is never written', () => {
    expect(formatTableQuery(query({ page: 0, keyword: 'a' }))).toBe('?q=a');
  });
});

describe('table query: round trips', () => {
  const views: TableQuery[] = [
    defaultTableQuery,
    query({ page: 4 }),
    query({ size: 50, page: 1 }),
    query({ sort: { key: 'quota', direction: 'desc' } }),
    query({ sort: { key: 'name', direction: 'asc' }, page: 2 }),
    query({ order: 'used_quota' }),
    query({ keyword: 'gpt-4 turbo' }),
    query({ keyword: '渠道 & 分组=vip?', filters: { group: 'default,vip' } }),
    query({ filters: { status: '1', group: 'vip' } }),
    query({ page: 2, size: 20, sort: { key: 'id', direction: 'desc' }, order: 'quota', keyword: 'a+b', filters: { group: 'svip', status: '2' } }),
  ];
  it.each(views.map((v) => [formatTableQuery(v), v] as const))('%s reads back as the same view', (text, view) => {
    expect(parse(text)).toEqual(view);
  });
  it('formats a parsed address canonically (sorted filters, defaults dropped, unknowns gone)', () => {
    const text = '?page=1&f.status=1&junk=1&q=%20x%20&f.group=vip&size=10&dir=asc&sort=name';
    expect(formatTableQuery(parse(text))).toBe('?q=x&f.group=vip&f.status=1&sort=name');
    expect(formatTableQuery(parse(formatTableQuery(parse(text))))).toBe(formatTableQuery(parse(text)));
  });
  it('keeps the sort direction only when it is descending', () => {
    expect(formatTableQuery(query({ sort: { key: 'id', direction: 'desc' } }))).toBe('?sort=id&dir=desc');
    expect(parse('?sort=id&dir=desc').sort).toEqual({ key: 'id', direction: 'desc' });
    expect(parse('?sort=id').sort).toEqual({ key: 'id', direction: 'asc' });
  });
  it('reads the parameters in any order, with the leading ? or without', () => {
    expect(parse('dir=desc&sort=quota&page=2')).toEqual(parse('?page=2&sort=quota&dir=desc'));
  });
});

describe('table query: only what the list accepts', () => {
  it('ignores unknown sort keys, and a direction without a key', () => {
    expect(parse('?sort=password').sort).toBeNull();
    expect(parse('?sort=').sort).toBeNull();
    expect(parse('?dir=desc').sort).toBeNull();
    expect(parse('?sort=NAME').sort).toBeNull();
  });
  it('reads any direction other than desc as ascending', () => {
    expect(parse('?sort=name&dir=DESC').sort).toEqual({ key: 'name', direction: 'asc' });
    expect(parse('?sort=name&dir=sideways').sort).toEqual({ key: 'name', direction: 'asc' });
  });
  it('ignores unknown orders', () => {
    expect(parse('?order=quota').order).toBe('quota');
    expect(parse('?order=id;drop table users').order).toBe('');
    expect(parse('?order=').order).toBe('');
  });
  it('ignores page sizes the list does not offer', () => {
    expect(parse('?size=20').size).toBe(20);
    expect(parse('?size=100').size).toBe(100);
    for (const size of ['7', '0', '1000', '-10', '20.0', '2e1', 'x', '']) expect(parse(`?size=${size}`).size).toBe(pageSize);
  });
  it('keeps filters of the schema only, trimmed, and drops empty ones', () => {
    expect(parse('?f.group=%20vip%20&f.secret=1&group=x&f.status=').filters).toEqual({ group: 'vip' });
    expect(parse('?f.status=%20%20').filters).toEqual({});
    expect(parse('?f.group=default,vip').filters).toEqual({ group: 'default,vip' });
  });
  it('trims the keyword', () => {
    expect(parse('?q=%20%20gpt%20%20').keyword).toBe('gpt');
    expect(parse('?q=+gpt+4+').keyword).toBe('gpt 4');
    expect(parse('?q=%20').keyword).toBe('');
  });
  it('leaves an empty filter value out of the address', () => {
    expect(formatTableQuery(query({ filters: { group: '', status: '1' } }))).toBe('?f.status=1');
  });
});

describe('table query: hostile addresses', () => {
  it.each([
    ['a huge page', '?page=99999999999999999999', 0],
    ['a ten-digit page', '?page=1000000000', 0],
    ['the largest accepted page', '?page=999999999', 999999998],
    ['a negative page', '?page=-3', 0],
    ['page zero', '?page=0', 0],
    ['a fraction', '?page=2.5', 0],
    ['an exponent', '?page=1e3', 0],
    ['hex', '?page=0x10', 0],
    ['letters', '?page=two', 0],
    ['padding', '?page=%202', 0],
    ['a plus sign', '?page=%2B2', 0],
    ['Infinity', '?page=Infinity', 0],
    ['NaN', '?page=NaN', 0],
    ['empty', '?page=', 0],
    ['leading zeros', '?page=003', 2],
  ])('%s reads as a valid page index', (_, text, page) => {
    const q = parse(text);
    expect(q.page).toBe(page);
    expect(Number.isSafeInteger(q.page) && q.page >= 0).toBe(true);
  });
  it('takes the first of repeated parameters', () => {
    expect(parse('?page=2&page=5').page).toBe(1);
    expect(parse('?q=a&q=b').keyword).toBe('a');
  });
  it('survives percent-encoded junk and odd keys', () => {
    expect(parse('?%E0%A4%A=1&q=%F0%9F%98%80&f.=1&f.group.x=1&__proto__=1&f.constructor=1')).toEqual(query({ keyword: '😀' }));
  });
  it('escapes what it writes so it reads back the same', () => {
    const view = query({ keyword: 'a&page=9#x', filters: { group: 'x=y&z' } });
    const text = formatTableQuery(view);
    expect(text).not.toContain('page=9&');
    expect(parse(text)).toEqual(view);
  });
});

describe('matchesFilters', () => {
  const channel = { id: 3, name: 'main', status: 1, group: 'default, vip', models: 'gpt-4o,gpt-4o-mini', weight: 0, auto_ban: true, base_url: null };
  it('no filters match every row', () => {
    expect(matchesFilters(channel, {})).toBe(true);
  });
  it('compares plain values as text', () => {
    expect(matchesFilters(channel, { status: '1' })).toBe(true);
    expect(matchesFilters(channel, { status: '2' })).toBe(false);
    expect(matchesFilters(channel, { weight: '0' })).toBe(true);
    expect(matchesFilters(channel, { auto_ban: 'true' })).toBe(true);
    expect(matchesFilters(channel, { name: 'main' })).toBe(true);
    expect(matchesFilters(channel, { name: 'mai' })).toBe(false);
  });
  it('matches one item of a comma list, trimmed, never a part of one', () => {
    expect(matchesFilters(channel, { group: 'vip' })).toBe(true);
    expect(matchesFilters(channel, { group: 'default' })).toBe(true);
    expect(matchesFilters(channel, { group: 'default, vip' })).toBe(true);
    expect(matchesFilters(channel, { group: 'vi' })).toBe(false);
    expect(matchesFilters(channel, { models: 'gpt-4o' })).toBe(true);
    expect(matchesFilters(channel, { models: 'gpt-4' })).toBe(false);
  });
  it('needs every filter to match', () => {
    expect(matchesFilters(channel, { group: 'vip', status: '1' })).toBe(true);
    expect(matchesFilters(channel, { group: 'vip', status: '2' })).toBe(false);
  });
  it('a missing or null field never matches', () => {
    expect(matchesFilters(channel, { type: '1' })).toBe(false);
    expect(matchesFilters(channel, { base_url: 'null' })).toBe(false);
    expect(matchesFilters(channel, { base_url: '' })).toBe(false);
  });
  it('an object field matches nothing but the empty text', () => {
    expect(matchesFilters({ id: 1, config: { a: 1 } }, { config: '[object Object]' })).toBe(false);
  });
});

describe('table query: server parameters (p.<name>)', () => {
  const withParams: TableQuerySchema = { ...schema, paramKeys: ['model_name', 'type'] };
  it('reads only the schema’s parameters, trimmed, without empty values; lists without parameters have none', () => {
    expect(parseTableQuery('?p.model_name=%20gpt-4o%20&p.type=&p.other=1', withParams).params).toEqual({ model_name: 'gpt-4o' });
    expect(parseTableQuery('', withParams)).toEqual({ ...defaultTableQuery, params: {} });
    expect(parse('?p.model_name=x').params).toBeUndefined();
  });
  it('writes them sorted and round-trips', () => {
    const view = query({ params: { type: '2', model_name: 'gpt 4&o' }, page: 1 });
    expect(formatTableQuery(view)).toBe('?p.model_name=gpt+4%26o&p.type=2&page=2');
    expect(parseTableQuery(formatTableQuery(view), withParams)).toEqual(view);
    expect(formatTableQuery(query({ params: { type: '' } }))).toBe('');
  });
  it('cleanParams trims and drops empty values; sameParams compares them (absent = none)', () => {
    expect(cleanParams({ a: ' x ', b: ' ', c: '' })).toEqual({ a: 'x' });
    expect(sameParams(undefined, {})).toBe(true);
    expect(sameParams({ a: '1' }, { a: '1' })).toBe(true);
    expect(sameParams({ a: '1' }, { a: '2' })).toBe(false);
    expect(sameParams({ a: '1' }, { b: '1' })).toBe(false);
    expect(sameParams({ a: '1' }, {})).toBe(false);
  });
});
