import type { TaskEither } from 'fp-ts/TaskEither';
import type { ApiClient } from '../api/client';
import { takePrimed } from '../api/primedPage';
import type { ApiError } from '../domain/apiError';
import { firstFetchOf, type FetchPageInput } from '../domain/rowAction';
import type { PrimedTableInput, TableRow } from '../machines/table';

/**
 * A list table's start input (`implement`'s `startInput`): with the rows of its first fetch when
 * the first page asked for them early and they are in (src/api/primedPage.ts), so the table's
 * first snapshot draws them. `request` is the call its `fetchPage` makes for an input, and `rows`
 * what `fetchPage` answers from that call's result (the same rows either way).
 */
export const startWithFirstPage =
  <Row extends TableRow, Raw = readonly Row[]>(
    client: ApiClient,
    request: (client: ApiClient, input: FetchPageInput) => TaskEither<ApiError, Raw>,
    rows: (input: FetchPageInput) => (raw: Raw) => readonly Row[],
  ) =>
  (input: PrimedTableInput<Row>): PrimedTableInput<Row> => {
    const first = firstFetchOf(input);
    const raw = first === null ? undefined : takePrimed<Raw>(client, (c) => request(c, first));
    return raw === undefined || first === null ? input : { ...input, firstPage: rows(first)(raw) };
  };

/** `rows` of a list whose `fetchPage` answers the server's rows as they are. */
export const asListed =
  () =>
  <Row>(raw: readonly Row[]): readonly Row[] =>
    raw;
