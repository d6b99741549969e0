import { stringify } from 'csv-stringify/sync';
import * as t from 'io-ts';
import type { Kysely } from 'kysely';
import type { Database, LogRow } from '../db/schema';
import { applyFilter, goInt, isSatisfiable, QueryString, type LogFilter } from './log';

/**
 * The streamed CSV export of the logs (`GET /api/log/export`, `/api/log/self/export`): the whole
 * filtered result of the list, newest first, read in keyset batches (`id < last id`) and written
 * as produced, so memory stays flat however many rows match; the reading stops when the client
 * goes away. Last row: the totals of the token and quota columns.
 */

type Db = Kysely<Database>;

/** Rows per keyset batch. */
export const exportBatchSize = 2_000;

/**
 * A query integer of the export: missing or empty → 0 (no filter), an integer parsed like the list
 * does, anything else refused (the export answers `invalid_parameter` before streaming anything).
 */
export const ExportInt = new t.Type<number, string, unknown>(
  'ExportInt',
  (u): u is number => typeof u === 'number',
  (u, c) =>
    u === undefined || u === ''
      ? t.success(0)
      : typeof u === 'string' && /^[+-]?\d+$/.test(u)
        ? t.success(goInt(u))
        : t.failure(u, c),
  (n) => String(n),
);

/** The export's query: the list's filters (no `p`), integers checked strictly. */
export const LogExportQuery = t.type({
  type: ExportInt,
  start_timestamp: ExportInt,
  end_timestamp: ExportInt,
  username: QueryString,
  token_name: QueryString,
  model_name: QueryString,
  channel: ExportInt,
});
export type LogExportQuery = t.TypeOf<typeof LogExportQuery>;

/** Which columns a file has: admins see ids and channels, users do not (like the self list). */
export type ExportVariant = 'admin' | 'self';

const adminColumns = [
  'id', 'created_at', 'time', 'type', 'username', 'token_name', 'model_name',
  'prompt_tokens', 'completion_tokens', 'quota', 'channel', 'elapsed_time', 'is_stream', 'content',
] as const;

/** The header row of `variant`. */
export const exportColumns = (variant: ExportVariant): readonly string[] =>
  variant === 'admin' ? adminColumns : adminColumns.filter((c) => c !== 'id' && c !== 'channel');

/** `2026-11-23T10:00:00Z` for unix seconds `s`. */
export function isoSeconds(s: number): string {
  const date = new Date(s * 1000);
  return Number.isNaN(date.getTime()) ? '' : `${date.toISOString().slice(0, 19)}Z`;
}

/** `logs-YYYYMMDD-HHmmss.csv` for the server time `nowMs` (UTC). */
export function exportFileName(nowMs: number): string {
  const iso = new Date(nowMs).toISOString();
  return `logs-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}.csv`;
}

/** The cells of one log row. */
function cellsOf(row: LogRow, variant: ExportVariant): string[] {
  const createdAt = row.created_at ?? 0;
  const cells: Record<(typeof adminColumns)[number], string> = {
    id: String(row.id),
    created_at: String(createdAt),
    time: isoSeconds(createdAt),
    type: String(row.type ?? 0),
    username: row.username ?? '',
    token_name: row.token_name ?? '',
    model_name: row.model_name ?? '',
    prompt_tokens: String(row.prompt_tokens ?? 0),
    completion_tokens: String(row.completion_tokens ?? 0),
    quota: String(row.quota ?? 0),
    channel: String(row.channel_id ?? 0),
    elapsed_time: String(row.elapsed_time ?? 0),
    is_stream: row.is_stream === true || Number(row.is_stream) === 1 ? 'true' : 'false',
    content: row.content ?? '',
  };
  return exportColumns(variant).map((c) => cells[c as keyof typeof cells]);
}

/** The totals row: `total` in the first column, sums under the token and quota columns. */
function totalsRow(variant: ExportVariant, sums: { prompt: number; completion: number; quota: number }): string[] {
  return exportColumns(variant).map((c, i) =>
    i === 0 ? 'total' : c === 'prompt_tokens' ? String(sums.prompt) : c === 'completion_tokens' ? String(sums.completion) : c === 'quota' ? String(sums.quota) : '',
  );
}

/** One keyset batch: the next `exportBatchSize` logs of `f` below `beforeId`, newest first. */
export function exportBatch(db: Db, f: LogFilter, beforeId: number | null): Promise<LogRow[]> {
  let query = applyFilter(db.selectFrom('logs').selectAll(), f, true);
  if (beforeId !== null) query = query.where('id', '<', beforeId);
  return query.orderBy('id', 'desc').limit(exportBatchSize).execute();
}

/** Observers of the reading (tests and the bench count batches). */
export interface ExportHooks {
  readonly onBatch?: (rows: number) => void;
  readonly onEnd?: (outcome: 'complete' | 'stopped') => void;
}

/**
 * The CSV body (UTF-8 BOM, header row, CRLF line ends) of the logs matching `f`, pulled by the HTTP
 * response: one keyset batch is read and encoded (csv-stringify) only when the previous chunk has
 * been taken, so at most about two batches are held whatever the size of the result; cancelling the
 * stream (client disconnect) ends the reading.
 */
export function exportLogsCsv(db: Db, f: LogFilter, variant: ExportVariant, hooks: ExportHooks = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const sums = { prompt: 0, completion: 0, quota: 0 };
  const csv = (records: string[][], first: boolean): Uint8Array =>
    encoder.encode(
      stringify(records, { bom: first, header: first, columns: first ? [...exportColumns(variant)] : undefined, record_delimiter: 'windows' }),
    );
  let beforeId: number | null = null;
  let first = true;
  let finished = false;
  const finish = (outcome: 'complete' | 'stopped') => {
    if (finished) return;
    finished = true;
    hooks.onEnd?.(outcome);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (finished) return;
        const rows = isSatisfiable(f) && (first || beforeId !== null) ? await exportBatch(db, f, beforeId) : [];
        if (finished) return; // cancelled while reading
        hooks.onBatch?.(rows.length);
        const records = rows.map((row) => {
          sums.prompt += Number(row.prompt_tokens ?? 0);
          sums.completion += Number(row.completion_tokens ?? 0);
          sums.quota += Number(row.quota ?? 0);
          return cellsOf(row, variant);
        });
        const last = rows[rows.length - 1];
        const more = rows.length === exportBatchSize && last !== undefined;
        beforeId = more ? last.id : null;
        if (!more) records.push(totalsRow(variant, sums));
        controller.enqueue(csv(records, first));
        first = false;
        if (!more) {
          finish('complete');
          controller.close();
        }
      },
      cancel() {
        finish('stopped');
      },
    },
    { highWaterMark: 1 },
  );
}
