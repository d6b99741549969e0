import { readFileSync } from 'node:fs';
import type { FetchLike } from '../../../../src/api/client';

/** Reads a recorded response body from tests/fixtures/api/ as raw text. */
export const fixture = (name: string): string =>
  readFileSync(new URL(`../../../fixtures/api/${name}`, import.meta.url), 'utf8');

/** A recorded answer: a fixture file (or raw text) with a status, or a network failure. */
export type Reply =
  | { readonly fixture: string; readonly status?: number; readonly statusText?: string }
  | { readonly text: string; readonly status?: number; readonly statusText?: string }
  | { readonly reject: unknown };

/** One request as the fake fetch saw it. */
export interface RecordedRequest {
  readonly url: string;
  readonly method: string;
  /** The path under the origin, without the query. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** The JSON body, parsed; undefined when none was sent. */
  readonly body: unknown;
  readonly credentials: RequestCredentials | undefined;
  readonly headers: Readonly<Record<string, string>>;
}

export interface RecordedFetch {
  readonly fetch: FetchLike;
  readonly requests: RecordedRequest[];
  /** The single request made so far (fails the test when there is not exactly one). */
  readonly only: () => RecordedRequest;
}

const ORIGIN = 'http://console.test';

/**
 * A fake fetch that answers from recorded fixtures. `routes` maps 'METHOD /path' (no query) to a
 * reply; `fallback` answers anything else (default: one-api's 404 for an unknown /api path).
 */
export function recordedFetch(
  routes: Readonly<Record<string, Reply>> = {},
  fallback: Reply = { fixture: 'not-found.json', status: 404, statusText: 'Not Found' },
): RecordedFetch {
  const requests: RecordedRequest[] = [];
  const fetch: FetchLike = (input, init) => {
    const url = new URL(input, ORIGIN);
    const method = init.method ?? 'GET';
    const rawBody = init.body;
    const headers = { ...(init.headers as Record<string, string> | undefined) };
    requests.push({
      url: input,
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams.entries()),
      body: typeof rawBody === 'string' ? JSON.parse(rawBody) : undefined,
      credentials: init.credentials,
      headers,
    });
    const external = url.origin !== ORIGIN;
    const key = `${method} ${external ? `${url.origin}${url.pathname}` : url.pathname}`;
    const reply = routes[key] ?? fallback;
    if ('reject' in reply) {
      const reason = reply.reject;
      // Whatever fetch's promise rejects with, Error or not.
      return (async () => {
        await Promise.resolve();
        throw reason;
      })();
    }
    const text = 'fixture' in reply ? fixture(reply.fixture) : reply.text;
    return Promise.resolve(
      new Response(text, {
        status: reply.status ?? 200,
        statusText: reply.statusText ?? '',
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      }),
    );
  };
  const only = (): RecordedRequest => {
    if (requests.length !== 1) throw new Error(`expected exactly one request, saw ${requests.length}`);
    return requests[0]!;
  };
  return { fetch, requests, only };
}
