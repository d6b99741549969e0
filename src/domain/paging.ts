import { pageSize as defaultPageSize } from './constants';

/**
 * one-api's "load more" paging (contract §5.6), with 0-based page indexes throughout (the server's
 * `p` is the same index). The server never returns a total: every fetched row is kept in one
 * array; page i shows rows [i×size, (i+1)×size). When the last loaded page is full (including
 * "nothing loaded yet") the pager offers one more page; moving to it fetches `p = i` and puts
 * the rows in place. A short page means the end was reached. Column sorting is client-side.
 */

/** Pages the pager shows: ceil(rows/size), plus one when the last page is full (or rows is 0). */
export const pageCount = (rowsLoaded: number, size: number = defaultPageSize): number =>
  Math.ceil(rowsLoaded / size) + (rowsLoaded % size === 0 ? 1 : 0);

/** The rows of page `page` (0-based). */
export const pageSlice = <T>(rows: readonly T[], page: number, size: number = defaultPageSize): readonly T[] =>
  rows.slice(page * size, (page + 1) * size);

/**
 * Whether moving to `page` must fetch it first: it is the page right after the loaded rows,
 * which the pager offers only when the last loaded page was full (or nothing is loaded yet).
 */
export const shouldLoadMore = (page: number, rowsLoaded: number, size: number = defaultPageSize): boolean =>
  rowsLoaded % size === 0 && page === rowsLoaded / size;

/** Whether `page` can be shown: it exists among the pages the pager offers. */
export const isPageInRange = (page: number, rowsLoaded: number, size: number = defaultPageSize): boolean =>
  Number.isInteger(page) && page >= 0 && page < pageCount(rowsLoaded, size);

/** Appends a freshly loaded page to the rows already loaded. */
export const appendPage = <T>(rows: readonly T[], newRows: readonly T[]): readonly T[] => [...rows, ...newRows];

/**
 * Puts page `page`'s rows in place: page 0 replaces everything (a reload), a later page
 * replaces the rows at its offset (appending when it is the next one).
 */
export function mergePage<T>(rows: readonly T[], page: number, newRows: readonly T[], size: number = defaultPageSize): readonly T[] {
  if (page === 0) return [...newRows];
  const start = page * size;
  return [...rows.slice(0, start), ...newRows, ...rows.slice(start + newRows.length)];
}

export type SortDirection = 'asc' | 'desc';

/** The client-side column sort: a key and a direction, or none. */
export type SortState<K extends string = string> = { readonly key: K; readonly direction: SortDirection } | null;

/** A header click: a new column sorts ascending, the same column again reverses. */
export const toggleSort = <K extends string>(state: SortState<K>, key: K): SortState<K> =>
  state !== null && state.key === key ? { key, direction: state.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: 'asc' };

/** The text a value sorts by when it is not a number. */
function sortText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v) ?? '';
}

/** Text order: `localeCompare`'s (the default locale), through one collator instead of one per call. */
let textOrder: ((a: string, b: string) => number) | null = null;
const compareText = (a: string, b: string): number => (textOrder ??= new Intl.Collator().compare)(a, b);

const isMissing = (v: unknown): boolean => v === null || v === undefined;

/** Numbers compare numerically, other values as text (both present). */
function comparePresent(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return compareText(sortText(a), sortText(b));
}

/**
 * A stable sort of rows by one field (ties keep their order; missing values always last). The
 * field is read once per row, text values are made once, and a column of numbers compares as
 * numbers without the general comparison (a list of 10,000 rows sorts in one comparison per pair).
 */
export function sortRows<T, K extends keyof T>(rows: readonly T[], key: K, direction: SortDirection): readonly T[] {
  const sign = direction === 'asc' ? 1 : -1;
  const present: number[] = [];
  const missing: number[] = [];
  const values: unknown[] = new Array(rows.length);
  let numbers = true;
  let texts = true;
  rows.forEach((row, i) => {
    const v = row[key];
    if (isMissing(v)) {
      missing.push(i);
      return;
    }
    present.push(i);
    numbers &&= typeof v === 'number';
    texts &&= typeof v !== 'number' && typeof v !== 'boolean';
    values[i] = v;
  });
  if (texts) for (const i of present) values[i] = sortText(values[i]);
  const compare: (a: unknown, b: unknown) => number = numbers
    ? (a, b) => (a as number) - (b as number)
    : texts
      ? (a, b) => compareText(a as string, b as string)
      : comparePresent;
  present.sort((x, y) => sign * compare(values[x], values[y]) || x - y);
  return [...present, ...missing].map((i) => rows[i]!);
}

/**
 * Rows sorted by `key` (by `sortRows`, either way), sorted the other way: the runs of equal
 * values in reverse order, each run (and the missing values, still last) keeping its order. The
 * same rows as `sortRows` of the original rows in the other direction, in one comparison per row.
 */
export function reverseSorted<T, K extends keyof T>(sorted: readonly T[], key: K): readonly T[] {
  let end = sorted.length;
  while (end > 0 && isMissing(sorted[end - 1]![key])) end--;
  const out: T[] = [];
  let runEnd = end;
  for (let i = end - 1; i >= 0; i--) {
    if (i === 0 || comparePresent(sorted[i - 1]![key], sorted[i]![key]) !== 0) {
      for (let j = i; j < runEnd; j++) out.push(sorted[j]!);
      runEnd = i;
    }
  }
  for (let j = end; j < sorted.length; j++) out.push(sorted[j]!);
  return out;
}

/** Rows sorted by a SortState (unchanged when there is none). */
export const applySort = <T, K extends keyof T & string>(rows: readonly T[], state: SortState<K>): readonly T[] =>
  state === null ? rows : sortRows(rows, state.key, state.direction);

/**
 * The sorts asked of each rows array (gone with it), by column then direction: a sort of 10,000
 * rows by a text column is the costliest step of a header click, and a filter changed or cleared,
 * a column clicked again, or a column sorted before (header A, then B, then A again) needs no new
 * one. The rows arrays are never changed in place.
 */
const sortsKept = new WeakMap<readonly object[], Map<string, Partial<Record<SortDirection, readonly object[]>>>>();

/**
 * `rows` sorted by `sort` (as `applySort`), kept with the rows: a sort asked before is the kept
 * one, a column kept the other way is that one reversed (`reverseSorted`).
 */
export function sortedKept<T extends object>(rows: readonly T[], sort: SortState): readonly T[] {
  if (sort === null) return rows;
  let byKey = sortsKept.get(rows);
  if (byKey === undefined) sortsKept.set(rows, (byKey = new Map<string, Partial<Record<SortDirection, readonly object[]>>>()));
  let kept = byKey.get(sort.key);
  if (kept === undefined) byKey.set(sort.key, (kept = {}));
  const had = kept[sort.direction];
  if (had !== undefined) return had as readonly T[];
  const records = (r: readonly object[]): readonly Record<string, unknown>[] => r as readonly Record<string, unknown>[];
  const other = kept[sort.direction === 'asc' ? 'desc' : 'asc'];
  const sorted = other !== undefined ? reverseSorted(records(other), sort.key) : applySort(records(rows), sort);
  kept[sort.direction] = sorted;
  return sorted as readonly T[];
}

/** The label keys of the server-side orders. */
export type OrderLabelKey = `domain.order.${'default' | 'remainQuota' | 'usedQuota' | 'requestCount'}`;

/** A server-side `order` option of a list, with its label key. */
export interface OrderOption {
  readonly value: string;
  readonly labelKey: OrderLabelKey;
}

/** Token list `order` values (contract §1.8). */
export const tokenOrderOptions: readonly OrderOption[] = [
  { value: '', labelKey: 'domain.order.default' },
  { value: 'remain_quota', labelKey: 'domain.order.remainQuota' },
  { value: 'used_quota', labelKey: 'domain.order.usedQuota' },
];

/** User list `order` values (contract §1.8). */
export const userOrderOptions: readonly OrderOption[] = [
  { value: '', labelKey: 'domain.order.default' },
  { value: 'quota', labelKey: 'domain.order.remainQuota' },
  { value: 'used_quota', labelKey: 'domain.order.usedQuota' },
  { value: 'request_count', labelKey: 'domain.order.requestCount' },
];
