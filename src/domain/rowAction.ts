import type { Message, NoticeLevel } from './message';
import type { TableQuery } from './tableQuery';

/**
 * The contract between a list (the table machine) and what acts on its rows. The composition
 * root maps each action name of a list to API calls; the machine only names the action.
 */

/** One action on one row (toggle, delete, test, priority …); `value` is its argument ('' if none). */
export interface RowActionInput<Row> {
  readonly action: string;
  readonly row: Row;
  readonly value: string;
}

/**
 * What a row action did: the row as the server has it now, or fields to merge, or that the row
 * is gone; `message` is shown as a toast (single actions only, not in bulk runs), a success
 * unless `level` says otherwise (an action whose answer is a failure the row shows, e.g. a
 * channel test that ran and failed).
 */
export interface RowActionOutcome<Row> {
  readonly row?: Row;
  readonly patch?: Partial<Row>;
  readonly removed?: boolean;
  readonly message?: Message;
  readonly level?: NoticeLevel;
}

/** `fetchPage`: one page of the plain list (`GET …/?p=&order=`). */
export interface FetchPageInput {
  readonly page: number;
  readonly order: string;
  /**
   * The list's server-side parameters (the table's fixed `baseParams` and the query's `params`),
   * present only on lists that have any (e.g. the log filters).
   */
  readonly params?: Readonly<Record<string, string>>;
}

/** `fetchPage`'s input for server page `page` of a list viewed as `query`: `params` only on lists that have server parameters. */
export const pageInputOf = (page: number, query: TableQuery, baseParams: Readonly<Record<string, string>> | undefined): FetchPageInput => {
  const base = { page, order: query.order };
  if (baseParams === undefined && query.params === undefined) return base;
  return { ...base, params: { ...baseParams, ...query.params } };
};

/**
 * The first `fetchPage` input of a list table started on `query` (and its fixed `baseParams`), or
 * null when its first load is a search (a keyword in the address): what a first page's early
 * answer must have been asked with.
 */
export const firstFetchOf = (start: { readonly query: TableQuery; readonly baseParams?: Readonly<Record<string, string>> }): FetchPageInput | null =>
  start.query.keyword === '' ? pageInputOf(0, start.query, start.baseParams) : null;

/** `searchRows`: the search endpoint (`GET …/search?keyword=`), all matches at once. */
export interface SearchRowsInput {
  readonly keyword: string;
  readonly order: string;
}

/** `exportRows`: copy or download the selected rows; the output is the toast to show, if any. */
export interface ExportRowsInput<Row> {
  readonly format: string;
  readonly rows: readonly Row[];
}
