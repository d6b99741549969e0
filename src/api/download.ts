import * as E from 'fp-ts/Either';
import type * as TE from 'fp-ts/TaskEither';
import { decodeError, httpError, networkError, type ApiError } from '../domain/apiError';
import { ABORTED, buildQuery, errorText, httpMessage, readHead, signal, snippet, type ApiClient, type Query } from './client';

/**
 * A file download through the API client (its fetch, abort signal and 401 listener), beside it
 * so that the client the first paint loads does not carry it: only the log export downloads.
 */

/** A GET whose success is a file (a streamed CSV export), not JSON. */
export interface FileSpec {
  readonly path: string;
  readonly query?: Query;
  /** The media type the file must have ('text/csv'); anything else is read as the JSON envelope. */
  readonly accept: string;
  /** The name to use when the answer has no Content-Disposition file name. */
  readonly fallbackName: string;
}

/** A downloaded file: its name (from Content-Disposition) and its bytes. */
export interface DownloadedFile {
  readonly name: string;
  readonly blob: Blob;
}

/**
 * A file download: the body as a Blob when its Content-Type is `accept`; an envelope answer
 * instead (`{"success":false,"message":…}`) is a Failure with the server's message.
 */
export const download =
  ({ baseUrl, transport }: ApiClient, spec: FileSpec): TE.TaskEither<ApiError, DownloadedFile> =>
  async () => {
    const { fetch: fetchFn, signal: abortSignal, onUnauthorized } = transport;
    const aborted = (): boolean => abortSignal?.aborted === true;
    const call = `GET ${spec.path}`;
    const url = `${baseUrl}${spec.path}${buildQuery(spec.query)}`;
    const init: RequestInit = { method: 'GET', headers: { Accept: `${spec.accept}, application/json` }, credentials: 'include' };
    if (abortSignal !== undefined) init.signal = abortSignal;
    if (aborted()) return E.left(networkError(call, ABORTED));
    let response: Response;
    try {
      response = await fetchFn(url, init);
    } catch (error) {
      return E.left(networkError(call, aborted() ? ABORTED : errorText(error)));
    }
    const type = (response.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
    try {
      if (response.ok && type === spec.accept.toLowerCase()) {
        const blob = await response.blob();
        return E.right({ name: fileNameOf(response.headers.get('Content-Disposition')) ?? spec.fallbackName, blob });
      }
      const text = await response.text();
      if (!response.ok) {
        if (response.status === 401) signal(onUnauthorized);
        return E.left(httpError(call, response.status, httpMessage(response, text)));
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return E.left(decodeError(call, `expected ${spec.accept}, got ${type === '' ? 'no content type' : type}: ${snippet(text)}`));
      }
      const head = readHead(body, call);
      if (E.isLeft(head)) return head;
      return E.left(decodeError(call, `expected ${spec.accept}, got a JSON envelope`));
    } catch (error) {
      return E.left(networkError(call, aborted() ? ABORTED : errorText(error)));
    }
  };

/** The file name of a Content-Disposition header (`filename*=UTF-8''…` first, then `filename="…"`), or null. */
export function fileNameOf(header: string | null): string | null {
  if (header === null) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended !== null) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(header);
  const name = (plain?.[1] ?? plain?.[2] ?? '').trim();
  return name === '' ? null : name;
}

