import type { SortDirection, SortState } from './paging';
import { pageSize as defaultPageSize } from './constants';

/**
 * What a list shows, as it is kept in the address bar so that a reload or a shared link shows
 * the same view (spec §2 lists; issue: "page, sort, search and filters live in the URL").
 * `page` is 0-based here and 1-based in the URL, where people read it.
 */
export interface TableQuery {
  readonly page: number;
  readonly size: number;
  readonly sort: SortState;
  /** The server-side `order` of the list endpoint ('' = default). */
  readonly order: string;
  /** The trimmed search keyword ('' = the plain list). */
  readonly keyword: string;
  /** Client-side filters: field name -> value ('' never stored). */
  readonly filters: Readonly<Record<string, string>>;
  /**
   * Server-side parameters (`p.<name>` in the address), sent with every page fetch: name -> value
   * ('' never stored). Absent on lists whose schema has no `paramKeys`.
   */
  readonly params?: Readonly<Record<string, string>>;
}

/** What a list accepts from an address; anything else in the URL is ignored. */
export interface TableQuerySchema {
  readonly sortKeys: readonly string[];
  readonly orders: readonly string[];
  readonly filterKeys: readonly string[];
  readonly sizes: readonly number[];
  /** The server-side parameters the list accepts (`p.<name>`); absent = none. */
  readonly paramKeys?: readonly string[];
}

/** The page sizes a list offers (10 is the spec's shared constant). */
export const pageSizeOptions: readonly number[] = [defaultPageSize, 20, 50, 100];

export const defaultTableQuery: TableQuery = {
  page: 0,
  size: defaultPageSize,
  sort: null,
  order: '',
  keyword: '',
  filters: {},
};

const filterPrefix = 'f.';
const paramPrefix = 'p.';

/** Server parameters without empty values, values trimmed. */
export function cleanParams(params: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const text = value.trim();
    if (text !== '') out[key] = text;
  }
  return out;
}

/** Whether two sets of server parameters are the same (absent = none). */
export function sameParams(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  const left = a ?? {};
  const right = b ?? {};
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((k) => left[k] === right[k]);
}

const nonNegativeInt = (text: string | null): number | null => {
  if (text === null || !/^\d{1,9}$/.test(text)) return null;
  return Number(text);
};

/** Reads a query string (`?page=2&sort=name&dir=desc&q=abc&f.status=1`) against a list's schema. */
export function parseTableQuery(search: string, schema: TableQuerySchema): TableQuery {
  const params = new URLSearchParams(search);
  const page = nonNegativeInt(params.get('page'));
  const size = nonNegativeInt(params.get('size'));
  const sortKey = params.get('sort');
  const dir: SortDirection = params.get('dir') === 'desc' ? 'desc' : 'asc';
  const order = params.get('order') ?? '';
  const filters: Record<string, string> = {};
  for (const key of schema.filterKeys) {
    const value = params.get(filterPrefix + key)?.trim() ?? '';
    if (value !== '') filters[key] = value;
  }
  const serverParams: Record<string, string> = {};
  for (const key of schema.paramKeys ?? []) {
    const value = params.get(paramPrefix + key)?.trim() ?? '';
    if (value !== '') serverParams[key] = value;
  }
  return {
    page: page !== null && page >= 1 ? page - 1 : 0,
    size: size !== null && schema.sizes.includes(size) ? size : defaultTableQuery.size,
    sort: sortKey !== null && schema.sortKeys.includes(sortKey) ? { key: sortKey, direction: dir } : null,
    order: schema.orders.includes(order) ? order : '',
    keyword: (params.get('q') ?? '').trim(),
    filters,
    ...(schema.paramKeys === undefined ? {} : { params: serverParams }),
  };
}

/** The query string of a view; defaults are left out, so the plain list has an empty query. */
export function formatTableQuery(query: TableQuery): string {
  const params = new URLSearchParams();
  if (query.keyword !== '') params.set('q', query.keyword);
  if (query.order !== '') params.set('order', query.order);
  for (const key of Object.keys(query.filters).sort()) {
    const value = query.filters[key];
    if (value !== undefined && value !== '') params.set(filterPrefix + key, value);
  }
  const serverParams = query.params ?? {};
  for (const key of Object.keys(serverParams).sort()) {
    const value = serverParams[key];
    if (value !== undefined && value !== '') params.set(paramPrefix + key, value);
  }
  if (query.sort !== null) {
    params.set('sort', query.sort.key);
    if (query.sort.direction === 'desc') params.set('dir', 'desc');
  }
  if (query.size !== defaultTableQuery.size) params.set('size', String(query.size));
  if (query.page > 0) params.set('page', String(query.page + 1));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Whether a row passes the filters: the field's text equals the value, or, for comma lists
 * (channel groups and models) and arrays (channel tags), one of the items equals it.
 */
export function matchesFilters(row: object, filters: Readonly<Record<string, string>>): boolean {
  const record = row as Readonly<Record<string, unknown>>;
  for (const [key, value] of Object.entries(filters)) {
    const field = record[key];
    if (field === undefined || field === null) return false;
    if (Array.isArray(field)) {
      if (!field.some((item) => item === value)) return false;
      continue;
    }
    const text = typeof field === 'string' ? field : typeof field === 'number' || typeof field === 'boolean' ? String(field) : '';
    if (text !== value && !text.split(',').some((item) => item.trim() === value)) return false;
  }
  return true;
}
